"""Census of Koira's phase-two decisions by cards in hands: where the exact solver decides,
how often a forced escape exists, and how often an agent misses one.

    python -m koira_experiments.endgames [--agent champion] [--games 200] [--max-nodes 20000]
                                   [--max-cards 52] [--seed 0] [--out results/endgames]

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
from collections import defaultdict
from pathlib import Path
from typing import Any

from koira_agents.base import play_out
from koira_agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.core.files import write_csv, write_json
from koira_env.games.koira import solve_moves
from koira_env.games.koira.engine import PHASE_TWO, UNKNOWN
from koira_env.games.koira.game import make_game

BUCKETS = ((2, 8), (9, 12), (13, 16), (17, 20), (21, 26), (27, 32), (33, 40), (41, 52))
COLUMNS = ("decisions", "decided", "escape", "decisive", "missed", "leads", "hidden")


def bucket_of(cards: int) -> str:
    return next(f"{lo}-{hi}" for lo, hi in BUCKETS if lo <= cards <= hi)


class Counted:
    """``agent``, with every phase-two decision it is asked to make counted in ``counts``
    (the census reads the true state the turn carries; the agent sees only its view)."""

    def __init__(
        self, agent: Any, counts: dict[str, dict[str, int]], max_nodes: int, max_cards: int
    ) -> None:
        self.agent = agent
        self.name = agent.name
        self.counts = counts
        self.max_nodes = max_nodes
        self.max_cards = max_cards

    def act(self, turn: Turn) -> int:
        move = self.agent.act(turn)
        state = turn._state
        cards = sum(map(len, state.hands))
        if state.phase == PHASE_TWO and cards <= self.max_cards:
            row = self.counts[bucket_of(cards)]
            verdicts = solve_moves(state, self.max_nodes)
            known = [v for v in verdicts.values() if v is not None]
            decisive = True in known and False in known
            row["decisions"] += 1
            row["decided"] += len(known) == len(verdicts)
            row["escape"] += True in known
            row["decisive"] += decisive
            row["missed"] += decisive and verdicts[move] is False
            row["leads"] += not state.trick
            row["hidden"] += UNKNOWN in turn.view.where
        return move


def census(
    agent: str, games: int, max_nodes: int, seed: int, max_cards: int = 52
) -> dict[str, dict[str, int]]:
    """The counts per bucket of cards in hands (``COLUMNS``; ``missed`` among the decisive),
    of decisions with at most ``max_cards`` cards in hands."""
    game = make_game(4, "koira")
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    players = [Counted(make_agent(agent), counts, max_nodes, max_cards) for _ in range(4)]
    for g in range(games):
        play_out(game.new_state(seed=seed * 1_000_003 + g), players, seed * 1_000_003 + g)
    return {b: counts[b] for b in (f"{lo}-{hi}" for lo, hi in BUCKETS) if b in counts}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="champion")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-nodes", type=int, default=20_000)
    parser.add_argument(
        "--max-cards",
        type=int,
        default=52,
        help="count only decisions with at most this many cards in hands",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("results/endgames"))
    args = parser.parse_args(argv)
    result = census(args.agent, args.games, args.max_nodes, args.seed, args.max_cards)
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
