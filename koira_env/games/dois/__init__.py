"""Dois: a trick-taking game for 3-4 whose cards show a suit or a number, never both.

Each player shows one suit card and one number card that stay on the table and get covered
one at a time, so every trick carries the last one's cards. The rules as played here are in
RULES.md (section Dois); docs/games/dois.md shows how to use the environment and the bots.
"""

from ...core.game import GameSpec
from .engine import DoisView, State
from .game import DoisGame, make_game
from .rules import Rules, make_rules

SPEC = GameSpec(
    id="dois",
    title="Dois",
    players=(3, 4),
    default_players=4,
    make_game=make_game,
    package="koira_env.games.dois",
    rank_by="win_rate",
    single_hand={"hands": 1},
)

__all__ = ["SPEC", "DoisGame", "DoisView", "Rules", "State", "make_game", "make_rules"]
