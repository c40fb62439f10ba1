"""Kop's open-card solver: the rest of a hand played perfectly by both sides, on card points.

Once the declaration round is over a Kop hand is a two-side game of perfect information if
every hand is seen: the black queens' side (``State.side[p] == 0``) tries to take as many of
the 104 card points as it can, the other side as few. ``solve`` returns the points the queens'
side takes from the cards still in play (hands and the trick being played) under perfect play
of both sides: an alpha-beta minimax over the legal plays (must follow, must trump, must win).
The hand's winner follows from it exactly (53 points wins; the points already taken are
``State.points``).

This module is the readable reference: Kop's rules for the trick solvers' shared
alpha-beta (``core/tricks.py``). ``_solver.pyx`` is the same search in C, with a
transposition table at trick boundaries and move ordering (neither changes a value);
``tests/games/kop/test_kop_solver.py`` checks the two against each other and both against a
brute-force minimax over the engine's own ``State.clone``/``apply``.

A position is ``(hands, trick, leader, queens)``: four 16-bit card masks (bit ``c`` for card
``c``), the cards of the trick being played in order, the seat that led it, and the seats of
the queens' side as a 4-bit mask.
"""

from __future__ import annotations

from typing import Any

from ...core import tricks
from ...core.tricks import cards_of
from .cards import NUM_CARDS, POINTS, SUIT_OF, TRUMP, beats
from .engine import PLAY, PLAYERS

SUIT_MASK = tuple(sum(1 << c for c in range(NUM_CARDS) if SUIT_OF[c] == s) for s in range(3))
TRUMP_MASK = SUIT_MASK[TRUMP]
# BEATERS_MASK[b]: the cards that take a trick now won by card b
BEATERS_MASK = tuple(sum(1 << c for c in range(NUM_CARDS) if beats(c, b)) for b in range(NUM_CARDS))
ALL_POINTS = 104


def legal_mask(hand: int, led: int, best: int) -> int:
    """The mover's legal plays as a mask: ``led`` is the trick's first card (-1 when leading),
    ``best`` the card winning it. Follow the led suit, else trump, else anything; among
    those, a card that takes the trick if there is one (the engine's ``State._legal``)."""
    if led < 0:
        return hand
    allowed = hand & SUIT_MASK[SUIT_OF[led]]
    if not allowed:
        allowed = hand & TRUMP_MASK or hand
    return allowed & BEATERS_MASK[best] or allowed


class Rules(tricks.TrickRules):
    """Kop for ``core.tricks``: the queens' side (``queens``, a seat mask) maximizes the card
    points it takes."""

    size = PLAYERS
    low = -1
    high = ALL_POINTS + 1

    def __init__(self, queens: int) -> None:
        self.queens = queens

    def mover(self, leader: int, n: int) -> int:
        return (leader + n) % PLAYERS

    def plays(self, hand: int, trick: Any, best: int) -> list[int]:
        return cards_of(legal_mask(hand, trick[0] if trick else -1, best))

    def takes(self, play: int, best: int) -> bool:
        return beats(play, best)

    def maximizing(self, seat: int) -> bool:
        return bool(self.queens >> seat & 1)

    def gain(self, trick: Any, winner: int) -> int:
        return sum(POINTS[c] for c in trick) if self.queens >> winner & 1 else 0


def position(state: Any) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """``(hands, trick, leader, queens)`` of a full state in play (a real or dealt one)."""
    if state.phase != PLAY:
        raise ValueError("the solver needs a state in play (after the declaration round)")
    hands = tuple(sum(1 << c for c in hand) for hand in state.hands)
    queens = sum(1 << p for p in range(PLAYERS) if state.side[p] == 0)
    return hands, tuple(state.trick), state.trick_leader, queens


def solve(
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    queens: int,
    alpha: int = -1,
    beta: int = ALL_POINTS + 1,
) -> int:
    """The queens' side's points from the cards in play under perfect play (exact when the
    result lies strictly inside ``(alpha, beta)``; otherwise a bound on the same side)."""
    return tricks.solve(Rules(queens), hands, trick, leader, 0, alpha, beta)


def move_values(state: Any) -> dict[int, int]:
    """Per legal card of the mover: the queens' side's points for the whole hand (taken so far
    plus the solved rest) if it plays that card and both sides then play perfectly."""
    hands, trick, leader, queens = position(state)
    taken = sum(state.points[p] for p in range(PLAYERS) if queens >> p & 1)
    values = tricks.play_values(Rules(queens), hands, trick, leader, 0, state.legal_actions())
    return {card: taken + value for card, value in values}


def brute_force(state: Any) -> int:
    """The queens' side's points for the whole hand under perfect play, by plain minimax over
    the engine's own moves (``clone``/``apply``): the tests' yardstick, slow."""
    if state.phase != PLAY:
        raise ValueError("brute_force needs a state in play")
    hand_no = state.hand_no
    queens = [p for p in range(PLAYERS) if state.side[p] == 0]
    return tricks.brute_force(
        state,
        lambda s: s.side_points[0] if s.hand_no != hand_no or s.is_terminal else None,
        lambda s: s.current in queens,
    )
