"""The observation vector and action mask: what one seat may know, as flat numpy arrays.

The vector is built as one ``bytes`` string of small integers and turned into float32 by a
single numpy multiply with a per-entry scale, because numpy calls, not arithmetic, dominate
at this size. Each per-card block is one ``bytes.translate`` of the engine's location
bytearrays (``pub`` for public knowledge, ``loc`` only for the seat's own hand and its own
hidden trump card), so no Python loop runs over the 52 cards. The result must equal
``koira_env.games.koira.info.known_locations`` for the seat; the tests check that card by card.

Everything is seat-relative: "player r" is the player r seats after the observer, r = 0 is
the observer. See docs/environment.md for the layout table.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np

from ...cards import NUM_CARDS
from ...core.encoding import code_table, layout, one_hot, one_hots, seat_one_hots
from .engine import (
    DISCARD,
    GAME_OVER,
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
    return layout(_fields(num_players))[0]


def _cards_block(cards: tuple[int, ...] | list[int]) -> bytearray:
    """A 52-entry one-hot block of the given cards."""
    block = bytearray(NUM_CARDS)
    for card in cards:
        block[card] = 1
    return block


class ObservationEncoder:
    """Builds a seat's observation vector and action mask; one instance per rule set."""

    def __init__(self, rules: Rules) -> None:
        n = rules.num_players
        self.n = n
        self.num_actions = num_actions(rules)
        self.layout, self.scale = layout(_fields(n))
        self.size = len(self.scale)
        # The non-card fields come in three blocks: common, phase one, phase two. The block of
        # the phase not being played is all zeros and is appended as a shared constant.
        lay = self.layout
        self._p1_start = lay["round_cards"].start
        self._p2_start = lay["top_play"].start
        self._p1_zeros = bytes(self._p2_start - self._p1_start)
        self._p2_zeros = bytes(self.size - self._p2_start)
        self._suit_one_hot = one_hots(4)
        self._card_one_hot = [_cards_block((card,)) for card in range(NUM_CARDS)]
        self._rank_one_hot = [one_hot(13, k) for k in range(13)]
        self._round_zeros = bytearray(n * NUM_CARDS)  # copied, then written
        self._byte = [bytes((i,)) for i in range(256)]
        self._zero_won_sizes_and_stock = bytes(n + 1)
        self._no_war = bytes(1 + n + 13)  # war flag, war players, war rank
        self._no_trick = bytes(2 * (NUM_CARDS + n))  # top play and player, bottom ditto
        self._phase_one_hot = [b"", b"\x01\x00", b"\x00\x01", bytes(2)]  # by PHASE_* value
        self._one_hot = seat_one_hots(n)
        # Per seat: one translate table per card block, in layout order, applied to the
        # seat's known locations; and the seat-relative order of the players. The seats
        # share the 2n + 4 tables (in their own order) to keep them in the CPU cache.
        # In phase two the won piles are empty (they joined the hands), so that phase uses
        # tables without them and a constant block of zeros in their place.
        hand = [code_table({HAND + p}) for p in range(n)]
        won = [code_table({WON + p}) for p in range(n)]
        rest = [code_table({code}) for code in (TRICK, DISCARD, TRUMP_ASIDE, UNKNOWN)]
        self._zero_won = bytes(NUM_CARDS * n)
        self._card_tables = []
        self._hand_tables = []
        self._rest_tables = rest
        self._relative = []
        self._rotate = []
        for s in range(n):
            rot = [(s + r) % n for r in range(n)]
            self._card_tables.append([hand[p] for p in rot] + [won[p] for p in rot] + rest)
            self._hand_tables.append([hand[p] for p in rot])
            self._relative.append(tuple((p - s) % n for p in range(n)))
            self._rotate.append(itemgetter(*rot))

    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of everything ``seat`` may know (see ``layout``).

        The one-hot fields are looked up, not written: ``one_hot[p]`` is the seat-relative
        one-hot of player ``p``, and its last entry (index -1) is all zeros. Small integers
        come from ``self._byte``: building a ``bytes`` costs ten times a list lookup.
        """
        where = known_locations(state, seat).translate
        rot = self._rotate[seat]
        one_hot = self._one_hot[seat]
        phase = state.phase
        if phase == PHASE_TWO:  # the won piles joined the hands and the stock is empty
            parts = list(map(where, self._hand_tables[seat]))
            parts.append(self._zero_won)
            parts += map(where, self._rest_tables)
            parts += (bytearray(map(len, rot(state.hands))), self._zero_won_sizes_and_stock)
        else:
            parts = list(map(where, self._card_tables[seat]))
            parts += (
                bytearray(map(len, rot(state.hands) + rot(state.won))),
                self._byte[len(state.stock)],
            )
        parts += (
            self._suit_one_hot[known_trump_suit(state, seat)],
            one_hot[state.trump_holder],
            self._phase_one_hot[phase],
            one_hot[-1] if phase == GAME_OVER else one_hot[state.current],
            bytes(rot(state.out)) if state.placements else one_hot[-1],
            one_hot[state.last_winner],
        )
        if phase == PHASE_ONE:
            parts += self._phase_one(state, seat)
            parts.append(self._p2_zeros)
        else:  # phase two, or game over with the last trick still on view
            parts.append(self._p1_zeros)
            parts += self._phase_two(state, seat)
        return np.frombuffer(b"".join(parts), np.uint8) * self.scale

    def _phase_one(self, state: State, seat: int) -> list[bytes]:
        """round_cards .. war_depth."""
        rel = self._relative[seat]
        played = self._round_zeros[:]
        for p, card in state.round_cards:
            played[rel[p] * NUM_CARDS + card] = 1
        pieces = [played, self._byte[len(state.pile)]]
        if state.in_war:
            war_players = bytearray(self.n)
            for p in state.round_players:
                war_players[rel[p]] = 1
            pieces += (b"\x01", war_players, self._rank_one_hot[state.war_rank])
        else:
            pieces.append(self._no_war)
        pieces.append(self._byte[state.war_depth])
        return pieces

    def _phase_two(self, state: State, seat: int) -> list[bytes]:
        """top_play .. trick_needed."""
        trick = state.trick
        byte = self._byte
        led_and_counts = (
            self._suit_one_hot[state.led_suit],
            byte[len(trick)],
            byte[state.trick_count],
            byte[state.trick_needed],
        )
        if not trick:
            return [self._no_trick, *led_and_counts]
        one_hot = self._one_hot[seat]
        top_player, top = trick[-1]
        bottom_player, bottom = trick[0]
        return [
            self._card_one_hot[top[0]] if len(top) == 1 else _cards_block(top),
            one_hot[top_player],
            self._card_one_hot[bottom[0]] if len(bottom) == 1 else _cards_block(bottom),
            one_hot[bottom_player],
            *led_and_counts,
        ]

    def action_mask(self, legal: list[int]) -> np.ndarray:
        """A fresh int8 vector with 1 at each legal action id."""
        mask = bytearray(self.num_actions)
        for action in legal:
            mask[action] = 1
        return np.frombuffer(mask, np.int8)
