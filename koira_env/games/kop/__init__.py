"""Kop (also Baska): a 16-card trick-taking game for four, the black queens' holders partners."""

from ...core.game import GameSpec
from .game import make_game

SPEC = GameSpec(
    id="kop",
    title="Kop",
    players=(4, 4),
    default_players=4,
    make_game=make_game,
    package=__name__,
    rank_by="win_rate",
    single_hand={"single_hand": True},
    # perfect-information Monte Carlo on the open-card solver, counter's declarations
    # (docs/games/kop.md "Strength": above counter at about 2 ms a decision)
    aliases={"champion": "pimc:64:counter"},
)
