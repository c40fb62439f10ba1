"""Long jobs: a parallel map over chunks of work, results as they finish, and the append-only
JSON-lines result log that makes tournaments, experiments and training resumable.

It sits in the core, below every layer that runs long jobs (agents' tournaments, training,
experiments), so none of them reaches into another for its plumbing. The map runs on a local
process pool or, with ``Backend("ray")``, on a Ray cluster (the optional ``ray`` extra,
imported only then). Either way the callers' results are pure functions of their chunks and the
driver alone writes the result files, so a run gives the same files on both backends, resumes
on either, and survives a Ray node dying (its chunks are retried elsewhere; nothing it did
reached the log).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import socket
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BACKENDS = ("process", "ray")
RAY_RETRIES = 3  # times a chunk is rerun when its Ray worker or node dies (not on exceptions)
PROBE_SECONDS = 5.0  # an --address that does not answer a TCP connect within this is an error
RAY_CLIENT_PORT = 10001  # Ray's default for ray://host


@dataclass(frozen=True)
class Backend:
    """Where ``map_chunks`` runs: ``"process"``, a pool on this machine (the default), or
    ``"ray"``: the cluster at ``address`` (``host:port`` of its head, ``ray://host:port``, or
    ``auto`` for the one ``ray start`` made on this machine); with no address, the cluster of
    the Ray job this runs in (``RAY_ADDRESS``), else a Ray started on this machine for the run."""

    name: str = "process"
    address: str | None = None

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise ValueError(f"unknown backend {self.name!r}: expected one of {list(BACKENDS)}")
        if self.address is not None and self.name != "ray":
            raise ValueError("--address is the address of a Ray cluster: add --backend ray")

    @property
    def local(self) -> bool:
        return self.name == "process"

    def parallelism(self, workers: int | None) -> int:
        """``workers`` if given (not 0), else every core: of this machine, or of the Ray
        cluster."""
        if workers is not None and workers < 0:
            raise ValueError(f"workers must be at least 1 (0: every core), got {workers}")
        if workers:
            return workers
        if self.local:
            return os.cpu_count() or 1
        return max(1, int(_connect(self.address).cluster_resources().get("CPU", 1)))

    def release(self) -> None:
        """Close this process's Ray connection, which stops a Ray started for the run (a
        trainer does so before PPO); later maps connect again. Nothing for the process pool."""
        global _ray_address
        if not self.local and "ray" in sys.modules:
            sys.modules["ray"].shutdown()
            _ray_address = None


PROCESS = Backend()


def chunked(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield list(items[i : i + size])


def map_chunks(
    fn: Callable[[Any], Any],
    chunks: Iterable[Any],
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    backend: Backend = PROCESS,
) -> Iterator[Any]:
    """Yield ``fn(chunk)`` in completion order, ``initializer(*initargs)`` having run once in
    each worker first. At most ``workers`` chunks run at once and, on the process pool,
    ``4 * workers`` are queued, so that memory stays bounded; on an error or interrupt the
    queued chunks are cancelled."""
    if not backend.local:
        yield from _map_ray(fn, chunks, workers, initializer, initargs, backend.address)
        return
    chunks = iter(chunks)
    start = (initializer, initargs)
    with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=start) as pool:
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


_BLAS_LIMIT: Any = None  # kept, so the limit lasts as long as the worker


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """A pool worker is one core's worth of work: numpy's BLAS gets one thread (the ``tools``
    extra's threadpoolctl; a core-only install runs without it). A forked worker otherwise
    inherits the parent's thread count, and ``workers`` processes each running that many
    threads on as many cores made a network agent's move (a 1002 x 1024 product) 25 times
    slower in a tournament than alone."""
    global _BLAS_LIMIT
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        pass
    else:
        _BLAS_LIMIT = threadpool_limits(1, user_api="blas")
    if initializer is not None:
        initializer(*initargs)


# ------------------------------------------------------------------ Ray
def _map_ray(
    fn: Callable[[Any], Any],
    chunks: Iterable[Any],
    workers: int,
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
    address: str | None,
) -> Iterator[Any]:
    """``map_chunks`` on Ray: ``workers`` tasks in flight (each takes one CPU, so this is how
    many run at once; a task's round trip is a few milliseconds against chunks of tenths of a
    second). The initializer travels once, in the object store, and runs once per worker
    process and map (``_ray_chunk``)."""
    ray = _connect(address)
    task = ray.remote(max_retries=RAY_RETRIES, retry_exceptions=False)(_ray_chunk)
    setup = None if initializer is None else [ray.put((initializer, initargs)), uuid.uuid4().hex]
    chunks = iter(chunks)
    pending = [task.remote(fn, c, setup) for c in itertools.islice(chunks, workers)]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            yield ray.get(finished[0])
            chunk = next(chunks, None)
            if chunk is not None:
                pending.append(task.remote(fn, chunk, setup))
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise


_READY: str | None = None  # in a Ray worker process: the map whose initializer ran here


def _ray_chunk(fn: Callable[[Any], Any], chunk: Any, setup: list[Any] | None) -> Any:
    """One chunk in a Ray worker; the worker keeps the state its initializer built (agents,
    loaded models) for the map's later chunks, as a pool process does. ``setup`` is a list so
    that Ray hands over the reference, fetched only when this worker has not run it yet."""
    global _READY
    if setup is not None and setup[1] != _READY:
        import ray

        initializer, initargs = ray.get(setup[0])
        initializer(*initargs)
        _READY = setup[1]
    return fn(chunk)


_ray_address: str | None = None  # the address this process's Ray connection was made for


def _connect(address: str | None) -> Any:
    """The ``ray`` module, connected to ``address`` (see ``Backend``; None also takes the Ray
    this process is already connected to). One connection per process, reused by later maps.
    An address nobody answers at is a ``ConnectionError`` within seconds, not Ray's long wait
    for a cluster to appear."""
    global _ray_address
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--backend ray needs Ray: pip install 'koira-rl[ray]' (or '.[ray]' in a clone)"
        ) from None
    if ray.is_initialized() and (address is None or address == _ray_address):
        return ray
    target = address or os.environ.get("RAY_ADDRESS") or "local"
    if target not in ("auto", "local"):
        _probe(target)
    ray.shutdown()  # a connection to another cluster, if any
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a local Ray must not phone home
    try:
        ray.init(address=target, include_dashboard=False, logging_level=logging.WARNING)
    except ConnectionError as err:
        raise ConnectionError(f"cannot connect to a Ray cluster at {target}: {err}") from None
    _ray_address = address
    return ray


def _probe(address: str) -> None:
    """Fail fast when nothing listens at ``address`` (``host:port`` or ``ray://host[:port]``)."""
    client = address.startswith("ray://")
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep:
        host, port = rest, str(RAY_CLIENT_PORT) if client else ""
    host = host.strip("[]")
    if not host or not port.isdigit():
        raise ValueError(
            f"bad Ray address {address!r}: expected host:port, ray://host:port or auto"
        )
    try:
        socket.create_connection((host, int(port)), timeout=PROBE_SECONDS).close()
    except OSError as err:
        reason = "no answer" if isinstance(err, TimeoutError) else err.strerror or err
        raise ConnectionError(f"no Ray cluster at {address}: {reason}") from None


@contextmanager
def log_writer(
    path: Path, done: dict[str, dict[str, Any]], advance: Callable[[int], None]
) -> Iterator[Callable[[list[dict[str, Any]]], None]]:
    """The writer of a JSON-lines result log, for the block: each batch of rows is recorded in
    ``done`` by its ``key``, appended and flushed (a kill loses at most the batch being
    written, whose torn line ``read_log`` cuts off), then ``advance(len(rows))``."""
    with path.open("a") as log:

        def emit(rows: list[dict[str, Any]]) -> None:
            for row in rows:
                done[row["key"]] = row
                log.write(json.dumps(row, separators=(",", ":")) + "\n")
            log.flush()
            advance(len(rows))

        yield emit


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
