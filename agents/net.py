"""A distilled network as an agent: ``make_agent("net:path/model.npz")`` or a shipped model by
name (``net:koira4-net``, from ``agents/models/``).

The file is numpy arrays (``numpy.savez``): the MLP's layers, a policy head, a value head,
and a JSON metadata entry (game, rules, table size, vector sizes) checked against the game
before the first move, as ``ppo:`` models are. No torch is needed to play, and a decision is
one small matrix product per layer (well under a millisecond on one core): this is what
``training/distill.py`` writes.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from koira_env.core.files import write_arrays
from koira_env.core.game import Game

from .cardnet import ARCH as CARDS
from .cardnet import CardNetPolicy
from .ppo import MODELS, check_compatible, check_format, model_metadata
from .turnnet import ARCH as TURNS
from .turnnet import TurnNetPolicy

if TYPE_CHECKING:
    from koira_env.core.agent import Turn

FORMAT = "koira-net/1"
MLP = "mlp"  # the metadata's ``arch``: absent in files from before card networks
Policy = Union["NetPolicy", CardNetPolicy, TurnNetPolicy]


def net_path(spec: str | Path) -> Path:
    """The file of ``net:<spec>``: a shipped model's name (``koira4-net``) or a path."""
    path = Path(spec)
    shipped = MODELS / f"{path.name}.npz"
    if str(spec) == path.name and shipped.is_file():
        return shipped
    if not path.is_file():
        names = ", ".join(p.stem for p in sorted(MODELS.glob("*.npz"))) or "none"
        raise ValueError(f"no network file at {path} (shipped networks, by name: {names})")
    return path


def save_net(
    path: Path,
    game: Game,
    layers: list[tuple[np.ndarray, np.ndarray]],
    policy: tuple[np.ndarray, np.ndarray],
    value: tuple[np.ndarray, np.ndarray],
    half: bool = False,
    **extra: Any,
) -> None:
    """An MLP's weights (``(out, in)`` matrices and biases, ReLU between layers) and metadata
    (``save_arrays``)."""
    arrays: dict[str, np.ndarray] = {}
    for k, (w, b) in enumerate([*layers, policy, value]):
        arrays[f"w{k}"], arrays[f"b{k}"] = w, b
    save_arrays(path, game, arrays, half, layers=len(layers), **extra)


def save_arrays(
    path: Path, game: Game, arrays: dict[str, np.ndarray], half: bool = False, **extra: Any
) -> None:
    """A network's named weights and metadata (``extra``: ``arch``, ``layers``, ...), written to
    a temp file then renamed. ``half`` stores float16, compressed: a shipped file at a third of
    the size, played in float32 (the rounding moves no measured decision)."""
    meta = {**model_metadata(game), "format": FORMAT, **extra}
    dtype = np.float16 if half else np.float32
    saved = {"meta": np.array(json.dumps(meta))}
    saved.update({k: np.asarray(v, dtype) for k, v in arrays.items()})
    write_arrays(path, saved, compressed=half)


class NetPolicy:
    """The network's forward pass in numpy."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        count = meta["layers"]
        self.meta = meta

        def layer(k: int) -> tuple[np.ndarray, np.ndarray]:
            w = np.ascontiguousarray(arrays[f"w{k}"].T, np.float32)
            return w, np.asarray(arrays[f"b{k}"], np.float32)

        self.layers = [layer(k) for k in range(count)]
        self.policy, self.value_head = layer(count), layer(count + 1)

    @staticmethod
    def load(path: str | Path, game: Game | None = None) -> Policy:
        """``ValueError`` naming the problem for a missing, corrupt or mismatched file."""
        path = Path(path)
        stat = path.stat() if path.is_file() else None
        policy = _load(str(path), stat.st_mtime_ns if stat else 0, stat.st_size if stat else 0)
        if game is not None:
            _check_game(policy, game, path)
        return policy

    def hidden(self, obs: np.ndarray) -> np.ndarray:
        h = obs
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        return h

    def choose(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The legal action with the highest logit (the first on a tie)."""
        w, b = self.policy
        logits = self.hidden(obs) @ w + b
        return int(np.flatnonzero(mask)[np.argmax(logits[mask])])

    def value(self, obs: np.ndarray) -> float:
        """The value head: the expected final return of the seat observing ``obs``."""
        w, b = self.value_head
        return float((self.hidden(obs) @ w + b)[0])


@lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> Policy:
    """Cached per file version, so tournament workers load a network once."""
    if not Path(path).is_file():
        raise ValueError(f"no network file at {path}")
    return parse_net(path, path)


def load_bytes(data: bytes, game: Game | None = None) -> Policy:
    """A network from a file's bytes (a network sent to a worker that cannot read the
    driver's disk, as distillation's students on Ray), checked as ``NetPolicy.load`` does."""
    policy = parse_net(io.BytesIO(data), "the network sent")
    if game is not None:
        _check_game(policy, game, Path("the network sent"))
    return policy


def _check_game(policy: Policy, game: Game, path: Path) -> None:
    """``check_compatible``, and for a turn scorer the width of the game's per-turn rows."""
    check_compatible(policy.meta, game, path)
    if isinstance(policy, TurnNetPolicy) and policy.turn_features != game.turn_feature_size:
        raise ValueError(
            f"{path} scores turns of {policy.turn_features} features; {game.title} writes "
            f"{game.turn_feature_size}"
        )


def policy_move(policy: Policy, game: Game, state: Any, seat: int, legal: Sequence[int]) -> int:
    """The network's move for ``seat`` in ``state`` (a deal consistent with what the seat
    knows): its highest logit among ``legal``, or for a turn scorer its best-scored turn."""
    obs = game.observation(state, seat)
    legal = sorted(legal)
    if isinstance(policy, TurnNetPolicy):
        return policy.choose_turn(obs, legal, game.turn_features(state, seat, legal))
    mask = np.zeros(game.num_actions, bool)
    mask[legal] = True
    return policy.choose(obs, mask)


def parse_net(source: Any, name: str) -> Policy:
    """The policy in ``source`` (a path or a binary file), or a ``ValueError`` naming ``name``
    and the problem."""
    try:
        with np.load(source, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        meta = json.loads(str(arrays["meta"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
        raise ValueError(
            f"{name} is not a koira network (corrupt or another file: {err})"
        ) from None
    meta = check_format(meta, name, "network", FORMAT)
    try:
        if meta.get("arch", MLP) == MLP:
            return NetPolicy(arrays, meta)
        if meta["arch"] == CARDS:
            return CardNetPolicy(arrays, meta)
        if meta["arch"] == TURNS:
            return TurnNetPolicy(arrays, meta)
        raise ValueError(
            f"{name} has network architecture {meta['arch']!r}, expected one of "
            f"{MLP!r}, {CARDS!r}, {TURNS!r}"
        )
    except KeyError as err:
        raise ValueError(f"{name} lacks the layer {err} its metadata promises") from None


class NetAgent:
    """``net:koira4-net`` or ``net:path/model.npz``: the network's most likely legal move.

    The observation is encoded from ``turn.sample_state()`` (a deal consistent with what the
    seat knows), so nothing hidden can reach the network even by accident."""

    name = "net"

    def __init__(self, spec: str) -> None:
        self.path = net_path(spec)
        NetPolicy.load(self.path)  # fail at creation on a bad file, not mid-tournament
        self._checked: tuple[str, Any] | None = None

    def act(self, turn: Turn) -> int:
        game = turn.game
        policy = NetPolicy.load(self.path, game if self._checked != (game.id, game.rules) else None)
        self._checked = (game.id, game.rules)
        return policy_move(policy, game, turn.sample_state(), turn.view.seat, turn.view.legal)
