# cython: language_level=3, boundscheck=False, wraparound=False
# cython: embedsignature=True
"""The AEC env's per-step protocol in C: ``core.env.EnvProtocol``, the readable reference, the
same way, for every game's env (``CardGameEnv`` runs on it when it is built).

A step of the env is ``agent_iter``'s next agent, ``last()`` (the observation and mask, then
the agent's reward, flags and info) and ``step()``; in Python these were a third of a Kop or
Teka step (0.8-1.2 us of 2.3-3.2, the engine's own calls the rest). Here the attributes they
read are the extension type's fields, not an instance dict, a compiled core's turn and end
are read from its header, and the iterator is a C type. The dead agents' steps after a game
are here too (four in each of Red7's 12-step games), and a split action's parts
(``core.parts``). The rest (the end of a game, an illegal or non-int action or part) stays
``CardGameEnv``'s, in Python, for both: a few calls a game. ``tests/test_env_protocol.py``
plays this and the reference side by side and compares every return, error and attribute.
"""

import numpy as np
from pettingzoo.utils.env_logger import EnvLogger

from koira_env.core._engine cimport CompiledState

from koira_env.core.game import IllegalActionError


cdef class EnvCore:
    """``EnvProtocol`` in C: the fields ``CardGameEnv`` sets, and ``observe``, ``last``,
    ``step`` and the agent iterator."""

    cdef public object _state
    cdef public object _agent_selection
    cdef public object _skip_agent_selection  # the selection to restore after the dead steps
    cdef public object _agents
    cdef public object _rewards
    cdef public object _cumulative_rewards
    cdef public object _terminations
    cdef public object _truncations
    cdef public object _infos
    cdef public bint _over
    cdef public bint _has_updated
    cdef public bint _terminate_illegal
    cdef public int _num_actions
    cdef public object _names  # the agents by seat
    cdef public object _seat_of
    cdef public object _observation
    cdef public object _legal_mask
    cdef public object render_mode
    # split actions (core.parts): the width of a part (0: actions are whole), the first part
    # chosen (-1: none yet) and the game's part methods
    cdef public int _parts
    cdef public int _pending
    cdef public object _part_observation
    cdef public object _part_mask
    cdef public object _legal_part

    cdef object _observe(self, agent):
        cdef int pending
        state = self._state
        if state is None:
            EnvLogger.error_observe_before_reset()
        seat = self._seat_of[agent]
        if isinstance(state, CompiledState):
            current = (<CompiledState>state).head.current
        else:
            current = state.current
        pending = self._pending
        if seat != current or self._over:
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

    def observe(self, agent):
        """Fresh arrays: the seat's view and, if it is to act, its legal actions (else zeros)."""
        return self._observe(agent)

    def last(self, bint observe=True):
        """AECEnv.last, reading the private attributes behind the public ones (hot path)."""
        agent = self._agent_selection
        if agent is None:
            from koira_env.core.env import before_reset  # the one wording; env imports this

            raise before_reset("agent_selection")
        return (
            self._observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self._terminations[agent],
            self._truncations[agent],
            self._infos[agent],
        )

    def step(self, action):
        cdef int pending
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
            if pending < 0:
                self._pending = action
                if self.render_mode == "human":
                    self.render()
                return
            self._pending = -1
            action += pending * self._parts
            if isinstance(state, CompiledState):  # both parts were checked: a legal action
                (<CompiledState>state).apply_legal(action)
                self._after_action(state)
                return
        try:
            state.apply(action)
        except IllegalActionError:
            if not self._terminate_illegal:
                raise
            self._end_illegal(self._agent_selection, action)
            return
        self._after_action(state)

    cdef int _after_action(self, state) except -1:
        """The end of the game, or the next agent to act; then the human render."""
        cdef CompiledState compiled
        if isinstance(state, CompiledState):
            compiled = <CompiledState>state
            if compiled.head.is_terminal:
                self._end_game(state)
            else:
                self._agent_selection = self._names[compiled.head.current]
        elif state.is_terminal:
            self._end_game(state)
        else:
            self._agent_selection = self._names[state.current]
        if self.render_mode == "human":
            self.render()
        return 0

    cdef int _step_finished(self, action) except -1:
        """``step`` once every agent left is terminated or truncated: each steps out with None."""
        if not self._agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return 0
        if self._terminate_illegal and action is not None:
            try:
                inside = self.action_spaces[self._agent_selection].contains(action)
            except OverflowError:  # gymnasium's check of an int beyond 64 bits
                inside = False
            assert inside, "action is not in action space"
        return self._leave(action)  # ValueError unless action is None

    def _was_dead_step(self, action):
        """AECEnv._was_dead_step for a finished game: the agent leaves every dict and the next
        one (all are dead) is selected; after the last, the selection from before the end."""
        self._leave(action)

    cdef int _leave(self, action) except -1:
        cdef dict rewards
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
        return 0

    def _agents_in_turn(self, max_iter):
        """The agent iterator of ``agent_iter`` (``env._order_enforcing``)."""
        return AgentsInTurn(self, max_iter)


cdef class AgentsInTurn:
    """``env._order_enforcing`` as a C iterator: the agent to act, while any is left and
    ``max_iter`` allows, each turn checking that the last one stepped (or reset) the env.
    Once stopped (the game over, or a failed check) it stays stopped."""

    cdef EnvCore env
    cdef object left
    cdef bint stopped

    def __init__(self, EnvCore env, max_iter):
        self.env = env
        self.left = max_iter

    def __iter__(self):
        return self

    def __next__(self):
        cdef EnvCore env = self.env
        if self.stopped or not env._agents or not self.left > 0:
            self.stopped = True
            raise StopIteration
        self.left -= 1
        if not env._has_updated:
            self.stopped = True
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._has_updated = False
        return env._agent_selection
