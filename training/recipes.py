"""The shipped training recipes, keyed by game id: which bots ``koira train`` plays against
and imitates by default (a game not listed: every bot of its league, all imitated)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Recipe:
    """``koira train``'s default overrides for one game (empty: the generic default)."""

    bots: tuple[str, ...] = ()  # the league; empty: every default agent but random
    bc_bots: tuple[str, ...] = ()  # the imitated bots; empty: the whole league


RECIPES: dict[str, Recipe] = {
    # the shipped recipe (docs/training.md): a league of the six heuristics, greedy imitated
    "koira": Recipe(
        bots=("greedy", "dumper", "warrior", "gambler", "cautious", "hoarder"),
        bc_bots=("greedy",),
    ),
    # imitate and play against the two sound bots: `lowest` loses ~95% of its games, so
    # cloning it teaches losing, and at an evaluation table it hides every other difference
    "matapesa": Recipe(bots=("keeper", "shed"), bc_bots=("keeper", "shed")),
}


def recipe(game: str) -> Recipe:
    """The shipped recipe of ``game`` (the generic default for a game not listed)."""
    return RECIPES.get(game, Recipe())
