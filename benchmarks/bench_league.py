"""The league's actors on a local Ray cluster: games per second on one node and on two.

    python benchmarks/bench_league.py [--game koira] [--games 400] [--exploiter-iterations 8]
                                      [--exploiter-model dumper]
                                      [--student net:koira4-net] [--json out.json]

One league round's games (``koira train --algo league``: ``distill.generate`` with the pool
of ``pfsp.PFSPLeague`` after round 0, the game's bots, the student's snapshot and a search
exploiter of it) are played on a cluster of Ray nodes of one CPU each on this machine
(``bench_backends.LocalCluster``): first with the head node alone, then with a second node
joined, each time every CPU of the cluster busy (``--workers 0``). The learner (the driver)
only waits and writes shards while the actors play, so the ratio of the two is what a second
machine adds to a round's games. The two runs must write the same shards. Report: seconds,
games per second and the ratio, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench_backends import LocalCluster

from koira_agents.net import net_path
from koira_env.core.jobs import Backend
from koira_training import distill, pfsp


def league_round(
    folder: Path, game: str, games: int, iterations: int, model: str, student: str
) -> tuple:
    """A league folder whose round 0 is done (the student as its snapshot), and round 1's
    arguments: the pool drawn by prioritized fictitious self-play."""
    args = pfsp.Args(
        game=game,
        run_dir=str(folder),
        games_per_round=games,
        exploiter_iterations=iterations,
        exploiter_model=model,
        workers=0,
        backend="ray",
    )
    league = pfsp.PFSPLeague(args)
    snapshot = league.snapshot(0)
    snapshot.parent.mkdir(parents=True)
    shutil.copyfile(net_path(student.removeprefix("net:")), snapshot)
    return league.round_args(args, 1), snapshot.read_bytes()


def timed_round(args: distill.Args, folder: Path, student: bytes, address: str) -> float:
    backend = Backend("ray", address)
    backend.parallelism(None)  # connected before the clock starts
    try:
        start = time.perf_counter()
        distill.generate(replace(args, run_dir=str(folder)), folder, 1, student, backend)
        return time.perf_counter() - start
    finally:  # disconnected before the nodes stop, so that an error is shown as itself
        backend.release()


def shards(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "data").rglob("*.npz"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="koira")
    parser.add_argument("--games", type=int, default=400, help="games of the round")
    parser.add_argument("--exploiter-iterations", type=int, default=8)
    parser.add_argument("--exploiter-model", default="dumper", help="empty: the student itself")
    parser.add_argument("--student", default="net:koira4-net", help="the learner's network")
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="kleague", dir="/tmp"))
    played, student = league_round(
        root / "league",
        args.game,
        args.games,
        args.exploiter_iterations,
        args.exploiter_model,
        args.student,
    )
    cluster = LocalCluster(root)
    os.environ.update({k: cluster.env[k] for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH")})
    os.environ.update(RAY_USAGE_STATS_ENABLED="0")
    os.environ.pop("RAY_ADDRESS", None)
    seconds = {}
    try:
        cluster.start()
        seconds["1 node"] = timed_round(played, root / "one", student, cluster.address)
        cluster.start()
        seconds["2 nodes"] = timed_round(played, root / "two", student, cluster.address)
    finally:
        cluster.stop()
    same = shards(root / "one") == shards(root / "two")
    rate = {name: args.games / s for name, s in seconds.items()}
    ratio = rate["2 nodes"] / rate["1 node"]
    print(f"{args.games} league games of {args.game}; pool: {', '.join(played.field)}")
    print(f"  weights: {', '.join(f'{w:.2f}' for w in played.field_weights)}")
    for name in seconds:
        print(f"  {name:<8} {seconds[name]:7.1f} s {rate[name]:7.2f} games/s")
    print(f"  two nodes / one: {ratio:.2f}; same shards: {same}; load {os.getloadavg()}")
    if args.json:
        numbers = {
            "game": args.game,
            "games": args.games,
            "pool": list(played.field),
            "seconds": seconds,
            "games_per_s": rate,
            "ratio": ratio,
            "same_shards": same,
            "load_average": os.getloadavg(),
        }
        Path(args.json).write_text(json.dumps(numbers, indent=1))
    shutil.rmtree(root, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
