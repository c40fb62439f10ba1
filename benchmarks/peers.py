"""Speed against peer environments: one random-legal-play loop, many games, one process.

Every measurement plays whole games with uniformly random legal actions for a fixed time
budget and counts decision steps (chance nodes, such as OpenSpiel's deal, cost time but are
not counted). Measurements are interleaved over several repetitions and reported as median
and min-max, because shared machines are noisy. Koira's rows run on the compiled core (the
default); the ``(python)`` rows run the same loops on the pure-Python reference engine.
Peers that are not installed (the ``bench`` extra: ``pettingzoo[classic]``, which brings
rlcard and open_spiel) are reported as unavailable. Run ``python benchmarks/peers.py --help``;
results are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from gymnasium.spaces import Box, Dict, Discrete, Space
from pettingzoo import AECEnv

import koira_env
from koira_env.games.koira.engine import new_game
from koira_env.games.koira.observation import ObservationEncoder
from koira_env.games.koira.rules import make_rules

PLAYERS, RULES = 4, "koira"
OPENSPIEL_GAMES = {
    "bridge": {"use_double_dummy_result": False},
    "hearts": {},
    "spades": {},
    # the nearest C++ card game of each of the suite's other games (bench.py's NEAREST)
    "oh_hell": {},
    "euchre": {},
    "crazy_eights": {},
}
PETTINGZOO_GAMES = ("texas_holdem_v4", "leduc_holdem_v4", "connect_four_v3")
PACKAGES = ("numpy", "pettingzoo", "gymnasium", "rlcard", "open_spiel")

# (name, numerator, denominator, minimum ratio of steps/s); "koira ..." is the compiled core
TARGETS = (
    ("env+obs vs OpenSpiel bridge + observation_tensor", "koira env", "bridge obs", 2.5),
    ("env+obs vs OpenSpiel bridge + reused buffer", "koira env", "bridge buffer", 1.0),
    ("bare engine vs OpenSpiel hearts raw", "koira bare", "hearts raw", 5.0),
    ("vector env vs OpenSpiel bridge + reused buffer", "koira vector", "bridge buffer", 5.0),
)
VECTOR_ENVS, VECTOR_STEPS = 256, 64  # one "game" of the vector rows: 64 steps of 256 envs
# the compiled core over the reference engine, same loop, same run
SPEEDUPS = (
    ("bare engine", "koira bare", "koira bare (python)"),
    ("env", "koira env", "koira env (python)"),
)

# CPU time of this process by default: on a shared, loaded machine wall time mostly measures
# the other processes.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}

GameFn = Callable[[random.Random, int], int]  # (rng, seed) -> decision steps of one game


@dataclass
class Bench:
    """One measured loop; ``setup`` builds it and returns a function playing one game."""

    name: str
    group: str  # "ours", "ceiling" or "peer"
    versus: str  # which of ours it is compared with: "koira bare" or "koira env"
    setup: Callable[[], GameFn]
    note: str = ""
    play: GameFn | None = None
    error: str = ""
    steps: list[float] = field(default_factory=list)  # steps/s per repetition
    games: list[float] = field(default_factory=list)  # games/s per repetition
    steps_per_game: list[float] = field(default_factory=list)


# ------------------------------------------------------------------ our side
def bare_engine(engine: str = "compiled") -> GameFn:
    rules = make_rules(PLAYERS, RULES)  # once, as OpenSpiel's load_game and our env do

    def game(rng: random.Random, seed: int) -> int:
        state = new_game(rules=rules, seed=seed, engine=engine)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        return state.actions_taken

    return game


def aec_loop(env: Any) -> GameFn:
    """The standard PettingZoo loop: observation and mask from ``last()`` every step.

    The action is picked from the mask's nonzero indices as a Python list: the cheapest way
    found, three times faster than ``rng.choice(np.flatnonzero(mask))``. The mask (int8, as
    PettingZoo's masks are) is viewed as bool first: numpy's ``nonzero`` on int8 reads a
    2,500-wide mask (Red7's) about 5x slower than on bool, the same bytes.
    """

    def game(rng: random.Random, seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(obs["action_mask"].view(bool).nonzero()[0].tolist()))
                steps += 1
        return steps

    return game


def koira_aec(engine: str = "compiled") -> GameFn:
    return aec_loop(koira_env.env(PLAYERS, RULES, engine=engine))


def koira_vector() -> GameFn:
    """``koira_env.vector_env``: random legal actions for all envs at once (a fixed table of
    random priorities, a different row each step, argmax over the legal ones), observation
    and mask written for every env every step; a call is ``VECTOR_STEPS`` batch steps."""
    venv = koira_env.vector_env(VECTOR_ENVS, PLAYERS, rules=RULES)
    # random priorities as bytes (1..255; a tie goes to the lower id): a quarter of the
    # memory of float32, which at Red7's 2,500 actions cost more than the env step
    priorities = np.random.default_rng(0).integers(
        1, 256, (VECTOR_STEPS, venv.num_actions), np.uint8
    )
    state = {"mask": venv.reset(seed=0)[1]}
    scores = np.empty((VECTOR_ENVS, venv.num_actions), np.uint8)  # reused, as bench.py's

    def game(rng: random.Random, seed: int) -> int:
        mask = state["mask"]
        for k in range(VECTOR_STEPS):
            np.multiply(mask.view(np.uint8), priorities[k], out=scores)
            mask = venv.step(scores.argmax(axis=1))[1]
        state["mask"] = mask
        return VECTOR_ENVS * VECTOR_STEPS

    return game


def numpy_floor() -> GameFn:
    """The memory floor of a batched env: copying ``VECTOR_ENVS`` observation rows and mask
    rows per step, nothing else (the issue's "a million observations per second")."""
    encoder = ObservationEncoder(make_rules(PLAYERS, RULES))
    obs = np.zeros((VECTOR_ENVS, encoder.size), np.float32)
    mask = np.zeros((VECTOR_ENVS, encoder.num_actions), bool)
    obs_rows = np.random.default_rng(0).random((2, VECTOR_ENVS, encoder.size), np.float32)
    mask_rows = obs_rows[:, :, : encoder.num_actions] > 0.5

    def game(rng: random.Random, seed: int) -> int:
        for k in range(VECTOR_STEPS):
            obs[:] = obs_rows[k & 1]
            mask[:] = mask_rows[k & 1]
        return VECTOR_ENVS * VECTOR_STEPS

    return game


def calibrate(games: int = 50) -> tuple[int, int]:
    """Mean decision steps per game and mean number of legal actions in random Koira play."""
    rng = random.Random(0)
    steps = choices = 0
    for seed in range(games):
        state = new_game(PLAYERS, RULES, seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            choices += len(legal)
            state.apply(rng.choice(legal))
        steps += state.actions_taken
    return round(steps / games), max(1, round(choices / steps))


class NullEnv(AECEnv):
    """An AEC env that does nothing: the same observation each step, a game of ``length`` steps.

    It is the ceiling of the PettingZoo API itself for a loop like ours.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "null_v0", "is_parallelizable": False}

    def __init__(self, size: int, num_actions: int, length: int, num_legal: int) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(PLAYERS)]
        space = Dict(
            {
                "observation": Box(0.0, 1.0, (size,), np.float32),
                "action_mask": Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, Discrete(num_actions))
        mask = np.zeros(num_actions, np.int8)
        mask[:num_legal] = 1
        self._obs = {"observation": np.zeros(size, np.float32), "action_mask": mask}
        self._length = length

    def observation_space(self, agent: str) -> Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._moves = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._obs

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._moves += 1
        if self._moves >= self._length:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[self._moves % PLAYERS]


def null_aec() -> GameFn:
    """The do-nothing env with our spaces, our mean game length and our mean legal count."""
    encoder = ObservationEncoder(make_rules(PLAYERS, RULES))
    return aec_loop(NullEnv(encoder.size, encoder.num_actions, *calibrate()))


def tournament() -> GameFn:
    """Our tournament player with the heuristic bots, one game per call (one process)."""
    from koira_agents.schedule import Job, TournamentConfig, lineups, seating
    from koira_agents.tournament import Player

    bots = ("greedy", "dumper", "warrior", "cautious", "gambler", "hoarder")
    config = TournamentConfig(agents=bots, players=PLAYERS, rules=RULES, deals=10**6)
    player = Player(config)
    tables = lineups(bots, PLAYERS)

    def game(rng: random.Random, seed: int) -> int:
        seats = seating(tables[seed % len(tables)], seed % PLAYERS)
        return player.play(Job(seed, seed % PLAYERS, seats))["actions"]

    return game


# ------------------------------------------------------------------ peers
def pettingzoo_classic(module: str) -> Callable[[], GameFn]:
    def setup() -> GameFn:
        with warnings.catch_warnings():  # pettingzoo 1.27 warns on every classic env import
            warnings.simplefilter("ignore", DeprecationWarning)
            return aec_loop(importlib.import_module(f"pettingzoo.classic.{module}").env())

    return setup


def openspiel(name: str, mode: str) -> Callable[[], GameFn]:
    """``mode``: "raw", "obs" (a fresh tensor each step) or "buffer" (set_from, reused)."""

    def setup() -> GameFn:
        import pyspiel

        game_def = pyspiel.load_game(name, OPENSPIEL_GAMES[name])
        # Hearts has no observation tensor: its information-state tensor stands in.
        has_obs = game_def.get_type().provides_observation_tensor
        observe: Callable[[Any, int], Any] | None = None
        if mode == "obs":
            if has_obs:
                observe = lambda s, p: s.observation_tensor(p)  # noqa: E731
            else:
                observe = lambda s, p: s.information_state_tensor(p)  # noqa: E731
        elif mode == "buffer":
            from open_spiel.python.observation import make_observation

            kind = None if has_obs else pyspiel.IIGObservationType(perfect_recall=True)
            observe = make_observation(game_def, kind).set_from

        def game(rng: random.Random, seed: int) -> int:
            state = game_def.new_initial_state()
            steps = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcome = pyspiel.sample_action(state.chance_outcomes(), rng.random())
                    state.apply_action(outcome[0])
                    continue
                if observe is not None:
                    observe(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
            return steps

        return game

    return setup


def benches() -> list[Bench]:
    info = "information_state_tensor (no observation tensor)"
    ref = "the pure-Python reference engine"
    out = [
        Bench("koira bare", "ours", "koira bare", bare_engine, "legal_actions + apply"),
        Bench("koira bare (python)", "ours", "koira bare", lambda: bare_engine("python"), ref),
        Bench("koira env", "ours", "koira env", koira_aec, "koira_env.env(), obs + mask"),
        Bench("koira env (python)", "ours", "koira env", lambda: koira_aec("python"), ref),
        Bench("null AEC env", "ceiling", "koira env", null_aec, "do-nothing env, same shapes"),
        Bench(
            "koira vector",
            "ours",
            "koira env",
            koira_vector,
            f"vector_env({VECTOR_ENVS}), obs + mask, one process",
        ),
        Bench(
            "numpy floor",
            "ceiling",
            "koira vector",
            numpy_floor,
            f"copying {VECTOR_ENVS} obs + mask rows per step",
        ),
        Bench("koira tournament", "ours", "koira bare", tournament, "heuristic bots"),
    ]
    for module in PETTINGZOO_GAMES:
        out.append(
            Bench(module, "peer", "koira env", pettingzoo_classic(module), "PettingZoo classic")
        )
    for name in OPENSPIEL_GAMES:
        out.append(Bench(f"{name} raw", "peer", "koira bare", openspiel(name, "raw"), "OpenSpiel"))
        obs_note = info if name == "hearts" else "observation_tensor()"
        out.append(Bench(f"{name} obs", "peer", "koira env", openspiel(name, "obs"), obs_note))
        out.append(
            Bench(f"{name} buffer", "peer", "koira env", openspiel(name, "buffer"), "set_from")
        )
    return out


# ------------------------------------------------------------------ measuring
def measure(
    play: GameFn, budget: float, seed: int, clock: Callable[[], float] = time.process_time
) -> tuple[float, float, float]:
    """Whole games until ``budget`` seconds pass: (steps/s, games/s, steps/game)."""
    rng = random.Random(seed)
    steps = games = 0
    start = now = clock()
    while games == 0 or now - start < budget:
        steps += play(rng, seed * 1_000_003 + games)
        games += 1
        now = clock()
    elapsed = now - start
    return steps / elapsed, games / elapsed, steps / games


def run(
    reps: int, budget: float, clock: str = "cpu", log: Callable[[str], None] = print
) -> list[Bench]:
    """Set up every bench (recording failures), then measure all of them ``reps`` times."""
    todo = benches()
    for bench in todo:
        try:
            bench.play = bench.setup()
            measure(bench.play, budget / 5, 10**6, CLOCKS[clock])  # warm-up
        except Exception as err:  # a peer that will not install or build is only reported
            bench.error = f"{type(err).__name__}: {err}".splitlines()[0][:120]
            log(f"unavailable: {bench.name}: {bench.error}")
    for rep in range(reps):
        for bench in todo:
            if bench.play is None:
                continue
            steps, games, per_game = measure(bench.play, budget, rep, CLOCKS[clock])
            bench.steps.append(steps)
            bench.games.append(games)
            bench.steps_per_game.append(per_game)
        log(f"repetition {rep + 1}/{reps} done")
    return todo


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def ratio(results: dict[str, Bench], ours: str, peer: str) -> float | None:
    a, b = (median(results[k].steps) if k in results else None for k in (ours, peer))
    return a / b if a and b else None


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    versions = {}
    for package in PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
    }


def report(todo: list[Bench], reps: int, budget: float, clock: str) -> dict[str, Any]:
    results = {b.name: b for b in todo}
    rows = []
    for b in todo:
        rows.append(
            {
                "name": b.name,
                "group": b.group,
                "note": b.note,
                "available": b.play is not None,
                "error": b.error or None,
                "steps_per_s": {"median": median(b.steps), "runs": b.steps},
                "games_per_s": {"median": median(b.games), "runs": b.games},
                "steps_per_game": median(b.steps_per_game),
                "versus": b.versus,
                "ours_over_this": ratio(results, b.versus, b.name) if b.group != "ours" else None,
            }
        )
    targets = []
    for name, ours, peer, minimum in TARGETS:
        value = ratio(results, ours, peer)
        status = "n/a" if value is None else "PASS" if value >= minimum else "MISS"
        targets.append(
            {"target": name, "ours": ours, "peer": peer, "min": minimum, "ratio": value}
            | {"status": status}
        )
    ceiling = ratio(results, "null AEC env", "koira env")
    speedups = {name: ratio(results, fast, slow) for name, fast, slow in SPEEDUPS}
    return {
        "command": "python benchmarks/peers.py",
        "machine": machine(),
        "reps": reps,
        "budget_s": budget,
        "clock": clock,
        "rows": rows,
        "env_fraction_of_null_env": 1 / ceiling if ceiling else None,
        "compiled_over_python": speedups,
        "targets": targets,
    }


# ------------------------------------------------------------------ printing
def _num(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def table_lines(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    header = ["benchmark", "steps/s", "min-max", "games/s", "steps/game", "ours/this", "note"]
    body = []
    for row in data["rows"]:
        if not row["available"]:
            body.append([row["name"], "unavailable", "", "", "", "", row["error"]])
            continue
        runs = row["steps_per_s"]["runs"]
        spread = f"{min(runs):,.0f}-{max(runs):,.0f}"
        r = row["ours_over_this"]
        versus = "" if r is None else f"{r:.2f}x ({row['versus']})"
        body.append(
            [
                row["name"],
                _num(row["steps_per_s"]["median"]),
                spread,
                _num(row["games_per_s"]["median"], 1),
                _num(row["steps_per_game"], 1),
                versus,
                row["note"],
            ]
        )
    return header, body


def markdown(data: dict[str, Any]) -> str:
    """The table as markdown, for docs/benchmarks.md."""
    header, body = table_lines(data)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def print_report(data: dict[str, Any]) -> None:
    header, body = table_lines(data)
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(" | ".join(header))
        for cells in body:
            print(" | ".join(cells))
    else:
        title = (
            f"random legal play, median of {data['reps']} x {data['budget_s']} {data['clock']} s"
        )
        table = Table(title=title)
        for i, name in enumerate(header):
            table.add_column(name, justify="right" if 0 < i < 6 else "left")
        for cells in body:
            table.add_row(*cells)
        console = Console()
        if not console.is_terminal:
            console = Console(width=150)
        console.print(table)
    fraction = data["env_fraction_of_null_env"]
    if fraction is not None:
        print(f"koira env runs at {fraction:.1%} of the do-nothing AEC env's steps/s")
    for name, value in data["compiled_over_python"].items():
        if value is not None:
            print(f"compiled core / reference engine, {name}: {value:.2f}x")
    for t in data["targets"]:
        value = "n/a" if t["ratio"] is None else f"{t['ratio']:.2f}x"
        print(f"{t['status']:4}  {t['target']}: {value} (target >= {t['min']}x)")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny budget, for smoke tests")
    parser.add_argument("--reps", type=int, default=None, help="repetitions (default 5, quick 1)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per measurement")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="process CPU time or wall time"
    )
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--markdown", action="store_true", help="also print a markdown table")
    args = parser.parse_args(argv)
    reps = args.reps or (1 if args.quick else 5)
    budget = args.budget or (0.02 if args.quick else 1.5)
    todo = run(reps, budget, args.clock, log=lambda s: print(s, file=sys.stderr))
    data = report(todo, reps, budget, args.clock)
    data["command"] = " ".join(
        ["python benchmarks/peers.py", *(sys.argv[1:] if argv is None else argv)]
    )
    print_report(data)
    if args.markdown:
        print(markdown(data))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=2)
    return data


if __name__ == "__main__":
    main()
