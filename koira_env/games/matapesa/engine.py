"""The Mätäpesä rules engine: a mutable state with a cheap ``clone()`` (its ``Game``, the
observation encoder and the text are in ``game.py``).

Suits never matter in Mätäpesä, so an action is a rank (``"7"``: play a 7) and the engine
keeps per-seat rank counts next to the card locations: the legal moves, the observation and
the view are all read off 13-entry bytearrays. Which 7 leaves the hand is fixed (the lowest
card id of that rank, i.e. clubs, diamonds, hearts, spades in that order) and the event log
names the real card. RULES.md (section Mätäpesä) explains every decision made here.
"""

from __future__ import annotations

import operator
import random
from typing import Any, NamedTuple

from ...cards import NUM_CARDS, RANK_OF, card_name
from ...core import events
from ...core.deal import constrained_deal
from ...core.game import (
    Outcome,
    returns_from_places,
)
from ...core.state import EngineState

NUM_RANKS = 13
RANK_RANGE = range(NUM_RANKS)

# Card locations (values of State.loc): in a hand, played face up in front of a seat, or
# left over from the deal, face up and out of play.
HAND = 0  # HAND + p
PLAYED = 8  # PLAYED + p
OUT_OF_PLAY = 16
ABSENT = 17  # not in the deck the rules play with (mini Mätäpesä): in no view and no field
MAX_HAND = NUM_CARDS // 3  # 17 cards each at three players: the scale of hand sizes
COUNT_SCALE = 1.0 / 4  # at most four cards of a rank


def _lowest_rank(counts: bytearray) -> int:
    """The lowest rank present in a non-empty rank-count array (C-speed scan)."""
    return NUM_RANKS - len(counts.lstrip(b"\x00"))


def _by_rank(card: int) -> tuple[int, int]:
    return RANK_OF[card], card


class MatapesaView(NamedTuple):
    """What one seat knows: its hand and everything on the table (played cards stay face up)."""

    seat: int
    legal: tuple[int, ...]  # ranks this seat may play (empty unless it is to act)
    hand: tuple[int, ...]  # card ids, by rank then suit
    hand_ranks: tuple[int, ...]  # 13 counts
    played: tuple[tuple[int, ...], ...]  # per seat: its played cards, in play order
    played_ranks: tuple[tuple[int, ...], ...]  # per seat: 13 counts
    out_of_play: tuple[int, ...]  # the cards left over from the deal, face up
    unseen_ranks: tuple[int, ...]  # per rank: how many are in the other hands
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    leader: int
    to_reach: int  # the rank a follower must reach (-1 when leading or at the end)
    trick_winner: int  # the seat taking the trick so far (-1 before the lead)
    trick_number: int  # 0-based; equals num_tricks at the end
    num_tricks: int
    tricks_won: tuple[int, ...]
    loser: int  # -1 until the last trick is won


