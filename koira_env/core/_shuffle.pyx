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
C array, for compiled game cores that deal without a Python list; ``hand_deck_into`` is
``core.deck.hand_deck`` the same way (a hand's deck from the state's decks, shuffling and
appending the ones not dealt yet).

The compiled cores' ``determinize`` draws from a ``random.Random`` the caller passes, as the
reference engines do, and must leave it where they leave it: ``RandomState`` draws from that
generator itself (``random_shuffle``, ``random_below`` and ``random_word`` are ``shuffle``,
``_randbelow`` and ``getrandbits(32)``). It reads the generator in place where the Random's C
layout is CPython's (checked at import against ``getstate()``: a Python-level shuffle of 40
cards took longer than the whole deal around it), else through ``getstate``/``setstate``, and
only for a plain ``Random`` whose draws the import's check reproduced.
"""

from libc.stdint cimport uint32_t, uint64_t
from cpython.mem cimport PyMem_Calloc
from libc.string cimport memcpy, memset

from koira_env.core._lists cimport int_list
from koira_env.core._rng cimport Rng, shuffle

from hashlib import sha512
from random import Random

from _random import Random as _random_type

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

    /* the twist of word k: words k + 1 and k + 397 are still the old ones when k < 227, word
       k - 227 the new one after, as in the whole twist (words 0..623 in turn) */
    static inline void koira_mt_twist(uint32_t* mt, int k) {
        uint32_t y = (mt[k] & 0x80000000U) | (mt[k == 623 ? 0 : k + 1] & 0x7fffffffU);
        mt[k] = mt[k < 227 ? k + 397 : k - 227] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }

    static inline uint32_t koira_mt_temper(uint32_t y) {
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }

    static uint32_t koira_mt_next(koira_mt* g) {
        int k = g->index;
        koira_mt_twist(g->mt, k);
        g->index = k == 623 ? 0 : k + 1;
        return koira_mt_temper(g->mt[k]);
    }

    /* CPython's random.Random object (Modules/_randommodule.c): its generator in place. The
       import checks the layout against getstate() before anything reads it this way. */
    typedef struct { PyObject_HEAD int index; uint32_t state[624]; } koira_random_object;

    /* a random.Random's generator in CPython's own form (its getstate): the whole state
       twisted at once when index reaches 624 */
    static uint32_t koira_random_next(uint32_t* mt, int* index) {
        int k;
        if (*index >= 624) {
            for (k = 0; k < 624; k++) koira_mt_twist(mt, k);
            *index = 0;
        }
        return koira_mt_temper(mt[(*index)++]);
    }

    /* koira_mt_seed of KOIRA_LANES keys side by side, word k of lane l at mt[k][l]: a seeding
       is ~1,250 steps each waiting for the last, so one alone leaves the processor idle; the
       lanes' steps are independent (and the loop over them vectorizes: 32 lanes are four AVX2
       vectors in flight, which hides the multiply's latency). add[t][l] is what step t of the
       first loop adds for lane l, key[t % length] + t % length. */
    #define KOIRA_LANES 32
    typedef struct { uint32_t mt[624][KOIRA_LANES]; uint32_t add[624][KOIRA_LANES]; } koira_lanes;

    #if defined(__GNUC__) && !defined(__clang__)
    /* Python's flags build at -O2 on some systems (Debian's), where GCC vectorizes this loop
       less; and they target the x86-64 baseline, whose SSE2 has no 32-bit vector multiply, so
       an AVX2 copy is chosen at run time where the processor has it (0.45 -> 0.16 us a
       seeding, 32 lanes, timed alone) */
    __attribute__((optimize("O3")))
    #if defined(__x86_64__) && defined(__GLIBC__)  /* ifunc: glibc's loader chooses */
    __attribute__((target_clones("avx2", "default")))
    #endif
    #endif
    static void koira_mt_seed_lanes(koira_lanes* g) {
        /* each lane's last word is carried in prev, not read back from memory */
        uint32_t prev[KOIRA_LANES], x;
        int i = 1, k, l;
        for (k = 0; k < 624; k++)
            for (l = 0; l < KOIRA_LANES; l++) g->mt[k][l] = koira_mt_base[k];
        for (l = 0; l < KOIRA_LANES; l++) prev[l] = koira_mt_base[0];
        for (k = 0; k < 624; k++) {
            for (l = 0; l < KOIRA_LANES; l++) {
                x = prev[l];
                prev[l] = (g->mt[i][l] ^ ((x ^ (x >> 30)) * 1664525U)) + g->add[k][l];
                g->mt[i][l] = prev[l];
            }
            i++;
            if (i >= 624) {
                memcpy(g->mt[0], g->mt[623], sizeof(g->mt[0]));
                memcpy(prev, g->mt[0], sizeof(prev));
                i = 1;
            }
        }
        for (k = 623; k; k--) {
            for (l = 0; l < KOIRA_LANES; l++) {
                x = prev[l];
                prev[l] = (g->mt[i][l] ^ ((x ^ (x >> 30)) * 1566083941U)) - (uint32_t)i;
                g->mt[i][l] = prev[l];
            }
            i++;
            if (i >= 624) {
                memcpy(g->mt[0], g->mt[623], sizeof(g->mt[0]));
                memcpy(prev, g->mt[0], sizeof(prev));
                i = 1;
            }
        }
    }

    /* The first KOIRA_LANE_HEAD draws of every lane at once, in add[k][l] (the seeding has
       used add): twisting word k < 227 reads words k + 1 and k + 397, still the seeded ones,
       so the lanes' first twists are independent of each other and vectorize as the seeding
       does. The twisted words stay in mt, so a lane read out afterwards (koira_mt_lane) goes
       on from draw HEAD. A shuffle of 52 cards makes about 70 draws. */
    #define KOIRA_LANE_HEAD 128
    #if defined(__GNUC__) && !defined(__clang__)
    __attribute__((optimize("O3")))
    #if defined(__x86_64__) && defined(__GLIBC__)  /* ifunc: glibc's loader chooses */
    __attribute__((target_clones("avx2", "default")))
    #endif
    #endif
    static void koira_mt_lanes_head(koira_lanes* g) {
        uint32_t y;
        int k, l;
        for (l = 0; l < KOIRA_LANES; l++) g->mt[0][l] = 0x80000000U;  /* as koira_mt_seed ends */
        for (k = 0; k < KOIRA_LANE_HEAD; k++)
            for (l = 0; l < KOIRA_LANES; l++) {
                y = (g->mt[k][l] & 0x80000000U) | (g->mt[k + 1][l] & 0x7fffffffU);
                y = g->mt[k + 397][l] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
                g->mt[k][l] = y;
                g->add[k][l] = koira_mt_temper(y);
            }
    }

    /* lane l as one generator, its first HEAD draws made (koira_mt_lanes_head) */
    static void koira_mt_lane(koira_mt* out, const koira_lanes* g, int l) {
        int k;
        for (k = 0; k < 624; k++) out->mt[k] = g->mt[k][l];
        out->index = KOIRA_LANE_HEAD;
    }
    """
    ctypedef struct koira_mt:
        int index
    ctypedef struct koira_lanes:
        uint32_t add[624][32]
        uint32_t mt[624][32]
    enum: KOIRA_LANES
    enum: KOIRA_LANE_HEAD
    void koira_mt_init() noexcept nogil
    void koira_mt_seed(koira_mt* generator, const uint32_t* key, int length) noexcept nogil
    uint32_t koira_mt_next(koira_mt* generator) noexcept nogil
    uint32_t koira_random_next(uint32_t* mt, int* index) noexcept nogil
    ctypedef struct koira_random_object:
        int index
        uint32_t state[624]
    void koira_mt_seed_lanes(koira_lanes* lanes) noexcept nogil
    void koira_mt_lanes_head(koira_lanes* lanes) noexcept nogil
    void koira_mt_lane(koira_mt* out, const koira_lanes* lanes, int lane) noexcept nogil

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
        return int.from_bytes(text_bytes(seed), "big")
    return None


