"""Mätäpesä: a Finnish trick-taking game for 3-8 players where winning the last trick loses.

Related to Cucumber; suits never matter. The rules as played here are in RULES.md (section
Mätäpesä); docs/games/matapesa.md shows how to use the environment and the bots.
"""

from ...core.game import GameSpec
from .engine import MatapesaGame, MatapesaView, State, make_game
from .rules import Rules, make_rules

SPEC = GameSpec(
    id="matapesa",
    title="Mätäpesä",
    players=(3, 8),
    default_players=4,
    make_game=make_game,
    package="koira_env.games.matapesa",
    rank_by="loss_rate",
    single_hand={},  # a game is one round already
    # imitate and play against the two sound bots: `lowest` loses ~95% of its games, so
    # cloning it teaches losing, and at an evaluation table it hides every other difference
    training={"bots": ("keeper", "shed"), "bc_bots": ("keeper", "shed")},
)

__all__ = ["SPEC", "MatapesaGame", "MatapesaView", "Rules", "State", "make_game", "make_rules"]
