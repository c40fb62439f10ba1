"""What a tournament plays: the ``TournamentConfig`` that decides its games, and the
duplicate-deal schedule drawn from the config's seed: which tables sit down for each deal
(``schedule``), the deal's decks and the agents' seed (``deal_key``, ``deal_seed``), and every
seat rotation of each deal (``seating``, ``jobs``)."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any

from koira_env.core.agent import Agent
from koira_env.core.game import Game
from koira_env.registry import make_game

from .entrants import parse_entrant
from .ppo import model_digest, model_path
from .registry import make_agent, resolve

FORMAT = "koira-tournament/2"


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's games (not how it is run)."""

    agents: tuple[str, ...]  # entries "spec" or "label=spec": "greedy", "ppo:koira4-ppo", ...
    game: str = "koira"
    rules: str | None = None  # the game's preset (Koira: "koira", "koira-b", "mattis")
    players: int = 4
    deals: int = 200
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        labels = [label for label, _ in map(parse_entrant, self.agents)]
        if not labels:
            raise ValueError("a tournament needs at least one agent")
        dupes = sorted({x for x in labels if labels.count(x) > 1})
        if dupes:
            raise ValueError(f"agent labels must be unique, repeated: {dupes} (use 'label=spec')")
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"the number of deals must be a positive int, got {self.deals!r}")
        self.make_game()  # validate early
        self.built  # noqa: B018 (every entrant built here: a bad spec fails before anything runs)

    @cached_property
    def entrants(self) -> dict[str, str]:
        """Label -> the agent spec as written (``"champion"``)."""
        return dict(map(parse_entrant, self.agents))

    @cached_property
    def resolved(self) -> dict[str, str]:
        """Label -> the spec it stands for, aliases resolved (``"solver:1:0/150:16:2000"``)."""
        return {label: resolve(text, self.game) for label, text in self.entrants.items()}

    @cached_property
    def built(self) -> dict[str, Agent]:
        """Label -> its agent, built once per process and shared by every seat it takes (an
        agent draws its randomness from each turn, so a seat holds nothing of its own)."""
        return {label: make_agent(text, self.game) for label, text in self.entrants.items()}

    def __getstate__(self) -> dict[str, Any]:
        """The fields only: a worker process builds its own agents (a model need not pickle)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def make_game(self) -> Game:
        preset = {} if self.rules is None else {"rules": self.rules}
        return make_game(self.game, self.players, **preset, **dict(self.options))

    def to_json(self) -> dict[str, Any]:
        """The config as saved with the results; trained models are named by their content
        too, so resuming a folder after a model file was replaced is an error, not a mix."""
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["options"] = dict(self.options)
        resolved = self.resolved
        aliases = {label: text for label, text in resolved.items() if text != self.entrants[label]}
        models = {
            label: model_digest(model_path(text.partition(":")[2]))
            for label, text in resolved.items()
            if text.startswith("ppo:")
        }
        extra = {"aliases": aliases} if aliases else {}
        return {"format": FORMAT, **data, **extra, **({"models": models} if models else {})}


def lineups(labels: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """Every table of ``n`` from ``labels``: combinations, or multisets holding every agent
    when there are fewer agents than seats."""
    if len(labels) >= n:
        return list(itertools.combinations(labels, n))
    return [
        combo
        for combo in itertools.combinations_with_replacement(labels, n)
        if len(set(combo)) == len(labels)
    ]


def _balanced_tables(
    labels: Sequence[str], n: int, count: int, rng: random.Random
) -> list[list[str]]:
    """``count`` tables drawn from shuffled passes over the agents, so that every agent sits
    equally often (within one)."""
    pool: list[str] = []
    tables = []
    while len(tables) < count:
        if len(pool) < n:
            pool += rng.sample(list(labels), len(labels))
        table: list[str] = []
        for label in pool:
            if label not in table:
                table.append(label)
                if len(table) == n:
                    break
        for label in table:
            pool.remove(label)
        tables.append(table)
    return tables


def schedule(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The seating of rotation 0 for every deal.

    With at most ``deals`` possible tables, each is played equally often (the deal count is
    rounded up to a multiple of the number of tables); with more, tables are sampled evenly.
    The seat order of each deal is shuffled so that neighbours vary.
    """
    labels = list(config.entrants)
    n = config.players
    rng = random.Random(f"{config.seed}/schedule")
    tables = lineups(labels, n)
    if len(tables) <= config.deals:
        rounds = math.ceil(config.deals / len(tables))
        chosen = [list(t) for _ in range(rounds) for t in tables]
    elif len(labels) < n:  # fewer agents than seats: some sit twice, so sample the multisets
        chosen = [list(t) for t in rng.sample(tables, config.deals)]
    else:
        chosen = _balanced_tables(labels, n, config.deals, rng)
    for table in chosen:
        rng.shuffle(table)
    return [tuple(t) for t in chosen]


def deal_key(seed: int, deal: int) -> str:
    """The seed of a deal's decks: ``game.new_state(seed=deal_key(...))`` deals it."""
    return f"{seed}/deck/{deal}"


def deal_seed(seed: int, deal: int) -> int:
    """The agents' random seed for a deal: the same in every rotation, like the deck."""
    return random.Random(f"{seed}/game/{deal}").getrandbits(31)


def seating(table: Sequence[str], rotation: int) -> tuple[str, ...]:
    n = len(table)
    return tuple(table[(seat + rotation) % n] for seat in range(n))


def game_key(deal: int, rotation: int) -> str:
    return f"{deal}.{rotation}"


@dataclass(frozen=True)
class Job:
    deal: int
    rotation: int
    seats: tuple[str, ...]


def jobs(config: TournamentConfig) -> list[Job]:
    """Every game of the tournament, in schedule order."""
    return [
        Job(d, r, seating(table, r))
        for d, table in enumerate(schedule(config))
        for r in range(config.players)
    ]
