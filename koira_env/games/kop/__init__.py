"""Kop (also Baska): a 16-card trick-taking game for four, the black queens' holders partners."""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe

SPEC = GameSpec(
    __name__,
    "kop",
    "Kop",
    (4, 4),
    pimc="search.move_values",
    search="bots.SEARCH",
    flat="bots.FLAT",
    single_hand={"single_hand": True},
    choices=AgentChoices(
        rank_by="win_rate",
        # PIMC on the open-card solver with counter's declarations, and its distilled network
        # (docs/games/kop.md "Strength", "champion-net")
        aliases={"champion": "pimc:64:counter", "champion-net": "net:kop4-net"},
    ),
    # PPO's league: the game's agents as before champion-net was an alias; distillation of
    # champion against the best bot, judged at the table Kop's tournaments use
    recipe=Recipe(
        bots=("champion", "counter", "lowest"),
        field=("counter",),
        eval_opponents=("counter", "random"),
    ),
)
