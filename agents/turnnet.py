"""A network that scores each legal turn, in numpy: a shared scorer over the game's per-turn
features (``Game.turn_features``) instead of one logit per action.

Red7 has 2,500 actions, of which a turn has a few dozen legal, and whether a turn is good
depends on what it leaves on the table (the rule in force, who leads under each rule, how
many unseen cards would let an opponent pass): a flat network has to learn that separately
for each of the 2,500 outputs. Here the rules engine writes one row of afterstate features
per legal turn, and the same layers score every row:

    score(turn) = head(relu(state_tower(observation) + turn_tower(turn row)))

Each tower is an MLP through ``hidden`` (ReLU between its layers, none after the last);
``head`` is ReLU, a square layer, ReLU and one output. The value is read from the state
tower alone. ``training/turnnet.py`` is the same network in torch (a test checks they
agree); ``agents/net.py`` loads it from a ``koira-net`` file whose ``arch`` is "turns".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

ARCH = "turns"


def _tower(arrays: dict[str, np.ndarray], name: str, count: int) -> list[tuple[Any, Any]]:
    return [
        (np.ascontiguousarray(arrays[f"{name}{k}"], np.float32), arrays[f"{name}{k}_bias"])
        for k in range(count)
    ]


def _through(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    """An MLP's output: ReLU between the layers, none after the last."""
    for k, (w, b) in enumerate(layers):
        if k:
            x = np.maximum(x, 0.0)
        x = x @ w + b
    return x


class TurnNetPolicy:
    """The forward pass in numpy; ``choose_turn`` picks among the legal turns."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = meta
        arrays = {k: np.asarray(v, np.float32) for k, v in arrays.items() if k != "meta"}
        count = int(meta["layers"])
        self.state_tower = _tower(arrays, "state", count)
        self.turn_tower = _tower(arrays, "turn", count)
        self.head = _tower(arrays, "head", 2)
        self.value_head = _tower(arrays, "value", 1)[0]
        self.turn_features = int(meta["turn_features"])

    def scores(self, obs: np.ndarray, turns: np.ndarray) -> np.ndarray:
        """(L,) scores of the (L, turn_features) rows of one decision."""
        joint = np.maximum(_through(self.state_tower, obs) + _through(self.turn_tower, turns), 0)
        return _through(self.head, joint)[:, 0]

    def choose_turn(self, obs: np.ndarray, legal: Sequence[int], turns: np.ndarray) -> int:
        """The turn of ``legal`` (rows of ``turns`` in its order) with the highest score, the
        first on a tie."""
        return int(legal[int(np.argmax(self.scores(obs, turns)))])

    def value(self, obs: np.ndarray) -> float:
        """The value head: the expected final return of the seat observing ``obs``."""
        w, b = self.value_head
        return float((np.maximum(_through(self.state_tower, obs), 0.0) @ w + b)[0])
