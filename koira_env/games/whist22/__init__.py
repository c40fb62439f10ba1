"""Whist 22: precision bidding with the 22 tarot trumps (3-4 players; RULES.md, Whist 22)."""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe, exports

SPEC = GameSpec(
    __name__,
    "whist22",
    "Whist 22",
    (3, 4),
    pimc="search.move_values",
    search="bots.SEARCH",
    flat="bots.FLAT",
    single_hand={"max_hands": 1},
    choices=AgentChoices(
        rank_by="win_rate",
        # PIMC on the open-card model solver, bids searched too, and its distilled network
        # (docs/games/whist22.md "champion", "champion-net")
        aliases={"champion": "pimc:32", "champion-net": "net:whist224-net"},
    ),
    # PPO's league is the hand-written bots (the search champion would slow every step);
    # distillation plays against the best bot and is judged at the bar's table
    recipe=Recipe(
        bots=("counter", "greedy"), field=("counter",), eval_opponents=("counter", "random")
    ),
)

__getattr__ = exports(__name__, {"WhistGame": "game", "make_game": "game"})
__all__ = ["SPEC", "WhistGame", "make_game"]
