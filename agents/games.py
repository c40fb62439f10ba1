"""What the agents side chooses for each game, keyed by game id: the env knows nothing of
agents, so a game's tournament measure, its default opponent and its aliases live here."""

from __future__ import annotations

from dataclasses import dataclass, field

RANK_BY = ("loss_rate", "win_rate", "mean_place")


@dataclass(frozen=True)
class GameChoices:
    """The agents side's choices for one game (the defaults serve a game not listed)."""

    rank_by: str = "mean_place"  # the tournament leaderboard's headline measure (``RANK_BY``)
    opponent: str = ""  # ``koira play``'s default opponent; empty: the game's first bot
    # agent names that stand for an agent spec, resolved by ``koira_agents.registry.make_agent``:
    # Koira's "champion" is its strongest shipped agent, whatever it is made of this release
    aliases: dict[str, str] = field(default_factory=dict)


CHOICES: dict[str, GameChoices] = {
    "koira": GameChoices(
        rank_by="loss_rate",
        opponent="champion",
        # the strongest shipped agent (docs/solver.md "Agents"): the exact phase-two solver
        # within 16 cards in hands (2,000 positions a verdict), ISMCTS (150 iterations) where
        # it does not decide in phase two, the dumper's move in phase one; on the compiled core
        # it takes less time per decision than ismcts:50 and loses less often than ismcts:200
        # and the strongest shipped network-only policy (docs/bots.md "champion-net"): the PPO
        # model, which measured as strong as the distilled net:koira4-net against dumpers and
        # stronger at the same table
        aliases={"champion": "solver:1:0/150:16:2000", "champion-net": "ppo:koira4-ppo"},
    ),
    "matapesa": GameChoices(
        rank_by="loss_rate",
        # flat Monte Carlo on the compiled rank-count core (koira_env/games/matapesa/search.py):
        # 200 deals consistent with the play so far, each finished by shed or keeper per seat;
        # it loses about half as often as shed, the best bot, at under 1 ms a decision
        # (docs/games/matapesa.md "champion"); champion-net: champion distilled into a small
        # network, as strong at 0.08 ms a decision (docs/games/matapesa.md "champion-net")
        aliases={"champion": "flat:200", "champion-net": "net:matapesa4-net"},
    ),
    "whist22": GameChoices(
        rank_by="win_rate",
        # PIMC on the open-card model solver (the others play counter's rule), bids searched too;
        # 32 deals: as strong as 64 and within 5 ms a decision at 3 players too (docs/games/
        # whist22.md "champion"); champion-net: champion distilled into a small network, as
        # strong at 0.1 ms a decision (docs/games/whist22.md "champion-net")
        aliases={"champion": "pimc:32", "champion-net": "net:whist224-net"},
    ),
    "kop": GameChoices(
        rank_by="win_rate",
        # perfect-information Monte Carlo on the open-card solver, counter's declarations
        # (docs/games/kop.md "Strength": above counter at about 2.4 ms a decision); champion-net:
        # champion distilled into a 256-256 MLP in 30 minutes (docs/games/kop.md "champion-net")
        aliases={"champion": "pimc:64:counter", "champion-net": "net:kop4-net"},
    ),
    "dois": GameChoices(
        rank_by="win_rate",
        # perfect-information Monte Carlo on compiled model playouts (every player, the seat
        # too, then plays counter's rule), bids searched too (docs/games/dois.md "champion");
        # champion-net: champion distilled into a 256-256 MLP in 23 minutes, on the
        # observation's derived trick fields (docs/games/dois.md "champion-net")
        aliases={"champion": "pimc:32", "champion-net": "net:dois4-net"},
    ),
    "teka": GameChoices(
        rank_by="win_rate",
        # perfect-information Monte Carlo (open-card solver within 20 cards, counter's card
        # rules as playouts above), counter's auction (docs/games/teka.md "champion"): 0.60
        # [0.57, 0.63] against counter's 0.40 in mixed partnerships at about 3 ms a decision;
        # champion-net: champion distilled into a turn scorer (agents/turnnet.py) in 26
        # minutes, above counter in the greedy field (docs/games/teka.md "champion-net")
        aliases={"champion": "pimc:64:counter", "champion-net": "net:teka4-net"},
    ),
    "red7": GameChoices(
        rank_by="win_rate",
        # flat Monte Carlo in C on the compiled core (_search.pyx), thrifty finishing every
        # playout: 48 deals a turn; above thrifty at about 3 ms a decision, level with ISMCTS
        # at equal time at four players and above it at two (docs/games/red7.md "champion");
        # champion-net: flat:200 (champion's search, more deals) distilled into a turn scorer
        # (agents/turnnet.py) in 25 minutes, level with champion at a tenth of its time
        # (docs/games/red7.md "champion-net")
        aliases={"champion": "flat:48", "champion-net": "net:red74-net"},
    ),
}


def choices(game: str) -> GameChoices:
    """The agents side's choices for ``game`` (the defaults for a game not in ``CHOICES``)."""
    return CHOICES.get(game, GameChoices())
