"""Koira's bots: six heuristics (``heuristics.py``), the card-counting ``expert``
(``expert.py``), the dumper's move as the rollout policy of search, the compiled search
(``_search.pyx``) that ``koira_agents.ismcts`` runs on the compiled core, and the exact phase-two
verdicts (``solver.py``) that ``koira_agents.solver`` plays by."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.compiled_search import compiled_plugins
from .engine import PHASE_ONE, PHASE_TWO, UNKNOWN, State

if TYPE_CHECKING:
    from ...core.agent import Turn
from .expert import ExpertAgent
from .heuristics import HEURISTICS, HeuristicAgent
from .solver import solve_moves

_ROLLOUT = HeuristicAgent(win="never", war=-1)  # the dumper's plan, fed straight from a State


def expert(arg: str = "") -> ExpertAgent:
    """``expert`` (no argument)."""
    if arg:
        raise ValueError(f"expert takes no argument, got {arg!r}")
    return ExpertAgent()


def dumper_move(state: State) -> int:
    """The dumper's move in a full state (no view is built: rollouts must be cheap)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    rules = state.rules
    if state.phase == PHASE_ONE:
        return _ROLLOUT.phase_one(legal, state.round_cards, rules.war_trigger == "any_tie", False)
    return _ROLLOUT.phase_two(legal, bool(state.trick), state.trump_suit, rules.voluntary_take)


def endgame_verdicts(
    turn: Turn, deals: int, max_cards: int, max_nodes: int | None, complete: bool = False
) -> dict[int, list[bool | None]] | None:
    """Each legal move's exact verdicts (``solver.solve_moves``) on ``deals`` deals of the
    seat's hidden cards, one deal when nothing is hidden (most of phase two: then the moves
    after the first escape are left unsolved, since any escape is certain, unless
    ``complete``); ``None`` out of the solver's reach: phase one, or more than ``max_cards``
    cards in hands."""
    view = turn.view
    if view.phase != PHASE_TWO or sum(view.hand_sizes) > max_cards:
        return None
    hidden = UNKNOWN in view.where
    verdicts: dict[int, list[bool | None]] = {a: [] for a in view.legal}
    for _ in range(deals if hidden else 1):
        found = solve_moves(turn.sample_state(), max_nodes, first_escape=not (hidden or complete))
        for action in view.legal:
            verdicts[action].append(found.get(action))
    return verdicts


BOTS = {**HEURISTICS, "expert": expert}
ROLLOUT = dumper_move
SEARCH, FLAT = compiled_plugins(__package__)
ENDGAME = endgame_verdicts
