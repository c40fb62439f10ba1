"""Masked PPO self-play on ``koira_env.vector_env`` with TorchRL's modules and PPO loss.

The same method as ``ppo_selfplay.py`` (one network plays every seat of ``--num-envs``
tables; each decision's return is its seat's zero-sum result at the game's end, its advantage
that return minus the predicted value), written the TorchRL way: a shared body with a policy
and a value head (``ActorValueOperator``), illegal actions masked by ``MaskedCategorical``,
the clipped objective of ``ClipPPOLoss`` and minibatches drawn from a ``ReplayBuffer`` of
``TensorDict``s. The turn-based tables are stepped by hand: a seat's decisions wait for its
game's end, which TorchRL's collectors do not model.

    python examples/torchrl_ppo.py --game red7 --minutes 5 --out runs/torchrl-red7
    koira tournament --game red7 --agents net:runs/torchrl-red7/latest.npz,thrifty,random

The network is written in the suite's numpy format (``koira_agents.net``) and ``curve.csv``
holds the evaluations of ``ppo_selfplay.py``: the headline measure of the network and of its
rival at tables of the two, ``random`` and then the game's best bot, the untrained network
first. Needs torch (the ``train`` extra) and TorchRL (the ``recipes`` extra).
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

import numpy as np
import torch
from ppo_selfplay import parser, record  # this folder is on sys.path when the script runs
from tensordict import TensorDict
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.data import LazyTensorStorage, ReplayBuffer, SamplerWithoutReplacement
from torchrl.modules import (
    MLP,
    ActorValueOperator,
    MaskedCategorical,
    ProbabilisticActor,
    ValueOperator,
)
from torchrl.objectives import ClipPPOLoss

import koira_env
from koira_agents.net import save_arrays
from koira_env.registry import spec


def parse_args() -> argparse.Namespace:
    p = parser(__doc__.split("\n")[0], "runs/torchrl-ppo")
    p.add_argument("--total-steps", type=int, default=0, help="stop after these steps (0: never)")
    return p.parse_args()


def build(obs_size: int, num_actions: int, hidden: int) -> ActorValueOperator:
    """Body, policy head and value head on the keys ``observation`` and ``mask``: the layout
    ``koira_agents.net.NetPolicy`` plays (two ReLU layers, then the two heads)."""
    body = MLP(
        in_features=obs_size,
        out_features=hidden,
        num_cells=[hidden],
        activation_class=nn.ReLU,
        activate_last_layer=True,
    )
    common = TensorDictModule(body, in_keys=["observation"], out_keys=["hidden"])
    actor = ProbabilisticActor(
        TensorDictModule(nn.Linear(hidden, num_actions), in_keys=["hidden"], out_keys=["logits"]),
        in_keys=["logits", "mask"],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
    )
    critic = ValueOperator(nn.Linear(hidden, 1), in_keys=["hidden"])
    return ActorValueOperator(common, actor, critic)


def save(model: ActorValueOperator, path: Path, game: koira_env.core.game.Game) -> None:
    """The weights as ``w0, b0, ...`` (body, policy head, value head) in the suite's format."""
    linear = [m for m in model.modules() if isinstance(m, nn.Linear)]  # in that order
    arrays = {}
    for k, layer in enumerate(linear):
        arrays[f"w{k}"] = layer.weight.detach().cpu().numpy()
        arrays[f"b{k}"] = layer.bias.detach().cpu().numpy()
    save_arrays(path, game, arrays, arch="mlp", layers=2)


def main() -> None:
    args = parse_args()
    logging.getLogger("torchrl").setLevel(logging.WARNING)  # a line per replay buffer made
    torch.manual_seed(args.seed)
    players = args.players or spec(args.game).default_players
    env = koira_env.vector_env(args.num_envs, players, game=args.game)
    game, n = env.game, args.num_envs
    model = build(game.observation_size, game.num_actions, args.hidden)
    loss_module = ClipPPOLoss(
        model.get_policy_operator(),
        model.get_value_operator(),
        clip_epsilon=args.clip,
        entropy_coeff=args.ent_coef,
        critic_coeff=0.5,
        loss_critic_type="l2",
        normalize_advantage=True,
    )
    log_prob_key = loss_module.tensor_keys.sample_log_prob
    optimizer = torch.optim.Adam(loss_module.parameters(), lr=args.lr)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    obs, mask, player = env.reset(seed=args.seed)
    # decisions of games in progress, per env: (obs, mask, action, logprob, value, seat)
    pending: list[list[tuple]] = [[] for _ in range(n)]
    trained = 0.0  # seconds of rollouts and learning (evaluations not counted)
    curve, steps, next_eval = [], 0, 0.0
    while True:
        done = trained >= args.minutes * 60 or 0 < args.total_steps <= steps
        if done or trained >= next_eval:  # --- evaluate (the untrained network first)
            next_eval = trained + args.eval_every * 60
            save(model, out / "latest.npz", game)
            record(
                curve, out / "latest.npz", args.game, players, args.eval_deals, out, trained, steps
            )
        if done:
            break
        began = time.monotonic()
        batch: list[tuple] = []  # finished decisions: (..., return)
        for _ in range(args.steps):  # --- rollout
            td = TensorDict(
                observation=torch.from_numpy(obs), mask=torch.from_numpy(mask), batch_size=[n]
            )
            with torch.no_grad():
                model(td)
            action, logprob, value = td["action"], td[log_prob_key], td["state_value"]
            for i in range(n):
                pending[i].append(
                    (obs[i].copy(), mask[i].copy(), action[i], logprob[i], value[i], player[i])
                )
            obs, mask, player, rewards, terminated, truncated, _ = env.step(action.numpy())
            steps += n
            for i in np.flatnonzero(terminated | truncated):
                batch += [(*d, float(rewards[i, d[5]])) for d in pending[i]]
                pending[i] = []
        if batch:  # --- learn from the decisions of the games that ended
            o, m, a, lp, v, _, ret = zip(*batch, strict=True)
            ret = torch.tensor(ret, dtype=torch.float32).unsqueeze(-1)
            data = TensorDict(
                {
                    "observation": torch.from_numpy(np.stack(o)),
                    "mask": torch.from_numpy(np.stack(m)),
                    "action": torch.stack(a),
                    log_prob_key: torch.stack(lp),
                    "value_target": ret,  # no discount, no bootstrapping: the final return
                    "advantage": ret - torch.stack(v),
                },
                batch_size=[len(batch)],
            )
            buffer = ReplayBuffer(
                storage=LazyTensorStorage(len(batch)),
                sampler=SamplerWithoutReplacement(),
                batch_size=args.minibatch,
            )
            buffer.extend(data)
            for minibatch in (b for _ in range(args.epochs) for b in buffer):  # epochs
                losses = loss_module(minibatch)
                loss = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(loss_module.parameters(), 0.5)
                optimizer.step()
        trained += time.monotonic() - began


if __name__ == "__main__":
    main()
