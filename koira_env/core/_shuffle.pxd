# The C-level interface of the suite's compiled shuffle (_shuffle.pyx has the documentation).
# Compiled game cores `cimport` it to deal without building a Python list first:
#
#     from koira_env.core._shuffle cimport shuffle_into
#
#     cdef int order[52]
#     shuffle_into(52, seed, order)   # core.game.shuffled(52, seed), into a C array
#     hand_deck_into(state.deck, state.seed, hand, 52, order)  # core.deck.hand_deck, likewise
#     shuffle_many(52, seeds, orders)  # shuffle_into of each seed, to orders + 52 * s

cdef int shuffle_into(int size, object seed, int* out) except -1
cdef int hand_deck_into(object deck, object seed, int hand, int size, int* out) except -1
cdef int shuffle_many(int size, list seeds, int* out) except -1  # one order per seed, faster
