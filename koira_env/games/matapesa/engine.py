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


DETERMINIZE_TRIES = 10_000  # shuffles State.determinize draws before it keeps an unfit one


def _match_suits(loc: bytearray, deal: list[int], owners: list[int]) -> list[int] | None:
    """``deal`` (hidden cards; ``deal[i]`` goes to the hand ``owners[i]``) with the suits of
    each rank moved among the hands it went to, so that every card of rank r a seat gets lies
    above every card of rank r that seat has played (by ``loc``); None if no such move exists.
    Greedy, deterministic, the compiled core's ``match_suits`` step for step: per rank, the
    hands in order of their highest played card of it (highest first, then by seat) each keep
    the cards dealt to them that fit and are still free, then take the free ones that fit in
    deal order. A deal that already fits is returned unchanged."""
    top = [[-1] * NUM_RANKS for _ in range(PLAYED)]  # per seat, per rank: highest id played
    for card in range(NUM_CARDS):
        if PLAYED <= loc[card] < OUT_OF_PLAY:
            top[loc[card] - PLAYED][RANK_OF[card]] = card
    out = list(deal)
    for r in RANK_RANGE:
        slots = [i for i, card in enumerate(deal) if RANK_OF[card] == r]
        holders = sorted({owners[i] for i in slots}, key=lambda p: (-top[p][r], p))
        free = [deal[i] for i in slots]
        for p in holders:
            floor = top[p][r]
            mine = [i for i in slots if owners[i] == p]
            take = [deal[i] for i in mine if deal[i] > floor and deal[i] in free]
            for card in free:
                if len(take) == len(mine):
                    break
                if card > floor and card not in take:
                    take.append(card)
            if len(take) < len(mine):
                return None
            for i, card in zip(mine, take, strict=True):
                out[i] = card
                free.remove(card)
    return out


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

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A copy with the other hands re-dealt at random (sizes kept), no history, log or
        deck, and a fresh seed: everything ``seat`` cannot see is drawn anew, as far as the
        play so far allows. A seat plays the lowest card id of the rank it names (point 6), so
        every card of rank r still in its hand lies above every card of rank r it has played;
        a deal (one ``rng.shuffle`` of the hidden cards, in id order) has its suits matched to
        that by ``_match_suits`` (ranks kept, no ``rng`` call). The ranks must fit too
        (``_rank_bounds``: a seat that played below the rank to reach played its lowest).
        A deal whose ranks do not fit, or that no matching fits, is
        drawn again, from the id order, up to ``DETERMINIZE_TRIES`` shuffles in all; if the
        last one does not fit either, it is kept as shuffled (the one case a determinization
        can break the rule; ``tests/games/matapesa/test_matapesa_invariants.py::
        test_determinize_gives_up_after_its_tries``)."""
        c = self._unseen_copy(rng)
        loc = c.loc
        hidden = [card for card in range(NUM_CARDS) if loc[card] < PLAYED and loc[card] != seat]
        owners = [loc[card] for card in hidden]
        lo, hi = self._rank_bounds()
        for _ in range(DETERMINIZE_TRIES):
            deal = hidden[:]
            rng.shuffle(deal)
            if any(
                not lo[p] <= RANK_OF[card] < hi[p] for card, p in zip(deal, owners, strict=True)
            ):
                continue
            matched = _match_suits(loc, deal, owners)
            if matched is not None:
                deal = matched
                break
        for p in range(self.n):
            if p != seat:
                c.counts[p] = bytearray(NUM_RANKS)
        for card, p in zip(deal, owners, strict=True):
            loc[card] = p
            c.counts[p][RANK_OF[card]] += 1
        return c
