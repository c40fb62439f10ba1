"""Exact exploitability of the suite's agents on mini Koira (RULES.md "Mini Koira").

Each agent's strategy is read off the whole game tree (``koira_env.games.koira.mini_solve``:
its action at every information set with a choice; ``random`` is uniform), then the exact
best response to it is computed from each seat. The CFR+ average strategy of
``python -m koira_env.games.koira.mini_solve --out DIR`` (``DIR/average.npy``) is the last row.

    python -m koira_experiments.mini_cfr --out results/mini-cfr
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np

from koira_agents.registry import make_agent
from koira_env.games.koira import mini_solve
from koira_env.games.koira.game import make_game

AGENTS = ("random", "dumper", "greedy", "warrior", "gambler", "cautious", "hoarder")


def table(out: Path, agents: tuple[str, ...] = AGENTS, samples: int = 1) -> list[dict]:
    """One row per agent (and ``cfr+`` if ``out/average.npy`` exists): the best responses'
    values from each seat, their mean (the exploitability), and player_0's value when the
    agent plays itself."""
    game = make_game(2, "mini")
    tree = mini_solve.get_tree(out)
    strategies = {}
    for name in agents:
        tick = time.perf_counter()
        strategies[name] = mini_solve.agent_strategy(tree, game, make_agent(name, "koira"), samples)
        print(f"{name}: strategy read in {time.perf_counter() - tick:.0f} s", flush=True)
    if (out / "average.npy").exists():
        strategies["cfr+"] = np.load(out / "average.npy")
    rows = [{"agent": name, **mini_solve.exploitability(tree, s)} for name, s in strategies.items()]
    with open(out / "exploitability.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("results/mini-cfr"))
    parser.add_argument("--agents", nargs="+", default=list(AGENTS))
    parser.add_argument("--samples", type=int, default=1, help="calls per set (random agents)")
    args = parser.parse_args(argv)
    rows = table(args.out, tuple(args.agents), args.samples)
    print("| agent | BR as player_0 | BR as player_1 | exploitability | self-play value |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['agent']} | {r['br0']:.4f} | {r['br1']:.4f} | {r['exploitability']:.4f} "
            f"| {r['value']:.4f} |"
        )


if __name__ == "__main__":
    main()
