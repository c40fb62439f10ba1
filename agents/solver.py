"""Exact endgames in play: ``solver:N`` and the agents built on it (Koira's ``champion``).

Where a game has an exact endgame solver (``GameSpec.endgame``: Koira's phase two), the agent
deals the hidden cards ``deals`` times (once when nothing is hidden), takes every legal move's
verdict in each deal from the solver, and counts the deals each move escapes in (the seat
can make sure it does not lose, whatever the others play). It plays:

- a move that escapes in the most deals, when one escapes in any;
- otherwise a move the solver did not prove caught in every deal (undecided within the
  node budget), or any move when all are caught: chosen by the fallback, which is the game's
  rollout move (``iterations=0``) or the most visited of an ISMCTS search (the solver's
  verdict "caught" assumes the others play as one perfect team; real opponents err, and the
  search's playouts rank the moves by how often they do);
- out of the solver's reach (Koira: phase one, or more than ``max_cards`` cards in hands), the
  fallback.

Ties among escaping moves go to the fallback too, so with hidden cards the search ranks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from koira_env.core.agent import Turn
from koira_env.registry import spec

from .ismcts import ISMCTSAgent, rollout_move


@cache
def game_endgame(game_id: str) -> Any:
    """The game's endgame solver (``GameSpec.endgame``), or ``None``."""
    return spec(game_id).load("endgame")


class SolverAgent:
    """Exact verdicts on ``deals`` deals within ``max_cards`` cards in hands (each verdict at
    most ``max_nodes`` positions), the fallback elsewhere: the rollout move, or ISMCTS with
    ``iterations`` (one count, or one per phase as ``ISMCTSAgent`` takes them)."""

    name = "solver"

    def __init__(
        self,
        deals: int = 8,
        iterations: int | Sequence[int] = 0,
        max_cards: int = 20,
        max_nodes: int | None = 20_000,
    ) -> None:
        if deals < 1:
            raise ValueError(f"solver needs at least 1 deal, got {deals}")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"solver's node budget must be at least 1, got {max_nodes}")
        self.deals = deals
        self.max_cards = max_cards
        self.max_nodes = max_nodes
        counts = (iterations,) if isinstance(iterations, int) else tuple(iterations)
        self.search = ISMCTSAgent(iterations) if max(counts) > 0 else None

    def act(self, turn: Turn) -> int:
        legal = turn.view.legal
        if len(legal) == 1:
            return legal[0]
        candidates, _ = self.candidates(turn)
        if len(candidates) == 1:
            return candidates[0]
        return self.fallback(turn, candidates)

    def candidates(self, turn: Turn, complete: bool = False) -> tuple[list[int], bool | None]:
        """The moves left to choose from, and whether they escape: those escaping in the most
        deals (``True``), else those not proven caught in every deal, or every legal move when
        all are caught (``False``), or every legal move out of the solver's reach (``None``).
        ``complete`` solves every move even when nothing is hidden (the agent stops at the first
        escape, which is enough to play but not to name every escaping move)."""
        legal = list(turn.view.legal)
        endgame = game_endgame(turn.game.id)
        if endgame is None:
            raise ValueError(f"solver: {turn.game.title} has no endgame solver")
        verdicts = endgame(turn, self.deals, self.max_cards, self.max_nodes, complete)
        if verdicts is None:
            return legal, None
        escapes = {a: sum(v is True for v in verdicts[a]) for a in legal}
        best = max(escapes.values())
        if best:
            return [a for a in legal if escapes[a] == best], True
        open_ = [a for a in legal if not all(v is False for v in verdicts[a])]
        return open_ or legal, False

    def label(self, turn: Turn) -> tuple[dict[int, float], bool]:
        """Distillation's label (``koira_training.distill.teacher_label``): weights over the legal
        moves, and whether a solver or search made them. Every move that escapes in the most
        deals, shared equally; else the fallback search's visits over the candidates; else (no
        search in this phase) the rollout move, which is not searched unless the solver chose
        the candidates."""
        candidates, escaped = self.candidates(turn, complete=True)
        if escaped:
            return dict.fromkeys(candidates, 1.0), True
        if self.search is not None and self.search.budget(turn) > 0:
            visits = self.search.search(turn)
            weights = {a: float(visits.get(a, 0)) for a in candidates}
            return (weights if any(weights.values()) else dict.fromkeys(candidates, 1.0)), True
        return {self.fallback(turn, candidates): 1.0}, escaped is not None

    def fallback(self, turn: Turn, candidates: Sequence[int]) -> int:
        """The fallback's choice among ``candidates``: the rollout move if it is one (else the
        first), or the candidate the search visits most."""
        if self.search is None or self.search.budget(turn) == 0:
            move = rollout_move(turn)
            return move if move in candidates else candidates[0]
        visits = self.search.search(turn)
        return max(candidates, key=lambda a: visits.get(a, -1))


def solver(arg: str = "") -> SolverAgent:
    """``solver``, ``solver:DEALS``, ``solver:DEALS:ITERATIONS`` (ISMCTS where the solver does
    not decide; one count per phase as ``ismcts`` takes them, ``0/150``),
    ``solver:DEALS:ITERATIONS:MAX_CARDS`` or ``solver:DEALS:ITERATIONS:MAX_CARDS:MAX_NODES``."""
    if not arg:
        return SolverAgent()
    parts = arg.split(":")
    if len(parts) > 4:
        raise ValueError(f"solver takes at most DEALS:ITERATIONS:MAX_CARDS:MAX_NODES, got {arg!r}")
    try:
        deals = int(parts[0])
        counts = [int(x) for x in parts[1].split("/")] if len(parts) > 1 else [0]
        max_cards = int(parts[2]) if len(parts) > 2 else 20
        max_nodes = int(parts[3]) if len(parts) > 3 else 20_000
    except ValueError:
        raise ValueError(
            "solver needs integers: DEALS[:ITERATIONS[:MAX_CARDS[:MAX_NODES]]] (1:0/150:20), "
            f"got {arg!r}"
        ) from None
    return SolverAgent(deals, counts[0] if len(counts) == 1 else counts, max_cards, max_nodes)
