# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Mätäpesä core: Mätäpesä's parts of the SO-ISMCTS loop of
``agents/ismcts.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``shed`` as the rollout policy.

``agents/ismcts.py`` is the readable reference and calls ``search`` here for a compiled
Mätäpesä state (``bots.SEARCH``); the results differ from its loop only in the random streams.
Every deal is ``State.determinize``'s (core/_search_redeal.pxi): the other hands re-dealt
within what the play showed (each seat's ranks within its bounds). Rollouts play ``shed`` in
every seat (``bots.shed_rollout``: the highest legal rank) or uniformly random legal ranks.
Returns are the engine's (``State.result_into``). Flat Monte Carlo is the rank-count core's
(``_ranks.pyx``, ``GameSpec.flat``), whose playouts mix ``shed`` and ``keeper``; this module's
``action_values`` plays the same loop on the full core, with ``shed`` alone.

``rollout_action``, ``dealt`` and ``search_returns`` expose the pieces so that tests can compare
them with ``bots.shed_rollout``, ``State.determinize`` and ``State.returns``; the search class
and ``search`` / ``action_values`` are core/_search.pxi's.
"""

from koira_env.games.matapesa._compiled cimport (
    MAX_LEGAL,
    Data,
    State,
    deal_hidden,
)


# ============================================================================ rollout policy
cdef inline int shed(const short* legal, int count) noexcept:
    """bots.shed_rollout: the highest legal rank."""
    return legal[count - 1]


# ============================================================================ returns
cdef inline void returns_into(State s, double* out) noexcept:
    result_returns(s, out)


cdef Py_ssize_t dealt_cards(const Data* d) noexcept:
    """A game is one deal, dealt: no hand to come needs a deck."""
    return 0


cdef int refuse(State state) except -1:
    """Every state of a game in progress can be searched."""
    return 0


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return shed(legal, count)


include "../../core/_search_redeal.pxi"
include "../../core/_search.pxi"
