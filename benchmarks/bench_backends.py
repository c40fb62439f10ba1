"""Tournament throughput on each backend of ``koira_env.core.jobs``, and Ray's cost per task.

    python benchmarks/bench_backends.py [--games 4000] [--agents greedy,dumper,random]
                                        [--json out.json]

Plays one tournament (the same config, so the same games) in a fresh folder on

* ``pool``: the process pool, 2 workers (the default backend; measured first and last, the
  reference for the ratios),
* ``ray 1 node``: a Ray started by this process on this machine (``--backend ray``),
* ``ray 2 nodes``: a cluster of two Ray nodes of one CPU each on this machine
  (``LocalCluster``: ``ray start --head`` and a second ``ray start`` joining it),

and reports games per wall-clock second of the whole run (schedule, chunks, the log, the
summaries), Ray's start-up or connection time apart, and checks that every backend wrote the
same summary. Ray's overhead per task is a map of no-op chunks (``map_chunks``): one in flight
(a round trip) and two in flight (the pipelined cost), against the pool's. ``LocalCluster``
is also the test suite's cluster (tests/test_ray_backend.py).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.core.jobs import PROCESS, Backend, map_chunks

RAY = Path(sys.executable).with_name("ray")  # the ray command of this environment


# ------------------------------------------------------------------ a Ray cluster on this machine
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_env(root: Path) -> dict[str, str]:
    """This environment for Ray processes: no usage stats, no RAY_ADDRESS, and a token of our
    own in ``root`` (Ray's default would be written to ~/.ray)."""
    token = root / "token"
    token.write_text(secrets.token_hex(32))
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token))
    return env


