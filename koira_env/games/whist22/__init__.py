"""Whist 22: precision bidding with the 22 tarot trumps (3-4 players; RULES.md, Whist 22)."""

from __future__ import annotations

from ...core.spec import GameSpec, exports

SPEC = GameSpec(
    __name__, "whist22", "Whist 22", (3, 4), pimc="search.move_values", single_hand={"max_hands": 1}
)

__getattr__ = exports(__name__, {"WhistGame": "game", "make_game": "game"})
__all__ = ["SPEC", "WhistGame", "make_game"]
