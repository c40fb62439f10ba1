"""Teka: Afghanistan's auction whist for two partnerships: one round of bids from 8 to 13 tricks
(or double thirteen, alone), declarer's trumps, play stops once the contract is decided, game
to 104."""

from __future__ import annotations

from ...core.spec import AgentChoices, GameSpec, Recipe

SPEC = GameSpec(
    __name__,
    "teka",
    "Teka",
    (4, 4),
    pimc="search.move_values",
    search="bots.SEARCH",
    flat="bots.FLAT",
    single_hand={"single_hand": True},
    version=1,  # 1: cards_winning, cards_master and tricks_needed in the observation (0.4.0)
    choices=AgentChoices(
        rank_by="win_rate",
        # PIMC (the open-card solver within 20 cards, counter's card rules above) with
        # counter's auction, and its distillation into a turn scorer
        # (docs/games/teka.md "champion", "champion-net")
        aliases={"champion": "pimc:64:counter", "champion-net": "net:teka4-net"},
    ),
    # Teka is judged in the greedy field (docs/games/teka.md "champion": beside random, the
    # random partner's auction decides the games), so distillation plays and is judged there
    recipe=Recipe(
        bots=("counter", "greedy"),
        field=("counter", "greedy"),
        eval_opponents=("counter", "greedy"),
    ),
)
