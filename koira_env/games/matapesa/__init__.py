"""Mätäpesä: a Finnish trick-taking game for 3-8 players where winning the last trick loses.

Related to Cucumber; suits never matter. The rules as played here are in RULES.md (section
Mätäpesä); docs/games/matapesa.md shows how to use the environment and the bots.
"""

from __future__ import annotations

from ...core.spec import GameSpec, Plugin, exports

SPEC = GameSpec(
    id="matapesa",
    title="Mätäpesä",
    players=(3, 8),
    default_players=4,
    game=Plugin(f"{__name__}.engine", "make_game"),
    table=Plugin(f"{__name__}.table", "table"),
    bots=Plugin(f"{__name__}.bots", "BOTS"),
    rollout=Plugin(f"{__name__}.bots", "ROLLOUT"),
    flat=Plugin(f"{__name__}.search", "flat_values"),
    single_hand={},  # a game is one round already
)

__getattr__ = exports(
    __name__,
    {
        "MatapesaGame": "engine",
        "MatapesaView": "engine",
        "Rules": "rules",
        "State": "engine",
        "make_game": "engine",
        "make_rules": "rules",
    },
)
__all__ = ["SPEC", "MatapesaGame", "MatapesaView", "Rules", "State", "make_game", "make_rules"]