cdef bytes text_bytes(object seed):
    """A text seed's number as ``Random.seed`` makes it, big-endian: its bytes, then their
    SHA-512."""
    data = seed.encode() if isinstance(seed, str) else bytes(seed)
    return data + sha512(data).digest()


cdef int text_key(bytes number, uint32_t* key) noexcept:
    """The 32-bit words ``init_by_array`` takes of a big-endian number (least significant
    first, as ``seed_number(...).to_bytes(..., "little")`` gives them, without the int), or -1
    when they do not fit ``MAX_KEY_WORDS``."""
    cdef const unsigned char* raw = number
    cdef Py_ssize_t size = len(number), lead = 0, b
    cdef int words
    while lead < size and raw[lead] == 0:  # the int has no leading zero bytes
        lead += 1
    words = max(1, (size - lead + 3) // 4)
    if words > MAX_KEY_WORDS:
        return -1
    memset(key, 0, words * sizeof(uint32_t))
    for b in range(size - lead):  # byte b of the little-endian order
        key[b >> 2] |= (<uint32_t>raw[size - 1 - b]) << (8 * (b & 3))
    return words


cdef str later_seed(object seed, Py_ssize_t hand):
    """The seed of a game's deck ``hand`` > 0 (``core.game.deck_for_hand``'s
    ``f"{seed}/{hand}"``), for ``hand_deck_into`` and what shuffles its decks ahead."""
    return f"{seed}/{hand}"


cdef dict AHEAD = {}  # text seed -> its order (``size`` C ints as bytes), from shuffle_ahead
cdef enum:
    AHEAD_LIMIT = 4096  # orders kept at the most (about 1 MB at 52 cards): then all are dropped


cdef int shuffle_ahead(int size, list seeds) except -1:
    """Shuffle the text ``seeds`` now, side by side (``shuffle_many``), for the later decks
    ``hand_deck_into`` will deal from them, which take the order kept here instead of seeding
    a generator alone: the batched env shuffles the next deck of every game that dealt one in
    a step this way. A memo of a pure function: an order kept is the seed's order, and one
    dropped or never asked for costs time only."""
    cdef Py_ssize_t s, count = len(seeds)
    cdef int* order
    if len(AHEAD) + count > AHEAD_LIMIT:
        AHEAD.clear()  # games left before their next deck: their orders go
    buffer = bytearray(max(1, count * size) * sizeof(int))
    order = <int*><char*>buffer
    shuffle_many(size, seeds, order)
    for s in range(count):
        AHEAD[seeds[s]] = buffer[s * size * sizeof(int) : (s + 1) * size * sizeof(int)]
    return 0


cdef int shuffle_into(int size, object seed, int* out) except -1:
    """``shuffled(size, seed)`` into ``out`` (``size`` ints)."""
    cdef koira_mt generator
    cdef uint32_t key[MAX_KEY_WORDS]
    cdef int i, k, bound, tmp
    cdef int j = 0
    cdef int words = seed_key(seed, key)
    if words >= 0:
        koira_mt_seed(&generator, key, words)
        draw_shuffle(&generator, size, out)
        return 0
    getrandbits = Random(seed).getrandbits
    for i in range(size):
        out[i] = i
    for i in range(size - 1, 0, -1):
        bound = i + 1
        k = 0
        while bound >> k:
            k += 1
        while True:
            j = getrandbits(k)
            if j < bound:
                break
        tmp = out[i]
        out[i] = out[j]
        out[j] = tmp
    return 0


cdef void draw_shuffle(
    koira_mt* generator, int size, int* out, const koira_lanes* lanes=NULL, int lane=0
) noexcept:
    """``Random.shuffle`` of ``range(size)`` into ``out``, drawing from a seeded generator, or
    with ``lanes`` from lane ``lane``'s first draws (``koira_mt_lanes_head``) and then its
    generator, read out into ``generator`` when those run out."""
    cdef int i, j, k, bound, tmp
    cdef int made = 0
    for i in range(size):
        out[i] = i
    for i in range(size - 1, 0, -1):
        bound = i + 1
        k = 0
        while bound >> k:
            k += 1
        while True:
            if lanes == NULL:
                j = koira_mt_next(generator) >> (32 - k)
            elif made < KOIRA_LANE_HEAD:
                j = lanes.add[made][lane] >> (32 - k)
                made += 1
            else:
                koira_mt_lane(generator, lanes, lane)
                lanes = NULL
                continue
            if j < bound:
                break
        tmp = out[i]
        out[i] = out[j]
        out[j] = tmp


cdef int seed_key(object seed, uint32_t* key) except -2:
    """The words ``shuffle_into`` seeds its C generator with for ``seed`` (their count), or -1
    where it draws from ``random.Random`` instead."""
    cdef uint64_t small
    cdef int i, words
    cdef bytes data
    cdef const unsigned char* raw
    if type(seed) is int and 0 <= seed < 2**64 and INT_SEEDS:
        small = seed
        key[0] = <uint32_t>small
        key[1] = <uint32_t>(small >> 32)
        return 2 if key[1] else 1
    if TEXT_SEEDS and isinstance(seed, (str, bytes, bytearray)):
        return text_key(text_bytes(seed), key)
    number = seed_number(seed)
    if number is None or number.bit_length() > 32 * MAX_KEY_WORDS:
        return -1
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
    return words


cdef koira_lanes* SHARED_LANES = <koira_lanes*>PyMem_Calloc(1, sizeof(koira_lanes))  # 160 KB
cdef bint LANES_BUSY = False  # SHARED_LANES in use (a seed's hashing runs Python code)


cdef int shuffle_many(int size, list seeds, int* out) except -1:
    """``shuffle_into(size, seeds[s], out + s * size)`` for every seed, the same orders: the
    generators of ``KOIRA_LANES`` seeds are seeded side by side (a seeding is most of a
    shuffle's time, and one alone waits on each of its ~1,250 steps in turn)."""
    global LANES_BUSY
    cdef koira_lanes* lanes = SHARED_LANES
    cdef Py_ssize_t count = len(seeds)
    if count < 2:
        if count:
            shuffle_into(size, seeds[0], out)
        return 0
    if lanes == NULL or LANES_BUSY:
        buffer = bytearray(sizeof(koira_lanes))
        lanes = <koira_lanes*><char*>buffer
        return shuffle_lanes(size, seeds, out, lanes)
    LANES_BUSY = True
    try:
        return shuffle_lanes(size, seeds, out, lanes)
    finally:
        LANES_BUSY = False


cdef int shuffle_lanes(int size, list seeds, int* out, koira_lanes* lanes) except -1:
    """``shuffle_many`` in ``lanes``."""
    cdef koira_mt generator
    cdef uint32_t key[MAX_KEY_WORDS]
    cdef int lane_of[KOIRA_LANES]
    cdef Py_ssize_t count = len(seeds), s
    cdef int used = 0, words, t, l, j
    for s in range(count + 1):
        if s < count:
            words = seed_key(seeds[s], key)
            if words < 0:  # drawn from random.Random: alone
                shuffle_into(size, seeds[s], out + s * size)
                continue
            j = 0
            for t in range(624):  # as koira_mt_seed steps through the key (no % here: slow)
                lanes.add[t][used] = key[j] + <uint32_t>j
                j += 1
                if j == words:
                    j = 0
            lane_of[used] = s
            used += 1
        if used == KOIRA_LANES or (s == count and used):
            koira_mt_seed_lanes(lanes)  # idle lanes seed whatever they hold: no one reads them
            koira_mt_lanes_head(lanes)
            for l in range(used):
                draw_shuffle(&generator, size, out + lane_of[l] * size, lanes, l)
            used = 0
    return 0


def _shuffle_ahead(int size, seeds):
    """``shuffle_ahead`` of a list of text seeds, for the tests."""
    if size < 0:
        raise ValueError(f"size must be >= 0, got {size}")
    shuffle_ahead(size, list(seeds))


def _ahead_orders():
    """The orders ``shuffle_ahead`` keeps, by seed, as lists (for the tests)."""
    cdef int count
    result = {}
    for seed, kept in AHEAD.items():
        count = len(kept) // sizeof(int)
        result[seed] = int_list(<int*><char*><bytearray>kept, count)
    return result


def _shuffle_many(int size, seeds):
    """``shuffle_many`` as lists, for the tests against ``shuffled``."""
    cdef int* order
    if size < 0:
        raise ValueError(f"size must be >= 0, got {size}")
    seeds = list(seeds)
    buffer = bytearray(max(1, len(seeds) * size) * sizeof(int))
    order = <int*><char*>buffer
    shuffle_many(size, seeds, order)
    return [int_list(order + s * size, size) for s in range(len(seeds))]


cdef class SearchSeed:
    """The seed of the hands to come in a search's working state (core/_search_redeal.pxi,
    core/_search_shuffle.pxi): each later deck is a Fisher-Yates shuffle on splitmix64 from
    the seed's value and the deck's number, not ``random.Random``'s. A search deals those
    hands afresh in every rollout from a fresh seed, so only their distribution matters, and
    it is the same (every order equally likely) without seeding a Mersenne Twister a deck.
    ``core.game.deck_for_hand`` and ``hand_deck_into`` deal from it."""

    def __init__(self, uint64_t value):
        self.value = value

    cdef void order_into(self, int hand, int size, int* out) noexcept:
        """Deck number ``hand``: ``range(size)`` shuffled."""
        cdef Rng rng
        cdef int i
        rng.s = self.value ^ (<uint64_t>hand * <uint64_t>0xD1B54A32D192ED03)
        for i in range(size):
            out[i] = i
        shuffle(out, size, &rng)

    def deck_for_hand(self, int hand, int size):
        """Deck number ``hand`` as a list (``core.game.deck_for_hand``)."""
        cdef int stack[256]
        if not 0 < size <= 256:
            raise ValueError(f"size must be in 1..256, got {size}")
        self.order_into(hand, size, stack)
        return int_list(stack, size)

    def __repr__(self):
        return f"SearchSeed({self.value})"


cdef int hand_deck_into(object deck, object seed, int hand, int size, int* out) except -1:
    """``core.deck.hand_deck(deck, seed, hand, size)`` into ``out`` (``size`` ints): the
    decks not dealt yet up to hand ``hand`` are shuffled (``deck_for_hand``) and appended to
    ``deck``, a list of card ids, as there."""
    cdef Py_ssize_t start = <Py_ssize_t>hand * size, dealt
    cdef int i
    cdef bint fresh = False
    cdef bint search = type(seed) is SearchSeed
    while len(deck) < start + size:
        dealt = len(deck) // size
        if search:
            (<SearchSeed>seed).order_into(<int>dealt, size, out)
        elif dealt == 0:
            shuffle_into(size, seed, out)
        else:
            later = later_seed(seed, dealt)
            found = AHEAD.pop(later, None) if AHEAD else None
            if found is not None and len(found) == size * sizeof(int):
                memcpy(out, <char*><bytearray>found, size * sizeof(int))
            else:
                shuffle_into(size, later, out)
        fresh = len(deck) == start  # out holds hand ``hand``'s deck
        deck.extend(int_list(out, size))
    if not fresh:
        for i in range(size):
            out[i] = deck[start + i]
    return 0


def _hand_deck(deck, seed, int hand, int size):
    """``hand_deck_into`` as a list, for the tests against ``core.deck.hand_deck``."""
    cdef int stack[64]
    if not 0 < size <= 64:
        raise ValueError(f"size must be in 1..64, got {size}")
    hand_deck_into(deck, seed, hand, size, stack)
    return int_list(stack, size)


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


# ============================================================================ a Random's stream
cdef bint RANDOM_STATES = True  # cleared by _self_check if a Random draws otherwise
cdef bint IN_PLACE = False  # set by _self_check where Random's C layout is CPython's


cdef bint random_in_c(object rng) noexcept:
    """Whether ``rng``'s draws can be made here: a plain ``random.Random`` (a subclass may
    draw otherwise) on a CPython whose ``shuffle`` this module reproduces."""
    return RANDOM_STATES and type(rng) is Random


cdef object random_load(object rng, RandomState* g):
    """``rng``'s generator, to draw from in C: in place where CPython's layout was checked at
    import (no copy: nothing to put back), else a copy of its ``getstate()``. Returns what
    ``random_save`` needs."""
    cdef koira_random_object* raw
    cdef int k
    if IN_PLACE:
        raw = <koira_random_object*><void*>rng
        g.mt = raw.state
        g.index = &raw.index
        return None
    version, words, gauss = rng.getstate()
    for k in range(624):
        g.own_mt[k] = words[k]
    g.own_index = words[624]
    g.mt = g.own_mt
    g.index = &g.own_index
    return (version, gauss)


cdef int random_save(object rng, RandomState* g, object rest) except -1:
    """``g``, drawn from since ``random_load``, back into ``rng`` (a copy only): its next
    draws follow on."""
    cdef int k
    if rest is None:
        return 0
    version, gauss = rest
    rng.setstate((version, tuple([g.mt[k] for k in range(624)] + [g.index[0]]), gauss))
    return 0


cdef uint32_t random_word(RandomState* g) noexcept:
    """The generator's next 32-bit output (``getrandbits(32)``; ``random()`` takes two)."""
    return koira_random_next(g.mt, g.index)


cdef int random_below(RandomState* g, int n) noexcept:
    """``Random._randbelow(n)`` for ``n >= 1``: ``getrandbits(k)``, ``k`` the bit length of
    ``n``, until the draw is below ``n``."""
    cdef int k = 0, j
    while n >> k:
        k += 1
    while True:
        j = koira_random_next(g.mt, g.index) >> (32 - k)
        if j < n:
            return j


cdef void random_shuffle(RandomState* g, int* items, int count) noexcept:
    """``Random.shuffle`` of ``count`` items in place."""
    cdef int i, j, tmp
    for i in range(count - 1, 0, -1):
        j = random_below(g, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


def _random_draws(rng, list lengths, bint copy=False):
    """``random_shuffle`` of ``range(m)`` for each ``m`` of ``lengths`` in turn, drawn from
    ``rng``'s generator (a copy of its state with ``copy``, else as ``random_load`` reads
    it) and saved back, as lists (the tests against ``Random.shuffle``)."""
    global IN_PLACE
    cdef RandomState g
    cdef int stack[256]
    cdef int m, i
    cdef bint in_place = IN_PLACE
    if any(not 0 <= m <= 256 for m in lengths):
        raise ValueError(f"lengths must be in 0..256, got {lengths}")
    IN_PLACE = in_place and not copy
    try:
        rest = random_load(rng, &g)
    finally:
        IN_PLACE = in_place
    out = []
    for m in lengths:
        for i in range(m):
            stack[i] = i
        random_shuffle(&g, stack, m)
        out.append(int_list(stack, m))
    random_save(rng, &g, rest)
    return out


def _reference(size, seed):
    order = list(range(size))
    Random(seed).shuffle(order)
    return order


def _self_check():
    """Turn off a C seeding that does not give ``Random``'s decks, or C draws from a Random's
    generator that do not give its shuffles (then Random is used); read a Random's generator
    in place only where its C layout is CPython's, checked against ``getstate()``."""
    global INT_SEEDS, TEXT_SEEDS, RANDOM_STATES, IN_PLACE
    for seed in (0, 7, -3, 2**40 + 1, 2**300 + 5):
        if shuffled(52, seed) != _reference(52, seed):
            INT_SEEDS = False
    for seed in ("7/1", "x", b"seed", bytearray(b"12/3")):
        if shuffled(49, seed) != _reference(49, seed):
            TEXT_SEEDS = False
    probe = Random(12345)
    probe.getrandbits(32 * 700)  # past a twist: index and words both tell
    words = probe.getstate()[1]
    if _random_type.__basicsize__ == sizeof(koira_random_object):
        raw = <koira_random_object*><void*>probe
        IN_PLACE = raw.index == words[624] and all(raw.state[k] == words[k] for k in range(624))
    lengths = [2, 1, 5, 64, 0, 3, 7, 12, 33]
    for seed in (0, 11, 2**70):
        for copy in (True, False):
            ours, theirs = Random(seed), Random(seed)
            ours.getrandbits(32 * 590)  # the shuffles then run past a twist of the state
            theirs.getrandbits(32 * 590)
            expected = []
            for m in lengths:
                order = list(range(m))
                theirs.shuffle(order)
                expected.append(order)
            drawn = _random_draws(ours, lengths, copy)
            if drawn != expected or ours.getstate() != theirs.getstate():
                if copy:
                    RANDOM_STATES = False
                IN_PLACE = False


_self_check()
