"""Kop as a game of the suite: dealing, the observation encoder, action names and text.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default; it writes the observation and the mask in C) and the pure-Python reference
(``engine.py`` with the encoder below, ``engine="python"``). The choice is not a rule: records
and ``rules.to_dict()`` do not mention it.

The reference observation is built as one ``bytes`` string of small integers turned into
float32 by a single numpy multiply with a per-entry scale (Koira's trick: numpy calls, not
arithmetic, dominate at this size). Card blocks are ``bytes.translate`` of the engine's ``loc`` (own
hand, trick, won piles) and ``by`` (who played what) bytearrays, so no Python loop runs over
the cards. Everything is seat-relative: "player r" is r seats after the observer.

Every hand opens with a declaration round in which each seat acts once, from the leader: the
turn order never depends on who holds the black queens, and a silent holder's turn looks like
anybody's pass, so the other seats' observations cannot tell whether it exists.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any

import numpy as np

from ...core import events
from ...core.encoding import code_table, exact_past_a_byte, one_hot, one_hots, seat_one_hots
from ...core.game import Game, action_index, choose_engine
from ...core.text import dealt_hands, hand_and_moves, result_line
from . import SPEC
from .cards import JACKS_HIGH_FIRST, NUM_CARDS, SUIT_OF, TOTAL_POINTS, card_id, card_name
from .engine import (
    CALL,
    DECLARE,
    HAND,
    NUM_ACTIONS,
    OVER,
    PLAYERS,
    SILENT,
    SOLO,
    TRICK,
    WON,
    State,
    action_name,
)
from .rules import Rules, make_rules

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)


def _fields(rules: Rules) -> list[tuple[str, int, float]]:
    """(name, size, scale) of every observation field, in vector order."""
    vc_cap = 4 * rules.victory_cards + 6  # above any count a game can reach (RULES.md)
    return [
        ("cards_mine", NUM_CARDS, 1.0),
        *((f"cards_played_{r}", NUM_CARDS, 1.0) for r in range(PLAYERS)),
        *((f"cards_won_{r}", NUM_CARDS, 1.0) for r in range(PLAYERS)),
        ("cards_trick", NUM_CARDS, 1.0),
        ("cards_last_trick", NUM_CARDS, 1.0),
        ("trick_leader", PLAYERS, 1.0),
        ("trick_winner", PLAYERS, 1.0),
        ("led_suit", 3, 1.0),
        ("declaring", PLAYERS, 1.0),
        ("call", 2, 1.0),
        ("caller", PLAYERS, 1.0),
        ("called_jack", 4, 1.0),
        ("my_choice", 2, 1.0),
        ("points", PLAYERS, 1.0 / TOTAL_POINTS),
        ("victory_cards", PLAYERS, 1.0 / vc_cap),
        ("hand_no", 1, 1.0 / rules.max_hands),
    ]


@lru_cache(maxsize=8192)
def _cards_block(cards: tuple[int, ...]) -> bytes:
    """A 16-entry block with 1 at each of ``cards`` (the last trick: few distinct tuples)."""
    block = bytearray(NUM_CARDS)
    for card in cards:
        block[card] = 1
    return bytes(block)


class KopGame(Game):
    """Kop under one ``Rules``; build it with ``make_game``.

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    state_class = State
    deck_size = NUM_CARDS

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        super().__init__(rules, NUM_ACTIONS, _fields(rules))
        self.engine = engine = engine_name(engine)
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
        else:
            self.compiled = None
            self.state_class = State
        self._hand_no = [bytes((k,)) for k in range(256)]
        self._hand_tables = [code_table({HAND + s}) for s in range(PLAYERS)]
        self._won_tables = [
            [code_table({WON + (s + r) % PLAYERS}) for r in range(PLAYERS)] + [code_table({TRICK})]
            for s in range(PLAYERS)
        ]
        self._by_tables = [
            [code_table({(s + r) % PLAYERS}) for r in range(PLAYERS)] for s in range(PLAYERS)
        ]
        self._seat_one_hot = seat_one_hots(PLAYERS)
        self._suit_one_hot = one_hots(3)
        self._jack_one_hot = {j: one_hot(4, i) for i, j in enumerate(JACKS_HIGH_FIRST)}
        self._jack_one_hot[-1] = bytes(4)
        self._call_one_hot = {CALL: b"\x01\x00", SOLO: b"\x00\x01", -1: bytes(2)}
        self._no_choice = bytes(2 + PLAYERS + 4 + 2)  # call .. my_choice: nobody chooses
        self._rotate = [itemgetter(*[(s + r) % PLAYERS for r in range(PLAYERS)]) for s in range(4)]

    # ------------------------------------------------------------------ states

    card_name = staticmethod(card_name)
    card_id = staticmethod(card_id)

    def action_name(self, action: int) -> str:
        return action_name(action_index(action, self.num_actions))

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of what ``seat`` may know (``observation_layout``)."""
        loc = state.loc.translate
        one_hot = self._seat_one_hot[seat]
        rot = self._rotate[seat]
        trick = state.trick
        parts = [loc(self._hand_tables[seat])]
        parts += map(state.by.translate, self._by_tables[seat])
        parts += map(loc, self._won_tables[seat])
        vc = rot(state.vc)
        parts += (
            _cards_block(state.tricks[-1][1] if state.tricks else ()),
            one_hot[state.trick_leader],
            one_hot[state.best_seat],
            self._suit_one_hot[SUIT_OF[trick[0]] if trick else -1],
            one_hot[state.current if state.phase == DECLARE else -1],
            self._no_choice if state.decider < 0 else self._choice(state, seat),
            bytes(rot(state.points)),
            bytes(vc) if min(vc) >= 0 else bytes(max(v, 0) for v in vc),
            self._hand_no[state.hand_no] if state.hand_no < 256 else b"\xff",
        )
        obs = np.frombuffer(b"".join(parts), np.uint8) * self._scale
        return exact_past_a_byte(obs, state.hand_no, self.rules.max_hands)

    def _choice(self, state: State, seat: int) -> bytes:
        """call .. my_choice: a public call or solo, and the seat's own pending or silent
        choice (a silence, like a choice still to come, is nobody else's knowledge)."""
        call = state.decision if state.decision in (CALL, SOLO) else -1
        deciding = state.phase == DECLARE and seat == state.current == state.decider
        mine = (deciding, state.public_call(seat) == SILENT)
        return b"".join(
            (
                self._call_one_hot[call],
                self._seat_one_hot[seat][state.decider if call >= 0 else -1],
                self._jack_one_hot[state.called_jack if call >= 0 else -1],
                bytes(mine),
            )
        )

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        """The table as ``seat`` sees it: public play, calls it knows of and its own hand."""
        view = state.view(seat)
        vc = ", ".join(f"player_{p} {v}" for p, v in enumerate(view.victory_cards))
        head = f"{self.title} - hand {view.hand_no + 1}, led by player_{view.leader}"
        lines = [head, f"Victory cards: {vc}"]
        if view.declaring >= 0:
            lines.append(f"Declarations, from player_{view.leader}: player_{view.declaring} next")
        if view.call == "call":
            lines.append(f"player_{view.caller} called the holder of {card_name(view.called_jack)}")
        elif view.call == "solo":
            lines.append(f"player_{view.caller} plays solo")
        elif view.call == "silent":
            lines.append("You hold both black queens and stay silent: a secret solo")
        for lead, cards, winner in view.tricks:
            played = " ".join(
                f"{card_name(c)}(p{(lead + i) % PLAYERS})" for i, c in enumerate(cards)
            )
            lines.append(f"Trick: {played} -> player_{winner}")
        if view.trick:
            lines.append("Trick now: " + " ".join(f"{card_name(c)}(p{p})" for p, c in view.trick))
        lines.append("Points taken: " + ", ".join(f"p{p} {v}" for p, v in enumerate(view.points)))
        lines += hand_and_moves(self, seat, map(card_name, view.hand), view.legal)
        if state.phase == OVER:
            lines.append(result_line(state, state.hand_no + 1))
        return "\n".join(lines)

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == "deal":
            return f"Hand {event['hand'] + 1}, player_{event['leader']} leads. {dealt_hands(event)}"
        if kind == "declare":
            who = f"player_{event['player']}"
            if event["choice"] == "call":
                return f"{who} (both black queens) calls the holder of {event['jack']}"
            if event["choice"] == "solo":
                return f"{who} (both black queens) plays solo"
            if event["choice"] == "silent":
                return f"{who} passes (secretly: both black queens, a silent solo)"
            return f"{who} passes"
        if kind == events.TRICK:
            return f"player_{event['winner']} takes {' '.join(event['cards'])} ({event['points']})"
        if kind == "hand_end":
            sides = event["side"]
            queens = ", ".join(f"player_{p}" for p in range(PLAYERS) if sides[p] == 0)
            pts = event["points"]
            result = (
                "52-52: nobody wins"
                if event["winner"] is None
                else f"{'black queens' if event['winner'] == 0 else 'the others'} win"
            )
            return (
                f"Hand {event['hand'] + 1}: black queens' side ({queens}) {pts[0]}, "
                f"others {pts[1]}; {result}; victory cards {event['victory_cards']}"
            )
        return super().describe_event(event)


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, "Kop", None if _compiled is not None else _COMPILED_ERROR)


def make_game(num_players: int = 4, engine: str | None = None, **options: Any) -> KopGame:
    """A ``KopGame``; ``ValueError`` for a bad player count or option. ``engine``:
    ``"compiled"`` (the default when built) or ``"python"`` (the reference)."""
    return KopGame(make_rules(num_players, **options), engine)
