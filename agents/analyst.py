"""A game's analyst: the search that puts a value on every legal move, for people (the web
table's hint, the analysis board, ``koira analyze``).

It is the game's ``champion`` where the champion values moves (perfect-information Monte
Carlo's open-card means in Kop, Whist 22, Teka and Dois; flat Monte Carlo's mean returns in
Mätäpesä and Red7), and flat Monte Carlo with the game's rollout policy (``FALLBACK``) where
it does not (Koira's champion, whose exact verdicts ``koira_experiments.analyze`` reads itself) or
not at this turn (a declaration round). Values are in the searching agent's own units
(``Valuation.kind`` says which), so they compare moves of one decision, not two games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koira_env.core.agent import Turn

from .flat import FlatAgent
from .pimc import PIMCAgent
from .registry import make_agent

# few playouts: where no compiled loop exists (Teka's auction) each playout is a whole game
# in Python, and a hint should come back within a second or two
FALLBACK = "flat:16"
KINDS = {
    PIMCAgent: "open-card value",  # the mean over deals of the hidden cards, solved open
    FlatAgent: "mean return",  # in [-1, 1]: the seat's reward over playouts
}


@dataclass(frozen=True)
class Valuation:
    """Every legal move's value at one decision, by one search."""

    values: dict[int, float]
    kind: str  # what the numbers are (``KINDS``)
    by: str  # the agent spec that searched

    def best(self) -> int:
        """The move with the highest value (the first in legal order on a tie)."""
        return max(self.values, key=lambda a: self.values[a])

    def mistake(self, played: int) -> bool:
        """Whether ``played`` was nearer the worst move than the best (and the moves differ):
        a unit-free test, so it reads the same for every kind of value."""
        best, worst = max(self.values.values()), min(self.values.values())
        return best - worst > 1e-9 and best - self.values[played] > (best - worst) / 2


def values_of(agent: Any, turn: Turn) -> dict[int, float] | None:
    """The values ``agent`` puts on the legal moves of ``turn``, or ``None`` where it puts
    none (an agent that does not search, or a search that does not reach this turn)."""
    if isinstance(agent, PIMCAgent):
        return agent.values(turn)
    if isinstance(agent, FlatAgent):
        return dict(agent.values(turn)) if agent.searches(turn) else None
    return None


class Analyst:
    """The game's champion where it values moves, flat Monte Carlo elsewhere."""

    def __init__(self, game_id: str) -> None:
        self.spec = "champion"
        try:
            self.agent: Any = make_agent(self.spec, game_id)
        except ValueError:  # a game without a champion alias
            self.spec, self.agent = FALLBACK, make_agent(FALLBACK, game_id)
        self.fallback = make_agent(FALLBACK, game_id)

    def value(self, turn: Turn) -> Valuation:
        """Every legal move's value for the seat to move."""
        for spec, agent in ((self.spec, self.agent), (FALLBACK, self.fallback)):
            values = values_of(agent, turn)
            if values is not None:
                return Valuation(values, KINDS[type(agent)], spec)
        raise AssertionError("flat Monte Carlo values every turn")  # FALLBACK always searches
