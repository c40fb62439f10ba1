"""The one registry of games: adding a game is one line in ``_PACKAGES``.

``games()`` lists the ids, ``spec(game)`` gives a game's ``GameSpec``, ``make_game`` a
``Game`` (rules at a table size), and ``make`` / ``make_raw`` its PettingZoo AEC env.
Game packages are imported on first use, so importing ``koira_env`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from .core.env import CardGameEnv, RawCardGameEnv
from .core.game import Game, GameSpec

_PACKAGES = {
    "koira": "koira_env.games.koira",
    "matapesa": "koira_env.games.matapesa",
    "whist22": "koira_env.games.whist22",
    "kop": "koira_env.games.kop",
    "dois": "koira_env.games.dois",
    "teka": "koira_env.games.teka",
    "red7": "koira_env.games.red7",
}


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
    entry = spec(game)
    return entry.make_game(entry.default_players if num_players is None else num_players, **options)


def make(
    game: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> CardGameEnv:
    """The AEC env of any game, with PettingZoo's protections built in (see ``core.env``)."""
    return CardGameEnv(make_game(game, num_players, **options), render_mode)


def make_raw(
    game: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> RawCardGameEnv:
    """The bare AEC env of any game: an illegal action raises ``IllegalActionError``."""
    return RawCardGameEnv(make_game(game, num_players, **options), render_mode)
