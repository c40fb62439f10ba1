"""Training throughput: learner decisions per second of MaskablePPO, rollout and update apart.

    python benchmarks/bench_training.py [--steps 49152] [--setups 4xsubproc:1 32xdummy:2 ...]
                                        [--json out.json]

Each setup is ``<envs>x<vec env>:<torch threads>`` and runs ``model.learn(steps)`` from a
fresh network (no warm start, which costs the same in every setup) against the league's
heuristic bots, with the trainer's own ``vec_envs`` and ``new_model`` (default settings,
except n_steps: every setup collects 2,048 decisions per rollout). It reports decisions
per wall-clock second of the whole ``learn`` and the seconds spent collecting rollouts and
updating the network, and each setup's rate as a ratio to the first setup's, measured in the
same run (absolute numbers drift with the machine; the ratios much less).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from typing import Any

from koira_training.train import VEC_ENVS, Args, new_model, vec_envs

ROLLOUT = 2048  # decisions per rollout in every setup, as in the default recipe


def parse_setup(text: str) -> tuple[int, str, int]:
    try:
        envs, rest = text.split("x", 1)
        vec_env, threads = rest.split(":")
        setup = int(envs), vec_env, int(threads)
    except ValueError:
        raise ValueError(f"setup {text!r} is not <envs>x<dummy|subproc>:<threads>") from None
    if setup[1] not in VEC_ENVS or ROLLOUT % setup[0] or setup[2] < 1:
        raise ValueError(f"setup {text!r}: envs must divide {ROLLOUT}, threads >= 1")
    return setup


def measure(envs: int, vec_env: str, threads: int, steps: int) -> dict[str, Any]:
    """One ``learn`` of ``steps`` decisions; update time is timed around ``model.train``."""
    import torch

    with tempfile.TemporaryDirectory() as run_dir:
        args = Args(run_dir=run_dir, num_envs=envs, vec_env=vec_env, n_steps=ROLLOUT // envs)
        vec = vec_envs(args)
        vec.seed(1)
        torch.set_num_threads(threads)
        model = new_model(args, vec, seed=1)
        update = 0.0
        train = model.train

        def timed_train() -> None:
            nonlocal update
            start = time.perf_counter()
            train()
            update += time.perf_counter() - start

        model.train = timed_train  # type: ignore[method-assign]
        start = time.perf_counter()
        model.learn(steps)
        total = time.perf_counter() - start
        vec.close()
    return {
        "setup": f"{envs}x{vec_env}:{threads}",
        "decisions": model.num_timesteps,
        "decisions_per_s": model.num_timesteps / total,
        "rollout_s": total - update,
        "update_s": update,
    }


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=49_152, help="decisions per setup")
    parser.add_argument(
        "--setups",
        nargs="+",
        default=["4xsubproc:1", "4xdummy:1", "16xdummy:2", "32xdummy:2"],
        help="<envs>x<dummy|subproc>:<torch threads>; the first is the reference",
    )
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args(argv)
    setups = [parse_setup(text) for text in args.setups]
    results = [measure(*setup, args.steps) for setup in setups]
    reference = results[0]["decisions_per_s"]
    print(f"{'setup':<14} {'decisions/s':>12} {'rollout s':>10} {'update s':>9} {'ratio':>6}")
    for row in results:
        row["ratio"] = row["decisions_per_s"] / reference
        print(
            f"{row['setup']:<14} {row['decisions_per_s']:>12.0f} {row['rollout_s']:>10.1f} "
            f"{row['update_s']:>9.1f} {row['ratio']:>6.2f}"
        )
    if args.json:
        info = {"python": sys.version.split()[0], "machine": platform.machine()}
        with open(args.json, "w") as f:
            json.dump({"results": results, "steps": args.steps, **info}, f, indent=1)
    return results


if __name__ == "__main__":
    main()
