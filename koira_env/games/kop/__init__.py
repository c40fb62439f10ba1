"""Kop (also Baska): a 16-card trick-taking game for four, the black queens' holders partners."""

from __future__ import annotations

from ...core.spec import GameSpec, Plugin

SPEC = GameSpec(
    id="kop",
    title="Kop",
    players=(4, 4),
    default_players=4,
    game=Plugin(f"{__name__}.game", "make_game"),
    table=Plugin(f"{__name__}.table", "table"),
    bots=Plugin(f"{__name__}.bots", "BOTS"),
    rollout=Plugin(f"{__name__}.bots", "ROLLOUT"),
    pimc=Plugin(f"{__name__}.search", "move_values"),
    single_hand={"single_hand": True},
)
