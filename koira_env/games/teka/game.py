"""Teka as a game of the suite: the observation encoder, card and action names, and text.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default; it writes the observation and the mask in C) and the pure-Python reference
(``engine.py`` with the encoder below, ``engine="python"``). The choice is not a rule: records
and ``rules.to_dict()`` do not mention it. The compiled core writes the turn features too
(``_turns.pxi``, the rows of ``turns.py``).

The reference observation is built as one ``bytes`` string of small integers turned into
float32 by a single numpy multiply with a per-entry scale (Koira's trick: numpy calls, not
arithmetic, dominate at this size). Card blocks are ``bytes.translate`` of the engine's ``loc`` (own
hand, current trick) and ``by`` (who played what) bytearrays, so no Python loop runs over the
cards. Everything is seat-relative: "player r" is r seats after the observer.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, ClassVar

import numpy as np

from ... import cards as std
from ...cards import NUM_CARDS
from ...core import events
from ...core.encoding import code_table, exact_past_a_byte, one_hot, one_hots, seat_one_hots
from ...core.game import Game, action_index, choose_engine
from ...core.text import dealt_hands, hand_and_moves, result_line
from . import SPEC
from .engine import (
    BEHI_TER,
    BID,
    DOUBLE,
    HAND,
    MIN_BID,
    NOBODY,
    NUM_ACTIONS,
    OVER,
    PASS,
    PLAYERS,
    SUIT_WORDS,
    TER,
    TRICK,
    State,
    action_name,
    beats,
)
from .rules import Rules, make_rules
from .turns import TURN_FEATURES, turn_features

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)

CALL_CODES = (PASS, TER, BEHI_TER, *range(BID, DOUBLE), DOUBLE)  # a seat's call block, in order


def _fields(rules: Rules) -> list[tuple[str, int, float]]:
    """(name, size, scale) of every observation field, in vector order."""
    return [
        ("cards_mine", 52, 1.0),
        *((f"cards_played_{r}", 52, 1.0) for r in range(PLAYERS)),
        ("cards_trick", 52, 1.0),
        ("cards_winning", 52, 1.0),
        ("cards_master", 52, 1.0),
        ("trick_leader", PLAYERS, 1.0),
        ("trick_winner", PLAYERS, 1.0),
        ("led_suit", 4, 1.0),
        ("phase", 4, 1.0),
        ("dealer", PLAYERS, 1.0),
        *((f"call_{r}", len(CALL_CODES), 1.0) for r in range(PLAYERS)),
        ("declarer", PLAYERS, 1.0),
        ("contract", 6, 1.0),
        ("double", 1, 1.0),
        ("trump", 4, 1.0),
        ("tricks_won", PLAYERS, 1.0 / 13),
        ("tricks_needed", 2, 1.0 / 13),
        ("scores", 2, 1.0 / (rules.target + 52)),
        ("hand_no", 1, 1.0 / rules.max_hands),
    ]


class TekaGame(Game):
    """Teka under one ``Rules``; build it with ``make_game``.

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    deck_size = std.NUM_CARDS

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        super().__init__(rules, NUM_ACTIONS, _fields(rules))
        self.engine = engine = engine_name(engine)
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
            self.turn_features = self.compiled.turn_features  # type: ignore[method-assign]
        else:
            self.compiled = None
            self.state_class = State
        self._hand_tables = [code_table({HAND + s}) for s in range(PLAYERS)]
        self._trick_table = code_table({TRICK})
        self._unseen_tables = [
            code_table({HAND + p for p in range(PLAYERS) if p != s}) for s in range(PLAYERS)
        ]
        self._by_tables = [
            [code_table({(s + r) % PLAYERS}) for r in range(PLAYERS)] for s in range(PLAYERS)
        ]
        # per observer: a seat's one-hot (index PLAYERS, and -1 via NOBODY, give zeros)
        self._seat_one_hot = seat_one_hots(PLAYERS)
        self._suit_one_hot = one_hots(4)
        self._phase_one_hot = one_hots(4)
        blocks = {code: one_hot(len(CALL_CODES), i) for i, code in enumerate(CALL_CODES)}
        self._call_block = {**blocks, -1: bytes(len(CALL_CODES))}
        # contract + double: nothing yet, bids 8..13 (raised or not), double thirteen
        self._contract = [bytes(7), *(one_hot(7, b - MIN_BID) for b in range(MIN_BID, 15))]
        self._hand_no = [bytes((k,)) for k in range(256)]
        self._rotate = [itemgetter(*((s + r) % PLAYERS for r in range(PLAYERS))) for s in range(4)]

    # ------------------------------------------------------------------ states

    card_name = staticmethod(std.card_name)
    card_id = staticmethod(std.card_id)

    def action_name(self, action: int) -> str:
        return action_name(action_index(action, self.num_actions))

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of what ``seat`` may know (``observation_layout``): the
        reference encoder, of either engine's states (the compiled core has its own,
        ``self.compiled.observation``, which replaces this method on a compiled game)."""
        one_hot = self._seat_one_hot[seat]
        rot = self._rotate[seat]
        loc = state.loc.translate
        trick = state.trick
        side = seat % 2
        mine = loc(self._hand_tables[seat])
        parts = [mine]
        parts += map(state.by.translate, self._by_tables[seat])
        parts += (
            loc(self._trick_table),
            _winning(state, seat) if trick else _NO_CARDS,
            _masters(mine, loc(self._unseen_tables[seat])),
            one_hot[state.leader if trick else NOBODY],
            one_hot[state.best_seat],
            self._suit_one_hot[trick[0] // 13 if trick else -1],
            self._phase_one_hot[state.phase if state.phase < OVER else -1],
            one_hot[state.dealer],
        )
        parts += map(self._call_block.__getitem__, rot(state.calls))
        parts += (
            one_hot[state.declarer],
            self._contract[0 if state.declarer < 0 else 7 if state.double else state.contract - 7],
            self._suit_one_hot[state.trump],
            bytes(rot(state.won)),
            _needed(state, side),
            bytes((state.scores[side], state.scores[1 - side])),
            self._hand_no[state.hand_no] if state.hand_no < 256 else b"\xff",
        )
        obs = np.frombuffer(b"".join(parts), np.uint8) * self._scale
        return exact_past_a_byte(obs, state.hand_no, self.rules.max_hands)

    turn_feature_size = TURN_FEATURES

    def turn_features(self, state: State, seat: int, legal: Sequence[int]) -> np.ndarray:
        """One row per action of ``legal`` (``turns.py``): what it does to the trick and the
        contract, from ``seat``'s view only: the reference writer, on either engine's states;
        on a compiled game ``self.compiled.turn_features`` (the same rows written in C)
        replaces this method."""
        return turn_features(state.view(seat), self.rules, legal)

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        """The table as ``seat`` sees it: the auction, the play, the score and its own hand."""
        view = state.view(seat)
        head = f"{self.title} - hand {view.hand_no + 1}, dealt by player_{view.dealer}"
        lines = [head, f"Points: players 0+2 {view.scores[0]}, players 1+3 {view.scores[1]}"]
        said = [
            f"p{p} {action_name(view.calls[p])}"
            for p in ((view.first + i) % PLAYERS for i in range(PLAYERS))
            if view.calls[p] >= 0
        ]
        if said:
            lines.append("Auction: " + ", ".join(said))
        if view.declarer >= 0 and view.trump >= 0:
            what = "double 13 (alone)" if view.double else f"{view.contract} tricks"
            lines.append(
                f"Contract: player_{view.declarer}, {what}, trumps {SUIT_WORDS[view.trump]}"
            )
        for lead, cards, winner in view.tricks[-3:]:
            lines.append(f"Trick: {_played(state, lead, cards)} -> player_{winner}")
        if view.trick:
            lines.append(
                "Trick now: " + " ".join(f"{std.card_name(c)}(p{p})" for p, c in view.trick)
            )
        if view.declarer >= 0 and view.phase == "play":
            lines.append("Tricks: " + ", ".join(f"p{p} {w}" for p, w in enumerate(view.won)))
        lines += hand_and_moves(self, seat, map(std.card_name, view.hand), view.legal)
        if state.phase == OVER:
            lines.append(result_line(state, state.hand_no + 1))
        return "\n".join(lines)

    event_text: ClassVar[dict[str, str]] = {
        "ask": "player_{player}: {choice}",
        "call": "player_{player} calls {call}",
        "throw_in": "Everybody passed: the hand is thrown in",
        "trump": "player_{player} names {suit} trumps",
        "raise": "player_{player} raises the contract to {contract}",
        # the scores are the two sides' points, not one per seat
        events.GAME_OVER: "Game over: places {places}, the sides' points {scores}",
    }

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == "deal":
            dealer = f"player_{event['dealer']}"
            return f"Hand {event['hand'] + 1}, dealt by {dealer}. {dealt_hands(event)}"
        if kind == "redeal":
            who = ", ".join(f"player_{p}" for p in event["players"])
            return f"No ace, king, queen or jack for {who}: a new deal"
        if kind == events.TRICK:
            return f"player_{event['winner']} takes {' '.join(event['cards'])}"
        if kind == "hand_end":
            side = "players 0+2" if event["declarer"] % 2 == 0 else "players 1+3"
            what = "double 13" if event["double"] else f"{event['contract']}"
            result = "made" if event["made"] else "failed"
            return (
                f"Hand {event['hand'] + 1}: {side} bid {what}, took {event['tricks']}: {result}; "
                f"points {event['points']}, total {event['scores']}"
            )
        return super().describe_event(event)


_NO_CARDS = bytes(NUM_CARDS)
_ZEROS = [bytes(k) for k in range(14)]


def _winning(state: State, seat: int) -> bytes:
    """``cards_winning``: the cards of ``seat``'s hand that would take the trick being played
    as it stands (``beats`` the card now winning it: the engine's one trick rule)."""
    block = bytearray(NUM_CARDS)
    best, trump = state.best, state.trump
    for card in state.hands[seat]:
        if beats(card, best, trump):
            block[card] = 1
    return bytes(block)


def _masters(mine: bytes, unseen: bytes) -> bytes:
    """``cards_master``: the cards of my hand (``mine``, a 0/1 byte per card) that no card in
    another hand (``unseen``, the same) beats in their suit: those above the suit's highest
    unseen card. Unrolled by suit (a loop costs half as much again)."""
    c = unseen.rfind(1, 0, 13) + 1  # where each suit's masters may start
    d = unseen.rfind(1, 13, 26) + 1 or 13
    h = unseen.rfind(1, 26, 39) + 1 or 26
    s = unseen.rfind(1, 39, 52) + 1 or 39
    z = _ZEROS
    return b"".join(
        (z[c], mine[c:13], z[d - 13], mine[d:26], z[h - 26], mine[h:39], z[s - 39], mine[s:])
    )


def _needed(state: State, side: int) -> bytes:
    """``tricks_needed``: (my side's, the other side's) tricks still needed to make or beat
    the contract (``State.tricks_to_go``), from the declaring side's pair."""
    to_make, to_beat = state.tricks_to_go()
    return bytes((to_make, to_beat) if state.declarer % 2 == side else (to_beat, to_make))


def _played(state: State, lead: int, cards: Sequence[int]) -> str:
    """A finished trick as ``"AS(p1) 2S(p2) ..."``, seats in play order."""
    parts = []
    p = lead
    for card in cards:
        parts.append(f"{std.card_name(card)}(p{p})")
        p = state.next_seat(p)
    return " ".join(parts)


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, "Teka", None if _compiled is not None else _COMPILED_ERROR)


def make_game(num_players: int = 4, engine: str | None = None, **options: Any) -> TekaGame:
    """A ``TekaGame``; ``ValueError`` for a bad player count or option. ``engine``:
    ``"compiled"`` (the default when built) or ``"python"`` (the reference)."""
    return TekaGame(make_rules(num_players, **options), engine)
