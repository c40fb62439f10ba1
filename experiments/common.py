"""Plumbing shared by the experiments: a results folder owned by one config, a resumable task
log, atomic writes, a parallel map (local processes or Ray) with progress, figure saving, and
the intervals of their headlines.

Every experiment is a list of keyed tasks whose results are pure functions of the task. Finished
results are appended to ``tasks.jsonl`` as they arrive (a torn last line from a kill is cut
off, as in tournaments), and summaries are built from the log in task order, so a run that was
stopped and restarted writes the same files as an uninterrupted one.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from koira_agents.tournament import agent_modules, read_log
from koira_env.core.files import claim_folder
from koira_env.core.jobs import PROCESS, Backend, chunked, log_writer, map_chunks
from koira_env.registry import games

TASKS = "tasks.jsonl"
WORKERS = 2  # the shared 2-core machine


class Progress:
    """A one-line progress report on stderr, refreshed at most every half second."""

    def __init__(self, label: str, total: int, done: int, show: bool) -> None:
        self.label, self.total, self.done, self.show = label, total, done, show
        self.start = time.monotonic()
        self.last = 0.0
        self.first_done = done

    def advance(self, k: int = 1) -> None:
        self.done += k
        now = time.monotonic()
        if self.show and (now - self.last > 0.5 or self.done == self.total):
            self.last = now
            rate = (self.done - self.first_done) / max(now - self.start, 1e-9)
            left = (self.total - self.done) / rate if rate else float("inf")
            end = "\n" if self.done == self.total else ""
            sys.stderr.write(
                f"\r{self.label}: {self.done}/{self.total} ({rate:.1f}/s, ~{left:.0f}s left)  "
                + end
            )
            sys.stderr.flush()


def interval(value: float | None, low: float | None, high: float | None, digits: int = 3) -> str:
    """``0.250 [0.099, 0.503]`` for a headline; ``-`` before there is data."""
    if value is None:
        return "-"
    if low is None or high is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def run_from_args(run: Callable[..., dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """``run(args.out, ...)`` for ``koira experiment``: each keyword parameter of an
    experiment's ``run`` takes the argument of its name (the shared ``--quick``, ``--seed``,
    ``--workers``, ``--max-tasks`` and the experiment's own), ``progress`` is not ``--quiet``
    and ``backend`` is ``--backend`` at ``--address``; a parameter with no argument of its
    name is an ``AttributeError``, not a silent default."""
    given = {"progress": not args.quiet, "backend": Backend(args.backend, args.address)}
    names = list(inspect.signature(run).parameters)[1:]
    return run(args.out, **{n: given[n] if n in given else getattr(args, n) for n in names})


def _run_chunk(fn: Callable[[Any], dict[str, Any]], chunk: list[tuple[str, Any]]) -> list[dict]:
    return [{"key": key, **fn(task)} for key, task in chunk]


def _import(modules: Sequence[str]) -> None:
    for module in modules:
        importlib.import_module(module)


def agent_modules_of_every_game() -> tuple[str, ...]:
    """The modules defining every game's agents, studies' included: a worker that was not
    forked from this process (Ray) imports them to know ``risk:...`` and the like."""
    return tuple(sorted({m for game in games() for m in agent_modules(game)}))


def run_tasks(
    out: Path,
    config: dict[str, Any],
    tasks: Sequence[tuple[str, Any]],
    fn: Callable[[Any], dict[str, Any]],
    workers: int | None = WORKERS,
    max_tasks: int | None = None,
    progress: bool = False,
    label: str = "tasks",
    backend: Backend = PROCESS,
) -> list[dict[str, Any]]:
    """Run the keyed ``tasks`` missing from ``out/tasks.jsonl``; return the finished rows in task
    order. ``fn`` must be a picklable top-level function; ``max_tasks`` stops after that many
    new tasks (the next run continues). ``workers`` None: every core of the backend."""
    out.mkdir(parents=True, exist_ok=True)
    claim_folder(out, config, TASKS, "experiment")
    path = out / TASKS
    done = read_log(path)
    todo = [t for t in tasks if t[0] not in done]
    bar = Progress(label, len(tasks), len(tasks) - len(todo), progress)
    if max_tasks is not None:
        todo = todo[: max(0, max_tasks)]
    with log_writer(path, done, bar.advance) as emit:
        workers = backend.parallelism(workers) if todo else 1
        size = max(1, min(20, len(todo) // (workers * 8) or 1))
        chunks = chunked(todo, size)
        if backend.local and (workers == 1 or len(todo) <= size):
            for chunk in chunks:
                emit(_run_chunk(fn, chunk))
        else:
            task = partial(_run_chunk, fn)
            setup = (agent_modules_of_every_game(),)
            for rows in map_chunks(task, chunks, workers, _import, setup, backend=backend):
                emit(rows)
    return [done[key] for key, _ in tasks if key in done]
