"""Koira (Dog) and its sister game Mattis: engine, observation, text and bots."""

from ...core.game import GameSpec
from .game import make_game

SPEC = GameSpec(
    id="koira",
    title="Koira",
    players=(2, 8),
    default_players=4,
    make_game=make_game,
    package=__name__,
    rank_by="loss_rate",
    opponent="expert",  # the card counter: the strongest bot that needs no model file
    # the shipped recipe (docs/training.md): a league of the six heuristics, greedy imitated
    training={
        "bots": ("greedy", "dumper", "warrior", "gambler", "cautious", "hoarder"),
        "bc_bots": ("greedy",),
    },
)
