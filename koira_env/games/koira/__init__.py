"""Koira (Dog) and its sister game Mattis: engine, observation, text, bots and the exact
phase-two solver (``solve``, ``solve_moves``)."""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe, exports

SPEC = GameSpec(
    __name__,
    "koira",
    "Koira",
    (2, 8),
    search="bots.SEARCH",
    flat="bots.FLAT",
    endgame="bots.ENDGAME",
    presets="rules.PRESETS",
    preset_players={"mini": 2},
    choices=AgentChoices(
        rank_by="loss_rate",
        opponent="champion",
        aliases={
            # the exact phase-two solver within 16 cards in hands, compiled ISMCTS where it
            # does not decide, the dumper's move in phase one (docs/solver.md "Agents")
            "champion": "solver:1:0/150:16:2000",
            # the strongest network-only policy, the PPO model (docs/bots.md "champion-net")
            "champion-net": "ppo:koira4-ppo",
        },
    ),
    recipe=Recipe(
        # PPO: a league of the six heuristics, greedy imitated (docs/training.md)
        bots=("greedy", "dumper", "warrior", "gambler", "cautious", "hoarder"),
        bc_bots=("greedy",),
        # distillation: games against dumpers, judged against three (docs/training.md)
        field=("dumper",),
        eval_opponents=("dumper", "dumper", "dumper"),
        teacher="flat:2:2",  # compiled flat Monte Carlo: 960,000 labelled games in 27 minutes
    ),
)

__getattr__ = exports(__name__, {"make_game": "game", "solve": "solver", "solve_moves": "solver"})
__all__ = ["SPEC", "make_game", "solve", "solve_moves"]
