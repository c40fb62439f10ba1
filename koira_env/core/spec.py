"""A game's declaration: ``SPEC`` in its package's ``__init__.py``.

The one place a game's id, title and player range are written: its modules read them from
there (``from . import SPEC``), the registry finds the package by id. Its plug-ins (how to
build it, its table, bots, search) are named one by one as ``Plugin`` fields, imported on
first use, so importing ``koira_env`` imports no game's bots or search. What the agents side
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


@dataclass(frozen=True)
class Plugin:
    """``module.name``, imported when first called: a plug-in costs nothing until it is used."""

    module: str
    name: str

    def __call__(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)


def absent() -> None:
    """The loader of a plug-in the game does not have."""
    return None


@dataclass(frozen=True)
class GameSpec:
    """A game's entry in the registry (``koira_env.registry``). Every plug-in is a loader:
    call it for the thing itself (``spec.bots()``), ``None`` where the game has none."""

    id: str
    title: str
    players: tuple[int, int]  # the range over every variant
    default_players: int
    game: Plugin  # -> make_game(num_players, **options) -> Game; ValueError on bad input
    table: Plugin  # -> table(state, seat): the JSON table of ``core.table`` (``Game.table``)
    bots: Plugin  # -> {name: factory taking the argument string}, as ``make_agent`` calls it
    # -> a fast ``State -> action`` policy for search rollouts (None: uniform random)
    rollout: Callable[[], Any] = absent
    # -> a compiled ISMCTS: ``(turn, iterations, exploration, random_rollout, seed,
    # max_seconds) -> {action: root visits}`` or None when it cannot search that turn
    # (None: ``agents.ismcts`` runs its own loop)
    search: Callable[[], Any] = absent
    # -> a compiled flat Monte Carlo: ``(turn, playouts, seed) -> [(action, mean return)]`` or
    # None when it cannot run that turn (None: ``agents.flat`` runs its own loop)
    flat: Callable[[], Any] = absent
    # -> an exact endgame solver: ``(turn, deals, max_cards, max_nodes) -> {action: [verdict
    # per deal]}`` or None out of its reach; a verdict is True when the seat can make sure it
    # does not lose, False when it cannot, None when undecided (None: ``agents.solver`` refuses)
    endgame: Callable[[], Any] = absent
    # -> open-card move values for perfect-information Monte Carlo: ``(turn, deals, seed,
    # engine) -> [(action, mean value for the seat)]`` or None where it cannot solve that turn
    # (None: ``agents.pimc`` refuses)
    pimc: Callable[[], Any] = absent
    presets: Callable[[], Any] = absent  # -> {name: options}, chosen by ``make_game(rules=...)``
    single_hand: dict[str, Any] = field(default_factory=dict)  # options for a one-hand game

    def make_game(self, num_players: int | None = None, **options: Any) -> Game:
        """The ``Game`` at ``num_players`` (default: the game's usual table)."""
        players = self.default_players if num_players is None else num_players
        return self.game()(players, **options)


def exports(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A package's ``__getattr__`` (PEP 562) handing on ``names`` (name -> the module, in the
    package, that defines it) on first use: a game's modules read ``SPEC`` from its
    ``__init__.py``, which therefore imports none of them."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{names[name]}"), name)

    return __getattr__
