# SO-ISMCTS and flat Monte Carlo for the compiled game cores (_tree.pyx has the documentation):
# the tree, the deals of the hidden cards and the loops, written once. A game's _search.pyx
# subclasses `Search` and fills in its own parts (its hidden cards, how a deal is placed, its
# legal moves, its rollout policy and returns; core/_hidden.pxd holds the hidden cards):
#
#     from koira_env.core._tree cimport Search

from libc.stdint cimport uint8_t, uint64_t

from koira_env.core._hidden cimport Hidden
from koira_env.core._rng cimport Rng

cdef enum:
    MAX_SEATS = 8


cdef struct Node:
    int player  # the seat whose move led here
    int visits
    int avail
    double total
    int first_child
    int next_sibling
    short action


cdef class Search:
    cdef Rng rng
    cdef Hidden hidden  # the subclass fills it (its game's `find_hidden`) when it is made
    cdef int seat
    cdef int num_actions  # action ids are 0 .. num_actions - 1
    cdef int max_legal  # legal moves at the most
    cdef bint random_rollout

    # the game's part
    cdef void place(self, const uint8_t* shuffled) noexcept
    cdef int legal(self, short* out, int* mover) noexcept
    cdef int play(self, int action) except -1
    cdef void finish(self, Rng* rng, double* returns) noexcept

    # the mechanism
    cdef int begin(self, uint64_t seed) except -1
    cdef int deal(self, Rng* rng) except -1
    cdef int deal_as(self, shuffled) except -1
    cdef dict visits(self, int iterations, double exploration, uint64_t seed, max_seconds)
    cdef list values(self, int playouts, uint64_t seed)
