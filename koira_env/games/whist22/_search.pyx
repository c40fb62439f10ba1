# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Whist 22 core: Whist 22's parts of the loops of ``agents/ismcts.py``
and ``agents/flat.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``greedy`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Whist 22 state (``bots.SEARCH``,
``bots.FLAT``); the results differ from theirs only in the random streams. A deal is the
reference's distribution: the other hands and the cards set aside shuffled uniformly into
the same places (``_compiled``'s ``find_hidden`` and ``place_hidden``, as
``engine.State.determinize`` deals), and, as ``determinize`` gives the copy a fresh seed,
the hands still to come are dealt from a fresh seed each deal (``reseed``: the decks dealt
so far are kept), so that no rollout sees the decks the game will really deal. Rollouts play
``greedy`` in every seat (``bots.greedy_rollout``) or uniformly random legal moves. Returns
are the engine's (``returns_from_places`` of the places by final score).

``rollout_action``, ``hidden_cards``, ``determinized`` and ``search_returns`` expose the pieces
so that tests can compare them with ``bots.greedy_rollout``, ``engine.State.determinize`` and
``State.returns``; the search class and ``search`` / ``action_values`` are core/_search.pxi's.
"""

from libc.stdint cimport int64_t, uint32_t

from koira_env.core._bits cimport highest, lowest, popcount
from koira_env.core._engine cimport places_of_scores, returns_of_places
from koira_env.core._rng cimport Rng, next_u64
from koira_env.core._shuffle cimport SearchSeed
from koira_env.games.whist22._compiled cimport (
    BID,
    BIDDING,
    FOOL,
    FOOL_HIGH,
    MAX_LEGAL,
    MAX_PLAYERS,
    NUM_CARDS,
    OVER,
    Data,
    State,
    find_hidden,
    place_hidden,
)

from koira_env.games.whist22 import bots

cdef int GREEDY_HIGH = bots.GREEDY_HIGH


# ============================================================================ rollout policy
cdef int greedy(State s) noexcept:
    """bots.greedy_rollout: bid a trick per card of ``GREEDY_HIGH`` or more and the Fool (one
    more, or one fewer, where the hook rule forbids it); play the highest card (the Fool as
    22) while tricks are needed, else the lowest (the Fool as 0)."""
    cdef Data* d = &s.d
    cdef int p = d.h.current
    cdef uint32_t hand = d.hand[p]
    cdef int bid, forbidden
    if d.phase == BIDDING:
        bid = popcount(hand >> GREEDY_HIGH) + (hand & 1)
        forbidden = s._forbidden_bid()
        if bid == forbidden:
            bid = bid + 1 if bid < popcount(hand) else bid - 1
        return BID + bid
    if d.won[p] < d.bids[p]:
        return FOOL_HIGH if hand >> FOOL & 1 else highest(hand)
    return lowest(hand)


# ============================================================================ returns
cdef void returns_into(State s, double* out) noexcept:
    """engine.State.returns: ``returns_from_places`` of the places by final score (equal
    scores share a place), rounded to float32 as the vector env's (core/_engine's
    ``returns_of_places``: within 1e-7 of the engine's); zeros before the end and when
    truncated."""
    cdef Data* d = &s.d
    cdef int n = s.opt.n
    cdef double scores[MAX_PLAYERS]
    cdef int64_t places[MAX_PLAYERS]
    cdef float returns[MAX_PLAYERS]
    cdef int p
    for p in range(n):
        out[p] = 0.0
    if d.phase != OVER or d.h.truncated:
        return
    for p in range(n):
        scores[p] = d.scores[p]
    places_of_scores(n, scores, places)
    returns_of_places(n, places, returns)
    for p in range(n):
        out[p] = returns[p]


cdef int refuse(State state) except -1:
    """Every Whist 22 state can be searched."""
    return 0


cdef void reseed(State s, Rng* rng) noexcept:
    """After a deal: the decks after this hand's dropped and a fresh seed for the hands to
    come, as ``determinize``'s copy gets one (a ``SearchSeed``: as random, and no Mersenne
    Twister seeded a deck)."""
    cdef Py_ssize_t dealt = (s.d.hand_no + 1) * NUM_CARDS
    if len(s.deck) > dealt:
        del s.deck[dealt:]
    s.seed = SearchSeed(next_u64(rng) >> 1)


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return greedy(s)


include "../../core/_search_shuffle.pxi"
include "../../core/_search.pxi"
