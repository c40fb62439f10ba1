"""Koira (Dog) and its sister game Mattis: engine, observation, text, bots and the exact
phase-two solver (``solve``, ``solve_moves``)."""

from __future__ import annotations

from ...core.spec import GameSpec, exports

SPEC = GameSpec(
    __name__,
    "koira",
    "Koira",
    (2, 8),
    search="bots.SEARCH",
    flat="bots.FLAT",
    endgame="bots.ENDGAME",
    presets="rules.PRESETS",
)

__getattr__ = exports(__name__, {"make_game": "game", "solve": "solver", "solve_moves": "solver"})
__all__ = ["SPEC", "make_game", "solve", "solve_moves"]
