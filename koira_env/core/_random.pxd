# The compiled solvers' random stream, defined once for every core that deals its own cards:
#
#     from koira_env.core._random cimport splitmix64, shuffle

from libc.stdint cimport uint64_t


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """The next draw of splitmix64: one word of state, every seed is fine."""
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline void shuffle(int* items, int count, uint64_t* state) noexcept nogil:
    """Fisher-Yates over ``items[:count]``, drawing from ``state``."""
    cdef int i, j, t
    for i in range(count - 1, 0, -1):
        j = <int>(splitmix64(state) % <uint64_t>(i + 1))
        t = items[i]
        items[i] = items[j]
        items[j] = t
