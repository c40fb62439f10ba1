"""Microseconds a decision of Red7's per-turn features and of the turn scorer that reads them.

    python benchmarks/bench_turns.py [--decisions 2000] [--reps 3] [--json bench_turns.json]

The positions are the real decisions (more than one legal turn) of 4-player Red7 games between
``thrifty`` bots, the same for every row. Each row times one pass over all of them (process
CPU time, the median of ``--reps`` passes), ratios against the reference writer measured in the
same run:

* ``reference rows``: ``turns.turn_features`` from the seat's view (``Red7Game.turn_features``
  on the reference engine);
* ``compiled rows``: the compiled core's ``Engine.turn_features``;
* ``champion-net decision``: ``net:red74-net``'s whole decision (the observation, the rows
  and the numpy forward pass), as the agent makes it but without a re-deal, on one BLAS
  thread as a tournament worker has it (``threadpoolctl``; with the default threads numpy
  spins more cores on these small products, and CPU time counts them all).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koira_agents.net import NetPolicy, net_path, policy_move
from koira_env.games.red7.bots import spend
from koira_env.games.red7.game import make_game
from koira_env.games.red7.turns import turn_features


def positions(count: int, seed: int = 1) -> list[tuple[Any, int, list[int]]]:
    """(state, seat, legal) of the real decisions of ``thrifty`` games, until ``count``."""
    game = make_game(4)
    found: list[tuple[Any, int, list[int]]] = []
    g = seed
    while len(found) < count:
        state = game.new_state(seed=g)
        while not state.is_terminal and len(found) < count:
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append((state.clone(), state.current, legal))
            state.apply(min(legal, key=spend))
        g += 1
    return found


def micros(run: Callable[[Any, int, list[int]], Any], found: list[Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.process_time()
        for state, seat, legal in found:
            run(state, seat, legal)
        times.append((time.process_time() - start) / len(found) * 1e6)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")
    game = make_game(4)
    found = positions(args.decisions)
    policy = NetPolicy.load(net_path("red74-net"), game)
    rows = {
        "reference rows": lambda s, p, legal: turn_features(s.view(p), legal),
        "compiled rows": game.turn_features,
        "champion-net decision": lambda s, p, legal: policy_move(policy, game, s, p, legal),
    }
    results = {name: micros(run, found, args.reps) for name, run in rows.items()}
    base = results["reference rows"]
    legal = statistics.mean(len(legal) for _, _, legal in found)
    print(f"{len(found)} decisions, {legal:.1f} legal turns each on average")
    print(f"{'':24} {'µs/decision':>12} {'vs reference':>13}")
    for name, value in results.items():
        print(f"{name:24} {value:12.1f} {base / value:12.1f}x")
    if args.json:
        meta = {"python": sys.version.split()[0], "machine": platform.machine()}
        args.json.write_text(json.dumps({**meta, "micros": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
