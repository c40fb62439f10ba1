"""Behaviour-cloning warm start: teach the PPO network the strongest bots' play before PPO.

From scratch, PPO spends its budget rediscovering what the heuristic bots already know and
then plateaus below them. So the trainer first plays bot-only tables (seats drawn from the
evaluation field), records every real decision of the imitated bots through the learner's
own encoder (observation, legal mask, action, the seat's final return), and fits the policy
network with cross-entropy over the masked logits and the value network to those returns.
PPO then starts from bot-level play with a value function that already knows the game, and
only has to improve on it. Observations are stored as the encoder's small integers (uint8)
when the game's observations are such codes times a scale (``Game.observation_scale``: Koira's
vector has over a thousand entries), else as float32.

The bot games are the trainer's data generation that fans out: split into ``shards`` streams,
each seeded on its own, they run on local processes or on a Ray cluster (``core.jobs``), and
the demonstrations depend on the seed and the number of shards only, not on where they ran.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from koira_agents.base import Turn
from koira_agents.registry import make_agent
from koira_env.core.game import Game
from koira_env.core.jobs import PROCESS, Backend, map_chunks
from koira_env.core.parts import decision_sizes, part_decisions


@dataclass
class Demonstrations:
    obs: np.ndarray  # uint8 codes (times ``game.observation_scale``) or float32 observations
    masks: np.ndarray  # bool, legal actions
    actions: np.ndarray  # int64
    returns: np.ndarray  # float32, the deciding seat's terminal reward


def collect(
    game: Game,
    field: tuple[str, ...],
    imitate: tuple[str, ...],
    decisions: int,
    seed: int,
    shards: int = 1,
    workers: int | None = 1,
    backend: Backend = PROCESS,
    progress: Callable[[int], None] | None = None,
    split_actions: bool = False,
) -> Demonstrations:
    """``decisions`` real decisions of the ``imitate`` bots at tables drawn from ``field``.
    ``shards`` > 1 splits them into that many streams of games, seeded on their own, played
    on ``workers`` processes or Ray tasks (None or 0: every core); one shard is one stream
    from ``seed``, the demonstrations of earlier versions. ``progress`` is told how many
    decisions were recorded: after every game of one shard, after every finished shard else.
    With ``split_actions`` a decision is a part of a bot's action, as the split env asks for it
    (``core.parts``: one or two a turn, forced parts left out)."""
    parts = list(enumerate(itertools.pairwise(shard_bounds(decisions, shards))))
    play = partial(_shard, game, field, imitate, seed, split_actions)
    if shards == 1:
        return play(parts[0], progress)[1]  # in this process, and not copied: hundreds of MB
    if backend.local and backend.parallelism(workers) == 1:
        done = map(play, parts)
    else:
        done = map_chunks(play, parts, backend.parallelism(workers), backend=backend)
    demos = _empty(game, decisions, split_actions)
    for start, part in done:  # in completion order: each shard knows its place
        end = start + len(part.actions)
        demos.obs[start:end] = part.obs
        demos.masks[start:end] = part.masks
        demos.actions[start:end] = part.actions
        demos.returns[start:end] = part.returns
        if progress:
            progress(end - start)
    return demos


def shard_bounds(decisions: int, shards: int) -> list[int]:
    """Where each of ``shards`` (nearly equal) parts of ``decisions`` starts, and the end."""
    if shards < 1:
        raise ValueError(f"the demonstrations need at least one shard, got {shards}")
    return [decisions * i // shards for i in range(shards + 1)]


def _empty(game: Game, decisions: int, split_actions: bool) -> Demonstrations:
    scale = game.observation_scale
    size, width = decision_sizes(game, split_actions)
    return Demonstrations(
        np.empty((decisions, size), np.float32 if scale is None else np.uint8),
        np.empty((decisions, width), bool),
        np.empty(decisions, np.int64),
        np.empty(decisions, np.float32),
    )


def _shard(
    game: Game,
    field: tuple[str, ...],
    imitate: tuple[str, ...],
    seed: int,
    split_actions: bool,
    part: tuple[int, tuple[int, int]],
    progress: Callable[[int], None] | None = None,
) -> tuple[int, Demonstrations]:
    """Shard ``index``: the decisions ``start:end``, from a seed of its own (shard 0: ``seed``,
    so that one shard is the single stream)."""
    index, (start, end) = part
    rng = random.Random(seed if index == 0 else f"{seed}/bc/{index}")
    return start, _play(game, field, imitate, end - start, rng, split_actions, progress)


def _play(
    game: Game,
    field: tuple[str, ...],
    imitate: tuple[str, ...],
    decisions: int,
    rng: random.Random,
    split_actions: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Demonstrations:
    """Bot-only tables until ``decisions`` decisions of the ``imitate`` bots are recorded;
    ``progress`` is told each game's count."""
    n = game.num_players
    scale = game.observation_scale
    demos = _empty(game, decisions, split_actions)
    obs, masks, actions, returns = demos.obs, demos.masks, demos.actions, demos.returns
    count = 0
    while count < decisions:
        names = [rng.choice(field) for _ in range(n)]
        if not set(names) & set(imitate):
            names[rng.randrange(n)] = rng.choice(imitate)
        agents = [make_agent(name, game.id) for name in names]
        state = game.new_state(seed=rng.getrandbits(64))
        rows: list[tuple[int, int]] = []  # (row, seat) of this game's recorded decisions
        while not state.is_terminal:
            legal = state.legal_actions()
            seat = state.current
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            action = agents[seat].act(Turn(state.view(seat), game, rng, state))
            if names[seat] in imitate:
                if split_actions:
                    asked = part_decisions(legal, game.action_parts, action)
                else:
                    asked = [(None, action)]
                for pending, chosen in asked:
                    if count == decisions:
                        break
                    if pending is None:
                        observation = game.observation(state, seat)
                        masks[count] = game.action_mask(legal).astype(bool)
                    else:
                        observation = game.part_observation(state, seat, pending)
                        masks[count] = game.part_mask(state, pending).astype(bool)
                    obs[count] = observation if scale is None else np.rint(observation / scale)
                    actions[count] = chosen
                    rows.append((count, seat))
                    count += 1
            state.apply(action)
        final = state.returns()
        for row, seat in rows:
            returns[row] = final[seat]
        if progress:
            progress(len(rows))
    return demos


