"""Behaviour-cloning warm start: teach the PPO network the strongest bots' play before PPO.

From scratch, PPO spends its budget rediscovering what the heuristic bots already know and
then plateaus below them. So the trainer first plays bot-only tables (seats drawn from the
evaluation field), records every real decision of the imitated bots through the learner's
own encoder (observation, legal mask, action, the seat's final return), and fits the policy
network with cross-entropy over the masked logits and the value network to those returns.
PPO then starts from bot-level play with a value function that already knows the game, and
only has to improve on it. Observations are stored as the encoder's small integers (uint8).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import Turn, make_agent
from koira_env.engine import new_game
from koira_env.info import seat_view
from koira_env.observation import ObservationEncoder
from koira_env.rules import Rules


@dataclass
class Demonstrations:
    obs: np.ndarray  # uint8 codes; times ``encoder.scale`` gives the observation
    masks: np.ndarray  # bool, legal actions
    actions: np.ndarray  # int64
    returns: np.ndarray  # float32, the deciding seat's terminal reward


def collect(
    rules: Rules, field: tuple[str, ...], imitate: tuple[str, ...], decisions: int, seed: int
) -> Demonstrations:
    """``decisions`` real decisions of the ``imitate`` bots at tables drawn from ``field``."""
    encoder = ObservationEncoder(rules)
    rng = random.Random(seed)
    n = rules.num_players
    obs = np.empty((decisions, encoder.size), np.uint8)
    masks = np.empty((decisions, encoder.num_actions), bool)
    actions = np.empty(decisions, np.int64)
    returns = np.empty(decisions, np.float32)
    count = 0
    while count < decisions:
        names = [rng.choice(field) for _ in range(n)]
        if not set(names) & set(imitate):
            names[rng.randrange(n)] = rng.choice(imitate)
        agents = [make_agent(name) for name in names]
        state = new_game(rules=rules, seed=rng.getrandbits(64))
        rows: list[tuple[int, int]] = []  # (row, seat) of this game's recorded decisions
        while not state.is_terminal:
            legal = state.legal_actions()
            seat = state.current
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            action = agents[seat].act(Turn(seat_view(state, seat), rules, rng, state))
            if names[seat] in imitate and count < decisions:
                obs[count] = np.rint(encoder.observation(state, seat) / encoder.scale)
                masks[count] = encoder.action_mask(legal).astype(bool)
                actions[count] = action
                rows.append((count, seat))
                count += 1
            state.apply(action)
        final = state.returns()
        for row, seat in rows:
            returns[row] = final[seat]
    return Demonstrations(obs, masks, actions, returns)


def fit(
    policy: Any,
    demos: Demonstrations,
    scale: np.ndarray,
    epochs: int,
    lr: float,
    batch_size: int,
    seed: int,
) -> dict[str, float]:
    """Fit a MaskableActorCriticPolicy to the demonstrations; returns the last epoch's
    mean loss terms and the accuracy on a held-out tenth (the most likely legal action)."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    obs = torch.from_numpy(demos.obs)
    masks = torch.from_numpy(demos.masks)
    actions = torch.from_numpy(demos.actions)
    returns = torch.from_numpy(demos.returns)
    scale_t = torch.from_numpy(scale)
    order = torch.randperm(len(actions), generator=gen)
    held = order[: len(order) // 10]
    train = order[len(order) // 10 :]
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)

    def forward(idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = policy.extract_features(obs[idx].float() * scale_t)
        latent_pi, latent_vf = policy.mlp_extractor(features)
        logits = policy.action_net(latent_pi).masked_fill(~masks[idx], -1e9)
        return logits, policy.value_net(latent_vf).squeeze(-1)

    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        total_pi = total_vf = 0.0
        perm = train[torch.randperm(len(train), generator=gen)]
        for start in range(0, len(perm), batch_size):
            idx = perm[start : start + batch_size]
            logits, values = forward(idx)
            loss_pi = torch.nn.functional.cross_entropy(logits, actions[idx])
            loss_vf = torch.nn.functional.mse_loss(values, returns[idx])
            optimizer.zero_grad()
            (loss_pi + 0.5 * loss_vf).backward()
            optimizer.step()
            total_pi += loss_pi.item() * len(idx)
            total_vf += loss_vf.item() * len(idx)
        stats = {"bc_loss": total_pi / len(train), "bc_value_loss": total_vf / len(train)}
    policy.set_training_mode(False)
    with torch.no_grad():
        hits = 0
        for start in range(0, len(held), 4096):
            idx = held[start : start + 4096]
            hits += int((forward(idx)[0].argmax(-1) == actions[idx]).sum())
    stats["bc_accuracy"] = hits / max(1, len(held))
    return stats
