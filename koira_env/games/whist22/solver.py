"""Whist 22's open-card solver: the rest of a hand played perfectly, on one seat's bid.

With every hand seen, the rest of a Whist 22 hand is a game of perfect information. The seat
the solver works for loses ``|tricks - bid|`` points when the hand is scored (``State.
_end_hand``), so its value for the hand is ``-|need - t|``: ``need`` is its bid less the
tricks it has taken, ``t`` the tricks it takes from here on. The solver is paranoid: the seat
maximizes that value and every other player minimizes it (they may know every card and work
together), an alpha-beta minimax over the legal plays: any card in hand, the Fool as 0 or as
22. The values lie in ``[-hand size, 0]``; the other players' own bids play no part.

``model_move_values`` is the other solver, the one ``champion`` uses (``search.py``): the
seat plays its best plan and every other player bids and plays by ``counter``'s rule, each
from its own view; its reference runs the engine and ``bots.CounterBot`` themselves.

This module is the readable reference: Whist 22's rules for the trick solvers' shared
alpha-beta (``core/tricks.py``). ``_solver.pyx`` is the same search in C, with a
transposition table at trick boundaries, move ordering and equivalent cards searched once
(none changes a value), and the model solver; ``tests/games/whist22/test_whist22_solver.py`` checks
the compiled solvers against these, and the paranoid one against a brute-force minimax over the
engine's own ``State.clone``/``apply``.

A position is ``(hands, trick, leader, seat, need)``: one 22-bit card mask per player (bit
``c`` for card ``c``, 0 the Fool), the values of the trick being played in play order (the
Fool as declared, 0 or 22), the player who led it, the seat and its need.
"""

from __future__ import annotations

from typing import Any

from ...core import tricks
from ...core.tricks import cards_of
from .engine import BID, BIDDING, FOOL, FOOL_HIGH, NUM_CARDS, PLAYING

WORST = -(NUM_CARDS + 1)  # below every value: -|need - t| >= -(hand size)


def plays(hand: int) -> list[int]:
    """The values a hand may play, in the engine's legal order: the Fool as 0 first and as
    22 last when held, the numbered cards between."""
    values = [c for c in cards_of(hand) if c]
    if hand & 1:
        return [FOOL, *values, FOOL_HIGH]
    return values


def card_of(value: int) -> int:
    """The card that plays as ``value`` (22 is the Fool)."""
    return FOOL if value == FOOL_HIGH else value


class Rules(tricks.TrickRules):
    """Whist 22 for ``core.tricks``: ``seat`` of ``n`` players maximizes ``-|need - t|``,
    ``need`` (the carried state) its bid less the tricks it has taken, the others minimize."""

    low = WORST
    high = 1

    def __init__(self, n: int, seat: int) -> None:
        self.size = n
        self.seat = seat

    def mover(self, leader: int, k: int) -> int:
        return (leader + k) % self.size

    def plays(self, hand: int, trick: Any, best: int) -> list[int]:
        return plays(hand)

    def card(self, play: int) -> int:
        return card_of(play)

    def takes(self, play: int, best: int) -> bool:
        return play > best

    def maximizing(self, seat: int) -> bool:
        return seat == self.seat

    def gain(self, trick: Any, winner: int) -> int:
        return 0  # a trick moves the need instead

    def state_after(self, need: int, winner: int) -> int:
        return need - 1 if winner == self.seat else need

    def final(self, need: int) -> int:
        return -abs(need)


def position(state: Any, seat: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int]:
    """``(hands, trick, leader, seat, need)`` of a full state (a real or a dealt one), in play
    or in the bidding (then from the first lead, ``need`` the seat's bid so far or 0)."""
    if state.phase not in (BIDDING, PLAYING):
        raise ValueError("the solver needs a hand in progress")
    hands = tuple(sum(1 << c for c in hand) for hand in state.hands)
    trick = tuple(value for _, value in state.trick)
    need = max(state.bids[seat], 0) - state.won[seat]
    return hands, trick, state.leader, seat, need


def solve(
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    need: int,
    alpha: int = WORST,
    beta: int = 1,
) -> int:
    """The seat's value ``-|need - t|`` under perfect play (exact when it lies strictly inside
    ``(alpha, beta)``; otherwise a bound on the same side)."""
    return tricks.solve(Rules(len(hands), seat), hands, trick, leader, need, alpha, beta)


def move_values(state: Any, seat: int) -> dict[int, int]:
    """Per legal action of the seat (the mover): its value for the hand, ``-|tricks - bid|``
    at the end, if it takes that action and everyone then plays as the solver assumes. In
    play, per card; in the bidding, per bid (the hand solved from the first lead)."""
    if state.current != seat:
        raise ValueError(f"player_{seat} is not to move")
    hands, trick, leader, _, need = position(state, seat)
    if state.phase == BIDDING:
        return {a: solve(hands, (), leader, seat, a - BID) for a in state.legal_actions()}
    rules = Rules(len(hands), seat)
    return dict(tricks.play_values(rules, hands, trick, leader, need, state.legal_actions()))


def brute_force(state: Any, seat: int) -> int:
    """The seat's score change for the hand under the solver's perfect play, by plain minimax
    over the engine's own moves (``clone``/``apply``; the seat maximizes, the others
    minimize): the tests' yardstick, slow. The state must be in play."""
    if state.phase != PLAYING:
        raise ValueError("brute_force needs a state in play")
    hand_no = state.hand_no
    start = state.scores[seat]
    return tricks.brute_force(
        state,
        lambda s: s.scores[seat] - start if s.hand_no != hand_no or s.is_terminal else None,
        lambda s: s.current == seat,
    )


def model_move_values(state: Any, seat: int) -> dict[int, int]:
    """The model solver's values (``_solver.model_values`` and ``model_bid_values``), by the
    engine itself: per legal action of the seat (the mover), its score change for the hand
    when it then plays its best plan knowing every card and every other player bids and
    plays by ``counter``'s rule (``bots.CounterBot`` on its own view). Slow: the reference."""
    from ...core.agent import Turn
    from .bots import CounterBot

    if state.current != seat:
        raise ValueError(f"player_{seat} is not to move")
    counter = CounterBot()
    hand_no = state.hand_no
    start = state.scores[seat]

    def value(s: Any) -> int:
        while not (s.hand_no != hand_no or s.is_terminal) and s.current != seat:
            p = s.current
            s.apply(counter.act(Turn(s.view(p), s.game, None, s)))  # type: ignore[arg-type]
        if s.hand_no != hand_no or s.is_terminal:
            return s.scores[seat] - start
        return max(after(s, action) for action in s.legal_actions())

    def after(s: Any, action: int) -> int:
        child = s.clone()
        child.apply(action)
        return value(child)

    return {action: after(state, action) for action in state.legal_actions()}
