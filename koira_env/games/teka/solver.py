"""Teka's open-card solver: the rest of a hand played perfectly by both sides, on tricks.

Once trumps are named a Teka hand is a two-side game of perfect information if every hand is
seen: the declaring side (the declarer and its partner, or the declarer alone in a double
thirteen, whose partner sits out) tries to take as many of the remaining tricks as it can,
the other side as few. ``solve`` returns the tricks the declaring side takes from the cards
still in play (hands and the trick being played) under perfect play of both sides: an
alpha-beta minimax over the legal plays (follow suit, else any card). Every trick is played
out (no early end): the minimax trick count ``T`` decides every contract at once, since the
declarers can make ``k`` more tricks exactly when ``T >= k``, which is all an early end or a
raise depends on.

This module is the readable reference: Teka's rules for the trick solvers' shared
alpha-beta (``core/tricks.py``). ``_solver.pyx`` is the same search in C, with a
transposition table at trick boundaries, move ordering and equivalent cards (none changes a
value); ``tests/games/teka/test_teka_solver.py`` checks the two against each other and both against
a brute-force minimax over the engine's own ``State.clone``/``apply``.

A position is ``(hands, trick, leader, trump, declarers, out)``: four 52-bit card masks (bit
``c`` for card ``c``), the cards of the trick being played in order, the seat that led it,
the trump suit, the declaring side's seats as a 4-bit mask, and the seat sitting out (-1).
"""

from __future__ import annotations

from typing import Any

from ...cards import NUM_CARDS, SUIT_OF
from ...core import tricks
from ...core.tricks import cards_of
from .engine import PLAY, PLAYERS, beats

SUIT_MASK = tuple(sum(1 << c for c in range(NUM_CARDS) if SUIT_OF[c] == s) for s in range(4))


def legal_mask(hand: int, led: int) -> int:
    """The mover's legal plays as a mask: follow ``led``'s suit if able, else anything
    (``led`` -1: leading, anything)."""
    if led < 0:
        return hand
    return hand & SUIT_MASK[SUIT_OF[led]] or hand


def next_seat(p: int, out: int) -> int:
    """The next seat in turn order, skipping ``out`` (``State.next_seat``)."""
    p = (p + 1) % PLAYERS
    return (p + 1) % PLAYERS if p == out else p


class Rules(tricks.TrickRules):
    """Teka for ``core.tricks``: the declaring side (``declarers``, a seat mask) maximizes the
    tricks it takes, ``trump`` the trump suit, ``out`` the seat sitting out (-1: none)."""

    low = -1
    high = 14

    def __init__(self, trump: int, declarers: int, out: int) -> None:
        self.trump = trump
        self.declarers = declarers
        self.out = out
        self.size = 3 if out >= 0 else PLAYERS

    def mover(self, leader: int, n: int) -> int:
        for _ in range(n):
            leader = next_seat(leader, self.out)
        return leader

    def plays(self, hand: int, trick: Any, best: int) -> list[int]:
        return cards_of(legal_mask(hand, trick[0] if trick else -1))

    def takes(self, play: int, best: int) -> bool:
        return beats(play, best, self.trump)

    def maximizing(self, seat: int) -> bool:
        return bool(self.declarers >> seat & 1)

    def gain(self, trick: Any, winner: int) -> int:
        return self.declarers >> winner & 1


def position(state: Any) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]:
    """``(hands, trick, leader, trump, declarers, out)`` of a full state in play."""
    if state.phase != PLAY:
        raise ValueError("the solver needs a state in play (trumps named)")
    hands = tuple(sum(1 << c for c in hand) for hand in state.hands)
    return hands, tuple(state.trick), state.leader, state.trump, side_mask(state), state.out


def side_mask(state: Any) -> int:
    """The declaring side's seats as a mask (the declarer alone in a double thirteen)."""
    d = state.declarer
    return 1 << d if state.double else 1 << d | 1 << (d + 2) % PLAYERS


def solve(
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    trump: int,
    declarers: int,
    out: int = -1,
    alpha: int = -1,
    beta: int = 14,
) -> int:
    """The declaring side's tricks from the cards in play under perfect play (exact when the
    result lies strictly inside ``(alpha, beta)``; otherwise a bound on the same side)."""
    return tricks.solve(Rules(trump, declarers, out), hands, trick, leader, 0, alpha, beta)


def move_values(state: Any) -> dict[int, int]:
    """Per legal card of the mover: the declaring side's tricks for the whole hand (taken so
    far plus the solved rest) if it plays that card and both sides then play perfectly."""
    hands, trick, leader, trump, declarers, out = position(state)
    taken = sum(state.won[p] for p in range(PLAYERS) if declarers >> p & 1)
    cards = [a for a in state.legal_actions() if a < NUM_CARDS]  # raises are not cards
    values = tricks.play_values(Rules(trump, declarers, out), hands, trick, leader, 0, cards)
    return {card: taken + value for card, value in values}


