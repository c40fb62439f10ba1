"""Dois as a game of the suite: the rule set, deck parsing, the observation encoder and text.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default; it writes the observation and the mask in C) and the pure-Python reference
(``engine.py`` with the encoder below, ``engine="python"``). The choice is not a rule: records
and ``rules.to_dict()`` do not mention it.

The reference observation is built as one ``bytes`` string of small integers turned into
float32 by a single numpy multiply with a per-entry scale (numpy calls, not arithmetic,
dominate at this size): card counts are the engine's bytearrays as they are, and everything
else comes from tables built once per game, but for the derived fields card play needs
(``_need``, ``_trick``: the latter asks the engine's ``trick_winner``). Everything is seat-relative:
"player r" is the player r seats after the observer (r = 0 is the observer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, ClassVar

import numpy as np

from ...core import events
from ...core.encoding import Field, one_hot, one_hots, seat_one_hots
from ...core.game import Game, action_index, choose_engine
from ...core.table import legend_line
from ...core.text import dealt_hands, result_line
from . import SPEC, cards
from .cards import (
    COPIES,
    DECK_SIZE,
    KIND_NAMES,
    NUM_KINDS,
    NUM_NUMBERS,
    NUM_SUITS,
    SUITS,
    card_id,
    card_name,
    kind_names,
    number_of,
    suit_words,
)
from .engine import (
    BIDDING,
    FIRST,
    NUM_ACTIONS,
    OVER,
    PLAYING,
    TRICKS,
    State,
    action_name,
    dealing_decks,
    trick_winner,
)
from .rules import Rules, make_rules
from .table import FACES

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)

VOID_BITS = NUM_SUITS + 1  # per player: the four suits, then "no number card"


def _fields(n: int, hands: int) -> list[Field]:
    """(name, size, scale) of every observation field, in vector order."""
    per_kind = [1.0 / c for c in COPIES]
    most = TRICKS * hands  # no score can pass this, either way
    return [
        ("hand", NUM_KINDS, per_kind),
        *((f"shows_{r}", NUM_KINDS, 1.0) for r in range(n)),
        ("played", NUM_KINDS, per_kind),
        *((f"voids_{r}", VOID_BITS, 1.0) for r in range(1, n)),
        ("trump", NUM_SUITS, 1.0),
        ("trumps_seen", NUM_SUITS, 1.0),
        ("lead", NUM_SUITS, 1.0),
        ("leader", n, 1.0),
        ("played_in_trick", n, 1.0),
        ("dealer", n, 1.0),
        *((f"bid_{r}", TRICKS + 1, 1.0) for r in range(n)),
        ("won", n, 1.0 / TRICKS),
        ("score_plus", n, 1.0 / most),
        ("score_minus", n, 1.0 / most),
        ("tricks_played", 1, 1.0 / TRICKS),
        ("hand_no", 1, 1.0 / hands),
        ("phase", 3, 1.0),
        # derived, for card play (a network finds differences and comparisons hard to learn)
        ("need", 3, 1.0),
        ("need_count", 2, 1.0 / TRICKS),
        ("takes", NUM_KINDS, 1.0),
        ("holds", NUM_KINDS, 1.0),
    ]


class DoisGame(Game):
    """Dois at one table size under one rule set (see RULES.md, section Dois).

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    state_class = State
    deck_size: ClassVar[int] = DECK_SIZE

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        n = rules.num_players
        super().__init__(rules, NUM_ACTIONS, _fields(n, rules.hands))
        self.engine = engine = engine_name(engine)
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
        else:
            self.compiled = None
            self.state_class = State
        # shows: per (suit + 1, number): the suit one-hot then the number one-hot
        self._shows = [
            [
                one_hot(NUM_SUITS, s - 1) + one_hot(NUM_NUMBERS, v - 1)
                for v in range(NUM_NUMBERS + 1)
            ]
            for s in range(NUM_SUITS + 1)
        ]
        self._voids = [bytes((m >> b) & 1 for b in range(VOID_BITS)) for m in range(1 << VOID_BITS)]
        self._suit = one_hots(NUM_SUITS)
        self._seen = [bytes((m >> s) & 1 for s in range(NUM_SUITS)) for m in range(1 << NUM_SUITS)]
        self._seat = seat_one_hots(n)  # [seat][p]: one-hot of player p relative to seat
        self._in_trick = [  # [seat][leader][k]: flags of the first k players from the leader
            [[self._done(s, lead, k) for k in range(n + 1)] for lead in range(n)] for s in range(n)
        ]
        self._bid = one_hots(TRICKS + 1)
        self._rotate = [itemgetter(*[(s + r) % n for r in range(n)]) for s in range(n)]
        self._others = [itemgetter(*[(s + r) % n for r in range(1, n)]) for s in range(n)]
        self._phase = one_hots(3)  # bid, first, play; over
        self._byte = [bytes((i,)) for i in range(256)]
        self._short_exact_over = one_hots(3)
        self._no_trick = bytes(2 * NUM_KINDS)

    def _done(self, seat: int, leader: int, k: int) -> bytes:
        n = self.num_players
        done = {(leader + i) % n for i in range(k)}
        return bytes(1 if (seat + r) % n in done else 0 for r in range(n))

    # ------------------------------------------------------------------ states

    def dealing_decks(
        self, state: State, sampled: State, decks: list[int], rng: random.Random
    ) -> list[int] | None:
        """This hand's decks given kinds that deal the hands of ``sampled`` (views show kinds;
        a hand may be dealt from several decks): ``engine.dealing_decks``."""
        return dealing_decks(state, sampled, decks, rng)

    def parse_deck(self, deck: Sequence[Any]) -> list[int]:
        """Names or ids, whole decks of 68; a repeated name is the next copy of that card."""
        return cards.parse_deck(deck)

    card_name = staticmethod(card_name)
    card_id = staticmethod(card_id)

    def action_name(self, action: int) -> str:
        return action_name(action_index(action, NUM_ACTIONS))

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of what ``seat`` may know (``observation_layout``)."""
        rot = self._rotate[seat]
        shows = self._shows
        suits, numbers = rot(state.suit), rot(state.number)
        parts = [bytes(state.hands[seat])]
        parts += [shows[s + 1][v] for s, v in zip(suits, numbers, strict=True)]
        parts.append(bytes(state.played))
        parts += map(self._voids.__getitem__, self._others[seat](state.void))
        seen = 0
        for s in state.trumps_seen:
            seen |= 1 << s
        scores = rot(state.scores)
        parts += (
            self._suit[state.trump],
            self._seen[seen],
            self._suit[state.lead],
            self._seat[seat][state.leader],
            self._in_trick[seat][state.leader][state.in_trick],
            self._seat[seat][state.dealer],
        )
        parts += map(self._bid.__getitem__, rot(state.public_bids(seat)))
        parts += (
            bytes(rot(state.won)),
            bytes(s if s > 0 else 0 for s in scores),
            bytes(-s if s < 0 else 0 for s in scores),
            self._byte[state.tricks_played],
            self._byte[state.hand_no],
            self._phase[state.phase],
            *self._need(state.bids[seat], state.won[seat]),
            self._trick(state, seat),
        )
        return np.frombuffer(b"".join(parts), np.uint8) * self._scale

    def _need(self, bid: int, won: int) -> tuple[bytes, bytes]:
        """``need`` and ``need_count``: the observer's own bid less its tricks taken, as
        short / exact / over and the tricks short and over (zeros before it has bid)."""
        if bid < 0:
            return self._short_exact_over[-1], b"\0\0"
        if won < bid:
            return self._short_exact_over[0], bytes((bid - won, 0))
        return self._short_exact_over[1 if won == bid else 2], bytes((0, won - bid))

    def _trick(self, state: State, seat: int) -> bytes:
        """``takes`` and ``holds``: per card kind ``seat`` may play now, whether the show it
        makes would take the trick (``trick_winner``) against the players who have played to
        it, and also against those still to play as they show now. Zeros unless ``seat`` is to
        play a card, and for a show without a number yet (the first trick's suit card)."""
        if state.current != seat or state.phase not in (FIRST, PLAYING):
            return self._no_trick
        n = self.num_players
        leader, trump = state.leader, state.trump
        suits, numbers = state.suit[:], state.number[:]
        mine_suit, mine_number = suits[seat], numbers[seat]
        # for ``takes``: the players still to play (after seat) show nothing
        later = range(state.in_trick + 1, n)
        played = suits[:]
        for i in later:
            played[(leader + i) % n] = -1
        flags = bytearray(2 * NUM_KINDS)
        for kind in state.legal_actions():
            if kind < NUM_SUITS:
                suit, number = kind, mine_number
            else:
                suit, number = mine_suit, number_of(kind)
            if not number:
                continue
            suits[seat] = played[seat] = suit
            numbers[seat] = number
            if trick_winner(suits, numbers, leader, trump) == seat:
                flags[kind] = flags[NUM_KINDS + kind] = 1  # holding it, it takes it
            elif later and trick_winner(played, numbers, leader, trump) == seat:
                flags[kind] = 1
        return bytes(flags)

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        """The table as ``seat`` sees it: public play and that seat's hand only."""
        view = state.view(seat)
        n = self.num_players
        over = state.phase == OVER
        number = min(view.hand_no + 1, self.rules.hands)
        lines = [
            f"{self.title} ({n} players) - hand {number} of {self.rules.hands}, "
            f"dealer player_{view.dealer}, trump {suit_words(view.trump)}",
            "scores: " + ", ".join(f"player_{p} {s}" for p, s in enumerate(view.scores)),
            "bids:   "
            + ", ".join(
                f"player_{p} {'-' if b < 0 else b} (won {view.won[p]})"
                for p, b in enumerate(view.bids)
            ),
        ]
        for p, counts in view.shown:
            lines.append(f"player_{p} showed {' '.join(kind_names(counts))} and drew a new hand")
        if view.suits[0] >= 0 or view.numbers[0]:
            lines.append(
                "shows:  "
                + ", ".join(f"player_{p} {_show(view.suits[p], view.numbers[p])}" for p in range(n))
            )
        if not over and view.phase != "bid":
            done = [(view.leader + i) % n for i in range(view.in_trick)]
            lead = f", lead suit {suit_words(view.lead)}" if view.lead >= 0 else ""
            lines.append(
                f"trick {view.trick_no + 1} of {TRICKS}, led by player_{view.leader}{lead}; "
                f"played: {', '.join(f'player_{p}' for p in done) or '-'}"
            )
        hand = " ".join(KIND_NAMES[k] for k in view.hand)
        lines.append(f"player_{seat} holds: {hand or '-'}")
        lines.append(legend_line(FACES))
        if over:
            lines.append(result_line(state, state.hand_no))
        else:
            what = "bid" if state.phase == BIDDING else "play"
            if state.phase == FIRST:
                what = "play a number card" if state.step else "play a suit card"
            lines.append(f"to {what}: player_{state.current}")
            if view.legal:
                lines.append("legal: " + " ".join(action_name(a) for a in view.legal))
        return "\n".join(lines)

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == "deal":
            return (
                f"hand {event['hand'] + 1}: player_{event['dealer']} deals, trump "
                f"{event['trump']} ({dealt_hands(event)}; undealt: {' '.join(event['undealt'])})"
            )
        if kind == "redeal":
            who = f"player_{event['player']}"
            shown = " ".join(event["shown"])
            if event["mode"] == "player":
                return f"{who} shows {shown} and draws a new hand"
            return f"{who} shows {shown}: everyone is dealt again"
        if kind == events.TRICK:
            shows = ", ".join(f"player_{p} {s}" for p, s in enumerate(event["shows"]))
            return f"player_{event['winner']} wins the trick ({shows})"
        if kind == events.HAND_END:
            return "hand scored: " + ", ".join(
                f"player_{p} bid {b}, won {w}, {c:+d} -> {s}"
                for p, (b, w, c, s) in enumerate(
                    zip(event["bids"], event["won"], event["change"], event["scores"], strict=True)
                )
            )
        return super().describe_event(event)


def _show(suit: int, number: int) -> str:
    return (SUITS[suit] if suit >= 0 else "-") + (str(number) if number else "-")


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, "Dois", None if _compiled is not None else _COMPILED_ERROR)


def make_game(num_players: int = 4, engine: str | None = None, **options: Any) -> DoisGame:
    """Dois for ``num_players`` (3 or 4) with any options of ``Rules``; ``ValueError`` for a
    bad player count or option. ``engine``: ``"compiled"`` (the default when built) or
    ``"python"`` (the reference)."""
    return DoisGame(make_rules(num_players, **options), engine)
