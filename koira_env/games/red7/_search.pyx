# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Red7 core: Red7's parts of the loops of ``agents/ismcts.py`` and
``agents/flat.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``thrifty`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Red7 state (``bots.SEARCH``,
``bots.FLAT``); the results differ from theirs only in the random streams. A deal
(``_compiled``'s ``find_hidden`` and ``place_hidden``, as ``State.determinize`` deals) is the
reference's distribution: the cards the seat cannot see (other hands, folded hands of others,
the draw pile) shuffled uniformly into the same places, as ``engine.State.determinize`` does.
Rollouts play ``thrifty`` in every seat (``bots.thrifty_rollout``: the legal turn with the
smallest ``bots.spend``, the first on a tie) or uniformly random legal turns. Returns are the
engine's (``returns_from_places`` of the places). A points game (``scoring="points"``) deals
new rounds from its deck, which a deal of the hidden cards cannot know, so this module
refuses it and the reference loops run.

``rollout_action``, ``hidden_cards``, ``determinized`` and ``search_returns`` expose the pieces
so that tests can compare them with ``bots.thrifty_rollout``, ``engine.State.determinize`` and
``State.returns``; the search class and ``search`` / ``action_values`` are core/_search.pxi's.
"""


from koira_env.core._rng cimport Rng
from koira_env.games.red7._compiled cimport (
    MAX_LEGAL,
    NUM_ACTIONS,
    PASS,
    SLOTS,
    Data,
    State,
    find_hidden,
    place_hidden,
)

cdef enum:
    SPEND_SHIFT = 8  # bots.spend as one int: (cards, canvas) above, the cards' worth below


# ============================================================================ rollout policy
cdef inline int spend(int action) noexcept nogil:
    """bots.spend as one int ordered as its tuple: cards played, whether it changes the rule,
    then the cards' worth (``pass``: (3, 1, 0))."""
    cdef int palette, canvas
    if action == PASS:
        return (3 * 2 + 1) << SPEND_SHIFT
    palette = action // SLOTS - 1
    canvas = action % SLOTS - 1
    return (
        (((palette >= 0) + (canvas >= 0)) * 2 + (canvas >= 0)) << SPEND_SHIFT
    ) + palette + canvas + 2


cdef inline int thrifty(const short* legal, int count) noexcept nogil:
    """bots.thrifty_rollout: the legal turn with the smallest ``spend``, the first on a tie."""
    cdef int i, key
    cdef int best = legal[0]
    cdef int best_key = spend(best)
    for i in range(1, count):
        key = spend(legal[i])
        if key < best_key:
            best_key = key
            best = legal[i]
    return best


# ============================================================================ returns
cdef void returns_into(State s, double* out) noexcept:
    """engine.State.returns of a finished one-round game: ``returns_from_places`` of its
    places (the winner first; the others share place 2, or with ``places="elimination"``
    rank by how long they stayed in); zeros when truncated."""
    cdef Data* d = &s.d
    cdef int n = s.opt.n
    cdef int p, rank
    for p in range(n):
        out[p] = 0.0
    if not d.h.is_terminal or d.h.truncated:
        return
    if s.opt.elimination:
        out[d.winner] = 1.0
        for rank in range(d.eliminated_len):  # the last one out is second
            out[d.eliminated[d.eliminated_len - 1 - rank]] = 1.0 - 2.0 * (rank + 1) / (n - 1)
    else:
        for p in range(n):
            out[p] = 1.0 if p == d.winner else -1.0 / (n - 1)


cdef int refuse(State state) except -1:
    """The search reads one round of the game in progress."""
    if state.opt.points:
        raise ValueError("search plays one round: a points game deals rounds it cannot know")
    return 0


cdef inline void reseed(State s, Rng* rng) noexcept:
    """A deal makes nothing anew but the hidden cards."""
    pass


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return thrifty(legal, count)


include "../../core/_search_shuffle.pxi"
include "../../core/_search.pxi"
