"""The ``search`` and ``flat`` plug-ins (``GameSpec.search``, ``GameSpec.flat``) of a game whose
compiled core has a search module (its ``_search.pyx``, built on core/_search.pxi), written
once: each runs the compiled loop when the turn's state is on that core and the game allows
it, else returns None, and ``koira_agents.ismcts`` / ``koira_agents.flat`` run their reference
loops (an unbuilt checkout, ``engine="python"``, or a state the compiled search cannot read)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from .agent import Turn

SearchHook = Callable[[Turn, int, float, bool, int, float | None], dict[int, int] | None]
FlatHook = Callable[[Turn, int, int], list[tuple[int, float]] | None]


@cache
def _modules(package: str) -> tuple[ModuleType, type] | None:
    """The package's compiled search module and compiled State class, or None if not built."""
    try:
        search = importlib.import_module(f"{package}._search")
        compiled = importlib.import_module(f"{package}._compiled")
    except ImportError:
        return None
    return search, compiled.State


def compiled_plugins(
    package: str, allows: Callable[[Turn], bool] | None = None
) -> tuple[SearchHook, FlatHook]:
    """``(search, flat)`` for the game package ``package``; ``allows(turn)`` refuses turns
    the compiled loops cannot play (Red7's points games, whose later rounds a deal of the
    hidden cards cannot know)."""

    def module(turn: Turn) -> Any:
        found = _modules(package)
        if found is None or type(turn._state) is not found[1]:
            return None
        return found[0] if allows is None or allows(turn) else None

    def search(
        turn: Turn,
        iterations: int,
        exploration: float,
        random_rollout: bool,
        seed: int,
        max_seconds: float | None,
    ) -> dict[int, int] | None:
        """Root visits of SO-ISMCTS in C (``_search.search``): it deals the seat's hidden
        cards as ``turn.sample_state()`` does and reads nothing else hidden."""
        fast = module(turn)
        if fast is None:
            return None
        return fast.search(
            turn._state, turn.view.seat, iterations, exploration, random_rollout, seed, max_seconds
        )

    def flat(turn: Turn, playouts: int, seed: int) -> list[tuple[int, float]] | None:
        """Flat Monte Carlo in C (``_search.action_values``): each legal move's mean return
        over ``playouts`` deals of the seat's hidden cards, the rollout policy finishing
        every game."""
        fast = module(turn)
        return (
            None
            if fast is None
            else fast.action_values(turn._state, turn.view.seat, playouts, seed)
        )

    return search, flat
