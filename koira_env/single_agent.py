"""A single-agent Gymnasium view of the game: one learner seat, the other seats played inside.

Self-play trainers (MaskablePPO and friends) want one agent per env. Here the learner holds
one seat; at every ``step`` the opponents play until it is the learner's turn again (or the
game ends), so every transition is the learner's own: its observation (the shared encoder,
``koira_env.observation``, for its seat), its reward (``State.returns()`` of its seat at the
end, zero before). Forced moves (one legal action) are played for whoever is due. An
illegal action ends the episode as a loss. Opponents are plain
callables ``(state, seat) -> action``; they are drawn afresh for each episode by
``opponent_sampler``, which is how a league plugs in.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from .engine import State, new_game
from .observation import ObservationEncoder
from .rules import Rules, make_rules

Opponent = Callable[[State, int], int]
OpponentSampler = Callable[[random.Random], Opponent]
ILLEGAL_REWARD = -1.0  # the loser's return under every reward option


def random_opponent(rng: random.Random) -> Opponent:
    """The default opponent: uniformly random legal moves from the episode's generator."""
    return lambda state, seat: rng.choice(state.legal_actions())


class SingleAgentEnv(gym.Env):
    """The learner's seat of a Koira table; ``action_masks()`` lists its legal actions.

    ``learner_seat=None`` draws the seat at random each episode. ``opponent_sampler(rng)`` is
    called once per opponent seat per episode; ``rng`` is the episode's generator, seeded
    from ``reset(seed=...)``.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (gymnasium's convention)

    def __init__(
        self,
        num_players: int = 4,
        rules: str | Rules = "koira",
        options: dict[str, Any] | None = None,
        opponent_sampler: OpponentSampler = random_opponent,
        learner_seat: int | None = None,
    ) -> None:
        self.rules = make_rules(num_players, rules, **(options or {}))
        if learner_seat is not None and not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat must be in 0..{num_players - 1}, got {learner_seat}")
        self.encoder = ObservationEncoder(self.rules)
        self.observation_space = gym.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.encoder.num_actions)
        self.opponent_sampler = opponent_sampler
        self.fixed_seat = learner_seat
        self.seat = 0
        self.opponents: dict[int, Opponent] = {}
        self.state: State | None = None
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        n = self.rules.num_players
        self.seat = self._rng.randrange(n) if self.fixed_seat is None else self.fixed_seat
        self.opponents = {s: self.opponent_sampler(self._rng) for s in range(n) if s != self.seat}
        self.state = new_game(rules=self.rules, seed=self._rng.getrandbits(64))
        self._play_opponents()
        if self.state.is_terminal:  # cannot happen at the start of a real game; kept honest
            raise RuntimeError("the game ended before the learner's first turn")
        return self._observation(), {"seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None or self.state.is_terminal:
            raise RuntimeError("step() called without a game in progress; call reset()")
        state = self.state
        info: dict[str, Any] = {"seat": self.seat}
        if not self.action_masks()[action]:
            # Masked learners never get here; unmasked ones (and env checkers) lose the game.
            info["illegal_action"] = True
            return self._observation(), ILLEGAL_REWARD, True, False, info
        state.apply(int(action))
        self._play_opponents()
        if not state.is_terminal:
            return self._observation(), 0.0, False, False, info
        info["placements"] = list(state.placements)
        reward = state.returns()[self.seat]
        return self._observation(), float(reward), not state.truncated, state.truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool vector (all False once the game is over)."""
        assert self.state is not None, "call reset() first"
        legal = self.state.legal_actions() if self.state.current == self.seat else []
        return self.encoder.action_mask(legal).astype(bool)

    def _play_opponents(self) -> None:
        """Play on until the learner has a real choice: opponents' moves and forced moves.

        A move with a single legal action is nobody's decision (a third of all moves), so it
        is played without asking the opponent or costing the learner a transition.
        """
        state = self.state
        assert state is not None
        while not state.is_terminal:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            seat = state.current
            if seat == self.seat:
                return
            state.apply(self.opponents[seat](state, seat))

    def _observation(self) -> np.ndarray:
        assert self.state is not None
        return self.encoder.observation(self.state, self.seat)
