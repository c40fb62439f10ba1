"""Teka: Afghanistan's auction whist for two partnerships: one round of bids from 8 to 13 tricks
(or double thirteen, alone), declarer's trumps, play stops once the contract is decided, game
to 104."""

from ...core.game import GameSpec
from .game import make_game

SPEC = GameSpec(
    id="teka",
    title="Teka",
    players=(4, 4),
    default_players=4,
    make_game=make_game,
    package=__name__,
    rank_by="win_rate",
    single_hand={"single_hand": True},
)
