"""Round-robin tournaments of any game: duplicate deals in every seat rotation, parallel (on
local processes or a Ray cluster) and resumable.

A tournament is a pure function of its ``TournamentConfig``: the schedule (which agents sit
where for each deal), the deal (every deck of a game of several hands: the deal's seed
shuffles them) and each game's seed all come from the config's seed, and every game is played
by ``agents.base.play_out``. Results are places (1 = best; ties and partners share a place):
each seat's place is credited to the agent in that seat, so partners share their side's
result (docs/tournaments.md). Finished games are appended to
``games.jsonl`` as they come in, so a run killed at any moment continues where it stopped when
started again, and the summaries are computed from the log in schedule order, so they do not
depend on how the work was split, interrupted or ordered.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from koira_env.core.files import claim_folder, pyplot, save_figure, write_csv, write_json
from koira_env.core.game import Game
from koira_env.core.jobs import PROCESS, Backend, chunked, map_chunks, read_log
from koira_env.core.record import game_record, save_record
from koira_env.registry import make_game, spec

from .base import Agent, play_out
from .net import NetPolicy, net_path
from .ppo import check_compatible, model_digest, model_path, read_metadata, shipped_models
from .ratings import Estimate, cluster_mean, cluster_rate, head_to_head, plackett_luce
from .registry import agent_factories, default_agents, make_agent, resolve

FORMAT = "koira-tournament/2"
LOG = "games.jsonl"


def default_entrants(game: Game) -> list[str]:
    """``default_agents(game)``, plus each shipped policy that can play ``game`` (as ``ppo``,
    or ``ppo-<name>`` when several can), when the train extra is installed. Policies are named
    (``ppo:koira4-ppo``), not located, so a results folder means the same in any install.
    An alias of a shipped policy (Koira's ``champion-net``) plays only where that policy fits,
    and under the alias's name only."""
    agents = [name for name in default_agents(game.id) if _fits(name, game)]
    named = {resolve(name, game.id) for name in agents}
    fitting = [
        p for p in shipped_models() if f"ppo:{p.stem}" not in named and _fits(f"ppo:{p.stem}", game)
    ]
    if len(fitting) == 1:
        return [*agents, f"ppo=ppo:{fitting[0].stem}"]
    return [*agents, *(f"ppo-{path.stem}=ppo:{path.stem}" for path in fitting)]


def _has_torch() -> bool:
    return all(importlib.util.find_spec(m) for m in ("torch", "sb3_contrib"))


def _fits(name: str, game: Game) -> bool:
    """Whether a shipped policy named by ``name`` (``ppo:``, ``net:``, or an alias of one) can
    play ``game``'s table and rules; any other agent can."""
    kind, _, arg = resolve(name, game.id).partition(":")
    try:
        if kind == "net":
            NetPolicy.load(net_path(arg), game)
        elif kind == "ppo":
            path = model_path(arg)
            if not _has_torch():
                return False
            check_compatible(read_metadata(path), game, path)
    except ValueError:
        return False
    return True


def parse_entrant(entry: str) -> tuple[str, str]:
    """``"label=spec"`` or ``"spec"`` -> (label, spec); labels tell apart copies of one spec."""
    label, sep, spec = entry.partition("=")
    if not sep:
        label = spec = entry
    label, spec = label.strip(), spec.strip()
    if not label or not spec:
        raise ValueError(f"bad agent entry {entry!r}: expected 'spec' or 'label=spec'")
    return label, spec


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
        for _, text in map(parse_entrant, self.agents):
            make_agent(text, self.game)

    @property
    def entrants(self) -> dict[str, str]:
        return dict(map(parse_entrant, self.agents))

    def make_game(self) -> Game:
        preset = {} if self.rules is None else {"rules": self.rules}
        return make_game(self.game, self.players, **preset, **dict(self.options))

    def to_json(self) -> dict[str, Any]:
        """The config as saved with the results; trained models are named by their content
        too, so resuming a folder after a model file was replaced is an error, not a mix."""
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["options"] = dict(self.options)
        resolved = {label: resolve(text, self.game) for label, text in self.entrants.items()}
        aliases = {label: text for label, text in resolved.items() if text != self.entrants[label]}
        models = {
            label: model_digest(model_path(text.partition(":")[2]))
            for label, text in resolved.items()
            if text.startswith("ppo:")
        }
        extra = {"aliases": aliases} if aliases else {}
        return {"format": FORMAT, **data, **extra, **({"models": models} if models else {})}


# ------------------------------------------------------------------ schedule
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


# ------------------------------------------------------------------ playing (any process)
class Timed:
    """An agent whose decisions are counted and timed (process CPU seconds, which other
    processes on the machine distort less than wall time): search agents are judged at equal
    time per decision, so a tournament measures it beside the results."""

    __slots__ = ("agent", "decisions", "seconds")

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.decisions = 0
        self.seconds = 0.0

    def act(self, turn: Any) -> int:
        start = time.process_time()
        action = self.agent.act(turn)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return action


class Player:
    """Plays a tournament's games in one process, keeping one agent instance per (label, seat)."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.game = config.make_game()
        self.specs = config.entrants
        self._agents: dict[tuple[str, int], Agent] = {}

    def _agent(self, label: str, seat: int) -> Agent:
        key = (label, seat)
        if key not in self._agents:
            self._agents[key] = make_agent(self.specs[label], self.config.game)
        return self._agents[key]

    def play(self, job: Job, record: bool = False) -> dict[str, Any]:
        """One game as a log row (and its game record under ``"record"`` if asked)."""
        seed = self.config.seed
        agents = [Timed(self._agent(label, s)) for s, label in enumerate(job.seats)]
        state = self.game.new_state(seed=deal_key(seed, job.deal))
        play_out(state, agents, deal_seed(seed, job.deal))
        outcome = state.outcome()
        row: dict[str, Any] = {
            "key": game_key(job.deal, job.rotation),
            "deal": job.deal,
            "rotation": job.rotation,
            "seats": list(job.seats),
            "places": list(outcome.places) if outcome is not None else None,
            "truncated": state.truncated,
            "actions": state.actions_taken,
            "decisions": [a.decisions for a in agents],
            "cpu_seconds": [round(a.seconds, 6) for a in agents],
        }
        if record:
            row["record"] = game_record(state)
        return row


_WORKER: Player | None = None


def _init_worker(config: TournamentConfig, modules: Sequence[str] = ()) -> None:
    """The worker's ``Player``, after importing ``modules``: those of the game's agents
    (``agent_modules``), which a worker not forked from the driver (Ray) has not imported."""
    global _WORKER
    for module in modules:
        importlib.import_module(module)
    _WORKER = Player(config)


def agent_modules(game: str) -> tuple[str, ...]:
    """The modules defining ``game``'s agents, those of studies included (``experiments.risk``
    registers ``risk:``): importing them makes a fresh process know every agent this one does."""
    modules = {getattr(f, "__module__", None) for f in agent_factories(game).values()}
    return tuple(sorted(m for m in modules if m))


def _play_chunk(chunk: list[Job]) -> list[dict[str, Any]]:
    assert _WORKER is not None, "worker not initialised"
    return [_WORKER.play(job) for job in chunk]


# ------------------------------------------------------------------ the results folder
def _run_parallel(
    config: TournamentConfig,
    todo: list[Job],
    workers: int,
    emit: Callable[[list[dict]], None],
    backend: Backend,
) -> None:
    """Play ``todo`` on ``workers`` processes (or Ray tasks), a bounded number of chunks in
    flight."""
    size = max(1, min(250, len(todo) // (workers * 8) or 1))
    chunks = chunked(todo, size)
    setup = (config, agent_modules(config.game))
    for rows in map_chunks(_play_chunk, chunks, workers, _init_worker, setup, backend):
        emit(rows)


def run_tournament(
    config: TournamentConfig,
    out: str | Path,
    workers: int | None = None,
    max_games: int | None = None,
    save_records: int = 0,
    progress: bool = False,
    backend: Backend = PROCESS,
) -> dict[str, Any]:
    """Play (or finish) a tournament in ``out`` and write its summaries; returns the summary.

    ``max_games`` stops after that many new games (the next run continues); ``save_records``
    writes game records of the first that many games of the schedule to ``out/records``.
    ``backend`` runs the games on a Ray cluster instead of local processes (``workers``
    defaults to all of its cores): the same files either way, and a folder started on one
    finishes on the other.
    """
    out = Path(out)
    claim_folder(out, config.to_json(), LOG, "tournament")
    all_jobs = jobs(config)
    log_path = out / LOG
    done = read_log(log_path)
    todo = [j for j in all_jobs if game_key(j.deal, j.rotation) not in done]
    if max_games is not None:
        todo = todo[: max(0, max_games)]
    if save_records:
        _save_records(config, all_jobs[:save_records], out / "records")
    with log_path.open("a") as log, _progress(progress, len(all_jobs), len(done)) as advance:

        def emit(rows: list[dict[str, Any]]) -> None:
            for row in rows:
                done[row["key"]] = row
                log.write(json.dumps(row, separators=(",", ":")) + "\n")
            log.flush()
            advance(len(rows))

        if backend.local and (backend.parallelism(workers) == 1 or len(todo) <= 8):
            player = Player(config)
            for chunk in chunked(todo, 50):
                emit([player.play(job) for job in chunk])
        elif todo:
            _run_parallel(config, todo, backend.parallelism(workers), emit, backend)
    rows = [done[k] for k in (game_key(j.deal, j.rotation) for j in all_jobs) if k in done]
    result = summarize(config, rows, total=len(all_jobs))
    write_summaries(out, result)
    write_csv(out / TIMING, TIMING_COLUMNS, decision_times(config, rows))
    return result


TIMING = "timing.csv"
TIMING_COLUMNS = ["agent", "decisions", "cpu_seconds", "ms_per_decision"]


def decision_times(config: TournamentConfig, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per agent: the decisions it was asked for (forced moves are not) and their mean process
    CPU time. Machine-dependent, so kept out of results.json, which depends on the seed alone."""
    decisions = dict.fromkeys(config.entrants, 0)
    seconds = dict.fromkeys(config.entrants, 0.0)
    for row in rows:
        for label, count, cpu in zip(
            row["seats"], row.get("decisions", ()), row.get("cpu_seconds", ()), strict=False
        ):
            decisions[label] += count
            seconds[label] += cpu
    return [
        {
            "agent": label,
            "decisions": decisions[label],
            "cpu_seconds": round(seconds[label], 3),
            "ms_per_decision": round(1000 * seconds[label] / decisions[label], 4)
            if decisions[label]
            else None,
        }
        for label in config.entrants
    ]


