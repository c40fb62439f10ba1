"""A game's declaration: ``SPEC`` in its package's ``__init__.py``.

The one place a game's id, title and player range are written: its modules read them from
there (``from . import SPEC``), the registry finds the package by id. Its plug-ins (how to
build it, its table, bots, search) are named one by one as fields, imported on first use, so
importing ``koira_env`` imports no game's bots or search. What the agents and training sides
choose for the game (``AgentChoices``: its leaderboard measure, default opponent and aliases;
``Recipe``: its training league) is declared there too, as plain names: the env never reads
them, so it still knows nothing of agents, and everything about one game has one home.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
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


RANK_BY = ("loss_rate", "win_rate", "mean_place")  # the measures a leaderboard can lead with


@dataclass(frozen=True)
class AgentChoices:
    """What ``koira_agents`` chooses for a game (the defaults serve a game that says nothing)."""

    rank_by: str = "mean_place"  # the tournament leaderboard's headline measure (``RANK_BY``)
    opponent: str = ""  # ``koira play``'s default opponent; empty: the game's first bot
    # agent names that stand for an agent spec, resolved by ``koira_agents.registry``: a
    # game's "champion" is its strongest shipped agent, whatever it is made of this release
    aliases: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.rank_by not in RANK_BY:
            raise ValueError(f"unknown rank_by {self.rank_by!r}; valid: {list(RANK_BY)}")


@dataclass(frozen=True)
class Recipe:
    """``koira train``'s defaults for a game (empty: the generic default)."""

    bots: tuple[str, ...] = ()  # PPO's league; empty: every default agent but random
    bc_bots: tuple[str, ...] = ()  # the imitated bots; empty: the whole league
    # distillation: the bots in the other seats while the teacher labels, drawn per seat per
    # game; empty: the game's hand-written bots but random
    field: tuple[str, ...] = ()
    # distillation: the agents beside the network at its evaluation tournament (every table of
    # them, every seat rotation); empty: the field and random
    eval_opponents: tuple[str, ...] = ()
    # distillation: the agent that labels the recorded seat's decisions
    teacher: str = "champion"


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
    # a preset's own usual table where it differs (Koira's two-player "mini")
    preset_players: dict[str, int] = field(default_factory=dict)
    # the env's version (its name is ``<id>_v<version>``): raised whenever the observation or
    # the rules change, and the change named in CHANGELOG.md with it
    version: int = 0
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
    choices: AgentChoices = field(default_factory=AgentChoices)  # read by koira_agents only
    recipe: Recipe = field(default_factory=Recipe)  # read by koira_training only

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
        """The ``Game`` at ``num_players`` (default: the usual table of the game or of its
        preset, ``options["rules"]``)."""
        players = num_players
        if players is None:
            preset = options.get("rules")  # a bad one (even unhashable) is the game's to refuse
            named = isinstance(preset, str) and preset in self.preset_players
            players = self.preset_players[preset] if named else self.default_players
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
