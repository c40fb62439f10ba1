"""A trained MaskablePPO policy as an agent like any other: ``make_agent("ppo:path/model.zip")``,
or ``make_agent("ppo:koira4-ppo")`` for a model shipped in the package (``agents/models/``).

Dependencies point experiments -> training -> agents -> koira_env, so the policy agent lives
here, and torch / sb3-contrib (the ``train`` extra) are imported only when a model is loaded:
the rest of ``agents`` works without them. A model file is the zip MaskablePPO writes plus a
small ``koira.json`` entry (game, rules, table size, observation size) read with ``zipfile``
before torch is touched, so a corrupt or mismatched file is a clear ``ValueError``. It plays
any game of the registry: models trained before the suite had other games are Koira models.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from koira_env.core.game import Game, State
from koira_env.core.parts import NO_PART, decision_sizes

if TYPE_CHECKING:
    from koira_env.core.agent import Turn

FORMAT = "koira-ppo/1"
META_NAME = "koira.json"
MODELS = Path(__file__).resolve().parent / "models"  # package data: arrives with the wheel


def shipped_models() -> list[Path]:
    """The policies shipped with the package (``docs/training.md`` says how each was trained);
    a model's ``koira.json`` says which game and table it plays."""
    return sorted(MODELS.glob("*.zip"))


def model_path(spec: str | Path) -> Path:
    """The file of ``ppo:<spec>``: a shipped model's name (its file stem, ``koira4-ppo``), so
    specs mean the same in a clone and a wheel install, or else a path to a model file."""
    path = Path(spec)
    shipped = MODELS / f"{path.name}.zip"
    if str(spec) == path.name and shipped.is_file():  # a bare name, no folder
        return shipped
    if not path.is_file():
        names = ", ".join(p.stem for p in shipped_models()) or "none"
        raise ValueError(f"no model file at {path} (shipped models, by name: {names})")
    return path


def model_metadata(game: Game, split_actions: bool = False, **extra: Any) -> dict[str, Any]:
    """What a model must match to be used: the game, its rules, the table, the vector sizes
    (of the split env's decisions for a model trained on them, ``core.parts``)."""
    obs_size, num_actions = decision_sizes(game, split_actions)
    meta = {
        "format": FORMAT,
        "game": game.id,
        "rules": game.rules.to_dict(),
        "num_players": game.num_players,
        "obs_size": obs_size,
        "num_actions": num_actions,
        **extra,
    }
    if split_actions:
        meta["split_actions"] = True
    return meta


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The ``koira.json`` of a model file; ``ValueError`` if the file is not a usable model."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no model file at {path}")
    try:
        with zipfile.ZipFile(path) as archive:
            meta = json.loads(archive.read(META_NAME))
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(
            f"{path} is not a koira PPO model (corrupt or written by something else: {err})"
        ) from None
    return check_format(meta, path, "model", FORMAT)


def check_format(meta: Any, path: str | Path, kind: str, expected: str) -> dict[str, Any]:
    """``meta``, a file's metadata, if it is a dict of the ``expected`` format; else a
    ``ValueError`` saying which format the file at ``path`` has (models and networks)."""
    if not isinstance(meta, dict) or meta.get("format") != expected:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise ValueError(f"{path} has {kind} format {found!r}, expected {expected!r}")
    return meta


def check_compatible(meta: dict[str, Any], game: Game, path: str | Path) -> None:
    """Raise ``ValueError`` naming every difference between a model and the game it would play."""
    trained_for = meta.get("game", "koira")  # models from before the registry are Koira's
    if trained_for != game.id:
        raise ValueError(f"{path} was trained for {trained_for}, not {game.id}")
    split = meta.get("split_actions", False)
    if split and not game.action_parts:
        raise ValueError(f"{path} was trained on split actions, which {game.title} has not")
    wanted = model_metadata(game, split)
    problems = [
        f"{key}: model {meta.get(key)!r}, game {wanted[key]!r}"
        for key in ("num_players", "obs_size", "num_actions")
        if meta.get(key) != wanted[key]
    ]
    trained = meta.get("rules") or {}
    # an option the model's rules do not name was added after it was trained: its default
    # is the rule the model was trained under (Koira's deck options, for instance)
    defaults = {f.name: f.default for f in dataclasses.fields(game.rules)}
    problems += [
        f"rule {key}: model {trained.get(key, defaults.get(key))!r}, game {value!r}"
        for key, value in wanted["rules"].items()
        if key != "num_players" and trained.get(key, defaults.get(key)) != value
    ]
    if problems:
        raise ValueError(f"{path} was trained for another game: " + "; ".join(problems))