class State(EngineState):
    """A Mätäpesä game in progress; build it with ``MatapesaGame.new_state``."""

    __slots__ = (
        "counts",
        "hand_sizes",
        "high",
        "in_hands",
        "leader",
        "loc",
        "loser",
        "need",
        "out_counts",
        "played",
        "plays",
        "trick_start",
        "tricks_done",
        "tricks_won",
        "winner",
    )
    COPIED = ("hand_sizes", "in_hands", "loc", "plays", "tricks_won")
    NESTED = ("counts", "played")

    def __init__(self, game: Any, deck: list[int], seed: Any, log: bool) -> None:
        """Deal ``deck`` (the cards in play): one card at a time from player_0,
        ``len(deck) // n`` each; the rest is out of play, face up."""
        n = game.num_players
        super().__init__(game, n, deck, seed, log)
        self.loc = loc = bytearray([ABSENT]) * NUM_CARDS
        self.counts = [bytearray(NUM_RANKS) for _ in range(n)]
        self.played = [bytearray(NUM_RANKS) for _ in range(n)]
        self.in_hands = bytearray(NUM_RANKS)
        dealt = game.hand_size * n
        for i, card in enumerate(deck[:dealt]):
            loc[card] = HAND + i % n
            self.counts[i % n][RANK_OF[card]] += 1
            self.in_hands[RANK_OF[card]] += 1
        out = bytearray(NUM_RANKS)
        for card in deck[dealt:]:
            loc[card] = OUT_OF_PLAY
            out[RANK_OF[card]] += 1
        self.out_counts = bytes(out)
        self.hand_sizes = [game.hand_size] * n
        self.plays: list[int] = []  # every card played, in order (its seat is in loc)
        self.tricks_won = [0] * n
        self.tricks_done = 0
        self.loser = -1
        self._start_trick(0)
        if self.log is not None:
            self._event("out_of_play", cards=[card_name(c) for c in deck[dealt:]])

    def _start_trick(self, leader: int) -> None:
        self.leader = self.current = leader
        self.trick_start = len(self.plays)
        self.need = -1  # the rank to reach; -1 while leading
        self.high = -1  # the trick's highest rank so far
        self.winner = -1  # the seat taking the trick so far

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.loser >= 0

    def _legal(self) -> list[int]:
        """Any rank held when leading; else any rank reaching the trick, plus the lowest rank
        held (always, or only when nothing reaches: the ``lowest_anytime`` option)."""
        if self.loser >= 0:
            return []
        counts = self.counts[self.current]
        need = self.need
        if need < 0:
            return [r for r in RANK_RANGE if counts[r]]
        acts = [r for r in range(need, NUM_RANKS) if counts[r]]
        low = _lowest_rank(counts)
        if low < need and (self.game.lowest_anytime or not acts):
            acts.insert(0, low)
        return acts

    def _places(self) -> list[int]:
        places = [1] * self.n
        places[self.loser] = self.n
        return places

    def outcome(self) -> Outcome | None:
        if self.loser < 0:
            return None
        places = self._places()
        scores = [0.0] * self.n
        scores[self.loser] = -1.0
        return Outcome(
            places=tuple(places),
            returns=tuple(returns_from_places(places)),
            scores=tuple(scores),
            extra={
                "loser": self.loser,
                "last_card": card_name(self.plays[self.trick_start + self._winner_index()]),
                "tricks_won": self.tricks_won[:],
            },
        )

    def _winner_index(self) -> int:
        """The winning card's position in the current (at the end: the last) trick."""
        return (self.winner - self.leader) % self.n

    # ------------------------------------------------------------------ apply
    def _act(self, action: int) -> None:
        """Play the card of rank ``action`` in the lowest suit held."""
        p = self.current
        loc = self.loc
        card = action
        while loc[card] != p:  # the lowest suit of that rank held
            card += 13
        loc[card] = PLAYED + p
        self.counts[p][action] -= 1
        self.played[p][action] += 1
        self.in_hands[action] -= 1
        self.hand_sizes[p] -= 1
        self.plays.append(card)
        if self.log is not None:
            self._event(events.PLAY, player=p, card=card_name(card))
        game = self.game
        if action > self.high or (action == self.high and game.tie_last):
            self.high = action
            self.winner = p
        self.need = self.high if game.follow_highest else action
        if len(self.plays) - self.trick_start == self.n:
            self._end_trick()
        else:
            self.current = p + 1 if p + 1 < self.n else 0

    def _end_trick(self) -> None:
        """The trick's winner leads the next; the winner of the last trick loses."""
        w = self.winner
        self.tricks_won[w] += 1
        self.tricks_done += 1
        if self.log is not None:
            cards = [card_name(c) for c in self.plays[self.trick_start :]]
            self._event(events.TRICK, player=w, trick=self.tricks_done, cards=cards)
        if self.tricks_done == self.game.num_tricks:
            self.loser = w
            self.need = -1
            if self.log is not None:
                last = self.plays[self.trick_start + self._winner_index()]
                self._event(events.GAME_OVER, loser=w, card=card_name(last))
        else:
            self._start_trick(w)

    # ------------------------------------------------------------------ information
    def view(self, seat: int) -> MatapesaView:
        """Everything ``seat`` may know: its hand, and the table (every played card is face up
        in front of its player, and the cards left over from the deal are face up)."""
        loc = self.loc
        n = self.n
        mine = self.counts[seat]
        played: list[list[int]] = [[] for _ in range(n)]
        for card in self.plays:
            played[loc[card] - PLAYED].append(card)
        return MatapesaView(
            seat=seat,
            legal=tuple(self.legal_actions()) if seat == self.current else (),
            hand=tuple(sorted((c for c in range(NUM_CARDS) if loc[c] == seat), key=_by_rank)),
            hand_ranks=tuple(mine),
            played=tuple(map(tuple, played)),
            played_ranks=tuple(map(tuple, self.played)),
            out_of_play=tuple(c for c in range(NUM_CARDS) if loc[c] == OUT_OF_PLAY),
            unseen_ranks=tuple(map(operator.sub, self.in_hands, mine)),
            hand_sizes=tuple(self.hand_sizes),
            trick=tuple((loc[c] - PLAYED, c) for c in self.plays[self.trick_start :]),
            leader=self.leader,
            to_reach=self.need,
            trick_winner=self.winner,
            trick_number=self.tricks_done,
            num_tricks=self.game.num_tricks,
            tricks_won=tuple(self.tricks_won),
            loser=self.loser,
        )

    def _rank_bounds(self) -> tuple[list[int], list[int]]:
        """Per seat, the ranks its hand can still hold by the play so far, ``lo[p] <= rank <
        hi[p]``: a follower that played below the rank to reach played its lowest rank (so
        it holds nothing lower) and, under ``lowest_anytime=False``, had nothing reaching."""
        n, game = self.n, self.game
        lo, hi = [0] * n, [NUM_RANKS] * n
        need = -1
        for k, card in enumerate(self.plays):
            r, p = RANK_OF[card], self.loc[card] - PLAYED
            if k % n == 0:  # a lead
                need = r
                continue
            if r < need:
                lo[p] = max(lo[p], r)
                if not game.lowest_anytime:
                    hi[p] = min(hi[p], need)
            need = max(need, r) if game.follow_highest else r
        return lo, hi

    def _forbidden(self, seats: list[int]) -> list[set[int]]:
        """Per seat (indexed by seat; empty for any not in ``seats``), the cards in hands the
        play so far shows it cannot hold: every card of a rank outside its ``_rank_bounds``,
        and every card of rank r below (by id) the highest card of rank r it has played, as
        it plays the lowest card id of the rank it names (point 6)."""
        loc = self.loc
        lo, hi = self._rank_bounds()
        forbidden: list[set[int]] = [set() for _ in range(self.n)]
        # per seat: per rank, the card ids below this one are ruled out
        floors = {p: [-1 if lo[p] <= r < hi[p] else NUM_CARDS for r in RANK_RANGE] for p in seats}
        for card in self.plays:
            p, r = loc[card] - PLAYED, RANK_OF[card]
            if p in floors and floors[p][r] < card:
                floors[p][r] = card
        for p, floor in floors.items():
            if max(floor) >= 0:
                forbidden[p] = {
                    card
                    for card in range(NUM_CARDS)
                    if loc[card] < PLAYED and card < floor[RANK_OF[card]]
                }
        return forbidden

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A copy with the other hands re-dealt at random (sizes kept), no history, log or
        deck, and a fresh seed: everything ``seat`` cannot see is drawn anew, as far as the
        play so far allows (``core.deal.constrained_deal`` under ``_forbidden``): a seat plays
        the lowest card id of the rank it names (point 6), so every card of rank r still in
        its hand lies above every card of rank r it has played, and a follower that played
        below the rank to reach played its lowest rank (``_rank_bounds``). The true deal
        fits, so a deal always exists; the compiled core calls the same function with the
        same arguments, so both engines give the same deal for the same ``rng``."""
        c = self._unseen_copy(rng)
        loc = c.loc
        others = [p for p in range(self.n) if p != seat]
        hidden = [card for card in range(NUM_CARDS) if loc[card] < PLAYED and loc[card] != seat]
        room = {p: self.hand_sizes[p] for p in others}
        deal = constrained_deal(hidden, others, self._forbidden(others), room, rng)
        if deal is None:
            raise RuntimeError("no deal of the hidden cards fits the play so far")
        for p in others:
            c.counts[p] = bytearray(NUM_RANKS)
        for card, p in deal.items():
            loc[card] = p
            c.counts[p][RANK_OF[card]] += 1
        return c
