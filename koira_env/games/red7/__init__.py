"""Red7: a 49-card game for 2-4 where the card on the canvas sets the rule, and whoever is not
winning at the end of their turn is out; the last player in wins.

The rules as played here are in RULES.md (section Red7); docs/games/red7.md shows how to use
the environment and the bots.
"""

from ...core.game import GameSpec
from .game import make_game

SPEC = GameSpec(
    id="red7",
    title="Red7",
    players=(2, 4),
    default_players=4,
    make_game=make_game,
    package=__name__,
    rank_by="win_rate",
    single_hand={},  # the default game is one round already (scoring="points" is the long one)
)
