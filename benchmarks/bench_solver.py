"""Time of the exact phase-two solver by cards in hands, on real positions, per preset.

    python benchmarks/bench_solver.py [--games 300] [--players 4] [--rules koira,koira-b,mattis]
                                      [--play dumper|random] [--max-nodes 200000]
                                      [--max-cards 52] [--json bench_solver.json]

The positions are every phase-two decision (more than one legal move) of games between
``dumper`` bots (``--play random``: uniformly random moves), solved for the seat to move
(``solve(state, state.current)``) on one core. Each call is bounded by ``--max-nodes``
positions searched, forced moves included (``0``: no bound), so a run always finishes; a call
past the bound is undecided. Each row is one bucket of cards still in hands; it gives the
median, 90th and 99th percentile and maximum solve time (process CPU time of one call), the
median positions searched, the share undecided and the share of verdicts ``True`` (the mover
can escape); the ``0-16`` line sums up the buckets up to 16 cards, where the issue's targets
are set. The times are absolute and machine-dependent; ``ratio`` is each bucket's median
against a reference measured in the same run (one ``koira`` dumper action, ``reference_us``),
so runs on different machines compare. ``--rules`` takes several presets, comma-separated: one
table each.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
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
SUMMARY = (0, 16)  # the targets: median <= 1 ms, p99 <= 50 ms up to 16 cards
PLAYS = ("dumper", "random")


def positions(
    games: int, players: int, rules: str, seed: int = 1, play: str = "dumper", max_cards: int = 52
) -> list[Any]:
    """Every phase-two decision with a choice and at most ``max_cards`` in hands, of ``games``
    games played by dumpers or at random (one random stream per game, from its seed)."""
    game = make_game(players, rules)
    found = []
    for g in range(seed, seed + games):
        state = game.new_state(seed=g)
        rng = random.Random(g)
        while not state.is_terminal:
            legal = state.legal_actions()
            if (
                state.phase == PHASE_TWO
                and len(legal) > 1
                and sum(map(len, state.hands)) <= max_cards
            ):
                found.append(state.clone())
            state.apply(dumper_move(state) if play == "dumper" else rng.choice(legal))
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


def row(cards: str, solved: list[tuple[float, int, Any]]) -> dict[str, Any]:
    """One table row of ``(ms, positions expanded, verdict)`` triples."""
    times = [t for t, _, _ in solved]
    return {
        "cards": cards,
        "positions": len(solved),
        "median_ms": statistics.median(times),
        "p90_ms": percentile(times, 0.90),
        "p99_ms": percentile(times, 0.99),
        "max_ms": max(times),
        "median_nodes": statistics.median(n for _, n, _ in solved),
        "escape": sum(v is True for _, _, v in solved) / len(solved),
        "undecided": sum(v is None for _, _, v in solved) / len(solved),
    }


def measure(states: list[Any], max_nodes: int | None) -> tuple[list[dict[str, Any]], Any]:
    """The bucket rows and the ``0-16`` summary row (``None`` without such positions)."""
    solved = []
    for state in states:
        start = time.process_time()
        verdict, expanded = _solver.nodes_searched(state, state.current, max_nodes)
        ms = (time.process_time() - start) * 1e3
        solved.append((sum(map(len, state.hands)), (ms, expanded, verdict)))
    rows = []
    for lo, hi in BUCKETS:
        bucket = [s for cards, s in solved if lo <= cards <= hi]
        if bucket:
            rows.append(row(f"{lo}-{hi}", bucket))
    lo, hi = SUMMARY
    small = [s for cards, s in solved if lo <= cards <= hi]
    return rows, row(f"{lo}-{hi}", small) if small else None


def print_table(rules: str, count: int, rows: list[dict[str, Any]], summary: Any) -> None:
    print(f"\n{rules}: {count} positions")
    print("cards   positions  median ms  p90 ms  p99 ms  max ms   nodes  undecided  escape  ratio")
    for r in [*rows, *([summary] if summary else [])]:
        print(
            f"{r['cards']:>6} {r['positions']:>10} {r['median_ms']:>10.3f} {r['p90_ms']:>7.2f} "
            f"{r['p99_ms']:>7.2f} {r['max_ms']:>7.1f} {r['median_nodes']:>7.0f} "
            f"{r['undecided']:>10.3f} {r['escape']:>7.2f} {r['ratio']:>6.1f}"
        )


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Every preset's rows, each with its ``rules`` (the ``0-16`` summaries are in the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="koira", help="presets, comma-separated")
    parser.add_argument("--play", choices=PLAYS, default="dumper")
    parser.add_argument("--max-nodes", type=int, default=200_000, help="per solve; 0: no bound")
    parser.add_argument("--max-cards", type=int, default=52)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    max_nodes = args.max_nodes or None
    ref = reference_us()
    print(f"reference {ref:.2f} us per dumper action; {args.play} play; max nodes {max_nodes}")
    every, tables = [], {}
    for rules in args.rules.split(","):
        states = positions(args.games, args.players, rules, args.seed, args.play, args.max_cards)
        rows, summary = measure(states, max_nodes)
        for r in [*rows, *([summary] if summary else [])]:
            r["ratio"] = r["median_ms"] * 1e3 / ref
            r["rules"] = rules
        print_table(rules, len(states), rows, summary)
        every += rows
        tables[rules] = {"positions": len(states), "rows": rows, "summary": summary}
    if args.json:
        meta = {"python": sys.version.split()[0], "machine": platform.machine()}
        meta["reference_us"] = ref
        out = {"meta": meta, "args": vars(args) | {"json": str(args.json)}, "tables": tables}
        args.json.write_text(json.dumps(out, indent=2))
    return every


if __name__ == "__main__":
    main()
