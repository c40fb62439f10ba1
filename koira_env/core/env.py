"""The PettingZoo AEC environment of every game: one class over the ``Game`` protocol.

``env()`` gives the protections of PettingZoo's usual wrapper stack (OrderEnforcingWrapper,
AssertOutOfBoundsWrapper, TerminateIllegalWrapper), with the same messages and the same
conventions, but checked inside ``step`` at O(1) cost: stacking the generic wrappers caps even
a do-nothing environment far below the engine's speed. ``raw_env()`` differs only in raising
the engine's ``IllegalActionError`` on any illegal or out-of-range action.

``split_actions=True`` asks for an action whose id is a pair (Red7's turn: a palette card,
then a canvas card) in two decisions of the same agent (``core.parts``).

Rewards come only at the end, from ``State.returns()``; the raw scores and places are in
``info`` then (``Game.end_info``). Observations are fresh arrays on every call (safe to keep);
each game's encoder and docs/environment.md describe them.

The per-step protocol (``observe``, ``last``, ``step``'s common case and the agent iterator)
is ``EnvProtocol`` here, the readable reference, and ``core/_aec.pyx``'s ``EnvCore``, the same
in C, which the env runs on when it is built (a step costs 0.3-0.4 us less: the protocol was a
third of a Kop or Teka step); ``tests/test_env_protocol.py`` plays both side by side.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium.spaces import Box, Dict, Discrete
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.env_logger import EnvLogger

from .game import Game, IllegalActionError, State
from .parts import FIRST_PART, NO_PART, check_split, decision_sizes, illegal_part
from .record import game_record
from .reset import ResetSeeds, reset_option

ILLEGAL_REWARD = -1.0  # TerminateIllegalWrapper's illegal_reward, as in PettingZoo's classic envs
RESET_OPTIONS = ("deck",)


def before_reset(name: str) -> AttributeError:
    """OrderEnforcingWrapper's error for an attribute read before ``reset``."""
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
            raise before_reset(self.name)
        return value

    def __set__(self, env: Any, value: Any) -> None:
        setattr(env, self.private, value)


class EnvProtocol:
    """The AEC env's per-step protocol, the readable reference: ``observe``, ``last``,
    ``step`` (the dead agents' steps after a game included) and the agent iterator.
    ``core/_aec.pyx``'s ``EnvCore`` is the same in C, and ``CardGameEnv`` runs on it where it
    is built; the rest (the end of a game, an illegal or non-int action) is ``CardGameEnv``'s,
    for both. The attributes read here are set by ``CardGameEnv``."""

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Fresh arrays: the seat's view and, if it is to act, its legal actions (else zeros)."""
        state = self._state
        if state is None:
            EnvLogger.error_observe_before_reset()
        seat = self._seat_of[agent]
        pending = self._pending
        if seat != state.current or self._over:
            mask = np.zeros(self._num_actions, np.int8)
        elif self._parts:  # split actions (core.parts)
            mask = self._part_mask(state, pending)
        else:
            mask = self._legal_mask(state)
        if self._parts:
            observation = self._part_observation(state, seat, pending)
        else:
            observation = self._observation(state, seat)
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, reading the private attributes behind the public ones (hot path)."""
        agent = self._agent_selection
        if agent is None:
            raise before_reset("agent_selection")
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self._terminations[agent],
            self._truncations[agent],
            self._infos[agent],
        )

    def step(self, action: Any) -> None:
        state = self._state
        if state is None:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if self._over:  # every agent left is terminated or truncated
            self._step_finished(action)
            return
        if type(action) is not int:
            action = self._integer_action(action)
        elif not 0 <= action < self._num_actions and self._terminate_illegal:
            raise AssertionError("action is not in action space")
        if self._parts:  # split actions: a first part waits for its second
            pending = self._pending
            if not self._legal_part(state, pending, action):
                self._illegal_part(action)
                return
            if pending == NO_PART:
                self._pending = action
                if self.render_mode == "human":
                    self.render()
                return
            self._pending = NO_PART
            action += pending * self._parts
        try:
            state.apply(action)
        except IllegalActionError:
            if not self._terminate_illegal:
                raise
            self._end_illegal(self._agent_selection, action)
            return
        if state.is_terminal:
            self._end_game(state)
        else:
            self._agent_selection = self._names[state.current]
        if self.render_mode == "human":
            self.render()

    def _step_finished(self, action: Any) -> None:
        """``step`` once every agent left is terminated or truncated: each steps out with None."""
        if not self._agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if self._terminate_illegal and action is not None:
            try:
                inside = self.action_spaces[self._agent_selection].contains(action)
            except OverflowError:  # gymnasium's check of an int beyond 64 bits
                inside = False
            assert inside, "action is not in action space"
        self._was_dead_step(action)  # ValueError unless action is None

    def _was_dead_step(self, action: Any) -> None:
        """AECEnv._was_dead_step for a finished game: the agent leaves every dict and the next
        one (all are dead) is selected; after the last, the selection from before the end."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self._agent_selection
        del self._terminations[agent]
        del self._truncations[agent]
        del self._rewards[agent]
        del self._cumulative_rewards[agent]
        del self._infos[agent]
        agents = self._agents
        agents.remove(agent)
        if agents:
            self._agent_selection = agents[0]
        else:  # _deads_step_first kept the selection from before the end
            self._agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self._rewards
        for other in rewards:
            rewards[other] = 0

    def _agents_in_turn(self, max_iter: int) -> Iterator[str]:
        """The agent iterator of ``agent_iter`` (``_order_enforcing``)."""
        return _order_enforcing(self, max_iter)