def brute_force(state: Any) -> int:
    """The declaring side's tricks for the whole hand under perfect play, by plain minimax
    over the engine's own moves (``clone``/``apply``; raises skipped): the tests' yardstick,
    slow. Needs a single-hand game without an early end, so that every trick is played and
    the final ``won`` stays readable."""
    if state.phase != PLAY or state.rules.early_end or not state.rules.single_hand:
        raise ValueError("brute_force needs a single hand in play without early_end")
    side = [p for p in range(PLAYERS) if side_mask(state) >> p & 1]
    return tricks.brute_force(
        state,
        lambda s: sum(s.won[p] for p in side) if s.is_terminal else None,
        lambda s: s.current in side,
        lambda s: [a for a in s.legal_actions() if a < NUM_CARDS],
    )


def _cheapest(cards: int, trump: int) -> int:
    """The card that costs least to give up: plain before trumps, then the lowest rank."""
    return min(cards_of(cards), key=lambda c: (SUIT_OF[c] == trump, c % 13))


def _master(card: int, live: int) -> bool:
    """No card of ``live`` of its suit is higher."""
    return not live & SUIT_MASK[SUIT_OF[card]] & ~((2 << card) - 1)


def policy_move(
    hands: list[int],
    player: int,
    moves: int,
    n: int,
    best: int,
    best_seat: int,
    trump: int,
    declarers: int,
    out: int,
) -> int:
    """``CounterBot``'s card rules on open cards: a master is the highest card of its suit
    left in the active hands (``bots.CounterBot.lead`` and ``follow``)."""
    live = 0
    for p in range(PLAYERS):
        if p != out:
            live |= hands[p]
    others = live & ~hands[player]
    masters = [c for c in cards_of(moves) if _master(c, others)]
    declaring = declarers >> player & 1
    if n == 0:
        if declaring and others & SUIT_MASK[trump]:
            trump_masters = [c for c in masters if SUIT_OF[c] == trump]
            if trump_masters:
                return max(trump_masters)
        plain = [c for c in masters if SUIT_OF[c] != trump]
        if plain:
            return max(plain)
        lengths = [
            (bin(moves & SUIT_MASK[s]).count("1"), s)
            for s in range(4)
            if s != trump and moves & SUIT_MASK[s]
        ]
        if not lengths:
            return _cheapest(moves, trump)
        return min(cards_of(moves & SUIT_MASK[min(lengths)[1]]))
    last = n == (3 if out >= 0 else PLAYERS) - 1
    if (declarers >> best_seat & 1) == declaring and (last or _master(best, live)):
        return _cheapest(moves, trump)
    winners = [c for c in cards_of(moves) if beats(c, best, trump)]
    if winners:
        win_masters = [c for c in winners if c in masters]
        pick = win_masters if win_masters and not last else winners
        return _cheapest(sum(1 << c for c in pick), trump)
    return _cheapest(moves, trump)


def playout(
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    trump: int,
    declarers: int,
    out: int = -1,
) -> int:
    """The declaring side's tricks from the cards in play when every seat plays
    ``policy_move``: the cheap value PIMC uses while too many cards are left to solve."""

    def choose(
        work: list[int], player: int, legal: list[int], cur: Any, best: int, seat: int
    ) -> int:
        moves = sum(1 << c for c in legal)
        return policy_move(work, player, moves, len(cur), best, seat, trump, declarers, out)

    return tricks.play_out(Rules(trump, declarers, out), hands, trick, leader, 0, choose)


def card_values(
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    trump: int,
    declarers: int,
    out: int,
    moves: list[int],
    exact_from: int = NUM_CARDS,
) -> list[tuple[int, int]]:
    """``[(card, tricks)]`` for each card of ``moves``: the declaring side's tricks from the
    cards in play if the mover plays it, then perfect play (``solve``), or with more than
    ``exact_from`` cards in the active hands, ``playout`` (``_solver.root_values``)."""
    total = sum(bin(h).count("1") for p, h in enumerate(hands) if p != out)
    rules = Rules(trump, declarers, out)
    if total <= exact_from:
        return tricks.play_values(rules, hands, trick, leader, 0, moves)

    def rest(after: tuple[int, ...], new_trick: tuple[int, ...], new_leader: int, _: int) -> int:
        return playout(after, new_trick, new_leader, trump, declarers, out)

    return tricks.play_values(rules, hands, trick, leader, 0, moves, rest)
