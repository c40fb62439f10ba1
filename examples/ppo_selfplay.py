"""Masked PPO self-play on ``koira_env.vector_env``, in one file (CleanRL style).

One network plays every seat of ``--num-envs`` tables stepped together. The only reward is
the game's zero-sum return at its end, so each decision's return is its seat's final return
(no discount, no bootstrapping: GAE with lambda = 1) and its advantage that return minus the
value the network predicted. Decisions of games still running when a rollout ends wait for
their game's end in the next one. Illegal actions are masked out of the policy.

    python examples/ppo_selfplay.py --game koira --minutes 10 --out runs/ppo-koira
    koira tournament --agents net:runs/ppo-koira/latest.npz,dumper,random

The network is written in the suite's numpy format (``koira_agents.net``), so the suite's
tournaments judge it like any shipped network. ``curve.csv`` holds, per evaluation (the
untrained network first), the headline measure of the network and of its rival at tables of
the two: ``random``, then the game's best bot.
Needs the ``train`` and ``tools`` extras (torch).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

import koira_env
from koira_agents.net import save_arrays
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.registry import spec

BEST_BOT = {"koira": "dumper", "matapesa": "shed", "whist22": "counter", "kop": "counter"}
BEST_BOT |= {"dois": "counter", "teka": "counter", "red7": "thrifty"}


def parser(description: str, out: str) -> argparse.ArgumentParser:
    """The recipe's flags (``torchrl_ppo.py`` adds its own to them), results in ``out``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--game", default="koira")
    p.add_argument("--players", type=int, default=None, help="table size (default: the game's)")
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--steps", type=int, default=64, help="steps of every env per rollout")
    p.add_argument("--minutes", type=float, default=10.0, help="training time (evaluations apart)")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--eval-every", type=float, default=2.0, help="minutes between evaluations")
    p.add_argument("--eval-deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=out)
    return p


def parse_args() -> argparse.Namespace:
    return parser(__doc__.split("\n")[0], "runs/ppo-selfplay").parse_args()


class Agent(nn.Module):
    """An MLP with a policy and a value head: the layout ``koira_agents.net.NetPolicy`` plays."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple:
        h = self.body(obs)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)

    def save(self, path: Path, game: koira_env.core.game.Game) -> None:
        layers = [m for m in [*self.body, self.policy, self.value] if isinstance(m, nn.Linear)]
        arrays = {}
        for k, m in enumerate(layers):
            arrays[f"w{k}"] = m.weight.detach().cpu().numpy()
            arrays[f"b{k}"] = m.bias.detach().cpu().numpy()
        save_arrays(path, game, arrays, arch="mlp", layers=2)


def evaluate(
    path: Path, game_id: str, players: int, deals: int, out: Path, kind: str = "net"
) -> dict[str, str]:
    """The headline measure of the network and of its rival, beside ``random`` and then beside
    the best bot: duplicate deals, every seat rotation, 95% intervals clustered by deal.
    ``kind`` is how the suite loads the file (``net``; ``ppo`` for a MaskablePPO model)."""
    measure = spec(game_id).choices.rank_by
    ci_of = {"loss_rate": "loss_ci", "win_rate": "win_ci"}.get(measure, "place_ci")
    row = {}
    for rival in ("random", BEST_BOT[game_id]):
        config = TournamentConfig(
            agents=(f"net={kind}:{path}", rival), game=game_id, players=players, deals=deals
        )
        summary = run_tournament(config, out / rival, workers=1)
        for who in summary["agents"]:
            name = "net" if who["agent"] == "net" else "rival"
            low, high = who[ci_of]
            row[f"{name}_vs_{rival}"] = f"{who[measure]:.3f} [{low:.3f}, {high:.3f}]"
    return row


def record(
    curve: list[dict[str, str]],
    path: Path,
    game_id: str,
    players: int,
    deals: int,
    out: Path,
    trained: float,
    steps: int,
    kind: str = "net",
) -> None:
    """One evaluation (``evaluate``, in ``out/evalK``) as the next row of ``curve`` and of
    ``out/curve.csv``, printed: minutes trained, steps, then the tournaments' measures."""
    row = {"minutes": f"{trained / 60:.1f}", "steps": str(steps)}
    row |= evaluate(path, game_id, players, deals, out / f"eval{len(curve)}", kind)
    curve.append(row)
    with (out / "curve.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, list(row))
        writer.writeheader()
        writer.writerows(curve)
    print(row, flush=True)


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    players = args.players or spec(args.game).default_players
    env = koira_env.vector_env(args.num_envs, players, game=args.game)
    game, n = env.game, args.num_envs
    agent = Agent(game.observation_size, game.num_actions, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    obs, mask, player = env.reset(seed=args.seed)
    # decisions of games in progress, per env: (obs, mask, action, logprob, value, seat)
    pending: list[list[tuple]] = [[] for _ in range(n)]
    trained = 0.0  # seconds of rollouts and learning (evaluations not counted)
    curve, steps, next_eval = [], 0, 0.0
    while True:
        done = trained >= args.minutes * 60
        if done or trained >= next_eval:  # --- evaluate (the untrained network first)
            next_eval = trained + args.eval_every * 60
            agent.save(out / "latest.npz", game)
            record(
                curve, out / "latest.npz", args.game, players, args.eval_deals, out, trained, steps
            )
        if done:
            break
        began = time.monotonic()
        batch: list[tuple] = []  # finished decisions: (..., return)
        for _ in range(args.steps):  # --- rollout
            with torch.no_grad():
                dist, value = agent(torch.from_numpy(obs), torch.from_numpy(mask))
                action = dist.sample()
            logprob = dist.log_prob(action)
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
            o, m = torch.from_numpy(np.stack(o)), torch.from_numpy(np.stack(m))
            a, lp, v = torch.stack(a), torch.stack(lp), torch.stack(v)
            ret = torch.tensor(ret, dtype=torch.float32)
            adv = ret - v
            for _ in range(args.epochs):
                for idx in np.array_split(
                    rng.permutation(len(ret)), 1 + len(ret) // args.minibatch
                ):
                    dist, value = agent(o[idx], m[idx])
                    ratio = (dist.log_prob(a[idx]) - lp[idx]).exp()
                    b = (adv[idx] - adv[idx].mean()) / (adv[idx].std(correction=0) + 1e-8)
                    clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
                    pg_loss = -torch.min(ratio * b, clipped * b).mean()
                    v_loss = ((value - ret[idx]) ** 2).mean()
                    loss = pg_loss + 0.5 * v_loss - args.ent_coef * dist.entropy().mean()
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                    optimizer.step()
        trained += time.monotonic() - began


if __name__ == "__main__":
    main()