def _actor_layers(
    policy: Any, torch: Any, path: str | Path
) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """The actor (SB3's MlpPolicy: flatten, linear + tanh layers, linear head) as numpy
    arrays: (weight, bias, whether a tanh follows) per linear layer."""
    modules = [*policy.mlp_extractor.policy_net, policy.action_net]
    if type(policy.pi_features_extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"{path}: only MlpPolicy networks (flat observations) are supported")
    layers: list[tuple[np.ndarray, np.ndarray, bool]] = []
    for module in modules:
        if isinstance(module, torch.nn.Linear):
            weight = np.ascontiguousarray(module.weight.detach().numpy().T)
            layers.append((weight, module.bias.detach().numpy().copy(), False))
        elif isinstance(module, torch.nn.Tanh) and layers and not layers[-1][2]:
            layers[-1] = (*layers[-1][:2], True)
        else:
            raise ValueError(f"{path}: unsupported layer in the actor network: {module}")
    return layers


class Policy:
    """A loaded policy network: action probabilities for one observation and mask."""

    def __init__(self, path: str | Path, meta: dict[str, Any]) -> None:
        try:
            import torch
            from sb3_contrib import MaskablePPO
        except ModuleNotFoundError as err:
            raise ValueError(
                f"loading {path} needs the train extra (pip install 'koira-rl[train]'): {err}"
            ) from None
        try:
            model = MaskablePPO.load(path, device="cpu")
        except Exception as err:  # torch and zip errors of every kind mean one thing here
            raise ValueError(f"{path} could not be loaded as a MaskablePPO model: {err}") from err
        if model.observation_space.shape != (meta["obs_size"],):
            raise ValueError(
                f"{path}: network input {model.observation_space.shape} does not match its "
                f"metadata obs_size {meta['obs_size']}"
            )
        self.meta = meta
        self._layers = _actor_layers(model.policy, torch, path)

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Softmax of the actor's logits over the legal actions (zero elsewhere).

        The actor runs in numpy on weights copied at load time: for one observation torch's
        call overhead is three times the arithmetic (86 against 22 microseconds for the
        shipped 256x256 network), and opponents and tournament seats call this at every move.
        """
        hidden = obs
        for weight, bias, tanh in self._layers:
            hidden = hidden @ weight + bias
            if tanh:
                np.tanh(hidden, out=hidden)
        logits = np.where(mask, hidden, -np.inf)
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def choose(
        self, obs: np.ndarray, mask: np.ndarray, rng: random.Random, deterministic: bool
    ) -> int:
        """The most likely legal action, or one sampled with ``rng`` (reproducible per seed)."""
        probs = self.probabilities(obs, mask)
        if deterministic:
            return int(np.argmax(probs))
        legal = np.flatnonzero(mask)
        return int(rng.choices(legal, weights=probs[legal])[0])


def model_digest(path: str | Path) -> str:
    """SHA-256 of a model file: which weights a result came from."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> Policy:
    return Policy(path, read_metadata(path))


def load_policy(path: str | Path, game: Game | None = None) -> Policy:
    """A policy from a model file (cached per file version), checked against ``game``."""
    meta = read_metadata(path)
    if game is not None:
        check_compatible(meta, game, path)
    stat = os.stat(path)
    return _load(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


class PolicyPlayer:
    """Plays any seat of one game from the true state, reading only that seat's observation."""

    def __init__(self, policy: Policy, game: Game, deterministic: bool = False) -> None:
        self.policy = policy
        self.game = game
        self.deterministic = deterministic

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        if self.policy.meta.get("split_actions"):
            return self._act_in_parts(state, seat, rng)
        obs = self.game.observation(state, seat)
        mask = self.game.action_mask(state.legal_actions()).astype(bool)
        return self.policy.choose(obs, mask, rng, self.deterministic)

    def _act_in_parts(self, state: State, seat: int, rng: random.Random) -> int:
        """A model trained on split actions (``core.parts``) chooses a whole action as the
        split env asks for it: the first part, then the second after it."""
        first = self._choose_part(state, seat, NO_PART, rng)
        return first * self.game.action_parts + self._choose_part(state, seat, first, rng)

    def _choose_part(self, state: State, seat: int, pending: int, rng: random.Random) -> int:
        obs = self.game.part_observation(state, seat, pending)
        mask = self.game.part_mask(state, pending).astype(bool)
        return self.policy.choose(obs, mask, rng, self.deterministic)


class PPOAgent:
    """``ppo:koira4-ppo`` or ``ppo:path/to/model.zip``: plays the policy's most likely legal
    action.

    The observation is encoded from ``turn.sample_state()``, a deal consistent with what the
    seat knows, so nothing hidden can reach the network even by accident.
    """

    name = "ppo"

    def __init__(self, spec: str) -> None:
        self.path = model_path(spec)
        read_metadata(self.path)  # fail at creation on a bad file, not mid-tournament
        self._player: PolicyPlayer | None = None
        self._key: tuple[str, Any] | None = None  # the game and rules it was checked against

    def act(self, turn: Turn) -> int:
        key = (turn.game.id, turn.game.rules)
        if self._player is None or key != self._key:
            policy = load_policy(self.path, turn.game)
            self._player = PolicyPlayer(policy, turn.game, deterministic=True)
            self._key = key
        return self._player.act(turn.sample_state(), turn.view.seat, turn.rng)
