# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The batched env's inner loop on any compiled core (``core.vector_env.VectorEnv``).

``VectorEnv`` keeps the semantics (seeds, auto-reset, results, errors) in one place; for a
game on a compiled core (``Game.batch``) it hands the per-step work of all its envs to this
module, which does in one C loop what the generic path does per env in Python: check every
action, apply them, and write each env's observation row, mask row and acting seat straight
into the env's preallocated arrays. It reads only the shared base of the cores
(``core/_engine.pxd``: the header's turn and end, ``legal_into``, ``apply_legal`` and the
engine's ``write``), so every core gets it without a line of its own. A finished game's
result (lengths, flags, returns and places) is written here too, and its next game is dealt
by ``deal_next`` where the core has one (Red7's games end every 6-12 steps: the Python
round trip of a new deal was most of a step), the first decks of all the games that end in a
step shuffled together (``shuffle_many``: seeding a generator is most of a shuffle's time, and
several seed faster side by side); elsewhere ``deal`` (Python) deals it. Where a game deals
again from its seed (``deals_again``: Teka's hands, Red7's rounds under points scoring), the
next deck of every game that dealt one in a step is shuffled at the step's end, side by side
too (``shuffle_ahead``), for the hand that will ask for it.
"""

from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy, memset

from koira_env.core._engine cimport LEGAL_BUFFER, CompiledState
from koira_env.core._lists cimport int_list
from koira_env.core._shuffle cimport later_seed, shuffle_ahead, shuffle_many

from koira_env.core.vector_env import game_seed


cdef inline int write_row(
    CompiledState state, float[:, ::1] obs, uint8_t[:, ::1] mask, uint8_t[:, ::1] legal,
    int64_t[::1] player, Py_ssize_t i, int parts, const int64_t[::1] pending
) except -1:
    """Env ``i``'s decision: the observation, the mask, the env's own copy of the mask
    (``legal``, which ``first_illegal`` reads: the returned mask is the caller's to change)
    and the acting seat. With split actions (``parts``, ``core.parts``) the decision is a
    part: after the observation, the first part chosen (``pending[i]``, one-hot)."""
    cdef short moves[LEGAL_BUFFER]
    cdef int count, k
    cdef int seat = state.head.current
    cdef int size = state.engine.size
    state.engine.write(state, seat, &obs[i, 0])
    memset(&legal[i, 0], 0, legal.shape[1])
    if parts:
        memset(&obs[i, size], 0, (obs.shape[1] - size) * sizeof(float))
        if pending[i] >= 0:
            obs[i, size + pending[i]] = 1.0
        count = state.parts_into(parts, pending[i], moves)
    else:
        count = state.legal_into(moves)
    for k in range(count):
        legal[i, moves[k]] = 1
    memcpy(&mask[i, 0], &legal[i, 0], legal.shape[1])
    player[i] = seat
    return 0


def write_decisions(
    list states, float[:, ::1] obs, uint8_t[:, ::1] mask, uint8_t[:, ::1] legal,
    int64_t[::1] player, int parts, const int64_t[::1] pending
):
    """Every env's acting seat, its observation and its legal moves (after a reset)."""
    cdef Py_ssize_t i
    for i in range(len(states)):
        write_row(<CompiledState>states[i], obs, mask, legal, player, i, parts, pending)


def first_illegal(const uint8_t[:, ::1] legal, const int64_t[::1] ids, const int64_t[::1] actions):
    """The first position ``k`` whose action is not legal in env ``ids[k]`` (by the env's
    copy of its mask, written with its decision: a look-up, not the rules again), or -1."""
    cdef Py_ssize_t k
    cdef int64_t action
    for k in range(ids.shape[0]):
        action = actions[k]
        if not (0 <= action < legal.shape[1] and legal[ids[k], action]):
            return k
    return -1


def step(
    list states,
    const int64_t[::1] ids,
    const int64_t[::1] actions,
    float[:, ::1] obs,
    uint8_t[:, ::1] mask,
    uint8_t[:, ::1] legal,
    int64_t[::1] player,
    int64_t[::1] lengths,
    float[:, ::1] rewards,
    uint8_t[::1] terminated,
    uint8_t[::1] truncated,
    int64_t[:, ::1] places,
    int64_t[::1] episode_lengths,
    int64_t[::1] games,
    object seed,
    bint deal_in_c,
    deal,
    int parts,
    int64_t[::1] pending,
):
    """Apply ``actions[k]`` in env ``ids[k]`` (all checked legal by ``first_illegal``) and
    count it (with split actions, ``parts``: a first part waits in ``pending[i]`` for its
    second, and the pair is applied); for a finished game write its result (``VectorEnv._finish``'s) and deal env
    ``i``'s next one, game ``games[i]``, seeded ``game_seed(seed, i, games[i])``: by the
    core's ``deal_next`` when ``deal_in_c`` (the game deals as ``Game.new_state``), after
    every env has moved, else, or where the core has none, at once by ``deal(i, k)``; then
    write those envs' next decisions."""
    cdef Py_ssize_t k, i, decks = 0
    cdef int action
    cdef CompiledState state
    cdef list ended = []  # envs whose next game the core deals, in order
    cdef list ahead = []  # the seeds of the next decks of games that dealt one in this step
    for k in range(ids.shape[0]):
        i = ids[k]
        state = <CompiledState>states[i]
        action = <int>actions[k]
        lengths[i] += 1
        if parts:
            if pending[i] < 0:
                pending[i] = action
                write_row(state, obs, mask, legal, player, i, parts, pending)
                continue
            action += <int>pending[i] * parts
            pending[i] = -1
        if deal_in_c:
            decks = len(state.deck)
        state.apply_legal(action)
        if deal_in_c and len(state.deck) != decks and state.deals_again():
            ahead.append(next_deck_seed(state))
        if state.head.is_terminal:
            record(state, i, lengths, rewards, terminated, truncated, places, episode_lengths)
            games[i] += 1
            lengths[i] = 0
            if deal_in_c and state.deal_size():
                ended.append(i)
                continue
            states[i] = state = <CompiledState?>deal(i, games[i])
        write_row(state, obs, mask, legal, player, i, parts, pending)
    if ended:
        deal_ended(states, ended, games, seed, deal, obs, mask, legal, player, ahead, parts, pending)
    if ahead:
        shuffle_ahead(state.deal_size(), ahead)


cdef str next_deck_seed(CompiledState state):
    """The seed ``hand_deck`` shuffles ``state``'s next deck from (a core with ``deal_size``)."""
    return later_seed(state.seed, len(state.deck) // state.deal_size())


cdef int deal_ended(
    list states,
    list ended,
    int64_t[::1] games,
    object seed,
    deal,
    float[:, ::1] obs,
    uint8_t[:, ::1] mask,
    uint8_t[:, ::1] legal,
    int64_t[::1] player,
    list ahead,
    int parts,
    const int64_t[::1] pending,
) except -1:
    """The next games of the envs ``ended`` (their finished states still in ``states``) by
    the core's ``deal_next``, their first decks shuffled at once, and their first decisions;
    the seeds of the second decks of those that may deal one go to ``ahead``."""
    cdef CompiledState fresh, state = <CompiledState>states[ended[0]]
    cdef int size = state.deal_size()
    cdef Py_ssize_t e, i, count = len(ended)
    cdef int* order
    seeds = [game_seed(seed, i, games[i]) for i in ended]
    buffer = bytearray(count * size * sizeof(int))
    order = <int*><char*>buffer
    shuffle_many(size, seeds, order)
    for e in range(count):
        i = ended[e]
        state = <CompiledState>states[i]
        fresh = state.deal_next(seeds[e], int_list(order + e * size, size))
        if fresh is None or fresh.head.is_terminal:  # the Python deal (and its error)
            fresh = <CompiledState?>deal(i, games[i])
        states[i] = fresh
        if fresh.deals_again():
            ahead.append(next_deck_seed(fresh))
        write_row(fresh, obs, mask, legal, player, i, parts, pending)
    return 0


cdef int record(
    CompiledState state,
    Py_ssize_t i,
    int64_t[::1] lengths,
    float[:, ::1] rewards,
    uint8_t[::1] terminated,
    uint8_t[::1] truncated,
    int64_t[:, ::1] places,
    int64_t[::1] episode_lengths,
) except -1:
    """Env ``i``'s finished game into this step's results, as ``VectorEnv._finish``: its
    length, and ``truncated`` or ``terminated`` with ``returns()`` and the outcome's places
    (``result_into``; the row holds one entry per seat, as the state's table)."""
    episode_lengths[i] = lengths[i]
    if state.head.truncated:
        truncated[i] = 1
        return 0
    terminated[i] = 1
    state.result_into(&rewards[i, 0], &places[i, 0])
    return 0


def next_deal(CompiledState state, seed):
    """``state``'s core's ``deal_next(seed, ...)`` (its first deck shuffled here), or None where
    the core has none: for the tests against ``Game.new_state(seed=seed)``."""
    cdef int size = state.deal_size()
    cdef int* order
    if not size:
        return None
    buffer = bytearray(size * sizeof(int))
    order = <int*><char*>buffer
    shuffle_many(size, [seed], order)
    return state.deal_next(seed, int_list(order, size))


def result(CompiledState state):
    """``result_into`` of a finished, not truncated ``state``: its returns (float32, as
    floats) and places, for the tests against ``returns()`` and ``outcome().places``."""
    cdef float returns[16]
    cdef int64_t places[16]
    cdef int p, n = state.engine.players
    if not state.head.is_terminal or state.head.truncated or not 0 < n <= 16:
        raise ValueError("result needs a finished game with a result (of at most 16 seats)")
    state.result_into(returns, places)
    return [returns[p] for p in range(n)], [places[p] for p in range(n)]
