"""Throughput of random legal play for every game: bare engine, its env, a do-nothing env.

    python benchmarks/bench.py [--quick] [--reps 5] [--games 300] [--config koira:4 ...]
                               [--json bench.json]

A config is ``game:players`` (``kop:4``, ``whist22:3``) or a Koira preset (``koira-b:5``,
``mattis:6``), plus ``:split`` for envs that take each action in two parts (``red7:4:split``,
``core.parts``); by default Koira at 4 players, every other game at its usual table, and Red7
again with split actions. Each
game's env rate is also given as a ratio of the first config's (Koira's) env in the same run,
on its compiled core and on its reference engine.

Every measurement plays the same seeded deals with uniformly random legal actions:

* ``engine``: ``State.legal_actions()`` + ``State.apply()``, no observations (actions/s);
* ``env``: the usual AEC loop, ``agent_iter`` + ``last()`` (observation and mask at every
  step) + ``step()``, the action drawn from the mask (counted: actions, not the final
  ``None`` steps of finished agents);
* ``ceiling``: the same loop over an AEC env that does nothing (constant observation, same
  game lengths), i.e. the cost of the loop and the AEC protocol themselves;
* games with two engines (Koira, Red7, Whist 22, Mätäpesä, Kop, Teka, Dois), ``engine (python)`` and
  ``env (python)``: the first two on the pure-Python reference engine, beside the compiled
  core (the default), with their ratios;
* ``vector``: ``vector_env(256)`` of the same game, random legal actions for all envs at once
  (one numpy ``argmax`` over the mask per step), steps counted over all envs;
* ``bridge buffer``: the yardstick Koira's env is held to, OpenSpiel's bridge (every card
  played) with its observation written into one reused buffer (``peers.py``'s row), measured
  beside each config so that each env's ratio to it comes from the same repetitions; and
  ``peer buffer``, the same loop over the game's nearest OpenSpiel card game (``NEAREST``:
  hearts for Mätäpesä, oh_hell for Whist 22 and Dois, euchre for Kop, spades for Teka,
  crazy_eights for Red7); both left out where ``open_spiel`` is not installed (the ``bench``
  extra) or with ``--no-yardstick``.

Each is repeated ``--reps`` times; the table shows the median rate and its spread (min..max)
in wall-clock time, and the median rate in process CPU time, which a busy machine (other
processes competing for the core) distorts less. Run it on an idle machine for real numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.spaces import Box, Dict, Discrete
from pettingzoo import AECEnv

from koira_env.core.env import CardGameEnv
from koira_env.core.game import Game
from koira_env.registry import games as game_ids
from koira_env.registry import make_game, spec


class Clock:
    """Wall-clock and process CPU seconds; CPU time is the fairer number on a busy machine."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def stop(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


SPLIT = ":split"  # a config's suffix: its envs take each action in two parts (core.parts)


def make_config(config: str, engine: str | None = None) -> Game:
    """``"kop:4"`` -> Kop's game at 4 players; ``"mattis:6"`` -> Koira's Mattis preset
    (``"red7:4:split"``: Red7's game, whose envs the bench builds with split actions).
    ``engine`` (``"compiled"``, the default, or ``"python"``) is for the games with two
    engines, a compiled core and the reference (Koira, Red7, Whist 22, Mätäpesä, Kop, Teka, Dois);
    ``ValueError`` for the others."""
    name, _, players = config.removesuffix(SPLIT).partition(":")
    n = int(players) if players else None
    options = {} if engine is None else {"engine": engine}
    if name in game_ids():
        if options and getattr(make_game(name, n), "engine", None) is None:
            raise ValueError(
                f"an engine choice is for games with a compiled core; {name} has one engine"
            )
        return make_game(name, n, **options)
    return make_game("koira", n or 4, rules=name, **options)


# each game's nearest OpenSpiel card game (C++), the peer its env and vector env are held to
NEAREST = {
    "koira": "bridge",
    "matapesa": "hearts",
    "whist22": "oh_hell",
    "kop": "euchre",
    "dois": "oh_hell",
    "teka": "spades",
    "red7": "crazy_eights",
}
VECTOR_ENVS, VECTOR_STEPS = 256, 16  # one "game" of the vector row: 16 steps of 256 envs


def vector_loop(game: Game, split: bool = False) -> Loop:
    """``vector_env(VECTOR_ENVS)`` of ``game``'s rules: ``games`` calls of ``VECTOR_STEPS``
    batch steps, random legal actions for all envs at once; steps counted over all envs."""
    from koira_env.core.vector_env import VectorEnv

    venv = VectorEnv(game, VECTOR_ENVS, split_actions=split)
    mask = venv.reset(seed=0)[1]
    # random priorities as bytes (1..255; a tie goes to the lower id): a quarter of the
    # memory of float32, which at Red7's 2,500 actions cost more than the env step
    priorities = np.random.default_rng(0).integers(
        1, 256, (VECTOR_STEPS, venv.num_actions), np.uint8
    )

    # the mask's bytes times the priorities, into one reused array: no bool-to-byte cast and
    # no new array a step (at Red7's 2,500 actions, 640 KB)
    scores = np.empty((VECTOR_ENVS, venv.num_actions), np.uint8)

    def run(games: int) -> tuple[int, tuple[float, float]]:
        nonlocal mask
        clock = Clock()
        for _ in range(games):
            for k in range(VECTOR_STEPS):
                np.multiply(mask.view(np.uint8), priorities[k], out=scores)
                mask = venv.step(scores.argmax(axis=1))[1]
        return games * VECTOR_STEPS * VECTOR_ENVS, clock.stop()

    return run


