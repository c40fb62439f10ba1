"""The turn scorer of ``agents/turnnet.py`` in torch, for ``koira train --algo distill --arch
turns``: the same towers and head, and ``arrays()`` gives the numpy weights that
``koira_agents.turnnet.TurnNetPolicy`` plays (a test checks that both agree)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from koira_agents.turnnet import ARCH
from koira_env.core.game import Game


def _tower(size: int, widths: tuple[int, ...]) -> nn.Sequential:
    """Linear layers through ``widths``, ReLU between them and none after the last."""
    layers: list[nn.Module] = []
    for k, width in enumerate(widths):
        if k:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(size, width))
        size = width
    return nn.Sequential(*layers)


class TurnNet(nn.Module):
    """Scores (B, L) of a batch of decisions' turn rows (B, L, T) beside their observations
    (B, F), and the value (B,) from the observation alone."""

    arch = ARCH

    def __init__(self, game: Game, widths: tuple[int, ...]) -> None:
        super().__init__()
        width = widths[-1]
        self.state = _tower(game.observation_size, widths)
        self.turn = _tower(game.turn_feature_size, widths)
        self.head = nn.Sequential(
            nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1)
        )
        self.value = nn.Sequential(nn.ReLU(), nn.Linear(width, 1))
        self.turn_features = game.turn_feature_size

    def forward(self, obs: torch.Tensor, turns: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        state = self.state(obs)
        scores = self.head(state[:, None, :] + self.turn(turns))[..., 0]
        return scores, self.value(state)[:, 0]

    def arrays(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The numpy weights (``(in, out)`` matrices) and metadata of ``TurnNetPolicy``."""
        arrays: dict[str, np.ndarray] = {}
        for name in ("state", "turn", "head", "value"):
            linear = [m for m in getattr(self, name) if isinstance(m, nn.Linear)]
            for k, m in enumerate(linear):
                arrays[f"{name}{k}"] = m.weight.detach().cpu().numpy().T
                arrays[f"{name}{k}_bias"] = m.bias.detach().cpu().numpy()
        layers = sum(isinstance(m, nn.Linear) for m in self.state)
        return arrays, {"arch": ARCH, "layers": layers, "turn_features": self.turn_features}
