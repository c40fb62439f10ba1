"""Koira (Dog) and its sister game Mattis: engine, observation, text, bots and the exact
phase-two solver (``solve``, ``solve_moves``)."""

from __future__ import annotations

from ...core.spec import GameSpec, Plugin, exports

SPEC = GameSpec(
    id="koira",
    title="Koira",
    players=(2, 8),
    default_players=4,
    game=Plugin(f"{__name__}.game", "make_game"),
    table=Plugin(f"{__name__}.table", "table"),
    bots=Plugin(f"{__name__}.bots", "BOTS"),
    rollout=Plugin(f"{__name__}.bots", "ROLLOUT"),
    search=Plugin(f"{__name__}.bots", "SEARCH"),
    flat=Plugin(f"{__name__}.bots", "FLAT"),
    endgame=Plugin(f"{__name__}.bots", "ENDGAME"),
    presets=Plugin(f"{__name__}.rules", "PRESETS"),
)

__getattr__ = exports(__name__, {"make_game": "game", "solve": "solver", "solve_moves": "solver"})
__all__ = ["SPEC", "make_game", "solve", "solve_moves"]
