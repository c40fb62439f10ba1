# The deals of a compiled search where the public play constrains ``determinize``'s deal
# (voids, a public call, a shown card: Kop, Teka, Dois, Mätäpesä; core/_search.pxi says
# where this file goes). The game's _search.pyx cimports its core's
#
#     cdef int deal_hidden(State state, State copy, int seat, rng) except -1
#
# (``determinize``'s deal of ``state`` into its clone ``copy``, drawing from the
# ``random.Random`` ``rng``), defines
#
#     cdef Py_ssize_t dealt_cards(const Data* d) noexcept  # the deck entries of the decks
#                                                          # dealt so far
#
# and includes this file. Every deal is that deal, made as ``determinize`` makes it (a fresh
# seed for the hands to come, then the deal) from one generator seeded with the search: the
# reference's distribution, in C, without a new State each time. Where ``determinize``'s
# copy has no deck and a fresh int seed for the hands to come, a deal here keeps the decks
# dealt so far and drops the rest (those an earlier rollout appended, or a deck given for
# hands to come), and its seed is that int as a ``core._shuffle.SearchSeed``: the hands to
# come are as random, without a Mersenne Twister seeded for every deck of every rollout.

from libc.stdint cimport uint64_t

from random import Random

from koira_env.core._rng cimport Rng
from koira_env.core._shuffle cimport SearchSeed
from koira_env.core._tree cimport MAX_SEATS, Search


cdef class Deals(Search):
    """The working state and its deals: ``determinize``'s constrained deal."""

    cdef State s  # the working state: a deal, then the moves of one iteration
    cdef Data root
    cdef State state  # the state searched from (its deal reads it)
    cdef object draws  # the random.Random the deals draw from, seeded with the search
    cdef Py_ssize_t dealt  # the deck entries a deal keeps (``dealt_cards``)

    cdef int start(self, State state) except -1:
        self.state = state
        self.draws = Random()
        self.dealt = dealt_cards(&state.d)
        return 0

    cdef int begin(self, uint64_t seed) except -1:
        Search.begin(self, seed)
        self.draws.seed(seed)
        return 0

    cdef int deal(self, Rng* rng) except -1:
        self.s.d = self.root
        if len(self.s.deck) > self.dealt:
            del self.s.deck[self.dealt :]
        self.s.seed = SearchSeed(self.draws.getrandbits(63))
        return deal_hidden(self.state, self.s, self.seat, self.draws)


def dealt(State state, int seat, uint64_t seed, int after=0):
    """The search's deal from ``seat``'s view of ``state`` when the deal's generator is
    ``random.Random(seed)`` (for tests: ``state.determinize(seat, random.Random(seed))``
    makes the same state but its deck and its seed's kind, and both play on alike until the
    next deal); with ``after``, the deal after that many, each played out by the rollout
    policy as in a search."""
    cdef double returns[MAX_SEATS]
    cdef GameSearch search = GameSearch(state, seat)
    search.begin(seed)
    for _ in range(after):
        search.deal(&search.rng)
        search.finish(&search.rng, returns)
    search.deal(&search.rng)
    search.s.history = []
    return search.s