def fit(
    policy: Any,
    demos: Demonstrations,
    scale: np.ndarray | None,
    epochs: int,
    lr: float,
    batch_size: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> dict[str, float]:
    """Fit a MaskableActorCriticPolicy to the demonstrations; returns the last epoch's
    mean loss terms and the accuracy on a held-out tenth (the most likely legal action).
    ``progress`` is told the size of every minibatch fitted (``epochs`` times the nine tenths
    fitted in all)."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    obs = torch.from_numpy(demos.obs)
    masks = torch.from_numpy(demos.masks)
    actions = torch.from_numpy(demos.actions)
    returns = torch.from_numpy(demos.returns)
    scale_t = torch.from_numpy(scale) if scale is not None else torch.ones(obs.shape[1])
    order = torch.randperm(len(actions), generator=gen)
    held = order[: len(order) // 10]
    train = order[len(order) // 10 :]
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)

    device = policy.device  # the demonstrations stay on the CPU; each minibatch moves over

    def forward(idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = (obs[idx].float() * scale_t).to(device)
        latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(x))
        logits = policy.action_net(latent_pi).masked_fill(~masks[idx].to(device), -1e9)
        return logits, policy.value_net(latent_vf).squeeze(-1)

    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        total_pi = total_vf = 0.0
        perm = train[torch.randperm(len(train), generator=gen)]
        for start in range(0, len(perm), batch_size):
            idx = perm[start : start + batch_size]
            logits, values = forward(idx)
            loss_pi = torch.nn.functional.cross_entropy(logits, actions[idx].to(device))
            loss_vf = torch.nn.functional.mse_loss(values, returns[idx].to(device))
            optimizer.zero_grad()
            (loss_pi + 0.5 * loss_vf).backward()
            optimizer.step()
            total_pi += loss_pi.item() * len(idx)
            total_vf += loss_vf.item() * len(idx)
            if progress:
                progress(len(idx))
        stats = {"bc_loss": total_pi / len(train), "bc_value_loss": total_vf / len(train)}
    policy.set_training_mode(False)
    with torch.no_grad():
        hits = 0
        for start in range(0, len(held), 4096):
            idx = held[start : start + 4096]
            hits += int((forward(idx)[0].argmax(-1).cpu() == actions[idx]).sum())
    stats["bc_accuracy"] = hits / max(1, len(held))
    return stats
