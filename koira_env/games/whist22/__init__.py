"""Whist 22: precision bidding with the 22 tarot trumps (3-4 players; RULES.md, Whist 22)."""

from ...core.game import GameSpec
from .game import WhistGame, make_game

SPEC = GameSpec(
    id="whist22",
    title="Whist 22",
    players=(3, 4),
    default_players=4,
    make_game=make_game,
    package="koira_env.games.whist22",
    rank_by="win_rate",
    single_hand={"max_hands": 1},
)

__all__ = ["SPEC", "WhistGame", "make_game"]
