"""A game's declaration: ``SPEC`` in its package's ``__init__.py``.

The one place a game's id, title and player range are written: its modules read them from
there (``from . import SPEC``), the registry finds the package by id. Its plug-ins (how to
build it, its table, bots, search) are named one by one as fields, imported on first use, so
importing ``koira_env`` imports no game's bots or search. What the agents side
chooses for a game (its leaderboard measure, aliases, training league) lives there, keyed by
id: the env knows nothing of agents.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


# The plug-ins a game may declare, and what each loads (``GameSpec.load``).
PLUGINS = {
    "game": "make_game(num_players, **options) -> Game; ValueError on bad input",
    "table": "table(state, seat): the JSON table of ``core.table`` (``Game.table``)",
    "bots": "{name: factory taking the argument string}, as ``make_agent`` calls it",
    "rollout": "a fast ``State -> action`` policy for search rollouts (none: uniform random)",
    "search": "a compiled ISMCTS: ``(turn, iterations, exploration, random_rollout, seed, "
    "max_seconds) -> {action: root visits}`` or None when it cannot search that turn (none: "
    "``koira_agents.ismcts`` runs its own loop)",
    "flat": "a compiled flat Monte Carlo: ``(turn, playouts, seed) -> [(action, mean return)]`` "
    "or None when it cannot run that turn (none: ``koira_agents.flat`` runs its own loop)",
    "endgame": "an exact endgame solver: ``(turn, deals, max_cards, max_nodes) -> {action: "
    "[verdict per deal]}`` or None out of its reach; a verdict is True when the seat can make "
    "sure it does not lose, False when it cannot, None when undecided (none: "
    "``koira_agents.solver`` refuses)",
    "pimc": "open-card move values for perfect-information Monte Carlo: ``(turn, deals, seed, "
    "engine) -> [(action, mean value for the seat)]`` or None where it cannot solve that turn "
    "(none: ``koira_agents.pimc`` refuses)",
    "presets": "{name: options}, chosen by ``make_game(rules=...)``",
}


@dataclass(frozen=True)
class GameSpec:
    """A game's entry in the registry (``koira_env.registry``).

    A plug-in is written ``"module.attribute"`` inside the game's package (``PLUGINS`` says
    what each is) and imported only when ``load``-ed. The defaults are the standard package
    shape (docs/games.md "The package"), so a game names only what it adds or keeps
    elsewhere; ``""`` is a plug-in the game does not have."""

    package: str  # the game package's ``__name__``: where its plug-ins are found
    id: str
    title: str
    players: tuple[int, int]  # the range over every variant
    default_players: int = 4  # the usual table
    game: str = "game.make_game"
    table: str = "table.table"
    bots: str = "bots.BOTS"
    rollout: str = "bots.ROLLOUT"
    search: str = ""
    flat: str = ""
    endgame: str = ""
    pimc: str = ""
    presets: str = ""
    single_hand: dict[str, Any] = field(default_factory=dict)  # options for a one-hand game

    def load(self, plugin: str) -> Any:
        """The plug-in itself (``spec.load("bots")``), imported on first use; ``None`` where
        the game has none."""
        if plugin not in PLUGINS:
            raise ValueError(f"unknown plug-in {plugin!r}; plug-ins: {list(PLUGINS)}")
        where = getattr(self, plugin)
        if not where:
            return None
        module, _, name = where.rpartition(".")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)

    def make_game(self, num_players: int | None = None, **options: Any) -> Game:
        """The ``Game`` at ``num_players`` (default: the game's usual table)."""
        players = self.default_players if num_players is None else num_players
        return self.load("game")(players, **options)


def exports(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A package's ``__getattr__`` (PEP 562) handing on ``names`` (name -> the module, in the
    package, that defines it) on first use: a game's modules read ``SPEC`` from its
    ``__init__.py``, which therefore imports none of them."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{names[name]}"), name)

    return __getattr__
