"""The card-structured network of ``agents/cardnet.py`` in torch, for ``koira train --algo
distill --arch cards``: the same tokens, layers and heads, and ``arrays()`` gives the numpy
weights that ``koira_agents.cardnet.CardNetPolicy`` plays (a test checks that both agree)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from koira_agents.cardnet import ARCH, CardTokens, layout_meta
from koira_env.core.game import Game


class CardNet(nn.Module):
    """Per-card layers of ``widths`` with the context (and from the second layer the pooled
    previous layer) added to every card; a per-card logit, the other actions' logits and the
    value from the context and the last layer pooled."""

    arch = ARCH

    def __init__(self, game: Game, widths: tuple[int, ...]) -> None:
        super().__init__()
        self.layout = game.observation_layout
        self.tokens = CardTokens(self.layout, game.num_actions)
        self.register_buffer("planes", torch.from_numpy(self.tokens.planes))
        self.register_buffer("suit_index", torch.from_numpy(self.tokens.suit_index))
        self.register_buffer("context_index", torch.from_numpy(self.tokens.context))
        self.register_buffer("static", torch.from_numpy(self.tokens.static))
        context, size = self.tokens.context_size, self.tokens.token_size
        self.card_layers, self.context_layers = nn.ModuleList(), nn.ModuleList()
        for k, width in enumerate(widths):
            self.card_layers.append(nn.Linear(size, width, bias=False))
            self.context_layers.append(nn.Linear(context + (2 * size if k else 0), width))
            size = width
        summary = context + 2 * size
        self.out_card = nn.Linear(size, 1)
        self.out_extra = nn.Linear(summary, max(self.tokens.extra_actions, 0))
        self.out_value = nn.Linear(summary, 1)

    @staticmethod
    def pooled(h: torch.Tensor) -> torch.Tensor:
        return torch.cat([h.mean(dim=1), h.amax(dim=1)], dim=1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        batch = obs.shape[0]
        static = self.static.expand(batch, *self.static.shape)
        h = torch.cat([obs[:, self.planes], obs[:, self.suit_index], static], dim=2)
        context = obs[:, self.context_index]
        for k, (card, ctx_layer) in enumerate(
            zip(self.card_layers, self.context_layers, strict=True)
        ):
            ctx = context if k == 0 else torch.cat([context, self.pooled(h)], dim=1)
            h = torch.relu(card(h) + ctx_layer(ctx)[:, None, :])
        summary = torch.cat([context, self.pooled(h)], dim=1)
        logits = torch.cat([self.out_card(h)[..., 0], self.out_extra(summary)], dim=1)
        return logits, self.out_value(summary)[:, 0]

    def arrays(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The numpy weights (``(in, out)`` matrices) and metadata of ``CardNetPolicy``."""

        def np_(t: torch.Tensor) -> np.ndarray:
            return t.detach().cpu().numpy()

        arrays: dict[str, np.ndarray] = {}
        for k, (card, ctx) in enumerate(zip(self.card_layers, self.context_layers, strict=True)):
            arrays[f"card{k}"] = np_(card.weight.T)
            arrays[f"ctx{k}"] = np_(ctx.weight.T)
            arrays[f"bias{k}"] = np_(ctx.bias)
        for head in ("out_card", "out_extra", "out_value"):
            layer = getattr(self, head)
            arrays[head], arrays[f"{head}_bias"] = np_(layer.weight.T), np_(layer.bias)
        meta = {
            "arch": ARCH,
            "layers": len(self.card_layers),
            "extra_actions": self.tokens.extra_actions,
            "observation_layout": layout_meta(self.layout),
        }
        return arrays, meta
