"""Census of Koira's phase-two decisions by cards in hands: where the exact solver decides,
how often a forced escape exists, and how often an agent misses one.

    python -m experiments.endgames [--agent champion] [--games 200] [--max-nodes 20000]
                                   [--seed 0] [--out results/endgames]

Four copies of ``--agent`` play 4-player ``koira`` games. At every phase-two decision with a
choice, the solver (``solve_moves`` on the true state, every move's verdict for the mover,
``--max-nodes`` positions per verdict) classifies it: *decided* (every verdict known),
*escape* (some move lets the mover make sure it does not lose), *decisive* (some moves escape
and others do not: the choice decides the mover's fate against a perfect coalition), and,
when decisive, whether the agent's move *missed* the escape. The census counts by cards in
hands, with hidden cards (does the mover know every hand?) and leads apart. Writes
``census.csv`` and ``census.json``; it is a pure function of its arguments.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.core.files import write_csv, write_json
from koira_env.games.koira import solve_moves
from koira_env.games.koira.engine import PHASE_TWO, UNKNOWN
from koira_env.games.koira.game import make_game

BUCKETS = ((2, 8), (9, 12), (13, 16), (17, 20), (21, 26), (27, 32), (33, 40), (41, 52))
COLUMNS = ("decisions", "decided", "escape", "decisive", "missed", "leads", "hidden")


def bucket_of(cards: int) -> str:
    return next(f"{lo}-{hi}" for lo, hi in BUCKETS if lo <= cards <= hi)


def census(agent: str, games: int, max_nodes: int, seed: int) -> dict[str, dict[str, int]]:
    """The counts per bucket of cards in hands (``COLUMNS``; ``missed`` among the decisive)."""
    game = make_game(4, "koira")
    players = [make_agent(agent) for _ in range(4)]
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    for g in range(games):
        state = game.new_state(seed=seed * 1_000_003 + g)
        rngs = [random.Random((seed * 1_000_003 + g) * 8 + p) for p in range(4)]
        while not state.is_terminal:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            seat = state.current
            view = state.view(seat)
            move = players[seat].act(Turn(view, game, rngs[seat], state))
            if state.phase == PHASE_TWO:
                row = counts[bucket_of(sum(map(len, state.hands)))]
                verdicts = solve_moves(state, max_nodes)
                known = [v for v in verdicts.values() if v is not None]
                row["decisions"] += 1
                row["decided"] += len(known) == len(verdicts)
                row["escape"] += True in known
                decisive = True in known and False in known
                row["decisive"] += decisive
                row["missed"] += decisive and verdicts[move] is False
                row["leads"] += not state.trick
                row["hidden"] += UNKNOWN in view.where
            state.apply(move)
    return {b: counts[b] for b in (f"{lo}-{hi}" for lo, hi in BUCKETS) if b in counts}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="champion")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("results/endgames"))
    args = parser.parse_args(argv)
    result = census(args.agent, args.games, args.max_nodes, args.seed)
    rows = [{"cards": b, **c} for b, c in result.items()]
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(args.out / "census.csv", ("cards", *COLUMNS), rows)
    write_json(
        args.out / "census.json", {"args": {**vars(args), "out": str(args.out)}, "rows": rows}
    )
    print("cards   decisions decided escape decisive missed leads hidden")
    for r in rows:
        print(
            f"{r['cards']:>6} {r['decisions']:>9} {r['decided']:>7} {r['escape']:>6} "
            f"{r['decisive']:>8} {r['missed']:>6} {r['leads']:>5} {r['hidden']:>6}"
        )
    return {"rows": rows}


if __name__ == "__main__":
    main()
