"""Red7: a 49-card game for 2-4 where the card on the canvas sets the rule, and whoever is not
winning at the end of their turn is out; the last player in wins.

The rules as played here are in RULES.md (section Red7); docs/games/red7.md shows how to use
the environment and the bots.
"""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe

# the default game is one round already (scoring="points" is the long one)
SPEC = GameSpec(
    __name__,
    "red7",
    "Red7",
    (2, 4),
    search="bots.SEARCH",
    flat="bots.FLAT",
    choices=AgentChoices(
        rank_by="win_rate",
        # flat Monte Carlo in C with thrifty playouts, and flat:200 distilled into a turn
        # scorer (docs/games/red7.md "champion", "champion-net")
        aliases={"champion": "flat:48", "champion-net": "net:red74-net"},
    ),
    recipe=Recipe(
        bots=("pressure", "thrifty"), field=("thrifty",), eval_opponents=("thrifty", "random")
    ),
)
