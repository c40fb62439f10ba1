"""Exact game theory on a small rule set through OpenSpiel: CFR+ with its NashConv curve, and
the exact NashConv of the suite's agents (every seat played by the agent, each seat's best
response computed exactly).

    python -m koira_experiments.openspiel_exact --game matapesa --players 3 \\
        --option deck_ranks=3 --option deck_suits=HS --iterations 16 \\
        --agents random,lowest,shed,keeper,champion --out results/mini-matapesa

Any game of the suite whose tree OpenSpiel can walk works (mini Mätäpesä: 720 deck orders,
two tricks). Mini Koira has its own array solver (``koira.mini_solve``), much faster than
walking a Python game through OpenSpiel. Writes ``curve.csv``/``curve.png`` (NashConv of
CFR+'s average strategy against iterations and seconds) and ``agents.csv``. Resumable: the
solver's regrets and average policy are saved atomically at every measurement
(``cfr.json``), measured agents are not measured again, and a rerun with a larger
``--iterations`` goes on from where the last one stopped.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from pathlib import Path
from typing import Any

from koira_agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.core.files import claim_folder, pyplot, save_figure, write_csv, write_json

CHECKPOINT = "cfr.json"


def load(game_id: str, players: int, options: dict[str, Any]) -> Any:
    import pyspiel

    import koira_env.openspiel  # noqa: F401  (registers python_<id>)

    return pyspiel.load_game(f"python_{game_id}", {"players": players, **options})


def agent_policy(game: Any, spec: str, samples: int = 1, seed: int = 0) -> Any:
    """An agent's strategy as an OpenSpiel ``TabularPolicy``: at each information state, the
    share of ``samples`` calls of ``act`` (on one state of it, with the seat's view) that chose
    each action. A deterministic agent needs one sample."""
    from open_spiel.python import policy

    table = policy.TabularPolicy(game)
    koira_game = game.new_initial_state().koira_game
    agent = make_agent(spec, koira_game.id)
    rng = random.Random(seed)
    for state in table.states:
        engine = state.engine
        seat = state.current_player()
        probs = table.policy_for_key(table._state_key(state, seat))
        probs[:] = 0.0
        for _ in range(samples):
            probs[int(agent.act(Turn(engine.view(seat), engine.game, rng, engine)))] += 1.0
        probs /= samples
    return table


def save_solver(path: Path, solver: Any, curve: list[dict], spent: float) -> None:
    """CFR+'s state (per information state: cumulative regrets and policy), its current
    policy and the curve so far, atomically."""
    nodes = {
        key: [list(node.cumulative_regret.items()), list(node.cumulative_policy.items())]
        for key, node in solver._info_state_nodes.items()
    }
    current = solver._current_policy.action_probability_array.tolist()
    data = {"iteration": solver._iteration, "spent": spent, "curve": curve}
    write_json(path, {**data, "nodes": nodes, "current": current})


def load_solver(path: Path, solver: Any) -> tuple[list[dict], float]:
    """Restore ``save_solver``'s state into a fresh solver of the same game."""
    import numpy as np

    data = json.loads(path.read_text())
    for key, (regret, average) in data["nodes"].items():
        node = solver._info_state_nodes[key]
        node.cumulative_regret.update({int(a): v for a, v in regret})
        node.cumulative_policy.update({int(a): v for a, v in average})
    solver._current_policy.action_probability_array[:] = np.asarray(data["current"])
    solver._iteration = data["iteration"]
    return data["curve"], data["spent"]


def run(
    out: Path,
    game_id: str,
    players: int,
    options: dict[str, Any],
    iterations: int,
    agents: list[str],
    samples: int = 1,
) -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    config = {"game": game_id, "players": players, "options": options, "samples": samples}
    claim_folder(out, config, CHECKPOINT, "solve")
    game = load(game_id, players, options)
    rows: list[dict[str, Any]] = []
    if (out / "agents.csv").exists():
        with open(out / "agents.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    for spec in agents:
        if any(row["agent"] == spec for row in rows):
            continue
        tick = time.perf_counter()
        conv = exploitability.nash_conv(game, agent_policy(game, spec, samples))
        rows.append({"agent": spec, "nashconv": conv, "per_seat": conv / players})
        write_csv(out / "agents.csv", ["agent", "nashconv", "per_seat"], rows)
        print(f"{spec}: NashConv {conv:.4f} ({time.perf_counter() - tick:.0f} s)", flush=True)
    solver = cfr.CFRPlusSolver(game)
    curve: list[dict[str, Any]] = []
    spent = 0.0
    if (out / CHECKPOINT).exists():
        curve, spent = load_solver(out / CHECKPOINT, solver)
    for i in range(solver._iteration + 1, iterations + 1):
        tick = time.perf_counter()
        solver.evaluate_and_update_policy()
        spent += time.perf_counter() - tick  # CFR+ time only
        if i & (i - 1) == 0 or i == iterations:  # powers of two and the last
            conv = exploitability.nash_conv(game, solver.average_policy())
            curve.append({"iterations": i, "seconds": round(spent, 1), "nashconv": conv})
            write_csv(out / "curve.csv", ["iterations", "seconds", "nashconv"], curve)
            save_solver(out / CHECKPOINT, solver, curve, spent)
            print(f"{i:5d} it {spent:7.0f} s  NashConv {conv:.5f}", flush=True)
    if not curve:
        return
    fig, ax = pyplot().subplots(figsize=(6, 4))
    ax.loglog([r["iterations"] for r in curve], [r["nashconv"] for r in curve], marker=".")
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("NashConv of the average strategy")
    ax.set_title(f"{game_id} {options}, {players} players: OpenSpiel CFR+")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, out / "curve.png", dpi=120)


def _option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--option takes NAME=VALUE, got {text!r}")
    for cast in (int, float):
        try:
            return name, cast(value)
        except ValueError:
            pass
    return name, {"True": True, "False": False}.get(value, value)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="matapesa")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--option", type=_option, action="append", default=[])
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--agents", default="random,shed,keeper,champion")
    parser.add_argument("--samples", type=int, default=1, help="act calls per information state")
    parser.add_argument("--out", type=Path, default=Path("results/mini-matapesa"))
    args = parser.parse_args(argv)
    agents = [a for a in args.agents.split(",") if a]
    run(args.out, args.game, args.players, dict(args.option), args.iterations, agents, args.samples)


if __name__ == "__main__":
    main()
