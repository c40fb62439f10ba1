"""Process-parallel map over chunks of work, results as they finish: the one executor loop
behind tournaments and experiments (both append each result to a resumable log)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
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
