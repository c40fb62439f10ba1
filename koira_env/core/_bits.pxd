# Bit tricks on 64-bit card masks for the compiled game cores (a card set is a uint64 with bit
# c for card c). One definition for every core; `cimport` what a module uses:
#
#     from koira_env.core._bits cimport popcount, lowest, highest, cards_of, sparse_popcount

from libc.stdint cimport uint8_t, uint64_t

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int suite_popcount(unsigned long long x) { return (int)__popcnt64(x); }
    static inline int suite_lowest(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    static inline int suite_highest(unsigned long long x) {
        unsigned long i; _BitScanReverse64(&i, x); return (int)i;
    }
    #else
    static inline int suite_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int suite_lowest(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int suite_highest(unsigned long long x) { return 63 - __builtin_clzll(x); }
    #endif
    """
    int popcount "suite_popcount"(uint64_t mask) noexcept nogil
    int lowest "suite_lowest"(uint64_t mask) noexcept nogil  # mask must not be 0
    int highest "suite_highest"(uint64_t mask) noexcept nogil  # mask must not be 0


ctypedef fused card_list:  # a list of card ids: bytes, or a core's actions (``legal_into``)
    uint8_t
    short


cdef inline int cards_of(uint64_t mask, card_list* out) noexcept nogil:
    """The cards of ``mask`` into ``out``, lowest first; returns how many."""
    cdef int count = 0
    while mask:
        out[count] = lowest(mask)
        count += 1
        mask &= mask - 1
    return count


cdef inline int sparse_popcount(uint64_t mask) noexcept nogil:
    """The bits of a mask that has few (a hand, a suit, the unseen cards of a short deck): one
    turn of Kernighan's loop a bit. ``popcount`` is ``__builtin_popcountll``, which compiles
    to a call into libgcc where the compiler may not assume the popcnt instruction (the
    default on x86-64); on the trick solvers' masks this loop inlines and costs fewer
    instructions (benchmarks/instructions_solvers.py)."""
    cdef int count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count
