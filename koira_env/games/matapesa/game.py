"""Mätäpesä as a game of the suite: the ``Game`` at one table size, the observation encoder,
action names and text.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default; it writes the observation and the mask in C) and the pure-Python reference
(``engine.py``, the rules as RULES.md explains them, with the encoder below,
``engine="python"``). The choice is not a rule: records and ``rules.to_dict()`` do not
mention it.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ...cards import NUM_CARDS, RANK_OF, RANKS, card_id, card_name
from ...core import events
from ...core.deck import hand_deck
from ...core.encoding import one_hots, seat_one_hots
from ...core.game import Game, action_index, choose_engine
from ...core.text import hand_and_moves
from . import SPEC
from .engine import COUNT_SCALE, MAX_HAND, NUM_RANKS, PLAYED, MatapesaView, State
from .rules import Rules, deck_cards, make_rules

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)


class MatapesaGame(Game):
    """Mätäpesä at one table size: 52 cards (or the deck options' part of them), as many
    tricks as cards each, the last trick's winner loses.

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    deck_size = NUM_CARDS
    max_decks = 1

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        n = rules.num_players
        super().__init__(rules, NUM_RANKS, _fields(n))
        self.engine = engine = engine_name(engine)
        cards = deck_cards(rules)
        if len(cards) < NUM_CARDS:
            self.deck_size = len(cards)
            self.deck_cards = cards
        self.hand_size = self.num_tricks = len(cards) // n
        self.follow_highest = rules.follow == "highest"
        self.lowest_anytime = rules.lowest_anytime
        self.tie_last = rules.tie_winner == "last"
        # Encoder tables. one_hot[seat][p] is seat-relative; index -1 (p = -1) is all zeros.
        self._one_hot = seat_one_hots(n)
        self._rank_one_hot = one_hots(NUM_RANKS)
        self._rotate = [operator.itemgetter(*[(s + r) % n for r in range(n)]) for s in range(n)]
        # trick_offset[seat][loc code of a played card]: where its rank row starts
        self._trick_offset = [
            [0] * PLAYED + [((p - s) % n) * NUM_RANKS for p in range(n)] for s in range(n)
        ]
        self._trick_zeros = bytearray(n * NUM_RANKS)
        self._byte = [bytes((i,)) for i in range(256)]
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
        else:
            self.compiled = None
            self.state_class = State

    # ------------------------------------------------------------------ states
    def new_state(
        self, deck: Sequence[Any] | None = None, *, seed: Any = None, log: bool = False
    ) -> State:
        ids = [] if deck is None else self.parse_deck(deck)
        hand_deck(ids, seed, 0, self.deck_size)  # shuffles the deck from the seed if none given
        if deck is None and self.deck_cards is not None:
            ids = [self.deck_cards[i] for i in ids]
        return self.state_class(self, ids, seed, log)

    def card_name(self, card: int) -> str:
        return card_name(card)

    def card_id(self, name: str) -> int:
        return card_id(name)

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector (layout in ``observation_layout`` and RULES.md): rank counts
        of the seat's hand, of every seat's played cards, of the left-over and the unseen
        cards, then the trick, all seat-relative; one ``bytes`` join and one multiply. The
        reference encoder, of the reference engine's states (the compiled core has its own,
        ``self.compiled.observation``, which replaces this method on a compiled game)."""
        rot = self._rotate[seat]
        one_hot = self._one_hot[seat]
        mine = state.counts[seat]
        trick = self._trick_zeros[:]
        offset = self._trick_offset[seat]
        loc = state.loc
        plays = state.plays
        for k in range(state.trick_start, len(plays)):
            card = plays[k]
            trick[offset[loc[card]] + RANK_OF[card]] = 1
        left = self.num_tricks - state.tricks_done
        parts = [mine, *rot(state.played)]
        parts += (
            state.out_counts,
            bytes(map(operator.sub, state.in_hands, mine)),
            trick,
            self._rank_one_hot[state.need],
            one_hot[state.winner],
            one_hot[state.leader],
            one_hot[-1] if state.loser >= 0 else one_hot[state.current],
            bytes(rot(state.hand_sizes)),
            self._byte[left],
            b"\x01" if left == 1 else b"\x00",
        )
        return np.frombuffer(b"".join(parts), np.uint8) * self._scale

    def action_name(self, action: int) -> str:
        return RANKS[action_index(action, self.num_actions)]

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        v = state.view(seat)
        n = self.num_players
        lines = [f"{self.title}, {n} players: " + _status(v)]
        lines.append("Out of play: " + (_cards(v.out_of_play) or "none"))
        for p in range(n):
            won = f", {v.tricks_won[p]} trick{'s' * (v.tricks_won[p] != 1)} won"
            played = _cards(v.played[p]) or "-"
            lines.append(f"player_{p}: {v.hand_sizes[p]} in hand{won}; played {played}")
        if v.trick:
            plays = ", ".join(f"player_{p} {card_name(c)}" for p, c in v.trick)
            reach = f"; to reach: {RANKS[v.to_reach]}" if v.to_reach >= 0 else ""
            lines.append(f"Trick (led by player_{v.leader}): {plays}{reach}")
        lines += hand_and_moves(self, seat, map(card_name, v.hand), v.legal)
        return "\n".join(lines)

    event_text: ClassVar[dict[str, str]] = {
        events.GAME_OVER: "player_{loser} won the last trick with {card} and loses"
    }

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == "out_of_play":
            return "out of play, face up: " + (" ".join(event["cards"]) or "none")
        if kind == events.TRICK:
            cards = " ".join(event["cards"])
            return f"player_{event['player']} wins trick {event['trick']} ({cards})"
        return super().describe_event(event)

    def end_info(self, state: State) -> dict[str, Any]:
        info = super().end_info(state)
        if state.loser >= 0:
            info["loser"] = f"player_{state.loser}"
        return info


def _status(v: MatapesaView) -> str:
    if v.loser >= 0:
        return f"game over, player_{v.loser} won the last trick and loses"
    who = f"player_{v.seat} to play" if v.legal else "waiting"
    return f"trick {v.trick_number + 1} of {v.num_tricks}, {who}"


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _fields(n: int) -> list[tuple[str, int, float]]:
    """(name, size, scale) of every observation field, in vector order; "_r" is the player
    r seats after the observer."""
    fields = [("hand_ranks", NUM_RANKS, COUNT_SCALE)]
    fields += [(f"played_ranks_{r}", NUM_RANKS, COUNT_SCALE) for r in range(n)]
    fields += [
        ("out_of_play_ranks", NUM_RANKS, COUNT_SCALE),
        ("unseen_ranks", NUM_RANKS, COUNT_SCALE),
    ]
    fields += [(f"trick_rank_{r}", NUM_RANKS, 1.0) for r in range(n)]
    return [
        *fields,
        ("to_reach", NUM_RANKS, 1.0),
        ("trick_winner", n, 1.0),
        ("leader", n, 1.0),
        ("current_player", n, 1.0),
        ("hand_sizes", n, 1.0 / MAX_HAND),
        ("tricks_left", 1, 1.0 / MAX_HAND),
        ("last_trick", 1, 1.0),
    ]


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, SPEC.title, None if _compiled is not None else _COMPILED_ERROR)


def make_game(num_players: int = 4, engine: str | None = None, **options: Any) -> MatapesaGame:
    """The registry's entry point: validated rules at a table size. ``engine``:
    ``"compiled"`` (the default when built) or ``"python"`` (the reference)."""
    return MatapesaGame(make_rules(num_players, **options), engine)
