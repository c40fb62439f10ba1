"""Time per decision of each game's ``champion`` on the reference engine and on the compiled core.

    python benchmarks/bench_champion.py [--games kop,teka] [--positions 40] [--reps 3]
                                        [--json bench_champion.json]

A search agent (PIMC, flat Monte Carlo, the solver) determinizes, clones and plays out the
engine's states, so its speed follows the engine's. The positions are real decisions (more
than one legal move) of random games, every third one, until ``--positions``: the same deals
and moves on either engine. Each row times ``champion`` deciding every position (process CPU
time, the median of ``--reps`` passes, the agent seeded alike on both engines) and gives the
ratio of the two engines measured in the same run. A game without a compiled core has one
row.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from koira_agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.registry import games as game_ids
from koira_env.registry import make_game, spec


def positions(game_id: str, engine: str | None, count: int, seed: int = 1) -> list[Any]:
    """Every third real decision of random games, until ``count`` (``engine`` None: a game
    with one engine)."""
    game = make_game(game_id, **({} if engine is None else {"engine": engine}))
    found: list[Any] = []
    g = seed
    while len(found) < count:
        rng = random.Random(g)
        state = game.new_state(seed=g)
        k = 0
        while not state.is_terminal and len(found) < count:
            legal = state.legal_actions()
            if len(legal) > 1:
                k += 1
                if k % 3 == 0:
                    found.append(state.clone())
            state.apply(rng.choice(legal))
        g += 1
    return found


def seconds_per_decision(game_id: str, states: list[Any], reps: int) -> float:
    """The median over ``reps`` passes of CPU seconds per decision of ``champion``."""
    times = []
    for _ in range(reps):
        agent = make_agent("champion", game_id)
        rng = random.Random(0)
        tick = time.process_time()
        for state in states:
            agent.act(Turn(state.view(state.current), state.game, rng, state))
        times.append((time.process_time() - tick) / len(states))
    return statistics.median(times)


def has_compiled(game_id: str) -> bool:
    return getattr(make_game(game_id), "compiled", None) is not None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", default="bench_champion.json")
    args = parser.parse_args(argv)
    rows = []
    for game_id in [g for g in args.games.split(",") if g] or game_ids():
        champion = spec(game_id).choices.aliases["champion"]
        engines = ["python", "compiled"] if has_compiled(game_id) else [None]
        row: dict[str, Any] = {"game": game_id, "champion": champion}
        for engine in engines:
            states = positions(game_id, engine, args.positions)
            row[f"{engine or 'python'}_ms"] = 1000 * seconds_per_decision(
                game_id, states, args.reps
            )
        if len(engines) == 2:
            row["ratio"] = row["python_ms"] / row["compiled_ms"]
        rows.append(row)
        cells = [f"{k} {v:.2f}" if isinstance(v, float) else f"{v}" for k, v in row.items()]
        print("  ".join(cells), flush=True)
    with open(args.json, "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
