# The C-level interface of the suite's compiled shuffle (_shuffle.pyx has the documentation).
# Compiled game cores `cimport` it to deal without building a Python list first:
#
#     from koira_env.core._shuffle cimport shuffle_into
#
#     cdef int order[52]
#     shuffle_into(52, seed, order)   # core.game.shuffled(52, seed), into a C array

cdef int shuffle_into(int size, object seed, int* out) except -1
