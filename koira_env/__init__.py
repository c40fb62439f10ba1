"""The Koira RL suite's environments: a registry of card games behind one PettingZoo AEC env.

``koira_env.games()`` lists the games; ``koira_env.make(game, num_players, **options)`` builds
any of them. Koira keeps its own short forms: ``env()``, ``raw_env()``, ``new_game()``.
"""

from __future__ import annotations

from typing import Any

from .cards import card_id, card_name, parse_deck
from .core.env import CardGameEnv, RawCardGameEnv
from .core.game import IllegalActionError
from .core.vector_env import VectorEnv
from .games.koira.engine import RISK, TAKE, State, new_game
from .games.koira.rules import PRESETS, Rules, make_rules
from .registry import games, make, make_game, make_raw

# The one place the version is written: pyproject.toml reads it, ``koira --version`` prints it.
__version__ = "0.3.0"


def env(
    num_players: int | str | None = None,
    rules: str | Rules | int = "koira",
    render_mode: str | None = None,
    **options: Any,
) -> CardGameEnv:
    """Koira's env with PettingZoo's protections (illegal moves end the game with -1 for the
    mover), on the compiled core unless ``engine="python"`` (the reference engine); the table
    size defaults to the preset's usual one (4; ``mini``: 2). Given a game id first,
    ``env("whist22", 3)`` is ``make("whist22", 3)``."""
    if isinstance(num_players, str):
        return make(num_players, _players(rules), render_mode, **options)
    return make("koira", num_players, render_mode, rules=rules, **options)


def raw_env(
    num_players: int | str | None = None,
    rules: str | Rules | int = "koira",
    render_mode: str | None = None,
    **options: Any,
) -> RawCardGameEnv:
    """The bare env: illegal actions raise ``IllegalActionError`` (a ``ValueError``).
    Given a game id first, ``raw_env("kop")`` is ``make_raw("kop")``."""
    if isinstance(num_players, str):
        return make_raw(num_players, _players(rules), render_mode, **options)
    return make_raw("koira", num_players, render_mode, rules=rules, **options)


def vector_env(
    num_envs: int,
    num_players: int | None = None,
    rules: str | Rules | int = "koira",
    game: str = "koira",
    *,
    split_actions: bool = False,
    **options: Any,
) -> VectorEnv:
    """``num_envs`` games stepped together (``core.vector_env``): Koira's with ``rules`` as its
    preset, or any game of the registry by id, ``vector_env(64, 4, game="whist22")``;
    ``split_actions=True`` takes each of Red7's turns as two decisions (``core.parts``)."""
    if game == "koira":
        built = make_game("koira", num_players, rules=rules, **options)
    elif rules != "koira":  # the parameter's default: not given
        raise ValueError(f"rules is Koira's preset; give {game}'s options by name, got {rules!r}")
    else:
        built = make_game(game, num_players, **options)
    return VectorEnv(built, num_envs, split_actions=split_actions)


def _players(second: Any) -> int | None:
    """``env(game, n)``: the table size given second, else the game's default."""
    if second == "koira":  # the parameter's default: not given
        return None
    if isinstance(second, int) and not isinstance(second, bool):
        return second
    raise ValueError(
        f"after a game id, give the number of players (or use koira_env.make), got {second!r}"
    )


__all__ = [
    "PRESETS",
    "RISK",
    "TAKE",
    "CardGameEnv",
    "IllegalActionError",
    "RawCardGameEnv",
    "Rules",
    "State",
    "VectorEnv",
    "card_id",
    "card_name",
    "env",
    "games",
    "make",
    "make_game",
    "make_raw",
    "make_rules",
    "new_game",
    "parse_deck",
    "raw_env",
    "vector_env",
]
