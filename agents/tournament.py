"""Round-robin tournaments of any game: duplicate deals in every seat rotation, parallel (on
local processes or a Ray cluster) and resumable.

A tournament is a pure function of its ``TournamentConfig``: the schedule (which agents sit
where for each deal), the deal (every deck of a game of several hands: the deal's seed
shuffles them) and each game's seed all come from the config's seed, and every game is played
by ``koira_agents.base.play_out``. Results are places (1 = best; ties and partners share a place):
each seat's place is credited to the agent in that seat, so partners share their side's
result (docs/tournaments.md). Finished games are appended to
``games.jsonl`` as they come in, so a run killed at any moment continues where it stopped when
started again, and the summaries are computed from the log in schedule order, so they do not
depend on how the work was split, interrupted or ordered.

The config and the schedule are ``koira_agents.schedule``'s, the entrants
``koira_agents.entrants``'s and the statistics and summary files ``koira_agents.report``'s; this
module plays the games and keeps the results folder.
"""

from __future__ import annotations

import copy
import importlib
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from koira_env.core.files import claim_folder, write_csv
from koira_env.core.jobs import PROCESS, Backend, chunked, log_writer, map_chunks, read_log
from koira_env.core.record import game_record, save_record

from .base import Agent, play_out
from .registry import agent_factories
from .report import (
    TIMING,
    TIMING_COLUMNS,
    decision_times,
    measured_gains,
    summarize,
    write_summaries,
)
from .schedule import Job, TournamentConfig, deal_key, deal_seed, game_key, jobs

LOG = "games.jsonl"


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
    """Plays a tournament's games in one process, with the agents its config built."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.game = config.make_game()
        self.agents = config.built

    def play(self, job: Job, record: bool = False) -> dict[str, Any]:
        """One game as a log row (and its game record under ``"record"`` if asked)."""
        seed = self.config.seed
        agents = [Timed(self.agents[label]) for label in job.seats]
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
            row["record"] = game_record(state, list(job.seats))
        return row


_WORKER: Any = None  # a worker's player: this module's ``Player`` or another's


def init_worker(
    config: Any, modules: Sequence[str] = (), player: Callable[[Any], Any] = Player
) -> None:
    """The worker's ``player(config)`` (this module's ``Player``, or ``koira_agents.exploit``'s),
    after importing ``modules``: those of the game's agents (``agent_modules``), which a
    worker not forked from the driver (Ray) has not imported."""
    global _WORKER
    for module in modules:
        importlib.import_module(module)
    _WORKER = player(copy.copy(config))  # its own agents, not the driver's (a fork shares them)


def agent_modules(game: str) -> tuple[str, ...]:
    """The modules defining ``game``'s agents, those of studies included (``koira_experiments.risk``
    registers ``risk:``): importing them makes a fresh process know every agent this one does."""
    modules = {getattr(f, "__module__", None) for f in agent_factories(game).values()}
    return tuple(sorted(m for m in modules if m))


def play_chunk(chunk: list[Any]) -> list[dict[str, Any]]:
    """The worker's player's log rows for a chunk of its jobs."""
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
    for rows in map_chunks(play_chunk, chunks, workers, init_worker, setup, backend):
        emit(rows)


def run_tournament(
    config: TournamentConfig,
    out: str | Path,
    workers: int | None = None,
    max_games: int | None = None,
    save_records: int = 0,
    progress: bool = False,
    backend: Backend = PROCESS,
    exploits: Sequence[Path] = (),
) -> dict[str, Any]:
    """Play (or finish) a tournament in ``out`` and write its summaries; returns the summary
    (``results.json``) and, under ``"timing"``, the rows of ``timing.csv`` (machine-dependent,
    so kept out of ``results.json``).

    ``max_games`` stops after that many new games (the next run continues); ``save_records``
    writes game records of the first that many games of the schedule to ``out/records``.
    ``backend`` runs the games on a Ray cluster instead of local processes (``workers``
    defaults to all of its cores): the same files either way, and a folder started on one
    finishes on the other. ``exploits`` are ``koira exploit`` results (files or folders) whose
    gains the summaries show beside the agents they measured (``report.measured_gains``).
    """
    out = Path(out)
    claim_folder(out, config.to_json(), LOG, "tournament")
    gains = measured_gains(config, exploits)  # a bad path fails before any game
    all_jobs = jobs(config)
    log_path = out / LOG
    done = read_log(log_path)
    todo = [j for j in all_jobs if game_key(j.deal, j.rotation) not in done]
    if max_games is not None:
        todo = todo[: max(0, max_games)]
    player = Player(config)
    if save_records:
        _save_records(player, all_jobs[:save_records], out / "records")
    with (
        progress_bar(progress, len(all_jobs), len(done)) as advance,
        log_writer(log_path, done, advance) as emit,
    ):
        if backend.local and (backend.parallelism(workers) == 1 or len(todo) <= 8):
            for chunk in chunked(todo, 50):
                emit([player.play(job) for job in chunk])
        elif todo:
            _run_parallel(config, todo, backend.parallelism(workers), emit, backend)
    rows = [done[k] for k in (game_key(j.deal, j.rotation) for j in all_jobs) if k in done]
    result = summarize(config, rows, total=len(all_jobs), exploits=gains)
    write_summaries(out, result)
    timing = decision_times(config, rows)
    write_csv(out / TIMING, TIMING_COLUMNS, timing)
    return {**result, "timing": timing}


def _save_records(player: Player, chosen: list[Job], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for job in chosen:
        path = folder / f"game-{game_key(job.deal, job.rotation)}.json"
        if not path.exists():
            save_record(player.play(job, record=True)["record"], path)


@contextmanager
def progress_bar(show: bool, total: int, completed: int) -> Iterator[Callable[[int], None]]:
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
