"""Masked multi-agent PPO self-play with RLlib (new API stack), on a local Ray.

Every table is the suite's PettingZoo AEC env in RLlib's ``PettingZooEnv``, which hands
RLlib one seat's observation a step and, when the game ends, every seat's final observation
and reward. Two policies (RLModules) share the table:
- ``main`` learns (``policies_to_train``);
- ``past`` is a frozen copy of ``main``, refreshed every ``--snapshot-every`` iterations. One
  seat of each game, chosen by the episode, plays it; ``main`` plays the others, so ``main``
  meets itself and its recent past.

``MaskedModule`` is ``ppo_selfplay.py``'s network as an RLModule: it reads the observation
dict's ``observation``, pushes the logits of illegal actions (its ``action_mask``) to -1e9
so an illegal action is never drawn, and gives PPO its value head. The only reward is the
game's zero-sum return at its end, so PPO runs with gamma = lambda = 1: a decision's
advantage is its seat's result minus the predicted value. Sampling runs in the driver
(``--num-env-runners 0``) unless told otherwise: on two cores a separate runner only adds
copies.

    python examples/rllib_ppo.py --game red7 --minutes 5 --out runs/rllib-red7
    koira tournament --game red7 --agents net:runs/rllib-red7/latest.npz,thrifty,random

``main`` is saved in the suite's numpy format (``latest.npz``), and ``curve.csv`` holds its
evaluations, as ``ppo_selfplay.py`` writes them. Needs the ``train`` and ``tools`` extras and
RLlib (``recipes``: ``ray[rllib]``).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ray
import torch
from ppo_selfplay import Agent, parser, record  # this folder is on sys.path when the script runs
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

import koira_env
from koira_env.registry import spec

MAIN, PAST = "main", "past"


def parse_args() -> argparse.Namespace:
    p = parser(__doc__.split("\n")[0], "runs/rllib-ppo")
    p.set_defaults(num_envs=8)  # tables per env runner, stepped one by one
    p.add_argument("--num-env-runners", type=int, default=0, help="0: sample in the driver")
    p.add_argument(
        "--snapshot-every", type=int, default=5, help="iterations between copies of main to past"
    )
    return p.parse_args()


class MaskedModule(TorchRLModule, ValueFunctionAPI):
    """``Agent`` (``ppo_selfplay.py``) as an RLModule: masked logits and a value head."""

    def setup(self) -> None:
        size = self.observation_space["observation"].shape[0]
        self.net = Agent(size, self.action_space.n, self.model_config["hidden"])

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.net.policy(self.net.body(obs["observation"]))
        legal = obs["action_mask"].bool()
        return {Columns.ACTION_DIST_INPUTS: logits.masked_fill(~legal, -1e9)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.net.value(self.net.body(batch[Columns.OBS]["observation"])).squeeze(-1)


def seat_to_module(players: int) -> Callable[..., str]:
    """The episode's ``past`` seat, the same at every step of it; ``main`` elsewhere."""

    def mapping(agent_id: str, episode: Any, **kwargs: Any) -> str:
        past = hash(episode.id_) % players
        return PAST if agent_id == f"player_{past}" else MAIN

    return mapping


def copy_main_to_past(algo: Any) -> None:
    """Freeze ``main``'s current weights as ``past``, in the learner and in every sampler."""
    state = algo.get_module(MAIN).get_state()
    algo.learner_group.foreach_learner(lambda learner: learner.module[PAST].set_state(state))
    algo.env_runner_group.foreach_env_runner(
        lambda runner: runner.module[PAST].set_state(state), local_env_runner=True
    )


def main() -> None:
    args = parse_args()
    players = args.players or spec(args.game).default_players
    warnings.filterwarnings("ignore")  # RLlib's deprecation notices, once per iteration
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    ray.init(
        num_cpus=max(2, args.num_env_runners + 1), include_dashboard=False, log_to_driver=False
    )
    logging.getLogger("ray.rllib").setLevel(logging.ERROR)
    register_env("koira", lambda _: PettingZooEnv(koira_env.make(args.game, players)))
    module = RLModuleSpec(module_class=MaskedModule, model_config={"hidden": args.hidden})
    config = (
        PPOConfig()
        .environment("koira", disable_env_checking=True)  # its random actions are illegal
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.num_envs)
        .multi_agent(
            policies={MAIN, PAST},
            policy_mapping_fn=seat_to_module(players),
            policies_to_train=[MAIN],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MAIN: module, PAST: module}))
        .training(
            train_batch_size_per_learner=args.num_envs * args.steps,
            minibatch_size=min(args.minibatch, args.num_envs * args.steps),
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=1.0,
            lambda_=1.0,
            clip_param=args.clip,
            entropy_coeff=args.ent_coef,
            vf_loss_coeff=0.5,
            grad_clip=0.5,
        )
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    copy_main_to_past(algo)
    game = koira_env.make_game(args.game, players)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    trained = 0.0  # seconds of sampling and learning (evaluations not counted)
    curve, steps, next_eval, iteration = [], 0, 0.0, 0
    while True:
        done = trained >= args.minutes * 60
        if done or trained >= next_eval:  # --- evaluate (the untrained network first)
            next_eval = trained + args.eval_every * 60
            algo.get_module(MAIN).net.save(out / "latest.npz", game)
            record(
                curve, out / "latest.npz", args.game, players, args.eval_deals, out, trained, steps
            )
        if done:
            break
        began = time.monotonic()
        result = algo.train()  # --- sample, then learn
        steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
        iteration += 1
        if iteration % args.snapshot_every == 0:
            copy_main_to_past(algo)
        trained += time.monotonic() - began
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
