"""Masked PPO self-play with Tianshou's PettingZoo wrapper, Collector and PPO.

Every table is the suite's PettingZoo AEC env in Tianshou's ``PettingZooEnv`` (its observation
is the acting seat's ``agent_id``, ``obs`` and ``mask``), ``--num-envs`` of them in a
``DummyVectorEnv``. One ``DiscreteActorPolicy`` plays every seat: its actor masks the logits
with the observation's ``mask``, so an illegal action is never drawn. A ``Collector`` gathers
whole games (``collect(n_episode=...)``) into a ``VectorReplayBuffer``; its episode hook
writes each decision's return, its seat's zero-sum result at the game's end, and PPO's
advantage is that return minus the predicted value (no discount, no bootstrapping, as in
``ppo_selfplay.py``).

Why not ``MultiAgentOnPolicyAlgorithm`` (one algorithm per seat): it computes each seat's
GAE over that seat's own decisions, but in a turn-based game the final rewards arrive at the
step of whichever seat moved last, so the other seats' decisions would never see the result
nor their game's end. One shared policy and the hook give every seat its result.

    python examples/tianshou_ppo.py --game red7 --minutes 5 --out runs/tianshou-red7
    koira tournament --game red7 --agents net:runs/tianshou-red7/latest.npz,thrifty,random

The network is ``ppo_selfplay.py``'s, saved in the suite's numpy format, and ``curve.csv``
holds its evaluations. Needs the ``train`` and ``tools`` extras and Tianshou (``recipes``).
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from ppo_selfplay import Agent, parser, record  # this folder is on sys.path when the script runs
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, ReplayBuffer, VectorReplayBuffer
from tianshou.data.types import RolloutBatchProtocol
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode
from torch import nn

import koira_env
from koira_env.registry import spec


def parse_args() -> argparse.Namespace:
    p = parser(__doc__.split("\n")[0], "runs/tianshou-ppo")
    p.set_defaults(num_envs=16)  # the envs step one by one in this process
    p.add_argument("--total-steps", type=int, default=0, help="stop after these steps (0: never)")
    return p.parse_args()


class Actor(nn.Module):
    """The shared network's policy head, its illegal actions' logits pushed to -1e9."""

    def __init__(self, net: Agent) -> None:
        super().__init__()
        self.net = net

    def forward(self, obs: Batch, state: Any = None, info: Any = None) -> tuple:
        logits = self.net.policy(self.net.body(torch.as_tensor(obs.obs)))
        return logits.masked_fill(~torch.as_tensor(obs.mask, dtype=torch.bool), -1e9), state


class Critic(nn.Module):
    """The shared network's value head, read by Tianshou's PPO as ``critic(obs)``."""

    def __init__(self, net: Agent) -> None:
        super().__init__()
        self.net = net

    def forward(self, obs: Batch) -> torch.Tensor:
        return self.net.value(self.net.body(torch.as_tensor(obs.obs)))


class SeatReturnPPO(PPO):
    """Tianshou's PPO with the return of a decision taken from the buffer's ``seat_return``
    (written by ``SeatReturns``) instead of GAE over the buffer's order, which interleaves the
    seats of a table."""

    def _add_returns_and_advantages(
        self, batch: RolloutBatchProtocol, buffer: ReplayBuffer, indices: np.ndarray
    ) -> Any:
        with torch.no_grad():
            parts = batch.split(self.max_batchsize, shuffle=False, merge_last=True)
            batch.v_s = torch.cat([self.critic(part.obs).flatten() for part in parts])
        batch.returns = torch.as_tensor(batch.seat_return, dtype=torch.float32)
        batch.adv = batch.returns - batch.v_s
        return batch


class SeatReturns:
    """The Collector's episode hook: each decision's return is the total reward of the seat
    that took it (``PettingZooEnv`` gives every seat's reward at every step)."""

    def __init__(self, agents: list[str]) -> None:
        self.seat = {agent: i for i, agent in enumerate(agents)}

    def __call__(self, episode: RolloutBatchProtocol) -> dict[str, np.ndarray]:
        assert episode.obs.mask[np.arange(len(episode)), episode.act].all(), "an illegal action"
        totals = np.asarray(episode.rew, dtype=np.float32).sum(axis=0)
        return {"seat_return": totals[[self.seat[a] for a in episode.obs.agent_id]]}


def main() -> None:
    args = parse_args()
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)  # returns are per seat
    torch.manual_seed(args.seed)
    players = args.players or spec(args.game).default_players
    envs = DummyVectorEnv(
        [lambda: PettingZooEnv(koira_env.make(args.game, players))] * args.num_envs
    )
    envs.seed(args.seed)
    game = koira_env.make_game(args.game, players)
    net = Agent(game.observation_size, game.num_actions, args.hidden)
    template = PettingZooEnv(koira_env.make(args.game, players))
    policy = DiscreteActorPolicy(actor=Actor(net), action_space=template.action_space)
    algorithm = SeatReturnPPO(
        policy=policy,
        critic=Critic(net),
        optim=AdamOptimizerFactory(lr=args.lr),
        eps_clip=args.clip,
        ent_coef=args.ent_coef,
        vf_coef=0.5,
        max_grad_norm=0.5,
        max_batchsize=args.minibatch,
    )
    # every env holds its games of one rollout: --steps decisions and the game that passes them
    buffer = VectorReplayBuffer(
        args.num_envs * (2 * args.steps + 512), args.num_envs, ignore_obs_next=True
    )
    collector = Collector(policy, envs, buffer, on_episode_done_hook=SeatReturns(template.agents))
    collector.reset()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    trained = 0.0  # seconds of rollouts and learning (evaluations not counted)
    curve, steps, next_eval = [], 0, 0.0
    while True:
        done = trained >= args.minutes * 60 or 0 < args.total_steps <= steps
        if done or trained >= next_eval:  # --- evaluate (the untrained network first)
            next_eval = trained + args.eval_every * 60
            net.save(out / "latest.npz", game)
            record(
                curve, out / "latest.npz", args.game, players, args.eval_deals, out, trained, steps
            )
        if done:
            break
        began = time.monotonic()
        with policy_within_training_step(policy):
            with torch_train_mode(policy, False):  # --- rollout: one whole game per table
                while len(buffer) < args.steps * args.num_envs:
                    steps += collector.collect(n_episode=args.num_envs).n_collected_steps
            algorithm.update(buffer, batch_size=args.minibatch, repeat=args.epochs)  # --- learn
        buffer.reset()
        trained += time.monotonic() - began


if __name__ == "__main__":
    main()
