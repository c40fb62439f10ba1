"""Long jobs: a process-parallel map over chunks of work, results as they finish, and the
append-only JSON-lines result log that makes tournaments, experiments and training resumable.

It sits in the core, below every layer that runs long jobs (agents' tournaments, training,
experiments), so none of them reaches into another for its plumbing.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any


def chunked(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield list(items[i : i + size])


def map_chunks(
    fn: Callable[[Any], Any],
    chunks: Iterable[Any],
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[Any]:
    """Yield ``fn(chunk)`` in completion order, at most ``4 * workers`` chunks in flight so
    that memory stays bounded; on an error or interrupt the queued chunks are cancelled."""
    chunks = iter(chunks)
    with ProcessPoolExecutor(workers, initializer=initializer, initargs=initargs) as pool:
        pending: set[Future] = {pool.submit(fn, c) for c in itertools.islice(chunks, workers * 4)}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
                    chunk = next(chunks, None)
                    if chunk is not None:
                        pending.add(pool.submit(fn, chunk))
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def read_log(path: Path) -> dict[str, dict[str, Any]]:
    """Finished results of a JSON-lines log by their ``key``. A torn last line (a kill
    mid-write) is cut off the file; any other corrupt line is an error naming the file."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    data = path.read_bytes()
    good = data.rfind(b"\n") + 1
    if good < len(data):
        with path.open("r+b") as f:
            f.truncate(good)
    for number, line in enumerate(data[:good].splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise ValueError(
                f"{path} line {number} is corrupt; delete the folder to start over"
            ) from None
        done.setdefault(row["key"], row)
    return done
