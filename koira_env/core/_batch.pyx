# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The batched env's inner loop on any compiled core (``core.vector_env.VectorEnv``).

``VectorEnv`` keeps the semantics (seeds, auto-reset, results, errors) in one place; for a
game on a compiled core (``Game.batch``) it hands the per-step work of all its envs to this
module, which does in one C loop what the generic path does per env in Python: check every
action, apply them, and write each env's observation row, mask row and acting seat straight
into the env's preallocated arrays. It reads only the shared base of the cores
(``core/_engine.pxd``: the header's turn and end, ``legal_into``, ``apply_legal`` and the
engine's ``write``), so every core gets it without a line of its own. A finished game calls
back into Python (``finish``: the result and the next deal, once per game).
"""

from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memset

from koira_env.core._engine cimport LEGAL_BUFFER, CompiledState


cdef inline int write_row(
    CompiledState state, float[:, ::1] obs, uint8_t[:, ::1] mask, int64_t[::1] player,
    Py_ssize_t i
) except -1:
    cdef short legal[LEGAL_BUFFER]
    cdef int count, k
    cdef int seat = state.head.current
    state.engine.write(state, seat, &obs[i, 0])
    memset(&mask[i, 0], 0, mask.shape[1])
    count = state.legal_into(legal)
    for k in range(count):
        mask[i, legal[k]] = 1
    player[i] = seat
    return 0


def write_decisions(list states, float[:, ::1] obs, uint8_t[:, ::1] mask, int64_t[::1] player):
    """Every env's acting seat, its observation and its legal moves (after a reset)."""
    cdef Py_ssize_t i
    for i in range(len(states)):
        write_row(<CompiledState>states[i], obs, mask, player, i)


def first_illegal(list states, const int64_t[::1] ids, const int64_t[::1] actions):
    """The first position ``k`` whose action is not legal in env ``ids[k]``, or -1."""
    cdef short legal[LEGAL_BUFFER]
    cdef Py_ssize_t k
    cdef int count, j
    cdef int64_t action
    cdef CompiledState state
    for k in range(ids.shape[0]):
        state = <CompiledState>states[ids[k]]
        action = actions[k]
        count = state.legal_into(legal)
        for j in range(count):
            if legal[j] == action:
                break
        else:
            return k
    return -1


def step(
    list states,
    const int64_t[::1] ids,
    const int64_t[::1] actions,
    float[:, ::1] obs,
    uint8_t[:, ::1] mask,
    int64_t[::1] player,
    int64_t[::1] lengths,
    finish,
):
    """Apply ``actions[k]`` in env ``ids[k]`` (all checked legal by ``first_illegal``), count
    it, let ``finish(i, state)`` record a finished game and return the next deal (it also
    replaces ``states[i]``), and write those envs' next decisions."""
    cdef Py_ssize_t k, i
    cdef CompiledState state
    for k in range(ids.shape[0]):
        i = ids[k]
        state = <CompiledState>states[i]
        state.apply_legal(<int>actions[k])
        lengths[i] += 1
        if state.head.is_terminal:
            state = <CompiledState>finish(i, state)
        write_row(state, obs, mask, player, i)