def _save_records(config: TournamentConfig, chosen: list[Job], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    player = Player(config)
    for job in chosen:
        path = folder / f"game-{game_key(job.deal, job.rotation)}.json"
        if not path.exists():
            save_record(player.play(job, record=True)["record"], path)


@contextmanager
def _progress(show: bool, total: int, completed: int) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (or nothing), advanced by the yielded callable."""
    if not show:
        yield lambda k: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = ("games", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total, completed=completed)
        yield lambda k: bar.advance(task, k)


# ------------------------------------------------------------------ results
def summarize(config: TournamentConfig, rows: list[dict[str, Any]], total: int) -> dict[str, Any]:
    """Per-agent loss rate, win rate and mean place (95% CIs clustered by deal), head-to-head
    and ratings. A seat loses when its place is the game's worst and not everyone tied; it
    wins when its place is first (with ties, several seats win)."""
    labels = list(config.entrants)
    finished = [r for r in rows if not r["truncated"]]
    losses: dict[str, dict[int, list[int]]] = {a: {} for a in labels}
    wins: dict[str, dict[int, list[int]]] = {a: {} for a in labels}
    places: dict[str, dict[int, list[int]]] = {a: {} for a in labels}
    games = []
    for row in finished:
        seats, placed = row["seats"], row["places"]
        worst = max(placed)
        for seat, place in enumerate(placed):
            label = seats[seat]
            places[label].setdefault(row["deal"], []).append(place)
            losses[label].setdefault(row["deal"], []).append(int(place == worst > 1))
            wins[label].setdefault(row["deal"], []).append(int(place == 1))
        games.append((seats, placed))
    ahead, met = head_to_head(games, labels)
    ratings = plackett_luce(games, labels)
    agents = []
    for label in labels:
        loss: Estimate = cluster_rate(losses[label].values())
        win: Estimate = cluster_rate(wins[label].values())
        place: Estimate = cluster_mean(places[label].values(), (1.0, float(config.players)))
        rating = ratings[label]
        agents.append(
            {
                "agent": label,
                "spec": config.entrants[label],
                "games": loss.n,
                "deals": loss.clusters,
                "loss_rate": _finite(loss.value),
                "loss_ci": [_finite(loss.low), _finite(loss.high)],
                "win_rate": _finite(win.value),
                "win_ci": [_finite(win.low), _finite(win.high)],
                "mean_place": _finite(place.value),
                "place_ci": [_finite(place.low), _finite(place.high)],
                "rating_mu": rating.mu,
                "rating_sigma": rating.sigma,
                "rating": rating.ordinal,
            }
        )
    rank_by = spec(config.game).rank_by
    agents.sort(key=lambda a: _rank_key(a, rank_by))
    return {
        "config": config.to_json(),
        "rank_by": rank_by,
        "complete": len(rows) == total,
        "games_total": total,
        "games_played": len(rows),
        "games_truncated": len(rows) - len(finished),
        "intervals": "95%: loss and win rates Wilson score on the deal-clustered effective "
        "sample size; mean place t over deals with cluster-robust standard error",
        "rating": "openskill PlackettLuce on places (ties share a rank), games in schedule "
        "order; rating = mu - 3 sigma",
        "agents": agents,
        "head_to_head": {
            "agents": labels,
            "ahead": ahead,
            "met": met,
            "fraction_ahead": [
                [ahead[i][j] / met[i][j] if met[i][j] else None for j in range(len(labels))]
                for i in range(len(labels))
            ],
        },
    }


def _rank_key(agent: dict[str, Any], rank_by: str) -> tuple[float, ...]:
    """Leaderboard order: the game's headline measure first (``GameSpec.rank_by``)."""
    loss, place = _or_inf(agent["loss_rate"]), _or_inf(agent["mean_place"])
    win = -agent["win_rate"] if agent["win_rate"] is not None else math.inf
    first = {"loss_rate": loss, "win_rate": win, "mean_place": place}[rank_by]
    return (first, place, loss, win)


def _finite(x: float) -> float | None:
    """JSON has no NaN: an estimate without data is None."""
    return None if math.isnan(x) else x


def _or_inf(x: float | None) -> float:
    return math.inf if x is None else x


def write_summaries(out: Path, summary: dict[str, Any]) -> None:
    """results.json, leaderboard.csv, head_to_head.csv and head_to_head.png, each atomically."""
    write_json(out / "results.json", summary)
    columns = ["agent", "spec", "games", "deals", "loss_rate", "loss_low", "loss_high"]
    columns += ["win_rate", "win_low", "win_high"]
    columns += ["mean_place", "place_low", "place_high", "rating", "rating_mu", "rating_sigma"]
    rows = [
        {
            **a,
            "loss_low": a["loss_ci"][0],
            "loss_high": a["loss_ci"][1],
            "win_low": a["win_ci"][0],
            "win_high": a["win_ci"][1],
            "place_low": a["place_ci"][0],
            "place_high": a["place_ci"][1],
        }
        for a in summary["agents"]
    ]
    write_csv(out / "leaderboard.csv", columns, rows)
    h2h = summary["head_to_head"]
    names = h2h["agents"]
    columns = ["agent", "opponent", "ahead", "met", "fraction_ahead"]
    rows = [
        {
            "agent": a,
            "opponent": b,
            "ahead": h2h["ahead"][i][j],
            "met": h2h["met"][i][j],
            "fraction_ahead": h2h["fraction_ahead"][i][j],
        }
        for i, a in enumerate(names)
        for j, b in enumerate(names)
        if h2h["met"][i][j]
    ]
    write_csv(out / "head_to_head.csv", columns, rows)
    write_heatmap(out / "head_to_head.png", names, h2h["fraction_ahead"])


def write_heatmap(path: Path, names: list[str], fraction: list[list[float | None]]) -> None:
    """The head-to-head matrix as a PNG: row agent finished ahead of column agent."""
    plt = pyplot()
    k = len(names)
    grid = [[math.nan if v is None else v for v in row] for row in fraction]
    size = max(4.0, 0.7 * k + 2)
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if fraction[i][j] is not None:
                ax.text(j, i, f"{fraction[i][j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title("fraction of shared games where agent finished ahead (ties count half)")
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    save_figure(fig, path, dpi=100)
