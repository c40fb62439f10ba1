"""Plumbing shared by the experiments: a results folder owned by one config, a resumable task
log, atomic writes, a parallel map with progress, and figure saving.

Every experiment is a list of keyed tasks whose results are pure functions of the task. Finished
results are appended to ``tasks.jsonl`` as they arrive (a torn last line from a kill is cut
off, as in tournaments), and summaries are built from the log in task order, so a run that was
stopped and restarted writes the same files as an uninterrupted one.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from agents.base import Agent, Turn
from agents.tournament import read_log
from koira_env.engine import State
from koira_env.info import seat_view

CONFIG, TASKS = "config.json", "tasks.jsonl"
WORKERS = 2  # the shared 2-core machine


def play_out(
    state: State,
    agents: Sequence[Agent],
    seed: int,
    after: Callable[[State], None] | None = None,
) -> State:
    """Play ``state`` to the end with ``agents`` (one per seat), seeded like
    ``agents.base.play_game`` (seat s draws from ``seed * 1_000_003 + s``); ``after`` sees the
    state after every action."""
    rngs = [random.Random(seed * 1_000_003 + p) for p in range(state.n)]
    while not state.is_terminal:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        else:
            p = state.current
            state.apply(agents[p].act(Turn(seat_view(state, p), state.rules, rngs[p], state)))
        if after is not None:
            after(state)
    return state


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` so that readers see the old file or the new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def write_json(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=1, allow_nan=False) + "\n")


def write_csv(path: Path, columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    def cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            return f"{value:.6g}"
        text = str(value)
        return f'"{text}"' if "," in text or '"' in text else text

    lines = [",".join(columns)] + [",".join(cell(r.get(c)) for c in columns) for r in rows]
    write_atomic(path, "\n".join(lines) + "\n")


def save_figure(fig: Any, path: Path) -> None:
    """Save a matplotlib figure small (dpi 80) and atomically, then close it."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.png")
    fig.savefig(tmp, dpi=80)
    plt.close(fig)
    os.replace(tmp, path)


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display on servers and in tests)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def claim_folder(out: Path, config: dict[str, Any]) -> None:
    """Make ``out`` belong to ``config``; a folder holding another experiment is an error."""
    path = out / CONFIG
    if path.exists():
        found = json.loads(path.read_text())
        if found != config:
            differ = sorted(k for k in config if found.get(k) != config[k])
            raise ValueError(
                f"{out} holds a different experiment (differs in: {', '.join(differ) or '?'}); "
                "use another --out folder or delete this one"
            )
        return
    write_json(path, config)


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


def _chunks(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield list(items[i : i + size])


def _run_chunk(fn: Callable[[Any], dict[str, Any]], chunk: list[tuple[str, Any]]) -> list[dict]:
    return [{"key": key, **fn(task)} for key, task in chunk]


def run_tasks(
    out: Path,
    config: dict[str, Any],
    tasks: Sequence[tuple[str, Any]],
    fn: Callable[[Any], dict[str, Any]],
    workers: int = WORKERS,
    max_tasks: int | None = None,
    progress: bool = False,
    label: str = "tasks",
) -> list[dict[str, Any]]:
    """Run the keyed ``tasks`` missing from ``out/tasks.jsonl``; return the finished rows in task
    order. ``fn`` must be a picklable top-level function; ``max_tasks`` stops after that many
    new tasks (the next run continues)."""
    out.mkdir(parents=True, exist_ok=True)
    claim_folder(out, config)
    path = out / TASKS
    done = read_log(path)
    todo = [t for t in tasks if t[0] not in done]
    bar = Progress(label, len(tasks), len(tasks) - len(todo), progress)
    if max_tasks is not None:
        todo = todo[: max(0, max_tasks)]
    with path.open("a") as log:

        def emit(rows: list[dict[str, Any]]) -> None:
            for row in rows:
                done[row["key"]] = row
                log.write(json.dumps(row, separators=(",", ":")) + "\n")
            log.flush()
            bar.advance(len(rows))

        size = max(1, min(20, len(todo) // (max(workers, 1) * 8) or 1))
        if workers <= 1 or len(todo) <= size:
            for chunk in _chunks(todo, size):
                emit(_run_chunk(fn, chunk))
        else:
            chunks = _chunks(todo, size)
            with ProcessPoolExecutor(workers) as pool:
                pending: set[Future] = {
                    pool.submit(_run_chunk, fn, c) for c in _take(chunks, workers * 3)
                }
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        emit(future.result())
                        chunk = next(chunks, None)
                        if chunk:
                            pending.add(pool.submit(_run_chunk, fn, chunk))
    return [done[key] for key, _ in tasks if key in done]


def _take(it: Iterator[Any], k: int) -> list[Any]:
    return [x for _, x in zip(range(k), it, strict=False)]
