"""Dois: a trick-taking game for 3-4 whose cards show a suit or a number, never both.

Each player shows one suit card and one number card that stay on the table and get covered
one at a time, so every trick carries the last one's cards. The rules as played here are in
RULES.md (section Dois); docs/games/dois.md shows how to use the environment and the bots.
"""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe, exports

SPEC = GameSpec(
    __name__,
    "dois",
    "Dois",
    (3, 4),
    pimc="search.move_values",
    search="bots.SEARCH",
    flat="bots.FLAT",
    single_hand={"hands": 1},
    # 1: the observation's derived trick fields (0.4.0); 2: a redraw's order from its deck's rank
    version=2,
    choices=AgentChoices(
        rank_by="win_rate",
        # PIMC on compiled model playouts, bids searched too, and its distilled network
        # (docs/games/dois.md "champion", "champion-net")
        aliases={"champion": "pimc:32", "champion-net": "net:dois4-net"},
    ),
    recipe=Recipe(
        bots=("counter", "greedy"), field=("counter",), eval_opponents=("counter", "random")
    ),
)

__getattr__ = exports(
    __name__,
    {
        "DoisGame": "game",
        "DoisView": "engine",
        "Rules": "rules",
        "State": "engine",
        "make_game": "game",
        "make_rules": "rules",
    },
)
__all__ = ["SPEC", "DoisGame", "DoisView", "Rules", "State", "make_game", "make_rules"]
