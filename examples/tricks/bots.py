"""Tricks' bots: ``high`` (takes what it can) and the rollout policy search plays out with.
A bot reads only ``turn.view``; the rollout policy reads only the mover's legal moves."""

from __future__ import annotations

from koira_env.core.agent import Turn, no_argument

from .engine import State


class HighBot:
    """Plays its highest legal card (ids rise with rank within a suit)."""

    name = "high"

    def act(self, turn: Turn) -> int:
        return max(turn.view.legal, key=lambda c: (c % 5, c))


def lowest_move(state: State) -> int:
    """Rollout policy on a full state: the lowest legal card."""
    return min(state.legal_actions(), key=lambda c: (c % 5, c))


BOTS = {"high": no_argument(HighBot, "high")}
ROLLOUT = lowest_move
