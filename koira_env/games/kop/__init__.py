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
    single_hand={"single_hand": True},
    # perfect-information Monte Carlo on the open-card solver, counter's declarations
    # (docs/games/kop.md "Strength": above counter at about 2 ms a decision)
    aliases={"champion": "pimc:64:counter"},
)
