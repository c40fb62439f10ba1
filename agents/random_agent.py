"""Uniformly random legal moves, for every game: the floor every other bot must beat."""

from __future__ import annotations

from koira_env.core.agent import Turn


class RandomAgent:
    name = "random"

    def act(self, turn: Turn) -> int:
        return turn.rng.choice(turn.view.legal)


def random_agent(arg: str = "") -> RandomAgent:
    """``random`` (no argument)."""
    if arg:
        raise ValueError(f"random takes no argument, got {arg!r}")
    return RandomAgent()
