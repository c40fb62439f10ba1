"""Kop's perfect-information move values: the hook (``bots.PIMC``) of ``agents.pimc``.

On a full state (a deal of the hidden cards, ``State.determinize``) in play, every legal card
of the mover is scored by the open-card solver (``_solver.root_values``, compiled, or
``solver.solve``, the reference): the rest of the hand played perfectly by both sides. The
score is the seat's victory-card change for the hand that follows from the solved points
(53 wins; the stakes of a team, a solo or a silent solo, ``tie`` and ``silent_scoring`` as the
engine scores them), plus the seat's side's card points / 1000 to rank moves that do not
change the result (at most 0.104: less than any change of the result averaged over fewer than
16 deals... or more, since results change in steps of 1 victory card at least).
The declaration round is out of reach (``None``): the agent's fallback decides there.
"""

from __future__ import annotations

from typing import Any

from .cards import TO_WIN, TOTAL_POINTS
from .engine import PLAY, PLAYERS, SILENT, SOLO
from .solver import move_values as reference_values
from .solver import position

try:
    from ._solver import root_values
except ImportError:  # an unbuilt checkout: the reference solver runs
    root_values = None

ENGINES = ("auto", "python")
POINT_WEIGHT = 0.001  # per card point of the seat's side: ranks moves of the same result


def hand_change(state: Any, queens_points: int, seat: int) -> int:
    """The victory cards ``seat`` wins (or pays) when the queens' side ends the hand with
    ``queens_points``: the engine's ``_end_hand`` for one seat."""
    side = state.side
    rules = state.rules
    if queens_points >= TO_WIN:
        winner = 0
    elif TOTAL_POINTS - queens_points >= TO_WIN or rules.tie == "queens_lose":
        winner = 1
    else:
        return 0
    sign = 1 if side[seat] == winner else -1
    if state.decision not in (SOLO, SILENT):
        return 2 * sign
    stake = 1 if state.decision == SILENT and rules.silent_scoring == "team" else 2
    return sign * stake * (3 if side[seat] == 0 else 1)


def move_values(state: Any, seat: int, engine: str = "auto") -> list[tuple[int, float]] | None:
    """``[(card, value for seat)]`` for the mover's legal cards in legal order, if both sides
    play the rest of the hand perfectly in this (full) state; ``None`` in the declaration
    round. ``engine="python"`` runs the reference solver even where the compiled one is
    built."""
    if state.phase != PLAY:
        return None
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    hands, trick, leader, queens = position(state)
    taken = sum(state.points[p] for p in range(PLAYERS) if queens >> p & 1)
    if root_values is None or engine == "python":
        points = reference_values(state)
    else:
        points = {card: taken + value for card, value in root_values(hands, trick, leader, queens)}
    mine = state.side[seat] == 0
    out = []
    for card in state.legal_actions():
        queens_points = points[card]
        side_points = queens_points if mine else TOTAL_POINTS - queens_points
        out.append((card, hand_change(state, queens_points, seat) + POINT_WEIGHT * side_points))
    return out
