"""A card-structured network in numpy: one token per card of the 52-card deck, the same
layers for every card, the table's context pooled over the cards, one output per card.

An MLP over the flat observation has to learn "the 7 of hearts is in my hand" separately for
each of the 52 cards; here every card is read by the same weights, so what it learns about one
card holds for all. The tokens come from the observation itself (``CardTokens``), so the
network sees exactly what the seat may see:

- a card's token: its entry in every 52-card field of the observation (Koira: mine, in each
  other hand, won by each player, in the trick, discarded, unknown, played this round, ...),
  whether its suit is the one named by each 4-suit field (Koira: the trump suit, the led
  suit), and its rank and suit as one-hots;
- the context: every other field (sizes, phase, whose turn, the war, ...).

Layer k maps every card's vector and the context (for k > 0 also the mean and the maximum of
the previous layer over the cards: what the other cards hold) to a new card vector, ReLU. The
output is one logit per card (the action "play that card", actions 0-51) and, from the pooled
context, one per other action (Koira: risk, take, runs) and the value.
``training/cardnet.py`` is the same network in torch, for training; ``agents/net.py`` loads
either kind from a ``koira-net`` file (``arch`` in its metadata).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koira_env.cards import NUM_CARDS

ARCH = "cards"
RANK_COUNT, SUIT_COUNT = 13, 4


def _card_static() -> np.ndarray:
    """(52, 17): each card's rank and suit one-hots (card id = suit * 13 + rank)."""
    cards = np.arange(NUM_CARDS)
    static = np.zeros((NUM_CARDS, RANK_COUNT + SUIT_COUNT), np.float32)
    static[cards, cards % RANK_COUNT] = 1.0
    static[cards, RANK_COUNT + cards // RANK_COUNT] = 1.0
    return static


class CardTokens:
    """Where each card's token and the context come from in the observation vector."""

    def __init__(self, layout: dict[str, slice], num_actions: int) -> None:
        if num_actions < NUM_CARDS:
            raise ValueError(f"a card network needs the 52 card actions, got {num_actions}")
        columns: list[np.ndarray] = []  # (52,) indices of one card plane each
        suits: list[int] = []  # starts of 4-suit fields
        context: list[np.ndarray] = []
        for name, where in layout.items():
            size = where.stop - where.start
            if size and size % NUM_CARDS == 0:
                columns += [
                    where.start + NUM_CARDS * k + np.arange(NUM_CARDS)
                    for k in range(size // NUM_CARDS)
                ]
            else:
                context.append(np.arange(where.start, where.stop))
                if size == SUIT_COUNT and name.endswith("suit"):
                    suits.append(where.start)
        if not columns:
            raise ValueError("a card network needs 52-card fields in the observation")
        self.planes = np.stack(columns, axis=1)  # (52, P)
        self.context = np.concatenate(context) if context else np.zeros(0, np.intp)
        # (4 * S,) indices, then the per-card gather: entry [c, s] is field s at card c's suit
        self.suit_index = np.array(
            [start + c // RANK_COUNT for c in range(NUM_CARDS) for start in suits], np.intp
        ).reshape(NUM_CARDS, len(suits))
        self.static = _card_static()
        self.token_size = self.planes.shape[1] + len(suits) + self.static.shape[1]
        self.context_size = len(self.context)
        self.extra_actions = num_actions - NUM_CARDS

    def split(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(B, 52, T) tokens and (B, C) context of a (B, F) batch of observations."""
        batch = obs.shape[0]
        static = np.broadcast_to(self.static, (batch, *self.static.shape))
        tokens = np.concatenate([obs[:, self.planes], obs[:, self.suit_index], static], axis=2)
        return tokens, obs[:, self.context]


def pooled(h: np.ndarray) -> np.ndarray:
    """(B, 2H): the mean and the maximum of (B, 52, H) card vectors over the cards."""
    return np.concatenate([h.mean(axis=1), h.max(axis=1)], axis=1)


class CardNetPolicy:
    """The forward pass in numpy, with ``NetPolicy``'s interface (``choose``, ``value``)."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = meta
        self.tokens = CardTokens(_layout_of(meta), NUM_CARDS + int(meta["extra_actions"]))

        def f32(name: str) -> np.ndarray:
            return np.ascontiguousarray(arrays[name], np.float32)

        self.layers = [
            (f32(f"card{k}"), f32(f"ctx{k}"), f32(f"bias{k}")) for k in range(int(meta["layers"]))
        ]
        self.out_card, self.out_card_bias = f32("out_card"), f32("out_card_bias")
        self.out_extra, self.out_extra_bias = f32("out_extra"), f32("out_extra_bias")
        self.out_value, self.out_value_bias = f32("out_value"), f32("out_value_bias")

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(B, A) logits and (B,) values of a (B, F) batch."""
        tokens, context = self.tokens.split(np.asarray(obs, np.float32).reshape(len(obs), -1))
        h = tokens
        for k, (w_card, w_ctx, bias) in enumerate(self.layers):
            ctx = context if k == 0 else np.concatenate([context, pooled(h)], axis=1)
            h = np.maximum(h @ w_card + (ctx @ w_ctx + bias)[:, None, :], 0.0)
        summary = np.concatenate([context, pooled(h)], axis=1)
        cards = (h @ self.out_card)[..., 0] + self.out_card_bias  # (B, 52)
        extra = summary @ self.out_extra + self.out_extra_bias
        value = summary @ self.out_value + self.out_value_bias
        return np.concatenate([cards, extra], axis=1), value[:, 0]

    def choose(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The legal action with the highest logit (the first on a tie)."""
        logits = self.forward(obs[None])[0][0]
        return int(np.flatnonzero(mask)[np.argmax(logits[mask])])

    def value(self, obs: np.ndarray) -> float:
        return float(self.forward(obs[None])[1][0])


def _layout_of(meta: dict[str, Any]) -> dict[str, slice]:
    """The observation layout the network was trained on, as its metadata stores it."""
    return {name: slice(start, stop) for name, start, stop in meta["observation_layout"]}


def layout_meta(layout: dict[str, slice]) -> list[list[Any]]:
    """``layout`` as JSON for a network file's metadata."""
    return [[name, s.start, s.stop] for name, s in layout.items()]
