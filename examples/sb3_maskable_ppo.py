"""One seat learns with sb3-contrib's MaskablePPO; bots play the other seats.

``koira_env.core.single_agent.SingleAgentEnv`` is a Gymnasium env of one seat at a table:
the other seats (``--opponents``, drawn per seat per game) play inside ``step`` and the
learner's reward is its zero-sum result at the game's end. Its ``action_masks()`` is what
MaskablePPO asks for, so the library trains it as it is, on ``--num-envs`` tables.

    python examples/sb3_maskable_ppo.py --game red7 --minutes 5 --out runs/sb3-red7
    koira tournament --game red7 --agents ppo:runs/sb3-red7/model.zip,thrifty,random

The model is MaskablePPO's zip with the suite's ``koira.json`` entry added, which is what
``ppo:PATH`` loads. ``curve.csv`` holds the evaluations of ``ppo_selfplay.py``: the headline
measure of the model and of its rival at tables of the two, ``random`` and then the game's best
bot, the untrained model first. Needs the ``train`` and ``tools`` extras.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import zipfile
from pathlib import Path

from ppo_selfplay import record  # this folder is on sys.path when the script runs
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from koira_agents.base import Turn
from koira_agents.ppo import META_NAME, model_metadata
from koira_agents.registry import make_agent
from koira_env import make_game
from koira_env.core.game import Game
from koira_env.core.single_agent import Opponent, OpponentSampler, SingleAgentEnv
from koira_env.registry import spec


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="koira")
    p.add_argument("--players", type=int, default=None, help="table size (default: the game's)")
    p.add_argument("--opponents", default="", help="bots, comma-separated (random, best bot)")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--steps", type=int, default=256, help="steps of every env per rollout")
    p.add_argument("--minutes", type=float, default=10.0, help="training time (evaluations apart)")
    p.add_argument("--total-steps", type=int, default=0, help="stop after these steps (0: never)")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--eval-every", type=float, default=2.0, help="minutes between evaluations")
    p.add_argument("--eval-deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="runs/sb3-maskable-ppo")
    return p.parse_args()


def bots(names: list[str], game: Game) -> OpponentSampler:
    """An opponent sampler: a fresh bot of ``names`` per seat per game, seeing its seat's view."""

    def sample(rng: random.Random) -> Opponent:
        agent = make_agent(rng.choice(names), game.id)
        return lambda state, seat: agent.act(Turn(state.view(seat), game, rng, state))

    return sample


def save(model: MaskablePPO, path: Path, game: Game) -> None:
    """MaskablePPO's zip plus the ``koira.json`` that ``ppo:PATH`` checks against the game."""
    model.save(path)
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(META_NAME, json.dumps(model_metadata(game)))


def main() -> None:
    args = parse_args()
    players = args.players or spec(args.game).default_players
    game = make_game(args.game, players)
    best = spec(game.id).recipe.field[0]  # the game's best hand-written bot
    names = args.opponents.split(",") if args.opponents else ["random", best]
    envs = DummyVecEnv([lambda: SingleAgentEnv(game, bots(names, game))] * args.num_envs)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        learning_rate=args.lr,
        n_steps=args.steps,
        batch_size=256,
        gamma=1.0,  # the only reward is the result at the game's end
        policy_kwargs={"net_arch": [args.hidden, args.hidden]},
        seed=args.seed,
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    trained, curve, next_eval = 0.0, [], 0.0
    while True:
        steps = model.num_timesteps
        done = trained >= args.minutes * 60 or 0 < args.total_steps <= steps
        if done or trained >= next_eval:  # --- evaluate (the untrained model first)
            next_eval = trained + args.eval_every * 60
            save(model, out / "model.zip", game)
            record(
                curve,
                out / "model.zip",
                game.id,
                players,
                args.eval_deals,
                out,
                trained,
                steps,
                "ppo",
            )
        if done:
            break
        began = time.monotonic()  # --- one rollout of every env, then MaskablePPO's update
        model.learn(args.steps * args.num_envs, reset_num_timesteps=False)
        trained += time.monotonic() - began


if __name__ == "__main__":
    main()
