"""Mätäpesä: a Finnish trick-taking game for 3-8 players where winning the last trick loses.

Related to Cucumber; suits never matter. The rules as played here are in RULES.md (section
Mätäpesä); docs/games/matapesa.md shows how to use the environment and the bots.
"""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe, exports

# a game is one round already (no single_hand options)
SPEC = GameSpec(
    __name__,
    "matapesa",
    "Mätäpesä",
    (3, 8),
    flat="search.flat_values",
    search="bots.SEARCH",
    choices=AgentChoices(
        rank_by="loss_rate",
        # flat Monte Carlo on the compiled rank-count core, and its distilled network
        # (docs/games/matapesa.md "champion", "champion-net")
        aliases={"champion": "flat:200", "champion-net": "net:matapesa4-net"},
    ),
    # the two sound bots: `lowest` loses nearly every game, so cloning it teaches losing, and at
    # an evaluation table it hides every other difference
    recipe=Recipe(
        bots=("keeper", "shed"),
        bc_bots=("keeper", "shed"),
        field=("shed", "keeper"),
        eval_opponents=("shed", "random"),
    ),
)

__getattr__ = exports(
    __name__,
    {
        "MatapesaGame": "game",
        "MatapesaView": "engine",
        "Rules": "rules",
        "State": "engine",
        "make_game": "game",
        "make_rules": "rules",
    },
)
__all__ = ["SPEC", "MatapesaGame", "MatapesaView", "Rules", "State", "make_game", "make_rules"]
