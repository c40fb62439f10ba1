"""Whist 22 as a ``Game`` of the suite: the rule set, deck parsing, observation and text.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default; it writes the observation and the mask in C) and the pure-Python reference
(``engine.py`` with the encoder below, ``engine="python"``). The choice is not a rule: records
and ``rules.to_dict()`` do not mention it.

The reference observation is built as one ``bytes`` string of small integers turned into
float32 by a single numpy multiply with a per-entry scale (numpy calls, not arithmetic,
dominate at this size). The card blocks are ``bytes.translate`` of the engine's ``loc``
bytearray through per-seat tables, so no Python loop runs over the cards. Everything is
seat-relative: "player r" is the player r seats after the observer (r = 0 is the observer).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, ClassVar

import numpy as np

from ...core import events
from ...core.encoding import code_table, one_hot, one_hots, seat_one_hots
from ...core.game import Game, action_index, choose_engine
from ...core.text import dealt_hands, result_line
from . import SPEC, engine
from .engine import (
    BID,
    BIDDING,
    FOOL_HIGH,
    HAND,
    NUM_CARDS,
    OVER,
    PLAYED,
    TRICK,
    State,
    card_id,
    card_name,
)
from .rules import Rules, make_rules

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)

HAND_NUMBER_CAP = 255  # the observation's hand number saturates here


def hand_cycle(rules: Rules) -> tuple[int, ...]:
    """The hand sizes of one cycle, from the largest (as many as deal evenly) down and up."""
    top = NUM_CARDS // rules.num_players
    down = list(range(top, 0, -1))
    if rules.hand_sequence == "repeat_ends":
        return (*down, *down[::-1])
    return (*down, *down[-2:0:-1])


def _fields(n: int, top: int, start_score: int) -> list[tuple[str, int, float]]:
    """(name, size, scale) of every observation field, in vector order."""
    return [
        ("hand", NUM_CARDS, 1.0),
        *[(f"played_{r}", NUM_CARDS, 1.0) for r in range(n)],
        *[(f"trick_{r}", NUM_CARDS, 1.0) for r in range(n)],
        ("fool_declared", 2, 1.0),
        ("bids", n * (top + 1), 1.0),
        ("tricks_won", n, 1.0 / top),
        ("scores", n, 1.0 / start_score),
        ("hand_size", top, 1.0),
        ("next_hand_size", top, 1.0),
        ("tricks_played", 1, 1.0 / top),
        ("dealer", n, 1.0),
        ("leader", n, 1.0),
        ("phase", 2, 1.0),
        ("hand_number", 1, 1.0 / HAND_NUMBER_CAP),
    ]


class WhistGame(Game):
    """Whist 22 at one table size under one rule set (see RULES.md, section Whist 22).

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    deck_size: ClassVar[int] = NUM_CARDS

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        n = rules.num_players
        self.max_hand = top = NUM_CARDS // n
        super().__init__(rules, BID + top + 1, _fields(n, top, rules.start_score))
        self.engine = engine = engine_name(engine)
        self.cycle = hand_cycle(rules)
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
        else:
            self.compiled = None
            self.state_class = State
        # Per seat: translate tables for the card blocks (own hand, then every player's
        # finished tricks and current trick, seat-relative) and the relative player order.
        self._tables = []
        self._rotate = []
        for s in range(n):
            rot = [(s + r) % n for r in range(n)]
            self._tables.append(
                [code_table({HAND + s})]
                + [code_table({PLAYED + p}) for p in rot]
                + [code_table({TRICK + p}) for p in rot]
            )
            self._rotate.append(itemgetter(*rot))
        # [seat][p]: one-hot of player p relative to seat; no "nobody" block, as index -1
        # stands for the last seat (the dealer of a hand that player_0 leads)
        self._player = [row[:n] for row in seat_one_hots(n)]
        self._bid = one_hots(top + 1)  # index -1 (not yet bid): the all-zero block
        self._fool = {-1: b"\x00\x00", 0: b"\x01\x00", FOOL_HIGH: b"\x00\x01"}
        sizes = self.cycle
        self._sizes = [  # hand_size and next_hand_size, by position in the cycle
            one_hot(top, size - 1) + one_hot(top, sizes[(k + 1) % len(sizes)] - 1)
            for k, size in enumerate(sizes)
        ]
        self._no_hand = bytes(2 * top + 1 + 2 * n)
        self._phase = [b"\x01\x00", b"\x00\x01", b"\x00\x00"]
        self._byte = [bytes((i,)) for i in range(256)]

    def hand_size(self, hand: int) -> int:
        """Cards each player gets in hand number ``hand`` (0-based)."""
        return self.cycle[hand % len(self.cycle)]

    # ------------------------------------------------------------------ states

    card_name = staticmethod(card_name)
    card_id = staticmethod(card_id)

    def action_name(self, action: int) -> str:
        return engine.action_name(action_index(action, self.num_actions))

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of what ``seat`` may know (``observation_layout``): the
        reference encoder, of either engine's states (the compiled core has its own,
        ``self.compiled.observation``, which replaces this method on a compiled game)."""
        where = state.loc.translate
        rot = self._rotate[seat]
        player = self._player[seat]
        byte = self._byte
        parts = list(map(where, self._tables[seat]))
        parts.append(self._fool[state.fool])
        parts += map(self._bid.__getitem__, rot(state.bids))
        parts.append(bytes(rot(state.won)))
        if state.phase == OVER:  # scores may be below zero now; the hand fields are zeros
            parts += (bytes([max(s, 0) for s in rot(state.scores)]), self._no_hand)
        else:
            parts += (
                bytes(rot(state.scores)),
                self._sizes[state.hand_no % len(self.cycle)],
                byte[state.tricks_played],
                player[state.first - 1],  # the dealer (index -1: the last seat)
                player[state.leader],
            )
        parts += (self._phase[state.phase], byte[min(state.hand_no, HAND_NUMBER_CAP)])
        return np.frombuffer(b"".join(parts), np.uint8) * self._scale

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        """The table as ``seat`` sees it: public memory and that seat's hand only."""
        n = self.num_players
        names = [f"player_{p}" for p in range(n)]
        over = state.phase == OVER
        number = state.hand_no if over else state.hand_no + 1  # over: hand_no hands played
        lines = [
            f"{self.title} ({n} players) - hand {number}, {state.size} card(s) "
            f"each, dealer {names[state.dealer]}",
            "scores: " + ", ".join(f"{names[p]} {state.scores[p]}" for p in range(n)),
        ]
        if not over or state.bids_made:
            lines.append(
                "bids:   "
                + ", ".join(
                    f"{names[p]} {'-' if b < 0 else b} (won {state.won[p]})"
                    for p, b in enumerate(state.bids)
                )
            )
        if state.trick:
            lines.append("trick:  " + ", ".join(f"{names[p]} {_value(v)}" for p, v in state.trick))
        done = [p for p in range(n) if state.played[p]]
        if done:
            lines.append(
                "played: "
                + "; ".join(
                    f"{names[p]} " + " ".join(card_name(c) for c in state.played[p]) for p in done
                )
            )
        lines.append(
            f"{names[seat]} holds: " + (" ".join(map(card_name, state.hands[seat])) or "-")
        )
        if over:
            lines.append(result_line(state, state.hand_no))
        else:
            what = "bid" if state.phase == BIDDING else "play"
            lines.append(f"to {what}: {names[state.current]}")
        return "\n".join(lines)

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == "deal":
            return (
                f"hand {event['hand'] + 1}: player_{event['dealer']} deals {event['size']} "
                f"card(s) each ({dealt_hands(event)}); aside: {' '.join(event['aside']) or '-'}"
            )
        if kind == "play":
            return f"player_{event['player']} plays {_value(event['value'])}"
        if kind == events.TRICK:
            return f"player_{event['winner']} wins the trick with {_value(event['value'])}"
        if kind == events.HAND_END:
            return "scores after the hand: " + ", ".join(
                f"player_{p} {s} (bid {b}, won {t}, lost {lost})"
                for p, (s, b, t, lost) in enumerate(
                    zip(event["scores"], event["bids"], event["tricks"], event["lost"], strict=True)
                )
            )
        return super().describe_event(event)


def _value(value: int) -> str:
    """A played card as its value: the Fool with its declared value."""
    return engine.action_name(value) if value in (0, FOOL_HIGH) else str(value)


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, "Whist 22", None if _compiled is not None else _COMPILED_ERROR)


def make_game(num_players: int = 4, engine: str | None = None, **options: Any) -> WhistGame:
    """Whist 22 for ``num_players`` (3 or 4) with any options of ``Rules``. ``engine``:
    ``"compiled"`` (the default when built) or ``"python"`` (the reference)."""
    return WhistGame(make_rules(num_players, **options), engine)
