"""Tournament throughput: complete games per second between heuristic bots.

    python benchmarks/bench_tournament.py [--games 1500] [--workers N] [--agents a,b,...]
                                          [--players 4] [--rules koira] [--json out.json]

Runs a whole ``run_tournament`` (schedule, worker pool, the per-game log, the summaries and
the heatmap) in a temporary folder, after a first empty run has paid for the imports, and
reports:

* ``wall``: games per wall-clock second of the whole run;
* ``cpu``: games per CPU-second of the workers, times the worker count: what the cores would
  do undisturbed (other processes competing for the cores distort it less than ``wall``);
* ``single``: ``play_game`` in this process, no pool, games per CPU-second.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

from koira_agents.base import play_game
from koira_agents.registry import default_agents, make_agent
from koira_agents.schedule import TournamentConfig, deal_key
from koira_agents.tournament import run_tournament
from koira_env.registry import spec
from koira_experiments.cli import tournament_config


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def single_process_rate(config: TournamentConfig, games: int) -> float:
    game = config.make_game()
    specs = list(config.entrants.values())
    agents = [make_agent(specs[s % len(specs)], config.game) for s in range(config.players)]
    start = time.process_time()
    for g in range(games):
        play_game(agents, game, None, g, deal_key(config.seed, g))
    return games / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="deals (x players games)")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--game", default="koira")
    parser.add_argument(
        "--agents", help="comma-separated (default: the game's league bots, Koira's heuristics)"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default=None, help="the game's preset (Koira: koira, ...)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args()
    league = spec(args.game).recipe.bots  # Koira: its six heuristics, as before
    default = league or [a for a in default_agents(args.game) if a != "random"]
    agents = args.agents.split(",") if args.agents else default
    config = tournament_config(args, agents)
    with tempfile.TemporaryDirectory() as folder:
        cpu0, start = children_cpu(), time.perf_counter()
        summary = run_tournament(config, Path(folder), workers=args.workers, max_games=0)
        setup = time.perf_counter() - start
        start = time.perf_counter()
        summary = run_tournament(config, Path(folder), workers=args.workers)
        total = time.perf_counter() - start
        worker_cpu = children_cpu() - cpu0
    games = summary["games_played"]
    numbers = {
        "games": games,
        "workers": args.workers,
        "cores": os.cpu_count(),
        "agents": list(config.agents),
        "wall_games_per_s": games / total,
        "cpu_games_per_s": games / worker_cpu * args.workers if worker_cpu else None,
        "single_process_games_per_cpu_s": single_process_rate(config, 300),
        "setup_seconds": setup,
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
    }
    print(f"{games} games, {args.workers} workers, {os.cpu_count()} cores")
    print(f"  wall clock, whole tournament: {numbers['wall_games_per_s']:8.0f} games/s")
    if numbers["cpu_games_per_s"]:
        print(f"  per worker CPU time x workers: {numbers['cpu_games_per_s']:7.0f} games/s")
    print(
        f"  one process (CPU time):        {numbers['single_process_games_per_cpu_s']:7.0f} games/s"
    )
    print(f"  load average during the run: {numbers['load_average']}")
    if args.json:
        Path(args.json).write_text(json.dumps(numbers, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
