"""Kop (also Baska): a 16-card trick-taking game for four, the black queens' holders partners."""

from __future__ import annotations

from ...core.spec import GameSpec

SPEC = GameSpec(
    __name__, "kop", "Kop", (4, 4), pimc="search.move_values", single_hand={"single_hand": True}
)