def default_configs() -> list[str]:
    """Koira at 4, every other game at its usual table, and each game whose actions are
    pairs (Red7) again with split actions."""
    configs = [f"{g}:{spec(g).default_players}" for g in game_ids() if g != "koira"]
    split = [c + SPLIT for c in configs if make_config(c).action_parts]
    return ["koira:4", *configs, *split]


def bench_engine(game: Game, games: int) -> tuple[int, tuple[float, float]]:
    """Actions and (wall, CPU) seconds for ``games`` random games on the bare engine."""
    rand = random.Random(0).random
    actions = 0
    clock = Clock()
    for g in range(games):
        state = game.new_state(seed=g)
        legal_actions, apply = state.legal_actions, state.apply
        while not state.is_terminal:
            legal = legal_actions()
            apply(legal[int(rand() * len(legal))])
            actions += 1
    return actions, clock.stop()


def drive(env: AECEnv, games: int) -> tuple[list[int], tuple[float, float]]:
    """The common AEC loop (observe with ``last()``, random action from the mask).

    Returns the number of actions of each game and the (wall, CPU) seconds taken.
    """
    rand = random.Random(0).random
    lengths = []
    clock = Clock()
    for g in range(games):
        env.reset(seed=g)
        actions = 0
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].view(bool).nonzero()[0].tolist()  # see aec_loop
            env.step(legal[int(rand() * len(legal))])
            actions += 1
        lengths.append(actions)
    return lengths, clock.stop()


