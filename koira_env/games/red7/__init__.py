"""Red7: a 49-card game for 2-4 where the card on the canvas sets the rule, and whoever is not
winning at the end of their turn is out; the last player in wins.

The rules as played here are in RULES.md (section Red7); docs/games/red7.md shows how to use
the environment and the bots.
"""

from __future__ import annotations

from ...core.spec import GameSpec, Plugin

SPEC = GameSpec(
    id="red7",
    title="Red7",
    players=(2, 4),
    default_players=4,
    game=Plugin(f"{__name__}.game", "make_game"),
    table=Plugin(f"{__name__}.table", "table"),
    bots=Plugin(f"{__name__}.bots", "BOTS"),
    rollout=Plugin(f"{__name__}.bots", "ROLLOUT"),
    search=Plugin(f"{__name__}.bots", "SEARCH"),
    flat=Plugin(f"{__name__}.bots", "FLAT"),
    single_hand={},  # the default game is one round already (scoring="points" is the long one)
)
