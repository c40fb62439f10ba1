"""A single-agent Gymnasium view of any game: one learner seat, the other seats played inside.

Self-play trainers (MaskablePPO and friends) want one agent per env. Here the learner holds
one seat; at every ``step`` the opponents play until it is the learner's turn again (or the
game ends), so every transition is the learner's own: its observation (the game's encoder,
for its seat), its reward (``State.returns()`` of its seat at the end, zero before). Forced
moves (one legal action) are played for whoever is due. An illegal action ends the episode as
a loss. Opponents are plain callables ``(state, seat) -> action``; they are drawn afresh for
each episode by ``opponent_sampler``, which is how a league plugs in. With
``split_actions=True`` (Red7) the learner takes each of its turns in two steps, a first part
and then a second (``core.parts``: the AEC env's observation and masks); opponents play whole
turns, and a part with one legal choice is played for the learner too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from .env import ILLEGAL_REWARD
from .game import Game, State, as_action
from .parts import NO_PART, check_split, decision_sizes, part_actions

Opponent = Callable[[State, int], int]
OpponentSampler = Callable[[random.Random], Opponent]
REDEALS = 1000  # deals tried for one episode; a game where the learner never chooses is a bug


def random_opponent(rng: random.Random) -> Opponent:
    """The default opponent: uniformly random legal moves from the episode's generator."""
    return lambda state, seat: rng.choice(state.legal_actions())


class SingleAgentEnv(gym.Env):
    """The learner's seat at a table of ``game``; ``action_masks()`` lists its legal actions.

    ``learner_seat=None`` draws the seat at random each episode. ``opponent_sampler(rng)`` is
    called once per opponent seat per episode; ``rng`` is the episode's generator, seeded
    from ``reset(seed=...)``.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (gymnasium's convention)

    def __init__(
        self,
        game: Game,
        opponent_sampler: OpponentSampler = random_opponent,
        learner_seat: int | None = None,
        *,
        split_actions: bool = False,
    ) -> None:
        self.game = game
        self.rules = game.rules
        n = game.num_players
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise ValueError(f"learner_seat must be in 0..{n - 1}, got {learner_seat}")
        check_split(game, split_actions)
        # split actions (core.parts): the learner's turn in two steps; 0 when actions are whole
        self._parts = game.action_parts if split_actions else 0
        self._pending = NO_PART  # the learner's first part, waiting for its second
        size, self.num_actions = decision_sizes(game, split_actions)
        self.observation_space = gym.spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.num_actions)
        self.opponent_sampler = opponent_sampler
        self.fixed_seat = learner_seat
        self.seat = 0
        self.opponents: dict[int, Opponent] = {}
        self.state: State | None = None
        self._over = True  # no episode in progress until reset()
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        n = self.game.num_players
        self.seat = self._rng.randrange(n) if self.fixed_seat is None else self.fixed_seat
        self.opponents = {s: self.opponent_sampler(self._rng) for s in range(n) if s != self.seat}
        self._over = False
        self._pending = NO_PART
        for _ in range(REDEALS):  # a deal can leave the learner only forced moves (Mätäpesä)
            self.state = self.game.new_state(seed=self._rng.getrandbits(64))
            self._play_opponents()
            if not self.state.is_terminal:
                return self._observation(), {"seat": self.seat}
        raise RuntimeError(f"{REDEALS} deals in a row gave the learner no choice to make")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None or self._over:
            raise RuntimeError("step() called without a game in progress; call reset()")
        state = self.state
        info: dict[str, Any] = {"seat": self.seat}
        action = as_action(action)
        if not 0 <= action < self.num_actions or not self.action_masks()[action]:
            # Masked learners never get here; unmasked ones (and env checkers) lose the game,
            # which is over: a further step() needs a reset().
            self._over = True
            self._pending = NO_PART
            info["illegal_action"] = True
            return self._observation(), ILLEGAL_REWARD, True, False, info
        if self._parts:
            if self._pending == NO_PART:  # a first part: the second is the next step's
                self._pending = action
                seconds = self._legal_parts()
                if len(seconds) > 1:
                    return self._observation(), 0.0, False, False, info
                action = seconds[0]  # a forced second part is nobody's decision
            action += self._pending * self._parts
            self._pending = NO_PART
        state.apply(action)
        self._play_opponents()
        if not state.is_terminal:
            return self._observation(), 0.0, False, False, info
        self._over = True
        outcome = state.outcome()
        if outcome is not None:
            info.update(outcome.to_json())
        reward = state.returns()[self.seat]
        return self._observation(), float(reward), not state.truncated, state.truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool vector (all False once the game is over)."""
        assert self.state is not None, "call reset() first"
        if self.state.current != self.seat or self.state.is_terminal:
            return np.zeros(self.num_actions, bool)
        if self._parts:
            return self.game.part_mask(self.state, self._pending).astype(bool)
        return self.game.action_mask(self.state.legal_actions()).astype(bool)

    def _legal_parts(self) -> list[int]:
        """The learner's legal parts of its split action now (``core.parts``)."""
        assert self.state is not None
        return part_actions(self.state.legal_actions(), self._parts, self._pending)

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
                firsts = self._legal_parts() if self._parts else []
                if len(firsts) == 1:  # a forced first part
                    self._pending = firsts[0]
                return
            state.apply(self.opponents[seat](state, seat))

    def _observation(self) -> np.ndarray:
        assert self.state is not None
        if self._parts:
            return self.game.part_observation(self.state, self.seat, self._pending)
        return self.game.observation(self.state, self.seat)
