# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Kop core: Kop's parts of the loops of ``agents/ismcts.py`` and
``agents/flat.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``greedy_move`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Kop state (``bots.SEARCH``,
``bots.FLAT``); the results differ from theirs only in the random streams. Every deal is
``State.determinize``'s (core/_search_redeal.pxi): the other hands re-dealt within what the
play showed (voids, must-win refusals, a public caller's cards), the black queens' holder
and the sides as the deal has them, and a fresh seed for the hands to come. Rollouts play
``greedy_move`` in every seat (``bots.greedy_move``) or uniformly random legal moves.
Returns are the engine's (``State.result_into``).

``rollout_action``, ``dealt`` and ``search_returns`` expose the pieces so that tests can
compare them with ``bots.greedy_move``, ``State.determinize`` and ``State.returns``; the
search class and ``search`` / ``action_values`` are core/_search.pxi's.
"""

from libc.stdint cimport uint16_t

from koira_env.games.kop._compiled cimport (
    CALL,
    MAX_LEGAL,
    NUM_CARDS,
    PLAYERS,
    SILENT,
    Data,
    State,
    deal_hidden,
)

from koira_env.games.kop import cards


# ============================================================================ rollout policy
cdef int CHEAP[NUM_CARDS]  # bots._cheapest's key (points, strength, card) as one int
cdef int RICH[NUM_CARDS]  # bots._richest's key (most points, then weakest, lowest id) likewise
cdef uint16_t BEATERS[NUM_CARDS]  # the cards that take a trick won by the card (cards.beats)


cdef void _tables():
    cdef int c, b
    for c in range(NUM_CARDS):
        CHEAP[c] = (cards.POINTS[c] * 32 + cards.STRENGTH[c]) * 16 + c
        RICH[c] = ((11 - cards.POINTS[c]) * 32 + cards.STRENGTH[c]) * 16 + c
        BEATERS[c] = 0
    for b in range(NUM_CARDS):
        for c in range(NUM_CARDS):
            if cards.beats(c, b):
                BEATERS[b] |= 1 << c


_tables()


cdef inline int least(const short* legal, int count, const int* key) noexcept:
    """The legal card with the least ``key``."""
    cdef int i
    cdef int best = legal[0]
    for i in range(1, count):
        if key[legal[i]] < key[best]:
            best = legal[i]
    return best


cdef int greedy(State s, const short* legal, int count) noexcept:
    """bots.greedy_move: call a partner holding both black queens (else the one declaration
    left); last to a trick that the first legal card takes (must-win: every legal card
    takes it), the richest card; otherwise the cheapest."""
    cdef Data* d = &s.d
    cdef int i
    if count == 1:
        return legal[0]
    if legal[0] >= NUM_CARDS:
        for i in range(count):
            if legal[i] == CALL:
                return CALL
        return SILENT
    if d.trick_len == PLAYERS - 1 and BEATERS[d.best] >> legal[0] & 1:
        return least(legal, count, RICH)
    return least(legal, count, CHEAP)


# ============================================================================ returns
cdef inline void returns_into(State s, double* out) noexcept:
    result_returns(s, out)


cdef Py_ssize_t dealt_cards(const Data* d) noexcept:
    """A deck a hand: those of the hands so far."""
    return (d.hand_no + 1) * NUM_CARDS


cdef int refuse(State state) except -1:
    """Every state of a game in progress can be searched."""
    return 0


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return greedy(s, legal, count)


include "../../core/_search_redeal.pxi"
include "../../core/_search.pxi"
