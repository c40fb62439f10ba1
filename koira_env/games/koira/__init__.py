"""Koira (Dog) and its sister game Mattis: engine, observation, text, bots and the exact
phase-two solver (``solve``, ``solve_moves``)."""

from ...core.game import GameSpec
from .game import make_game
from .solver import solve, solve_moves

SPEC = GameSpec(
    id="koira",
    title="Koira",
    players=(2, 8),
    default_players=4,
    make_game=make_game,
    package=__name__,
    rank_by="loss_rate",
    opponent="champion",
    # the strongest shipped agent (docs/solver.md "Agents"): the exact phase-two solver within
    # 16 cards in hands (2,000 positions a verdict), ISMCTS (150 iterations) where it does not
    # decide in phase two, the dumper's move in phase one; on the compiled core it takes less
    # time per decision than ismcts:50 and loses less often than ismcts:200
    # and the strongest shipped network-only policy (docs/bots.md "champion-net"): the PPO
    # model, which measured as strong as the distilled net:koira4-net against dumpers and
    # stronger at the same table
    aliases={"champion": "solver:1:0/150:16:2000", "champion-net": "ppo:koira4-ppo"},
    # the shipped recipe (docs/training.md): a league of the six heuristics, greedy imitated
    training={
        "bots": ("greedy", "dumper", "warrior", "gambler", "cautious", "hoarder"),
        "bc_bots": ("greedy",),
    },
)

__all__ = ["SPEC", "make_game", "solve", "solve_moves"]
