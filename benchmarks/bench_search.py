"""Decisions per second of ISMCTS: the reference loop against the compiled search, same positions.

    python benchmarks/bench_search.py [--games koira,kop] [--positions 60] [--reps 3]
                                      [--iterations 50 200] [--json bench_search.json]

The positions are the real decisions (more than one legal move) of 4-player games between
the game's rollout policy in every seat (Koira's ``dumper``), every fifth one, so the phases
weigh as in play. Each row times one agent deciding every position (process CPU time, the
median of ``--reps`` passes); ratios are against ``ismcts:50`` as the suite had it before the
compiled core (the reference loop on the reference engine), measured in the same run, per
game:

* ``python loop, python engine``: agents/ismcts.py on the pure-Python engine;
* ``python loop, compiled engine``: the same loop on the compiled core (its determinize,
  clone and apply, the rollout policy still in Python);
* ``compiled N``: the game's ``_search.pyx``, the whole loop in C, at N iterations.
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

from koira_agents.ismcts import ISMCTSAgent, game_rollout
from koira_env.core.agent import Turn
from koira_env.registry import make_game


def positions(game_id: str, engine: str, count: int, seed: int = 1) -> list[Any]:
    """Every fifth real decision of games between the rollout policy, until ``count``: the
    same deals and moves on either engine."""
    game = make_game(game_id, 4, engine=engine)
    policy = game_rollout(game_id)
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
            state.apply(policy(state))
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
    parser.add_argument("--games", default="koira", help="comma-separated game ids")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--iterations", type=int, nargs="+", default=[50, 200, 500, 1000, 2000])
    parser.add_argument("--json", default="bench_search.json")
    args = parser.parse_args(argv)
    results = []
    print(f"{'game':<9} {'agent':<42} {'ms/decision':>12} {'decisions/s':>12} {'speed-up':>9}")
    for game_id in args.games.split(","):
        reference = positions(game_id, "python", args.positions)
        compiled = positions(game_id, "compiled", args.positions)
        rows = [
            ("ismcts:50, python loop, python engine", ISMCTSAgent(50, engine="python"), reference),
            ("ismcts:50, python loop, compiled engine", ISMCTSAgent(50, engine="python"), compiled),
            *((f"ismcts:{n}, compiled", ISMCTSAgent(n), compiled) for n in args.iterations),
        ]
        base = None
        for label, agent, states in rows:
            ms = 1000 * seconds_per_decision(agent, states, args.reps)
            base = base or ms
            row = {"game": game_id, "agent": label, "ms_per_decision": ms}
            row.update(decisions_per_s=1000 / ms, speedup=base / ms)
            results.append(row)
            print(
                f"{game_id:<9} {label:<42} {ms:>12.3f} {row['decisions_per_s']:>12,.0f} "
                f"{row['speedup']:>8.1f}x",
                flush=True,
            )
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), **vars(args)}
    Path(args.json).write_text(json.dumps({"meta": meta, "results": results}, indent=1))
    print(f"wrote {args.json}")
    return results


if __name__ == "__main__":
    main()
