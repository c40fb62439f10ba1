"""Time of the exact phase-two solver by cards in hands, on real positions.

    python benchmarks/bench_solver.py [--games 300] [--players 4] [--rules koira]
                                      [--max-nodes N] [--json bench_solver.json]

The positions are every phase-two decision (more than one legal move) of games between
``dumper`` bots, solved for the seat to move (``solve(state, state.current)``) on one core.
Each row is one bucket of cards still in hands; it gives the median, 90th and 99th
percentile and maximum solve time (process CPU time of one call), the median positions
expanded, and the share of verdicts ``True`` (the mover can escape). The times are absolute
and machine-dependent; ``ratio`` is each bucket's median against a reference measured in the
same run (one ``koira`` env step, ``reference_us``), so runs on different machines compare.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from koira_env.games.koira import _solver
from koira_env.games.koira.bots import dumper_move
from koira_env.games.koira.engine import PHASE_TWO
from koira_env.games.koira.game import make_game

BUCKETS = ((0, 8), (9, 12), (13, 16), (17, 20), (21, 26), (27, 32), (33, 52))


def positions(games: int, players: int, rules: str, seed: int = 1) -> list[Any]:
    """Every phase-two decision with a choice, of ``games`` dumper games."""
    game = make_game(players, rules)
    found = []
    for g in range(seed, seed + games):
        state = game.new_state(seed=g)
        while not state.is_terminal:
            if state.phase == PHASE_TWO and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(dumper_move(state))
    return found


def reference_us(steps: int = 20000) -> float:
    """Microseconds per action of random-free dumper play on the compiled core: the yardstick."""
    game = make_game(4, "koira")
    start = time.process_time()
    done, g = 0, 10**6
    while done < steps:
        state = game.new_state(seed=g)
        g += 1
        while not state.is_terminal:
            state.apply(dumper_move(state))
            done += 1
    return (time.process_time() - start) / done * 1e6


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(states: list[Any], max_nodes: int | None) -> list[dict[str, Any]]:
    rows = []
    for lo, hi in BUCKETS:
        bucket = [s for s in states if lo <= sum(len(h) for h in s.hands) <= hi]
        if not bucket:
            continue
        times, nodes, escapes, undecided = [], [], 0, 0
        for state in bucket:
            start = time.process_time()
            verdict, expanded = _solver.nodes_searched(state, state.current, max_nodes)
            times.append((time.process_time() - start) * 1e3)
            nodes.append(expanded)
            escapes += verdict is True
            undecided += verdict is None
        rows.append(
            {
                "cards": f"{lo}-{hi}",
                "positions": len(bucket),
                "median_ms": statistics.median(times),
                "p90_ms": percentile(times, 0.90),
                "p99_ms": percentile(times, 0.99),
                "max_ms": max(times),
                "median_nodes": statistics.median(nodes),
                "escape": escapes / len(bucket),
                "undecided": undecided / len(bucket),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="koira")
    parser.add_argument("--max-nodes", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    states = positions(args.games, args.players, args.rules)
    ref = reference_us()
    rows = measure(states, args.max_nodes)
    print(f"{len(states)} positions; reference {ref:.2f} us per dumper action")
    print("cards   positions  median ms  p90 ms  p99 ms  max ms  nodes  escape  ratio")
    for r in rows:
        r["ratio"] = r["median_ms"] * 1e3 / ref
        print(
            f"{r['cards']:>6} {r['positions']:>10} {r['median_ms']:>10.3f} {r['p90_ms']:>7.2f} "
            f"{r['p99_ms']:>7.2f} {r['max_ms']:>7.1f} {r['median_nodes']:>6.0f} "
            f"{r['escape']:>7.2f} {r['ratio']:>6.1f}"
        )
    if args.json:
        meta = {"python": sys.version.split()[0], "machine": platform.machine()}
        out = {"meta": meta, "args": vars(args) | {"json": str(args.json)}, "rows": rows}
        args.json.write_text(json.dumps(out, indent=2))
    return rows


if __name__ == "__main__":
    main()
