"""The one registry of games: adding a game to the suite is one line in ``_PACKAGES``; a game
from outside plugs in with ``register``.

``games()`` lists the ids, ``spec(game)`` gives a game's ``GameSpec``, ``make_game`` a
``Game`` (rules at a table size), ``make`` / ``make_raw`` its PettingZoo AEC env, and
``replay`` a game record of any game (the record names its game).
Game packages are imported on first use, so importing ``koira_env`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from .core.env import CardGameEnv, RawCardGameEnv
from .core.game import Game, State
from .core.record import checked_record, replay_record, states_of_record
from .core.spec import GameSpec

_PACKAGES = {
    "koira": "koira_env.games.koira",
    "matapesa": "koira_env.games.matapesa",
    "whist22": "koira_env.games.whist22",
    "kop": "koira_env.games.kop",
    "dois": "koira_env.games.dois",
    "teka": "koira_env.games.teka",
    "red7": "koira_env.games.red7",
}
_BUILT_IN = frozenset(_PACKAGES)


def register(package: str) -> str:
    """Plug in a game from outside the suite (a researcher's own, or docs/games.md's example
    ``examples/tricks``): the importable ``package``'s ``SPEC`` joins the registry under its
    id, in this process and the worker processes it forks. Returns the id; ``ValueError`` if
    another package has it."""
    declared = importlib.import_module(package).SPEC
    taken = _PACKAGES.get(declared.id, package)
    if taken != package:
        raise ValueError(f"game id {declared.id!r} is taken by {taken}")
    _PACKAGES[declared.id] = package
    return declared.id


def unregister(game: str) -> None:
    """Take a ``register``-ed game out again (the suite's own games stay)."""
    if game in _BUILT_IN:
        raise ValueError(f"{game!r} is one of the suite's games and cannot be unregistered")
    _PACKAGES.pop(game, None)


def games() -> list[str]:
    """The ids of every playable game, in the order the README lists them."""
    return list(_PACKAGES)


def spec(game: str) -> GameSpec:
    """A game's registry entry; ``ValueError`` naming the valid ids for an unknown one."""
    if not isinstance(game, str) or game not in _PACKAGES:
        raise ValueError(f"unknown game {game!r}; valid games: {games()}")
    return importlib.import_module(_PACKAGES[game]).SPEC


def make_game(game: str, num_players: int | None = None, **options: Any) -> Game:
    """The ``Game`` of ``game`` at ``num_players`` (default: the game's usual table)."""
    return spec(game).make_game(num_players, **options)


def make(
    game: str,
    num_players: int | None = None,
    render_mode: str | None = None,
    *,
    split_actions: bool = False,
    **options: Any,
) -> CardGameEnv:
    """The AEC env of any game, with PettingZoo's protections built in (see ``core.env``);
    ``split_actions=True`` asks for each of Red7's turns in two decisions (``core.parts``)."""
    built = make_game(game, num_players, **options)
    return CardGameEnv(built, render_mode, split_actions=split_actions)


def make_raw(
    game: str,
    num_players: int | None = None,
    render_mode: str | None = None,
    *,
    split_actions: bool = False,
    **options: Any,
) -> RawCardGameEnv:
    """The bare AEC env of any game: an illegal action raises ``IllegalActionError``."""
    built = make_game(game, num_players, **options)
    return RawCardGameEnv(built, render_mode, split_actions=split_actions)


def record_game(record: dict[str, Any]) -> Game:
    """The ``Game`` a record was played under (a record without ``game`` is Koira's, format
    ``koira-record/1``); ``ValueError`` if its rules are not valid."""
    rules = record.get("rules")
    if not isinstance(rules, dict) or "num_players" not in rules:
        raise ValueError("game record's 'rules' must be a dict with num_players")
    return spec(record.get("game", "koira")).make_game(**rules)


def replay(record: dict[str, Any], check_events: bool = True) -> State:
    """Rebuild the final state of a record of any game (``core.record.replay_record``);
    ``ValueError`` if it is corrupt or does not match."""
    return replay_record(record, record_game(checked_record(record)), check_events)


def replay_states(record: dict[str, Any]) -> list[State]:
    """Every intermediate state of a record of any game, for stepping through it."""
    return states_of_record(record, record_game(checked_record(record)))
