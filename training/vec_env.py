"""SB3's ``VecEnv`` over the batched env: one learner seat per table, the others played inside.

``koira train --vec-env batched`` trains on this instead of ``DummyVecEnv`` of
``SingleAgentEnv``s. The transitions are the same kind: at each ``step`` the learner's
actions are applied to every table at once (``VectorEnv.step``), then the tables where
someone else is to move, or where the move is forced (one legal action, nobody's decision),
are advanced together with ``env_ids`` until every table waits for a real decision of its
learner. Opponents are the same ``(state, seat) -> action`` callables, drawn per episode by
the same sampler (the league); with ``split_actions`` (Red7) the learner's decisions are
parts, and an opponent's whole action is stepped a part at a time. A game the learner never
had to decide in is not an episode for it and is skipped. Observations, masks and seats are
the batched env's arrays (on Koira's compiled core written in C), copied once per step.

Differences from ``SingleAgentEnv``: games are dealt by the batched env's seeds
(``core.vector_env.game_seed``), and a truncated episode's ``terminal_observation`` is the
learner's last decision (the batched env has already dealt the next game in the slot).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from koira_env.core.game import Game
from koira_env.core.parts import NO_PART
from koira_env.core.single_agent import OpponentSampler, random_opponent
from koira_env.core.vector_env import VectorEnv

MASKS = "action_masks"


class BatchedLearnerEnv(VecEnv):
    """``num_envs`` tables of ``game`` stepped as one, for MaskablePPO (``action_masks``).
    ``learner_seat=None`` draws the learner's seat at random each episode."""

    def __init__(
        self,
        game: Game,
        num_envs: int,
        opponent_sampler: OpponentSampler = random_opponent,
        learner_seat: int | None = None,
        *,
        split_actions: bool = False,
    ) -> None:
        n = game.num_players
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise ValueError(f"learner_seat must be in 0..{n - 1}, got {learner_seat}")
        self.game = game
        self.fixed_seat = learner_seat
        self.render_mode = None
        self.venv = venv = VectorEnv(game, num_envs, split_actions=split_actions)
        self.opponent_sampler = opponent_sampler
        # split actions (core.parts): an opponent's whole action is stepped a part at a time,
        # its second part kept here meanwhile
        self._parts = game.action_parts if split_actions else 0
        self._seconds = np.full(num_envs, NO_PART, np.int64)
        observation_space = gym.spaces.Box(0.0, 1.0, (venv.observation_size,), np.float32)
        super().__init__(num_envs, observation_space, gym.spaces.Discrete(venv.num_actions))
        self.seats = np.zeros(num_envs, np.int64)  # the learner's seat at each table
        self.opponents: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._rngs = [random.Random() for _ in range(num_envs)]
        self._decided = np.zeros(num_envs, bool)  # has the learner chosen in this episode?
        self._last_obs = np.zeros((num_envs, venv.observation_size), np.float32)
        self._actions: np.ndarray | None = None
        # the batched env's own arrays (filled in place by each of its steps)
        self._obs, self._mask, self._player = self.venv.reset(seed=0)

    # ------------------------------------------------------------------ SB3 VecEnv
    def reset(self) -> np.ndarray:
        seeds = self._seeds if any(s is not None for s in self._seeds) else [None] * self.num_envs
        for i, seed in enumerate(seeds):
            self._rngs[i].seed(seed)
        self.venv.reset(seed=seeds[0])
        for i in range(self.num_envs):
            self._new_episode(i)
        self._advance(np.zeros(self.num_envs), np.zeros(self.num_envs, bool), self._infos())
        self._reset_seeds()
        return self._observations()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos = self._infos()
        self._last_obs[:] = self._obs  # the learner's decisions, before they change
        self._decided[:] = True
        step = self.venv.step(self._actions)
        self._collect(np.arange(self.num_envs), step, rewards, dones, infos)
        self._advance(rewards, dones, infos)
        self._actions = None
        return self._observations(), rewards, dones, infos

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` (what MaskablePPO asks every env for): each table's learner mask."""
        if method_name != MASKS:
            raise AttributeError(f"BatchedLearnerEnv has no per-env method {method_name!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions at every table, ``(num_envs, num_actions)`` bool."""
        return self._mask.copy()

    # ------------------------------------------------------------------ the tables
    def _new_episode(self, i: int) -> None:
        rng = self._rngs[i]
        n = self.game.num_players
        seat = self.seats[i] = rng.randrange(n) if self.fixed_seat is None else self.fixed_seat
        self.opponents[i] = {s: self.opponent_sampler(rng) for s in range(n) if s != seat}
        self._decided[i] = False

    def _collect(
        self,
        ids: np.ndarray,
        step: tuple[Any, ...],
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """The results of the tables among ``ids`` whose game just ended."""
        _, _, _, returns, terminated, truncated, _ = step
        for i in ids[(terminated | truncated)[ids]].tolist():
            if self._decided[i]:
                rewards[i] = returns[i, self.seats[i]]
                dones[i] = True
                infos[i]["terminal_observation"] = self._last_obs[i].copy()
                infos[i]["TimeLimit.truncated"] = bool(truncated[i])
            self._new_episode(i)

    def _advance(self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict[str, Any]]) -> None:
        """Play the opponents' and the forced moves until every table waits for its learner."""
        venv = self.venv
        while True:
            mask, player = self._mask, self._player
            waiting = (player != self.seats) | (mask.sum(axis=1) == 1)
            ids = np.flatnonzero(waiting)
            if not len(ids):
                return
            actions = np.empty(len(ids), np.int64)
            for k, i in enumerate(ids.tolist()):
                state = venv.states[i]
                legal = np.flatnonzero(mask[i])
                seat = int(player[i])
                if len(legal) == 1:  # forced: a whole action, or a part (its turn's kept one)
                    actions[k] = legal[0]
                    self._seconds[i] = NO_PART
                elif not self._parts:
                    actions[k] = self.opponents[i][seat](state, seat)
                else:
                    actions[k] = self._opponent_part(i, state, seat)
            self._collect(ids, venv.step(actions, env_ids=ids), rewards, dones, infos)

    def _opponent_part(self, i: int, state: Any, seat: int) -> int:
        """Table ``i``'s opponent's next part (split actions): at a first part its whole action
        is chosen and its second part kept; at a second part the kept one, or, after a forced
        first part, the second part of the action it chooses now."""
        parts = self._parts
        if self.venv.pending[i] == NO_PART:
            first, self._seconds[i] = divmod(self.opponents[i][seat](state, seat), parts)
            return first
        second = self._seconds[i]
        if second == NO_PART:
            second = self.opponents[i][seat](state, seat) % parts
        self._seconds[i] = NO_PART
        return int(second)

    def _observations(self) -> np.ndarray:
        return self._obs.copy()

    def _infos(self) -> list[dict[str, Any]]:
        return [{"seat": int(s)} for s in self.seats]

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)
