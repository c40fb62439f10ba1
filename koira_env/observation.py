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
    HAND,
    PHASE_ONE,
    PHASE_TWO,
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
        first_extra = self.layout["hand_sizes"].start
        self._extra_zeros = bytes(self.size - first_extra - 2 * n)  # after the two size fields
        self._offsets = tuple(  # of the fields after hand_sizes and won_sizes
            sl.start - first_extra for sl in self.layout.values() if sl.start >= first_extra + 2 * n
        )
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
        parts.append(self._extra(state, seat, self.n))
        return np.frombuffer(b"".join(parts), np.uint8) * self.scale

    def _extra(self, state: State, seat: int, n: int) -> bytearray:
        """The non-card fields as small integers (scaled to floats by the caller)."""
        (
            stock_size,
            trump_suit,
            trump_holder,
            phase_o,
            current_o,
            out_o,
            last_winner,
            round_cards,
            pile_size,
            war,
            war_players,
            war_rank,
            war_depth,
            top_play,
            top_player,
            bottom_play,
            bottom_player,
            led_suit,
            trick_plays,
            trick_count,
            trick_needed,
        ) = self._offsets
        rot = self._rotate[seat]
        ex = bytearray(map(len, rot(state.hands) + rot(state.won)))  # hand_sizes, won_sizes
        ex += self._extra_zeros
        rel = self._relative[seat]  # rel[p] = (p - seat) % n
        ex[stock_size] = len(state.stock)
        trump = known_trump_suit(state, seat)
        if trump >= 0:
            ex[trump_suit + trump] = 1
        if state.trump_holder >= 0:
            ex[trump_holder + rel[state.trump_holder]] = 1
        if state.last_winner >= 0:
            ex[last_winner + rel[state.last_winner]] = 1
        phase = state.phase
        if phase == PHASE_ONE:
            ex[phase_o] = 1
            ex[current_o + rel[state.current]] = 1
            for p, card in state.round_cards:
                ex[round_cards + rel[p] * NUM_CARDS + card] = 1
            ex[pile_size] = len(state.pile)
            if state.in_war:
                ex[war] = 1
                for p in state.round_players:
                    ex[war_players + rel[p]] = 1
                ex[war_rank + state.war_rank] = 1
            ex[war_depth] = state.war_depth
            return ex
        ex[out_o : out_o + n] = rot(state.out)
        if phase == PHASE_TWO:  # else the game is over: the last trick stays on view
            ex[phase_o + 1] = 1
            ex[current_o + rel[state.current]] = 1
        trick = state.trick
        if trick:
            player, cards = trick[-1]
            for card in cards:
                ex[top_play + card] = 1
            ex[top_player + rel[player]] = 1
            player, cards = trick[0]
            for card in cards:
                ex[bottom_play + card] = 1
            ex[bottom_player + rel[player]] = 1
        if state.led_suit >= 0:
            ex[led_suit + state.led_suit] = 1
        ex[trick_plays] = len(trick)
        ex[trick_count] = state.trick_count
        ex[trick_needed] = state.trick_needed
        return ex

    def action_mask(self, legal: list[int]) -> np.ndarray:
        """A fresh int8 vector with 1 at each legal action id."""
        mask = bytearray(self.num_actions)
        for action in legal:
            mask[action] = 1
        return np.frombuffer(mask, np.int8)
