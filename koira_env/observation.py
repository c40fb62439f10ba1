"""The observation vector and action mask: what one seat may know, as flat numpy arrays.

The vector is built as one ``bytes`` string of small integers and turned into float32 by a
single numpy multiply with a per-entry scale, because numpy calls, not arithmetic, dominate
at this size. Each per-card block is one ``bytes.translate`` of the engine's location
bytearrays (``pub`` for public knowledge, ``loc`` only for the seat's own hand and its own
hidden trump card), so no Python loop runs over the 52 cards. The result must equal
``koira_env.info.known_locations`` for the seat; the tests check that card by card.

Everything is seat-relative: "player r" is the player r seats after the observer, r = 0 is
the observer. See docs/environment.md for the layout table.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np

from .cards import NUM_CARDS
from .engine import (
    DISCARD,
    GAME_OVER,
    HAND,
    PHASE_ONE,
    TRICK,
    TRUMP_ASIDE,
    UNKNOWN,
    WON,
    State,
    num_actions,
)
from .info import known_locations, known_trump_suit
from .rules import Rules

CARD_SCALE = 1.0 / NUM_CARDS  # card counts
TRICK_SCALE = 1.0 / 8  # plays in a phase-two trick (at most one per player, at most 8)
WAR_DEPTH_SCALE = 1.0 / 26  # every war level takes at least two of the 52 cards


def _fields(n: int) -> list[tuple[str, int, float]]:
    """(name, size, scale) of every observation field, in vector order."""
    cards = [("cards_mine", NUM_CARDS, 1.0)]
    cards += [(f"cards_hand_{r}", NUM_CARDS, 1.0) for r in range(1, n)]
    cards += [(f"cards_won_{r}", NUM_CARDS, 1.0) for r in range(n)]
    cards += [
        ("cards_trick", NUM_CARDS, 1.0),
        ("cards_discarded", NUM_CARDS, 1.0),
        ("cards_my_trump", NUM_CARDS, 1.0),
        ("cards_unknown", NUM_CARDS, 1.0),
    ]
    return [
        *cards,
        ("hand_sizes", n, CARD_SCALE),
        ("won_sizes", n, CARD_SCALE),
        ("stock_size", 1, CARD_SCALE),
        ("trump_suit", 4, 1.0),
        ("trump_holder", n, 1.0),
        ("phase", 2, 1.0),
        ("current_player", n, 1.0),
        ("out", n, 1.0),
        ("last_winner", n, 1.0),
        ("round_cards", n * NUM_CARDS, 1.0),
        ("pile_size", 1, CARD_SCALE),
        ("war", 1, 1.0),
        ("war_players", n, 1.0),
        ("war_rank", 13, 1.0),
        ("war_depth", 1, WAR_DEPTH_SCALE),
        ("top_play", NUM_CARDS, 1.0),
        ("top_player", n, 1.0),
        ("bottom_play", NUM_CARDS, 1.0),
        ("bottom_player", n, 1.0),
        ("led_suit", 4, 1.0),
        ("trick_plays", 1, TRICK_SCALE),
        ("trick_count", 1, TRICK_SCALE),
        ("trick_needed", 1, TRICK_SCALE),
    ]


def observation_layout(num_players: int) -> dict[str, slice]:
    """Field name -> slice of the observation vector, for decoding and documentation."""
    layout = {}
    start = 0
    for name, size, _ in _fields(num_players):
        layout[name] = slice(start, start + size)
        start += size
    return layout


def _table(codes: set[int]) -> bytes:
    """A ``bytes.translate`` table sending the given location codes to 1, the rest to 0."""
    return bytes(1 if code in codes else 0 for code in range(256))


class ObservationEncoder:
    """Builds a seat's observation vector and action mask; one instance per rule set."""

    def __init__(self, rules: Rules) -> None:
        n = rules.num_players
        self.n = n
        self.num_actions = num_actions(rules)
        self.layout = observation_layout(n)
        self.size = sum(size for _, size, _ in _fields(n))
        self.scale = np.concatenate(
            [np.full(size, scale, np.float32) for _, size, scale in _fields(n)]
        )
        # The non-card fields come in three blocks: common, phase one, phase two. The block of
        # the phase not being played is all zeros and is appended as a shared constant.
        lay = self.layout
        self._p1_start = lay["round_cards"].start
        self._p2_start = lay["top_play"].start
        self._p1_zeros = bytes(self._p2_start - self._p1_start)
        self._p2_zeros = bytes(self.size - self._p2_start)
        self._common_zeros = bytes(self._p1_start - lay["hand_sizes"].start - 2 * n)
        # Per seat: one translate table per card block, in layout order, applied to the
        # seat's known locations; and the seat-relative order of the players. The seats
        # share the 2n + 4 tables (in their own order) to keep them in the CPU cache.
        hand = [_table({HAND + p}) for p in range(n)]
        won = [_table({WON + p}) for p in range(n)]
        rest = [_table({TRICK}), _table({DISCARD}), _table({TRUMP_ASIDE}), _table({UNKNOWN})]
        self._card_tables = []
        self._relative = []
        self._rotate = []
        for s in range(n):
            rot = [(s + r) % n for r in range(n)]
            self._card_tables.append([hand[p] for p in rot] + [won[p] for p in rot] + rest)
            self._relative.append(tuple((p - s) % n for p in range(n)))
            self._rotate.append(itemgetter(*rot))

    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of everything ``seat`` may know (see ``layout``)."""
        parts = list(map(known_locations(state, seat).translate, self._card_tables[seat]))
        parts.append(self._common(state, seat))
        phase = state.phase
        if phase == PHASE_ONE:
            parts.append(self._phase_one(state, seat))
            parts.append(self._p2_zeros)
        else:  # phase two, or game over with the last trick still on view
            parts.append(self._p1_zeros)
            parts.append(self._phase_two(state, seat))
        return np.frombuffer(b"".join(parts), np.uint8) * self.scale

    def _common(self, state: State, seat: int) -> bytearray:
        """hand_sizes .. last_winner, as small integers (scaled to floats by the caller)."""
        n = self.n
        rot = self._rotate[seat]
        ex = bytearray(map(len, rot(state.hands) + rot(state.won)))
        ex += self._common_zeros
        rel = self._relative[seat]  # rel[p] = (p - seat) % n
        # offsets within this block: stock 2n, trump suit 2n+1, trump holder 2n+5,
        # phase 3n+5, current player 3n+7, out 4n+7, last winner 5n+7
        ex[2 * n] = len(state.stock)
        trump = known_trump_suit(state, seat)
        if trump >= 0:
            ex[2 * n + 1 + trump] = 1
        if state.trump_holder >= 0:
            ex[2 * n + 5 + rel[state.trump_holder]] = 1
        phase = state.phase
        if phase != GAME_OVER:
            ex[3 * n + 4 + phase] = 1
            ex[3 * n + 7 + rel[state.current]] = 1
        if phase != PHASE_ONE:
            ex[4 * n + 7 : 5 * n + 7] = rot(state.out)
        if state.last_winner >= 0:
            ex[5 * n + 7 + rel[state.last_winner]] = 1
        return ex

    def _phase_one(self, state: State, seat: int) -> bytearray:
        """round_cards .. war_depth."""
        n = self.n
        rel = self._relative[seat]
        ex = bytearray(self._p1_zeros)
        for p, card in state.round_cards:
            ex[rel[p] * NUM_CARDS + card] = 1
        base = n * NUM_CARDS  # pile size, war flag, war players (n), war rank (13), depth
        ex[base] = len(state.pile)
        if state.in_war:
            ex[base + 1] = 1
            for p in state.round_players:
                ex[base + 2 + rel[p]] = 1
            ex[base + 2 + n + state.war_rank] = 1
        ex[base + 15 + n] = state.war_depth
        return ex

    def _phase_two(self, state: State, seat: int) -> bytearray:
        """top_play .. trick_needed."""
        n = self.n
        ex = bytearray(self._p2_zeros)
        trick = state.trick
        if trick:
            rel = self._relative[seat]
            player, cards = trick[-1]
            for card in cards:
                ex[card] = 1
            ex[NUM_CARDS + rel[player]] = 1
            player, cards = trick[0]
            base = NUM_CARDS + n  # bottom play, then bottom player
            for card in cards:
                ex[base + card] = 1
            ex[base + NUM_CARDS + rel[player]] = 1
        base = 2 * (NUM_CARDS + n)  # led suit (4), plays in the trick, plays made, needed
        if state.led_suit >= 0:
            ex[base + state.led_suit] = 1
        ex[base + 4] = len(trick)
        ex[base + 5] = state.trick_count
        ex[base + 6] = state.trick_needed
        return ex

    def action_mask(self, legal: list[int]) -> np.ndarray:
        """A fresh int8 vector with 1 at each legal action id."""
        mask = bytearray(self.num_actions)
        for action in legal:
            mask[action] = 1
        return np.frombuffer(mask, np.int8)
