"""The shipped training recipes, keyed by game id: which bots ``koira train`` plays against
and imitates by default (a game not listed: every bot of its league, all imitated), and which
bots distillation (``koira train --algo distill``) plays against and is judged against."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Recipe:
    """``koira train``'s default overrides for one game (empty: the generic default)."""

    bots: tuple[str, ...] = ()  # the league; empty: every default agent but random
    bc_bots: tuple[str, ...] = ()  # the imitated bots; empty: the whole league
    # distillation: the bots in the other seats while the teacher labels, drawn per seat per
    # game; empty: the game's hand-written bots but random (koira_training.distill.Args)
    field: tuple[str, ...] = ()
    # distillation: the agents beside the network at its evaluation tournament (every table of
    # them, every seat rotation); empty: the field and random
    eval_opponents: tuple[str, ...] = ()


RECIPES: dict[str, Recipe] = {
    # the shipped recipe (docs/training.md): a league of the six heuristics, greedy imitated
    "koira": Recipe(
        bots=("greedy", "dumper", "warrior", "gambler", "cautious", "hoarder"),
        bc_bots=("greedy",),
        # distillation's recipe (docs/training.md): games against dumpers, judged against three
        field=("dumper",),
        eval_opponents=("dumper", "dumper", "dumper"),
    ),
    # imitate and play against the two sound bots: `lowest` loses ~95% of its games, so
    # cloning it teaches losing, and at an evaluation table it hides every other difference;
    # distillation of champion against them, judged at the bar's table (best bot and random)
    "matapesa": Recipe(
        bots=("keeper", "shed"),
        bc_bots=("keeper", "shed"),
        field=("shed", "keeper"),
        eval_opponents=("shed", "random"),
    ),
    # PPO's league: the game's agents as before champion-net (a network of its own) was an
    # alias; distillation of champion (docs/games/kop.md "champion-net"): against the best bot,
    # judged at the table the suite's Kop tournaments use (champion-net, counter, random)
    "kop": Recipe(
        bots=("champion", "counter", "lowest"),
        field=("counter",),
        eval_opponents=("counter", "random"),
    ),
    # the other games: PPO's league is the hand-written bots (the search champion would slow
    # every step), distillation plays against the best bot and is judged at the bar's table
    "whist22": Recipe(
        bots=("counter", "greedy"), field=("counter",), eval_opponents=("counter", "random")
    ),
    "dois": Recipe(
        bots=("counter", "greedy"), field=("counter",), eval_opponents=("counter", "random")
    ),
    # Teka is judged in the greedy field (docs/games/teka.md "champion": beside random, the
    # random partner's auction decides the games), so distillation plays and is judged there
    "teka": Recipe(
        bots=("counter", "greedy"),
        field=("counter", "greedy"),
        eval_opponents=("counter", "greedy"),
    ),
    "red7": Recipe(
        bots=("pressure", "thrifty"), field=("thrifty",), eval_opponents=("thrifty", "random")
    ),
}


def recipe(game: str) -> Recipe:
    """The shipped recipe of ``game`` (the generic default for a game not listed)."""
    return RECIPES.get(game, Recipe())