class NullEnv(AECEnv):
    """An AEC env that does nothing: a constant observation, games of the given lengths."""

    metadata = {"render_modes": [], "name": "null_v0"}  # noqa: RUF012 (PettingZoo's convention)

    def __init__(self, n: int, obs_size: int, num_acts: int, lengths: list[int]) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.observation_spaces = {
            a: Dict(
                {
                    "observation": Box(0.0, 1.0, (obs_size,), np.float32),
                    "action_mask": Box(0, 1, (num_acts,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: Discrete(num_acts) for a in self.possible_agents}
        mask = np.zeros(num_acts, np.int8)
        mask[:3] = 1
        self._obs = {"observation": np.zeros(obs_size, np.float32), "action_mask": mask}
        self._lengths = lengths
        self._left = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._turn = 0
        self._left = self._lengths[(seed or 0) % len(self._lengths)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._obs

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._left -= 1
        if self._left <= 0:
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
            return
        self._turn = (self._turn + 1) % len(self.possible_agents)
        self.agent_selection = self.possible_agents[self._turn]


def null_like(env: AECEnv, lengths: list[int]) -> NullEnv:
    """A do-nothing env with ``env``'s players, spaces and the given game lengths."""
    space = env.observation_space(env.possible_agents[0])
    return NullEnv(
        len(env.possible_agents),
        space["observation"].shape[0],
        space["action_mask"].shape[0],
        lengths,
    )


Loop = Callable[[int], tuple[int, tuple[float, float]]]  # games -> (decisions, clock)


def yardstick(name: str = "bridge") -> Loop | None:
    """``games`` random games of OpenSpiel's ``name`` (bridge: the yardstick) with a reused
    observation buffer, the row of ``peers.py`` (loaded from beside this file), or None
    without ``open_spiel``."""
    path = Path(__file__).with_name("peers.py")
    spec_ = importlib.util.spec_from_file_location("koira_bench_peers", path)
    assert spec_ is not None and spec_.loader is not None
    peers = sys.modules[spec_.name] = importlib.util.module_from_spec(spec_)  # for its dataclasses
    spec_.loader.exec_module(peers)
    try:
        play = peers.openspiel(name, "buffer")()
    except ImportError:
        return None

    def run(games: int) -> tuple[int, tuple[float, float]]:
        rng = random.Random(0)
        clock = Clock()
        steps = sum(play(rng, k) for k in range(games))
        return steps, clock.stop()

    return run


def measure(
    config: str, games: int, reps: int, bridge: Loop | None = None, peer: Loop | None = None
) -> dict[str, Any]:
    """Median and spread of each rate over ``reps`` repetitions, and their ratios."""
    game = make_config(config)
    split = config.endswith(SPLIT)
    env = CardGameEnv(game, split_actions=split)
    null = null_like(env, drive(env, min(games, 50))[0])
    vector = vector_loop(game, split)
    loops = {
        "engine": lambda: bench_engine(game, games),
        "env": lambda: drive(env, games),
        "ceiling": lambda: drive(null, games),
        "vector": lambda: vector(max(1, games // 10)),
    }
    if bridge is not None:
        loops["bridge buffer"] = lambda: bridge(games)
    if peer is not None and peer is not bridge:
        loops["peer buffer"] = lambda: peer(games)
    if getattr(game, "engine", None) == "compiled":
        ref = make_config(config, "python")
        ref_env = CardGameEnv(ref, split_actions=split)
        loops["engine (python)"] = lambda: bench_engine(ref, games)
        loops["env (python)"] = lambda: drive(ref_env, games)
    runs: dict[str, list[float]] = {name: [] for name in loops}
    cpu_runs: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(reps):
        for name, run in loops.items():
            actions, (wall, cpu) = run()
            count = actions if isinstance(actions, int) else sum(actions)
            runs[name].append(count / wall)
            cpu_runs[name].append(count / cpu)
    result: dict[str, Any] = {"config": config, "games": games, "reps": reps, "loops": list(loops)}
    for name, rates in runs.items():
        result[name] = {
            "median": statistics.median(rates),
            "min": min(rates),
            "max": max(rates),
            "runs": rates,
            "cpu_median": statistics.median(cpu_runs[name]),
        }
    result["env_over_engine"] = result["env"]["median"] / result["engine"]["median"]
    result["env_over_ceiling"] = result["env"]["median"] / result["ceiling"]["median"]
    if "bridge buffer" in result:
        result["env_over_bridge"] = result["env"]["median"] / result["bridge buffer"]["median"]
        peer = result["peer buffer"] if "peer buffer" in result else result["bridge buffer"]
        result["env_over_peer"] = result["env"]["median"] / peer["median"]
        result["vector_over_peer"] = result["vector"]["median"] / peer["median"]
    if "engine (python)" in result:
        result["compiled_over_python"] = {
            name: result[name]["median"] / result[f"{name} (python)"]["median"]
            for name in ("engine", "env")
        }
        result["python_env_over_ceiling"] = (
            result["env (python)"]["median"] / result["ceiling"]["median"]
        )
    return result


def table(results: list[dict[str, Any]]) -> str:
    head = f"{'config':<13} {'what':<15} {'median/s':>10} {'min..max':>21} {'CPU-time/s':>11}"
    lines = [head, "-" * len(head)]
    for r in results:
        for name in r["loops"]:
            m = r[name]
            spread = f"{m['min']:,.0f}..{m['max']:,.0f}"
            lines.append(
                f"{r['config']:<13} {name:<15} {m['median']:>10,.0f} {spread:>21}"
                f" {m['cpu_median']:>11,.0f}"
            )
        first = results[0]["config"]
        vs_first = f"env/{first} env {r['env_over_first']:.2f}"
        if "env_over_first_python" in r:
            vs_first += f", env/{first} env (python) {r['env_over_first_python']:.2f}"
        if "env_over_bridge" in r:
            vs_first += f", env/bridge buffer {r['env_over_bridge']:.2f}"
            vs_first += f", env/peer {r['env_over_peer']:.2f}"
            vs_first += f", vector/peer {r['vector_over_peer']:.2f}"
        lines.append(
            f"{r['config']:<13} ratios   env/engine {r['env_over_engine']:.2f}, "
            f"env/ceiling {r['env_over_ceiling']:.2f}, {vs_first}"
        )
        if "compiled_over_python" in r:
            speedup = r["compiled_over_python"]
            lines.append(
                f"{r['config']:<13} compiled core / reference engine: engine "
                f"{speedup['engine']:.2f}x, env {speedup['env']:.2f}x; "
                f"env (python)/ceiling {r['python_env_over_ceiling']:.2f}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few games, for smoke tests")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--games", type=int, default=300, help="games per repetition")
    parser.add_argument(
        "--config", nargs="+", default=None, help="game:players or koira-preset:players ..."
    )
    parser.add_argument("--json", default="bench.json", help="where to write the results")
    parser.add_argument(
        "--no-yardstick", action="store_true", help="leave out OpenSpiel's bridge (reused buffer)"
    )
    args = parser.parse_args(argv)
    games, reps = (3, 2) if args.quick else (args.games, args.reps)
    bridge = None if args.no_yardstick else yardstick()
    configs = args.config or default_configs()
    results = []
    for config in configs:
        nearest = NEAREST.get(make_config(config).id, "bridge")
        peer = bridge if bridge is None or nearest == "bridge" else yardstick(nearest)
        results.append(measure(config, games, reps, bridge, peer))
        results[-1]["peer"] = nearest
    first = results[0]
    for r in results:
        r["env_over_first"] = r["env"]["median"] / first["env"]["median"]
        if "env (python)" in first:  # the first config's reference engine, when it has one
            r["env_over_first_python"] = r["env"]["median"] / first["env (python)"]["median"]
    print(table(results))
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), "quick": args.quick}
    Path(args.json).write_text(json.dumps({"meta": meta, "results": results}, indent=1))
    print(f"wrote {args.json}")
    return results


if __name__ == "__main__":
    main()
