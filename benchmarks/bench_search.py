"""Decisions per second of ISMCTS: the reference loop against the compiled search, same positions.

    python benchmarks/bench_search.py [--positions 60] [--reps 3] [--json bench_search.json]

The positions are the real decisions (more than one legal move) of 4-player ``koira`` games
between ``dumper`` bots, every fifth one, so phase one and phase two weigh as in play. Each
row times one agent deciding every position (process CPU time, the median of ``--reps``
passes); ratios are against ``ismcts:50`` as the suite had it before the compiled core (the
reference loop on the reference engine), measured in the same run:

* ``python loop, python engine``: agents/ismcts.py on the pure-Python engine;
* ``python loop, compiled engine``: the same loop on the compiled core (its determinize,
  clone and apply, the dumper's rollout still in Python);
* ``compiled N``: ``_search.pyx``, the whole loop in C, at N iterations.
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

from koira_agents.ismcts import ISMCTSAgent
from koira_env.core.agent import Turn
from koira_env.games.koira.bots import dumper_move
from koira_env.games.koira.game import make_game


def positions(engine: str, count: int, seed: int = 1) -> list[Any]:
    """Every fifth real decision of dumper games, until ``count``: the same deals and moves on
    either engine."""
    game = make_game(4, "koira", engine=engine)
    found: list[Any] = []
    g = seed
    while len(found) < count:
        state = game.new_state(seed=g)
        k = 0
        while not state.is_terminal and len(found) < count:
            if len(state.legal_actions()) > 1:
                if k % 5 == 0:
                    found.append(state.clone())
                k += 1
            state.apply(dumper_move(state))
        g += 1
    return found


def seconds_per_decision(agent: ISMCTSAgent, states: list[Any], reps: int) -> float:
    times = []
    for rep in range(reps):
        start = time.process_time()
        for i, state in enumerate(states):
            agent.act(
                Turn(state.view(state.current), state.game, random.Random(rep * 7919 + i), state)
            )
        times.append((time.process_time() - start) / len(states))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--iterations", type=int, nargs="+", default=[50, 200, 500, 1000, 2000])
    parser.add_argument("--json", default="bench_search.json")
    args = parser.parse_args(argv)
    reference = positions("python", args.positions)
    compiled = positions("compiled", args.positions)
    rows = [
        ("ismcts:50, python loop, python engine", ISMCTSAgent(50, engine="python"), reference),
        ("ismcts:50, python loop, compiled engine", ISMCTSAgent(50, engine="python"), compiled),
        *((f"ismcts:{n}, compiled", ISMCTSAgent(n), compiled) for n in args.iterations),
    ]
    results = []
    for label, agent, states in rows:
        seconds = seconds_per_decision(agent, states, args.reps)
        results.append({"agent": label, "ms_per_decision": 1000 * seconds})
    base = results[0]["ms_per_decision"]
    print(f"{'agent':<42} {'ms/decision':>12} {'decisions/s':>12} {'speed-up':>9}")
    for r in results:
        r["decisions_per_s"] = 1000 / r["ms_per_decision"]
        r["speedup"] = base / r["ms_per_decision"]
        print(
            f"{r['agent']:<42} {r['ms_per_decision']:>12.3f} {r['decisions_per_s']:>12,.0f} "
            f"{r['speedup']:>8.1f}x"
        )
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), **vars(args)}
    Path(args.json).write_text(json.dumps({"meta": meta, "results": results}, indent=1))
    print(f"wrote {args.json}")
    return results


if __name__ == "__main__":
    main()