class LocalCluster:
    """Ray nodes on this machine, each a ``ray start --block`` in a session of its own, so that
    one can be killed like a lost machine: every port chosen free, a short temp dir in ``root``
    (Ray's socket paths must stay short), object stores of 100 MB, node death noticed within
    seconds. The driver needs ``env``'s RAY_AUTH_* variables too."""

    def __init__(self, root: Path, cpus_per_node: int = 1) -> None:
        self.root = root
        self.cpus = cpus_per_node
        self.env = ray_env(root)
        self.env.update(
            RAY_health_check_period_ms="500",
            RAY_health_check_timeout_ms="1000",
            RAY_health_check_failure_threshold="3",
        )
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen] = []

    def start(self, cpus: int | None = None) -> subprocess.Popen:
        """A node of ``cpus`` CPUs (default: the cluster's per node; the first node is the
        head), once Ray says it runs."""
        log = self.root / f"node{len(self.nodes)}.log"
        argv = [str(RAY), "start", "--block", "--node-ip-address=127.0.0.1"]
        argv += [f"--num-cpus={cpus or self.cpus}", "--object-store-memory=100000000"]
        argv += ["--disable-usage-stats", f"--dashboard-agent-listen-port={free_port()}"]
        if not self.nodes:
            argv += ["--head", f"--port={self.port}", f"--temp-dir={self.root / 'ray'}"]
            argv += ["--include-dashboard=false", f"--dashboard-port={free_port()}"]
            if importlib.util.find_spec("grpc"):  # Ray Client is there (ray[client]): a free port
                argv += [f"--ray-client-server-port={free_port()}"]
        else:
            argv += [f"--address={self.address}"]
        with log.open("w") as out:
            node = subprocess.Popen(
                argv, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.nodes.append(node)
        deadline = time.monotonic() + 90
        while "Ray runtime started" not in log.read_text():
            if node.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"ray start failed:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        return node

    def kill(self, node: subprocess.Popen) -> None:
        """SIGKILL a node: its ``ray start``, raylet and agents (one process group) and the
        raylet's workers (each in a group of its own)."""
        doomed = descendants(node.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(node.pid, signal.SIGKILL)
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        node.wait()

    def stop(self) -> None:
        for node in reversed(self.nodes):
            self.kill(node)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


# ------------------------------------------------------------------ measurements
def _noop(chunk: Any) -> Any:
    return chunk


def task_overhead(backend: Backend, workers: int, tasks: int = 300) -> float:
    """Seconds per no-op chunk through ``map_chunks`` with ``workers`` in flight."""
    list(map_chunks(_noop, range(20), workers, backend=backend))  # workers started
    start = time.perf_counter()
    list(map_chunks(_noop, range(tasks), workers, backend=backend))
    return (time.perf_counter() - start) / tasks


def task_overheads(backend: Backend) -> dict[str, float]:
    """``task_overhead`` with one chunk in flight (a round trip) and with two (pipelined)."""
    return {"round_trip": task_overhead(backend, 1), "pipelined": task_overhead(backend, 2)}


def timed_tournament(config: TournamentConfig, folder: Path, backend: Backend) -> dict[str, Any]:
    start = time.perf_counter()
    summary = run_tournament(config, folder, workers=2, backend=backend)
    seconds = time.perf_counter() - start
    results = (folder / "results.json").read_bytes()
    return {"seconds": seconds, "games_per_s": summary["games_played"] / seconds, "bytes": results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="deals (x players games)")
    parser.add_argument("--agents", default="greedy,dumper,random")
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args()
    config = TournamentConfig(agents=tuple(args.agents.split(",")), deals=args.games)
    root = Path(tempfile.mkdtemp(prefix="kbench", dir="/tmp"))
    runs: dict[str, dict[str, Any]] = {}
    overhead: dict[str, dict[str, float]] = {}
    run_tournament(config, root / "warm", workers=2, max_games=0)  # imports paid
    runs["pool"] = timed_tournament(config, root / "pool", PROCESS)
    overhead["pool"] = task_overheads(PROCESS)

    cluster = LocalCluster(root)
    os.environ.update({k: cluster.env[k] for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH")})
    os.environ.update(RAY_USAGE_STATS_ENABLED="0")
    os.environ.pop("RAY_ADDRESS", None)

    def on_ray(name: str, folder: str, backend: Backend) -> tuple[float, int]:
        """Start (or reach) the Ray backend, time the tournament and the task overheads on
        it, release it; the seconds to start and its CPUs."""
        start = time.perf_counter()
        cpus = backend.parallelism(None)
        seconds = time.perf_counter() - start
        runs[name] = timed_tournament(config, root / folder, backend)
        overhead[name] = task_overheads(backend)
        backend.release()
        return seconds, cpus

    ray_start, _ = on_ray("ray 1 node", "ray1", Backend("ray"))
    try:
        cluster.start()
        cluster.start()
        connect, cpus = on_ray("ray 2 nodes", "ray2", Backend("ray", cluster.address))
    finally:
        cluster.stop()
        shutil.rmtree(root / "ray", ignore_errors=True)
    runs["pool again"] = timed_tournament(config, root / "pool2", PROCESS)

    games = json.loads(runs["pool"]["bytes"])["games_played"]
    same = len({r.pop("bytes") for r in runs.values()}) == 1
    reference = (runs["pool"]["games_per_s"] + runs["pool again"]["games_per_s"]) / 2
    print(f"{games} games of {args.agents}, 2 workers / CPUs, {os.cpu_count()} cores")
    print(f"  local Ray start {ray_start:.1f} s; cluster connect {connect:.1f} s, {cpus} CPUs")
    print(f"  {'backend':<12} {'seconds':>8} {'games/s':>8} {'vs pool':>8}")
    for name, r in runs.items():
        ratio = r["games_per_s"] / reference
        print(f"  {name:<12} {r['seconds']:8.1f} {r['games_per_s']:8.0f} {ratio:8.2f}")
    print("  a no-op chunk through map_chunks, ms (1 in flight: round trip; 2: pipelined)")
    for name, o in overhead.items():
        print(f"  {name:<12} {o['round_trip'] * 1e3:8.2f} {o['pipelined'] * 1e3:8.2f}")
    print(f"  identical summaries on every backend: {same}")
    numbers = {
        "games": games,
        "agents": args.agents,
        "cores": os.cpu_count(),
        "runs": runs,
        "ratio_to_pool": {n: r["games_per_s"] / reference for n, r in runs.items()},
        "task_overhead_s": overhead,
        "ray_start_s": ray_start,
        "cluster_connect_s": connect,
        "identical_summaries": same,
        "load_average": os.getloadavg(),
    }
    if args.json:
        Path(args.json).write_text(json.dumps(numbers, indent=1))
    shutil.rmtree(root, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