try:  # the same protocol in C (core/_aec.pyx, built at install)
    from ._aec import EnvCore as _Protocol
except ImportError:  # a source checkout whose extensions are not built
    _Protocol = EnvProtocol


class CardGameEnv(_Protocol, AECEnv):
    """Any game of the registry as an AEC env; build it with ``koira_env.make(game, ...)``."""

    _METADATA: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
    }
    terminate_illegal = True  # False in RawCardGameEnv: illegal actions raise instead
    agents = _SetByReset()
    agent_selection = _SetByReset()
    rewards = _SetByReset()
    terminations = _SetByReset()
    truncations = _SetByReset()
    infos = _SetByReset()

    def __init__(
        self, game: Game, render_mode: str | None = None, *, split_actions: bool = False
    ) -> None:
        super().__init__()
        modes = self._METADATA["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported; choose None or one of {modes}"
            )
        check_split(game, split_actions)
        self._metadata = {**self._METADATA, "name": game.env_name}
        self.game = game
        self.rules = game.rules
        self.render_mode = render_mode
        n = game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        # reset and the end of a game copy these (a copy is cheaper than dict.fromkeys)
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._falses = dict.fromkeys(self.possible_agents, False)
        self._trues = dict.fromkeys(self.possible_agents, True)
        self._names = tuple(self.possible_agents)  # by seat
        self._terminate_illegal = self.terminate_illegal  # read per step, from the class
        self._observation = game.observation  # bound once: observe() is the hot path
        self._legal_mask = game.legal_mask
        self.observation_layout = game.observation_layout
        observation_size, self._num_actions = decision_sizes(game, split_actions)
        # split actions (core.parts): the width of a part, 0 when actions are whole
        self._parts = game.action_parts if split_actions else 0
        self._pending = NO_PART  # the first part chosen, waiting for its second
        if split_actions:
            self.observation_layout = {
                **game.observation_layout,
                FIRST_PART: slice(game.observation_size, observation_size),
            }
            self._part_observation = game.part_observation
            self._part_mask = game.part_mask
            self._legal_part = game.legal_part
        self.observation_spaces = {
            agent: Dict(
                {
                    "observation": Box(0.0, 1.0, (observation_size,), np.float32),
                    "action_mask": Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: Discrete(self._num_actions) for agent in self.possible_agents}
        self._state: State | None = None
        self._agents = self._agent_selection = None  # see _SetByReset
        self._rewards = self._terminations = self._truncations = self._infos = None
        self._seeds = ResetSeeds()
        self._skip_agent_selection: str | None = None
        self._over = False
        self._has_updated = False

    @property
    def metadata(self) -> dict[str, Any]:  # type: ignore[override]
        """PettingZoo's metadata; ``name`` is the game's (``koira_v0``, ``mattis_v0``, ...)."""
        return self._metadata

    @property
    def num_agents(self) -> int:
        if self._agents is None:
            raise before_reset("num_agents")
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
        """Deal a new game: ``options={"deck": [...]}`` fixes the deal (see the game's RULES.md
        section), else ``seed`` shuffles; ``reset(seed=s)`` deals ``game.new_state(seed=s)``
        and later resets without a seed continue a sequence drawn from ``s``."""
        deck = reset_option(options, RESET_OPTIONS, "deck") if options else None
        if deck is not None:  # checked first: a refused deck leaves the seeds as they were
            deck = self.game.parse_deck(deck)
        game_seed = self._seeds.next(seed)
        self._state = state = self.game.new_state(deck=deck, seed=game_seed)
        agents = self.possible_agents
        self._agents = agents[:]
        self._rewards = self._zeros.copy()
        self._cumulative_rewards = self._zeros.copy()
        self._terminations = self._falses.copy()
        self._truncations = self._falses.copy()
        self._infos = {agent: {} for agent in agents}
        self._agent_selection = agents[state.current]
        self._skip_agent_selection = None
        self._over = False
        self._pending = NO_PART
        self._has_updated = True

    def _integer_action(self, action: Any) -> Any:
        """``step``'s action when it is not an ``int``: numpy integers become ints (records stay
        JSON-friendly); a bool is no action, though gymnasium's Discrete takes True for 1. The
        raw env hands anything else to the engine, which rejects it before anything changes."""
        if type(action) is not bool and self.action_spaces[self._agent_selection].contains(action):
            return int(action)
        if self._terminate_illegal:
            raise AssertionError("action is not in action space")
        return action

    def _illegal_part(self, part: Any) -> None:
        """An illegal part of a split action: the raw env raises (nothing changes), the env
        ends the game as for an illegal action."""
        state = self._state
        if not self._terminate_illegal:
            legal = state.legal_actions()
            raise IllegalActionError(
                illegal_part(legal, self._parts, self._pending, part, state.current)
            )
        self._end_illegal(self._agent_selection, part)

    def _end_game(self, state: State) -> None:
        """Final rewards and placements for everyone; then each agent is stepped out with None."""
        self._over = True
        if state.truncated:
            self._truncations = self._trues.copy()
        else:
            self._terminations = self._trues.copy()
        returns = state.returns()
        seat_of = self._seat_of
        self._finish(
            {agent: returns[seat_of[agent]] for agent in self._agents}, self.game.end_info(state)
        )

    def _end_illegal(self, agent: str, action: int) -> None:
        """TerminateIllegalWrapper's convention: the game ends and the offender alone scores."""
        EnvLogger.warn_on_illegal_move()
        self._over = True
        self._pending = NO_PART
        self._cumulative_rewards[agent] = 0.0
        self._terminations = self._trues.copy()
        self._truncations = self._trues.copy()
        rewards = dict.fromkeys(self._agents, 0.0)
        rewards[agent] = ILLEGAL_REWARD
        info = self.game.end_info(self._state)
        self._finish(rewards, {**info, "illegal_action": {"agent": agent, "action": action}})

    # PettingZoo's helper for the end of a game, on the private attributes (the public ones go
    # through ``_SetByReset``) and knowing that every agent left is dead once the game is over
    # (its other half, ``_was_dead_step``, is the protocol's).
    def _finish(self, rewards: dict[str, float], info: dict[str, Any]) -> None:
        """The last rewards (AECEnv._accumulate_rewards), a copy of ``info`` for each agent,
        then AECEnv._deads_step_first: every agent is dead, so the first one steps out first
        and the selection before is kept to be restored after the last. One loop for all:
        the end of a game costs as much as a step in Red7's short games."""
        self._rewards = rewards
        cumulative = self._cumulative_rewards
        infos = self._infos
        for agent, reward in rewards.items():
            cumulative[agent] += reward
            infos[agent] = dict(info)
        self._skip_agent_selection = self._agent_selection
        self._agent_selection = self._agents[0]

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if self._state is None:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)

    # ------------------------------------------------------------------ output
    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the text; ``"human"``: print it; ``"rgb_array"``: a picture of the table
        as an HxWx3 uint8 array (``core.picture``; needs Pillow). Public info plus the actor's
        hand only."""
        if self._state is None:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; set render_mode='ansi'")
            return None
        if self.render_mode == "rgb_array":
            from .picture import picture

            return picture(self._state, self._state.current)
        text = self.game.render(self._state, self._state.current)
        if self._pending != NO_PART:  # split actions: the mover's part so far
            mover, part = self._state.current, self._pending
            text += f"\nplayer_{mover} chose first part {part}; the second is next"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; defined because PettingZoo expects render() and close() as a pair."""

    def action_name(self, action: int) -> str:
        """The action's name, e.g. ``"QS"`` or ``"take"`` (``Game.action_name``)."""
        return self.game.action_name(action)

    def action_id(self, name: str) -> int:
        """The action of a name written as ``action_name`` writes it."""
        return self.game.action_id(name)

    def game_record(self) -> dict[str, Any]:
        """The game so far as a JSON-ready record (``koira_env.core.record``), replayable."""
        if self._state is None:
            EnvLogger.error_state_before_reset()
        return game_record(self._state)


class RawCardGameEnv(CardGameEnv):
    """The bare environment: an illegal or out-of-range action raises ``IllegalActionError``."""

    terminate_illegal = False


class _OrderEnforcingIterable(AECIterable):
    def __iter__(self) -> Iterator[str]:
        return self.env._agents_in_turn(self.max_iter)


def _order_enforcing(env: EnvProtocol, max_iter: int) -> Iterator[str]:
    """AECOrderEnforcingIterator's check: each loop turn must step (or reset) the env.

    A generator, not an iterator class: CPython calls a class's ``__next__`` as a new Python
    frame each turn but resumes a generator's (about 1,000 instructions a Red7 game step).
    Once stopped (the game over, or a failed check) it stays stopped; ``agent_iter()`` gives
    a new one."""
    while env._agents and max_iter > 0:
        max_iter -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        yield env._agent_selection
