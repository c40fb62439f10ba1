# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The suite's shuffle, compiled: ``core.game.shuffled`` when this module is built.

``shuffled(size, seed)`` is ``range(size)`` shuffled by ``random.Random(seed).shuffle``, the
same list bit for bit, for every seed. ``Random.shuffle`` draws ``getrandbits(k)``, ``k`` the
bit length of ``i + 1``, until the draw is below ``i + 1``, for ``i`` from ``size - 1`` down
to 1; this module makes the same draws from a C copy of CPython's Mersenne Twister, seeded as
``Random`` seeds it: an int by ``init_by_array`` over the 32-bit words of ``abs(seed)``, a
``str`` / ``bytes`` / ``bytearray`` (the later hands' ``f"{seed}/{hand}"``) by the int
``Random.seed`` makes of it (its bytes and their SHA-512, big-endian). Any other seed, and
ints or strings too long for the C key, draw from ``random.Random(seed)`` itself. The import
checks both seedings against ``random.Random`` and leaves out any that disagrees (a future
CPython seeding differently), so the result is always ``Random``'s.
``tests/games/red7/test_red7_compiled.py`` and ``tests/games/koira/test_koira_compiled.py`` compare many seeds.

C interface (``_shuffle.pxd``): ``shuffle_into(size, seed, int* out)`` writes the order into a
C array, for compiled game cores that deal without a Python list.
"""

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy

from koira_env.core._lists cimport int_list

from hashlib import sha512
from random import Random

cdef extern from *:
    """
    /* MT19937 as CPython's _random module runs it: init_by_array seeding, 32-bit draws. The
       state is twisted one word at a time as draws need it (in the same order as the whole
       twist, so the same words), and init_genrand(19650218), the first step of every
       init_by_array, is a table computed once: a shuffle of 52 cards needs ~60 draws, not 624. */
    typedef struct { uint32_t mt[624]; int index; } koira_mt;

    static uint32_t koira_mt_base[624];

    static void koira_mt_init(void) {
        int k;
        koira_mt_base[0] = 19650218U;
        for (k = 1; k < 624; k++)
            koira_mt_base[k] = 1812433253U * (koira_mt_base[k - 1] ^ (koira_mt_base[k - 1] >> 30))
                               + (uint32_t)k;
    }

    static void koira_mt_seed(koira_mt* g, const uint32_t* key, int length) {
        uint32_t* mt = g->mt;
        int i = 1, j = 0, k;
        memcpy(mt, koira_mt_base, sizeof(koira_mt_base));
        for (k = 624 > length ? 624 : length; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
            i++; j++;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
            if (j >= length) j = 0;
        }
        for (k = 623; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
            i++;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
        }
        mt[0] = 0x80000000U;
        g->index = 0;
    }

    static uint32_t koira_mt_next(koira_mt* g) {
        uint32_t* mt = g->mt;
        int k = g->index;
        uint32_t y = (mt[k] & 0x80000000U) | (mt[k == 623 ? 0 : k + 1] & 0x7fffffffU);
        /* the twist of word k: words k + 1 and k + 397 are still the old ones when k < 227,
           word k - 227 the new one after, as in the whole twist */
        mt[k] = mt[k < 227 ? k + 397 : k - 227] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        g->index = k == 623 ? 0 : k + 1;
        y = mt[k];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }
    """
    ctypedef struct koira_mt:
        pass
    void koira_mt_init() noexcept nogil
    void koira_mt_seed(koira_mt* generator, const uint32_t* key, int length) noexcept nogil
    uint32_t koira_mt_next(koira_mt* generator) noexcept nogil

cdef enum:
    # seeds of up to 2,048 bits seed the C generator (a string seed is its bytes plus 512
    # bits of SHA-512); larger ones draw from random.Random
    MAX_KEY_WORDS = 64

koira_mt_init()

cdef bint INT_SEEDS = True  # cleared by _self_check if CPython seeds ints differently
cdef bint TEXT_SEEDS = True  # the same for str / bytes / bytearray seeds


cdef object seed_number(object seed):
    """The non-negative int ``Random(seed)`` feeds ``init_by_array``, or None: not known."""
    if isinstance(seed, int):
        return abs(seed) if INT_SEEDS else None
    if isinstance(seed, (str, bytes, bytearray)) and TEXT_SEEDS:
        data = seed.encode() if isinstance(seed, str) else bytes(seed)
        return int.from_bytes(data + sha512(data).digest(), "big")
    return None


cdef int shuffle_into(int size, object seed, int* out) except -1:
    """``shuffled(size, seed)`` into ``out`` (``size`` ints)."""
    cdef koira_mt generator
    cdef uint32_t key[MAX_KEY_WORDS]
    cdef int i, k, bound, words, tmp
    cdef int j = 0
    cdef bytes data
    cdef const unsigned char* raw
    cdef uint64_t small
    getrandbits = None
    if type(seed) is int and 0 <= seed < 2**64 and INT_SEEDS:  # the usual seed: no bytes
        small = seed
        key[0] = <uint32_t>small
        key[1] = <uint32_t>(small >> 32)
        koira_mt_seed(&generator, key, 2 if key[1] else 1)
        number = None
    else:
        number = seed_number(seed)
        if number is None or number.bit_length() > 32 * MAX_KEY_WORDS:
            getrandbits = Random(seed).getrandbits
    if number is not None and getrandbits is None:
        words = max(1, (number.bit_length() + 31) // 32)
        data = number.to_bytes(4 * words, "little")
        raw = data
        for i in range(words):
            key[i] = (
                <uint32_t>raw[4 * i]
                | (<uint32_t>raw[4 * i + 1] << 8)
                | (<uint32_t>raw[4 * i + 2] << 16)
                | (<uint32_t>raw[4 * i + 3] << 24)
            )
        koira_mt_seed(&generator, key, words)
    for i in range(size):
        out[i] = i
    for i in range(size - 1, 0, -1):
        bound = i + 1
        k = 0
        while bound >> k:
            k += 1
        while True:
            if getrandbits is None:
                j = koira_mt_next(&generator) >> (32 - k)
            else:
                j = getrandbits(k)
            if j < bound:
                break
        tmp = out[i]
        out[i] = out[j]
        out[j] = tmp
    return 0


def shuffled(int size, seed):
    """``range(size)`` shuffled by ``random.Random(seed)`` (``core.game.shuffled``), compiled."""
    cdef int stack[64]
    cdef int* order = stack
    if size < 0:
        raise ValueError(f"size must be >= 0, got {size}")
    if size > 64:
        buffer = bytearray(size * sizeof(int))
        order = <int*><char*>buffer
    shuffle_into(size, seed, order)
    return int_list(order, size)


def _reference(size, seed):
    order = list(range(size))
    Random(seed).shuffle(order)
    return order


def _self_check():
    """Turn off a C seeding that does not give ``Random``'s decks (then Random is used)."""
    global INT_SEEDS, TEXT_SEEDS
    for seed in (0, 7, -3, 2**40 + 1, 2**300 + 5):
        if shuffled(52, seed) != _reference(52, seed):
            INT_SEEDS = False
    for seed in ("7/1", "x", b"seed", bytearray(b"12/3")):
        if shuffled(49, seed) != _reference(49, seed):
            TEXT_SEEDS = False


_self_check()
