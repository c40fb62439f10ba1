# The deals of a compiled search whose ``determinize`` is one shuffle of the hidden cards into
# the places they lay (Koira, Red7, Whist 22; core/_search.pxi says where this file goes). The
# game's _search.pyx cimports its core's ``find_hidden`` and ``place_hidden`` and defines
#
#     cdef void reseed(State s, Rng* rng) noexcept  # after a deal: what else a deal makes anew
#                                                   # (Whist 22: the seed of the hands to come)
#
# before including this file. The shuffle is ``Search.deal``'s (core/_tree.pyx), on the
# search's own generator.

from libc.stdint cimport uint8_t

from koira_env.core._rng cimport Rng
from koira_env.core._tree cimport Search


cdef class Deals(Search):
    """The working state and its deals: the hidden cards shuffled where they lay."""

    cdef State s  # the working state: a deal, then the moves of one iteration
    cdef Data root

    cdef int start(self, State state) except -1:
        find_hidden(&self.root, self.seat, &self.hidden)
        return 0

    cdef void place(self, const uint8_t* shuffled) noexcept:
        place_hidden(&self.s.d, &self.root, &self.hidden, shuffled, self.s.opt.n, self.seat)

    cdef int deal(self, Rng* rng) except -1:
        Search.deal(self, rng)
        reseed(self.s, rng)
        return 0


def hidden_cards(State state, int seat):
    """The cards ``seat`` cannot see, in the order engine.State.determinize shuffles them."""
    return GameSearch(state, seat).hidden_cards()


def determinized(State state, int seat, shuffled):
    """``state`` with the hidden cards (``hidden_cards``) replaced by ``shuffled``, in that
    order, as the search deals them (for tests: engine.State.determinize places the same
    shuffle the same way)."""
    cdef GameSearch search = GameSearch(state, seat)
    search.deal_as(shuffled)
    search.s.deck = search.s.deck[:0]
    search.s.history = []
    return search.s
