# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The batched env's inner loop on the compiled Koira core (``core.vector_env.VectorEnv``).

``VectorEnv`` keeps the semantics (seeds, auto-reset, results, errors) in one place; for a
game on the compiled core it hands the per-step work of all its envs to this module, which
does in one C loop what the generic path does per env in Python: check every action, apply
them, and write each env's observation row, mask row and acting seat straight into the
env's preallocated arrays. A finished game calls back into Python (``finish``: the result
and the next deal, once per game of about 160 steps).
"""

from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memset

from koira_env.games.koira._compiled cimport MAX_LEGAL, State, write_observation


cdef inline void write_row(
    State state, float[:, ::1] obs, uint8_t[:, ::1] mask, int64_t[::1] player, Py_ssize_t i
) noexcept:
    cdef short legal[MAX_LEGAL]
    cdef int count, k
    cdef int seat = state.d.h.current
    write_observation(state, seat, &obs[i, 0])
    memset(&mask[i, 0], 0, mask.shape[1])
    count = state.legal_into(legal)
    for k in range(count):
        mask[i, legal[k]] = 1
    player[i] = seat


def write_decisions(list states, float[:, ::1] obs, uint8_t[:, ::1] mask, int64_t[::1] player):
    """Every env's acting seat, its observation and its legal moves (after a reset)."""
    cdef Py_ssize_t i
    for i in range(len(states)):
        write_row(<State>states[i], obs, mask, player, i)


def first_illegal(list states, const int64_t[::1] ids, const int64_t[::1] actions):
    """The first position ``k`` whose action is not legal in env ``ids[k]``, or -1."""
    cdef short legal[MAX_LEGAL]
    cdef Py_ssize_t k
    cdef int count, j
    cdef int64_t action
    cdef State state
    for k in range(ids.shape[0]):
        state = <State>states[ids[k]]
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
    cdef State state
    for k in range(ids.shape[0]):
        i = ids[k]
        state = <State>states[i]
        state.apply_legal(<int>actions[k])
        lengths[i] += 1
        if state.d.h.is_terminal:
            state = <State>finish(i, state)
        write_row(state, obs, mask, player, i)
