# The C-level interface of the suite's compiled shuffle (_shuffle.pyx has the documentation).
# Compiled game cores `cimport` it to deal without building a Python list first:
#
#     from koira_env.core._shuffle cimport shuffle_into
#
#     cdef int order[52]
#     shuffle_into(52, seed, order)   # core.game.shuffled(52, seed), into a C array
#     hand_deck_into(state.deck, state.seed, hand, 52, order)  # core.deck.hand_deck, likewise
#     shuffle_many(52, seeds, orders)  # shuffle_into of each seed, to orders + 52 * s
#     shuffle_ahead(52, seeds)  # shuffle_many now, for shuffle_into calls of these seeds to come
#
# and to go on drawing from a `random.Random` the caller passed, in C, as the Random would:
#
#     cdef RandomState g
#     if random_in_c(rng):
#         rest = random_load(rng, &g)
#         random_shuffle(&g, items, count)      # rng.shuffle of a list of count ints
#         j = random_below(&g, n)               # rng._randbelow(n), n >= 1
#         w = random_word(&g)                   # rng.getrandbits(32)
#         random_save(rng, &g, rest)            # rng goes on from there

from libc.stdint cimport uint32_t, uint64_t

cdef int shuffle_into(int size, object seed, int* out) except -1
cdef int hand_deck_into(object deck, object seed, int hand, int size, int* out) except -1
cdef int shuffle_many(int size, list seeds, int* out) except -1  # one order per seed, faster
cdef int shuffle_ahead(int size, list seeds) except -1  # shuffle_into of these seeds to come
cdef str later_seed(object seed, Py_ssize_t hand)  # the seed of a game's deck ``hand`` > 0


cdef class SearchSeed:  # the later decks of a search's working state, from splitmix64
    cdef readonly uint64_t value
    cdef void order_into(self, int hand, int size, int* out) noexcept


cdef struct RandomState:  # a random.Random's Mersenne Twister as its getstate() holds it
    uint32_t* mt  # the Random's own words in place, or own_mt
    int* index
    uint32_t own_mt[624]  # a copy, where the Random cannot be read in place
    int own_index

cdef bint random_in_c(object rng) noexcept
cdef object random_load(object rng, RandomState* g)
cdef int random_save(object rng, RandomState* g, object rest) except -1
cdef uint32_t random_word(RandomState* g) noexcept
cdef int random_below(RandomState* g, int n) noexcept
cdef void random_shuffle(RandomState* g, int* items, int count) noexcept
