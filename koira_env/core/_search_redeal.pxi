# The deals of a compiled search where the public play constrains ``determinize``'s deal
# (voids, a public call, a shown card: Kop, Teka, Dois, Mätäpesä; core/_search.pxi says
# where this file goes). The game's _search.pyx cimports its core's
#
#     cdef int deal_hidden(State state, State copy, int seat, rng) except -1
#
# (``determinize``'s deal of ``state`` into its clone ``copy``, drawing from the
# ``random.Random`` ``rng``) before including this file. Every deal is that deal, made as
# ``determinize`` makes it (a fresh seed for the hands to come, then the deal) from one
# generator seeded with the search: the reference's distribution, in C, without a new State
# each time.

from libc.stdint cimport uint64_t

from random import Random

from koira_env.core._rng cimport Rng
from koira_env.core._tree cimport Search


cdef class Deals(Search):
    """The working state and its deals: ``determinize``'s constrained deal."""

    cdef State s  # the working state: a deal, then the moves of one iteration
    cdef Data root
    cdef State state  # the state searched from (its deal reads it)
    cdef object draws  # the random.Random the deals draw from, seeded with the search

    cdef int start(self, State state) except -1:
        self.state = state
        self.draws = Random()
        self.s.deck = []  # as determinize's copy: the hands to come from its fresh seed
        return 0

    cdef int begin(self, uint64_t seed) except -1:
        Search.begin(self, seed)
        self.draws.seed(seed)
        return 0

    cdef int deal(self, Rng* rng) except -1:
        self.s.d = self.root
        self.s.seed = self.draws.getrandbits(63)
        return deal_hidden(self.state, self.s, self.seat, self.draws)


def dealt(State state, int seat, uint64_t seed):
    """The search's deal from ``seat``'s view of ``state`` when the deal's generator is
    ``random.Random(seed)`` (for tests: ``state.determinize(seat, random.Random(seed))``
    makes the same state)."""
    cdef GameSearch search = GameSearch(state, seat)
    search.begin(seed)
    search.deal(&search.rng)
    search.s.history = []
    return search.s
