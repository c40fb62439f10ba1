"""The PettingZoo AEC environment for Koira and Mattis.

``env()`` gives the protections of PettingZoo's usual wrapper stack (OrderEnforcingWrapper,
AssertOutOfBoundsWrapper, TerminateIllegalWrapper), with the same messages and the same
conventions, but checked inside ``step`` at O(1) cost: stacking the generic wrappers caps even
a do-nothing environment far below the engine's speed. ``raw_env()`` differs only in raising
the engine's ``IllegalActionError`` on any illegal or out-of-range action.

Rewards come only at the end, from ``State.returns()``. Observations are fresh arrays on every
call (safe to keep); see ``koira_env.observation`` and docs/environment.md.
"""

from __future__ import annotations

import random
import warnings
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium.spaces import Box, Dict, Discrete
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from .engine import GAME_OVER, IllegalActionError, State, new_game
from .observation import ObservationEncoder
from .record import game_record
from .render import render_text
from .rules import Rules, make_rules

ILLEGAL_REWARD = -1.0  # TerminateIllegalWrapper's illegal_reward, as in PettingZoo's classic envs
RESET_OPTIONS = ("deck",)


def _before_reset(name: str) -> AttributeError:
    return AttributeError(f"{name} cannot be accessed before reset")


class _SetByReset:
    """A public attribute that ``reset`` creates, stored in ``_<name>``.

    Read before ``reset``, it raises OrderEnforcingWrapper's error. The env's own hot path
    uses the ``_<name>`` attribute directly: a ``__getattr__`` hook, or any class attribute
    that an instance attribute of the same name shadows, would turn off CPython's
    specialized attribute access (7-9% of a step, measured).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.private = "_" + name

    def __get__(self, env: Any, owner: type | None = None) -> Any:
        if env is None:
            return self
        value = getattr(env, self.private)
        if value is None:
            raise _before_reset(self.name)
        return value

    def __set__(self, env: Any, value: Any) -> None:
        setattr(env, self.private, value)


class KoiraEnv(AECEnv):
    """Koira as an AEC environment; build it with ``koira_env.env()`` or ``raw_env()``."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "koira_v0",
        "is_parallelizable": False,
    }
    terminate_illegal = True  # False in RawKoiraEnv: illegal actions raise instead
    agents = _SetByReset()
    agent_selection = _SetByReset()
    rewards = _SetByReset()
    terminations = _SetByReset()
    truncations = _SetByReset()
    infos = _SetByReset()

    def __init__(
        self,
        num_players: int = 4,
        rules: str | Rules = "koira",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported; "
                f"choose None or one of {self.metadata['render_modes']}"
            )
        self.rules = make_rules(num_players, rules, **options)
        self.render_mode = render_mode
        n = self.rules.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._encoder = ObservationEncoder(self.rules)
        self._num_actions = self._encoder.num_actions
        self._observation = self._encoder.observation  # bound once: observe() is the hot path
        self._action_mask = self._encoder.action_mask
        self.observation_spaces = {
            agent: Dict(
                {
                    "observation": Box(0.0, 1.0, (self._encoder.size,), np.float32),
                    "action_mask": Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: Discrete(self._num_actions) for agent in self.possible_agents}
        self.observation_layout = self._encoder.layout
        self._state: State | None = None
        self._agents = self._agent_selection = None  # see _SetByReset
        self._rewards = self._terminations = self._truncations = self._infos = None
        self._rng: random.Random | None = None
        self._over = False
        self._has_updated = False

    @property
    def num_agents(self) -> int:
        if self._agents is None:
            raise _before_reset("num_agents")
        return len(self._agents)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    @property
    def state_object(self) -> State:
        """The engine state (the whole truth: for tools and tests, never for agents)."""
        if self._state is None:
            EnvLogger.error_state_before_reset()
        return self._state

    # ------------------------------------------------------------------ reset / step
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``options={"deck": [...]}`` fixes the order, else ``seed`` shuffles."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        deck = None
        if options:
            unknown = sorted(set(options) - set(RESET_OPTIONS))
            if unknown:
                warnings.warn(
                    f"ignoring unknown reset option(s) {unknown}; known: {list(RESET_OPTIONS)}",
                    stacklevel=2,
                )
            deck = options.get("deck")
        if deck is None:  # our own shuffle needs no validation
            order = list(range(52))
            self._rng.shuffle(order)
            self._state = state = State(self.rules, order)
        else:
            self._state = state = new_game(rules=self.rules, deck=deck)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[state.current]
        self._over = False
        self._has_updated = True

    def step(self, action: Any) -> None:
        state = self._state
        if state is None:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if self._over:  # every agent left is terminated or truncated
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()
                return
            if self.terminate_illegal and action is not None:
                assert self.action_spaces[self._agent_selection].contains(action), (
                    "action is not in action space"
                )
            self._was_dead_step(action)  # ValueError unless action is None
            return
        if type(action) is not int:
            if self.action_spaces[self._agent_selection].contains(action):
                action = int(action)  # numpy integers: keep records JSON-friendly
            elif self.terminate_illegal:
                raise AssertionError("action is not in action space")
        elif self.terminate_illegal and not 0 <= action < self._num_actions:
            raise AssertionError("action is not in action space")
        try:
            state.apply(action)
        except IllegalActionError:
            if not self.terminate_illegal:
                raise
            self._end_illegal(self._agent_selection, action)
            return
        if state.phase == GAME_OVER:
            self._end_game(state)
        else:
            self._agent_selection = self.possible_agents[state.current]
        if self.render_mode == "human":
            self.render()

    def _end_game(self, state: State) -> None:
        """Final rewards and placements for everyone; then each agent is stepped out with None."""
        self._over = True
        agents = self.agents
        if state.truncated:
            self.truncations = dict.fromkeys(agents, True)
        else:
            self.terminations = dict.fromkeys(agents, True)
        returns = state.returns()
        self.rewards = {agent: returns[self._seat_of[agent]] for agent in agents}
        self._accumulate_rewards()
        self._set_end_infos({})
        self._deads_step_first()

    def _end_illegal(self, agent: str, action: int) -> None:
        """TerminateIllegalWrapper's convention: the game ends and the offender alone scores."""
        EnvLogger.warn_on_illegal_move()
        self._over = True
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = ILLEGAL_REWARD
        self._accumulate_rewards()
        self._set_end_infos({"illegal_action": {"agent": agent, "action": action}})
        self._deads_step_first()

    def _set_end_infos(self, extra: dict[str, Any]) -> None:
        placements = [self.possible_agents[p] for p in self._state.placements]
        for agent in self.agents:
            self.infos[agent] = {"placements": placements[:], **extra}

    # ------------------------------------------------------------------ observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Fresh arrays: the seat's view and, if it is to act, its legal actions (else zeros)."""
        state = self._state
        if state is None:
            EnvLogger.error_observe_before_reset()
        seat = self._seat_of[agent]
        if seat == state.current and not self._over:
            mask = self._action_mask(state.legal_actions())
        else:
            mask = np.zeros(self._num_actions, np.int8)
        return {"observation": self._observation(state, seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, reading the private attributes behind the public ones (hot path)."""
        agent = self._agent_selection
        if agent is None:
            raise _before_reset("agent_selection")
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self._terminations[agent],
            self._truncations[agent],
            self._infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if self._state is None:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)

    # ------------------------------------------------------------------ output
    def render(self) -> str | None:
        """``"ansi"``: the text; ``"human"``: print it. Public info plus the actor's hand only."""
        if self._state is None:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; set render_mode='ansi'")
            return None
        text = render_text(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; defined because PettingZoo expects render() and close() as a pair."""

    def game_record(self) -> dict[str, Any]:
        """The game so far as a JSON-ready record (``koira_env.record``), replayable exactly."""
        if self._state is None:
            EnvLogger.error_state_before_reset()
        return game_record(self._state)


class RawKoiraEnv(KoiraEnv):
    """The bare environment: an illegal or out-of-range action raises ``IllegalActionError``."""

    terminate_illegal = False


class _OrderEnforcingIterable(AECIterable):
    def __iter__(self) -> AECIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECIterator):
    """AECOrderEnforcingIterator's check: each loop turn must step (or reset) the env."""

    def __next__(self) -> str:
        env = self.env
        if not env._agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return env._agent_selection


def env(
    num_players: int = 4,
    rules: str | Rules = "koira",
    render_mode: str | None = None,
    **options: Any,
) -> KoiraEnv:
    """The environment to use: illegal moves end the game with ``ILLEGAL_REWARD`` for the mover."""
    return KoiraEnv(num_players, rules, render_mode, **options)


def raw_env(
    num_players: int = 4,
    rules: str | Rules = "koira",
    render_mode: str | None = None,
    **options: Any,
) -> RawKoiraEnv:
    """The bare environment: illegal actions raise ``IllegalActionError`` (a ``ValueError``)."""
    return RawKoiraEnv(num_players, rules, render_mode, **options)
