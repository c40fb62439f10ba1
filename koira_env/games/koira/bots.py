"""Koira's bots: six heuristics (``heuristics.py``), the card-counting ``expert``
(``expert.py``), and the dumper's move as the rollout policy of search."""

from __future__ import annotations

from .engine import PHASE_ONE, State
from .expert import ExpertAgent
from .heuristics import HEURISTICS, HeuristicAgent

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


BOTS = {**HEURISTICS, "expert": expert}
ROLLOUT = dumper_move
