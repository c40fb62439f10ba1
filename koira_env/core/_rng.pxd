# The random stream of the compiled searches (splitmix64) and the Fisher-Yates shuffle on it:
# one definition, so that every game's search draws the same numbers from the same seed.
# `cimport` what a module uses:
#
#     from koira_env.core._rng cimport Rng, below, next_u64, shuffle
#
#     cdef Rng rng
#     rng.s = seed                                # every seed is fine
#     shuffle(cards, count, &rng)                 # uint8_t or int items, in place

from libc.stdint cimport uint8_t, uint64_t


cdef struct Rng:
    uint64_t s  # splitmix64: one word of state, every seed is fine


ctypedef fused item:
    uint8_t
    int


cdef inline uint64_t next_u64(Rng* r) noexcept nogil:
    cdef uint64_t z
    r.s += <uint64_t>0x9E3779B97F4A7C15
    z = r.s
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int below(Rng* r, int n) noexcept nogil:
    """Uniform in 0 .. n - 1 (for the n < 2**12 used here the bias of a 64-bit modulus is
    below 2**-52)."""
    return <int>(next_u64(r) % <uint64_t>n)


cdef inline void shuffle(item* a, int count, Rng* r) noexcept nogil:
    """Fisher-Yates in place, from the last place down: ``count - 1`` draws."""
    cdef int i, j
    cdef item tmp
    for i in range(count - 1, 0, -1):
        j = below(r, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
