"""Teka: Afghanistan's auction whist for two partnerships: one round of bids from 8 to 13 tricks
(or double thirteen, alone), declarer's trumps, play stops once the contract is decided, game
to 104."""

from __future__ import annotations

from ...core.spec import GameSpec, Plugin

SPEC = GameSpec(
    id="teka",
    title="Teka",
    players=(4, 4),
    default_players=4,
    game=Plugin(f"{__name__}.game", "make_game"),
    table=Plugin(f"{__name__}.table", "table"),
    bots=Plugin(f"{__name__}.bots", "BOTS"),
    rollout=Plugin(f"{__name__}.bots", "ROLLOUT"),
    pimc=Plugin(f"{__name__}.search", "move_values"),
    single_hand={"single_hand": True},
)
