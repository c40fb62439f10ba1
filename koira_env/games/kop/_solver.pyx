# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The open-card solver of ``solver.py`` in C: the same alpha-beta minimax on card points.

``solver.solve`` is the readable reference; the two give the same values (tests). Beyond the
reference, and not changing any value: moves are ordered (the richest card first), and the
value of the rest of the hand at each trick boundary is kept in a table shared by every call.
A boundary position (the four hands, who leads, the queens' side) determines the rest of the
hand, so an entry stays true forever: the table is never cleared, only overwritten (one entry
a slot, always replaced), and holds lower and upper bounds as alpha-beta proves them.

Not reentrant: the table and the working hands are the module's, and a search holds the GIL.
"""

from libc.stdint cimport uint16_t, uint64_t
from libc.stdlib cimport calloc

from .cards import POINTS as POINTS_LIST
from .cards import SUIT_OF as SUIT_OF_LIST
from .solver import BEATERS_MASK as BEATERS_MASK_LIST
from .solver import SUIT_MASK as SUIT_MASK_LIST

cdef enum:
    NUM_CARDS = 16
    PLAYERS = 4
    TRUMP = 0
    ALL_POINTS = 104
    TABLE_BITS = 18

cdef struct Entry:
    uint64_t hands
    int tag  # 1 + leader + 4 * queens; 0: empty
    int lower
    int upper

cdef Entry* TABLE = NULL
cdef int SUIT_MASK[3]
cdef int BEATERS[NUM_CARDS]
cdef int POINTS[NUM_CARDS]
cdef int SUIT_OF[NUM_CARDS]
cdef int HANDS[PLAYERS]
cdef long long NODES = 0


cdef void _setup() except *:
    global TABLE
    cdef int c
    TABLE = <Entry*>calloc(1 << TABLE_BITS, sizeof(Entry))
    if TABLE == NULL:
        raise MemoryError("the Kop solver could not allocate its table")
    for c in range(3):
        SUIT_MASK[c] = SUIT_MASK_LIST[c]
    for c in range(NUM_CARDS):
        BEATERS[c] = BEATERS_MASK_LIST[c]
        POINTS[c] = POINTS_LIST[c]
        SUIT_OF[c] = SUIT_OF_LIST[c]


_setup()


cdef inline bint beats(int card, int best) noexcept nogil:
    return (BEATERS[best] >> card) & 1


cdef inline int legal_mask(int hand, int led, int best) noexcept nogil:
    cdef int allowed, winners
    if led < 0:
        return hand
    allowed = hand & SUIT_MASK[SUIT_OF[led]]
    if allowed == 0:
        allowed = hand & SUIT_MASK[TRUMP]
        if allowed == 0:
            allowed = hand
    winners = allowed & BEATERS[best]
    return winners if winners else allowed


cdef inline int order(int mask, int* cards) noexcept nogil:
    """The cards of ``mask``, richest first (the stronger first among equal points)."""
    cdef int n = 0, c, i, j, t
    for c in range(NUM_CARDS - 1, -1, -1):
        if (mask >> c) & 1:
            cards[n] = c
            n += 1
    for i in range(1, n):  # insertion sort by points, descending (stable)
        t = cards[i]
        j = i - 1
        while j >= 0 and POINTS[cards[j]] < POINTS[t]:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = t
    return n


cdef inline uint64_t packed() noexcept nogil:
    return (<uint64_t>HANDS[0] | (<uint64_t>HANDS[1] << 16) | (<uint64_t>HANDS[2] << 32)
            | (<uint64_t>HANDS[3] << 48))


cdef inline Entry* slot(uint64_t hands, int tag) noexcept nogil:
    cdef uint64_t h = hands * <uint64_t>0x9E3779B97F4A7C15 + <uint64_t>tag * <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 29
    return &TABLE[h & ((1 << TABLE_BITS) - 1)]


cdef int search(int* trick, int n, int leader, int best, int best_seat, int queens,
                int alpha, int beta) noexcept nogil:
    global NODES
    cdef int player = (leader + n) & 3
    cdef int hand = HANDS[player]
    cdef int cards[NUM_CARDS]
    cdef int count, i, card, new_best, new_seat, won, gain, child, value, j
    cdef int alpha0, beta0
    cdef bint maximize
    cdef uint64_t key = 0
    cdef int tag = 0
    cdef Entry* e = NULL
    if hand == 0:
        return 0
    NODES += 1
    if n == 0:
        key = packed()
        tag = 1 + leader + 4 * queens
        e = slot(key, tag)
        if e.tag == tag and e.hands == key:
            if e.lower >= beta or e.lower == e.upper:
                return e.lower
            if e.upper <= alpha:
                return e.upper
            if e.lower > alpha:
                alpha = e.lower
            if e.upper < beta:
                beta = e.upper
    alpha0 = alpha  # the window searched: a value outside it is a bound
    beta0 = beta
    count = order(legal_mask(hand, trick[0] if n else -1, best), cards)
    maximize = (queens >> player) & 1
    value = -1 if maximize else ALL_POINTS + 1
    for i in range(count):
        card = cards[i]
        HANDS[player] = hand & ~(1 << card)
        if n == 0 or beats(card, best):
            new_best = card
            new_seat = player
        else:
            new_best = best
            new_seat = best_seat
        if n == PLAYERS - 1:
            won = POINTS[card]
            for j in range(n):
                won += POINTS[trick[j]]
            gain = won if (queens >> new_seat) & 1 else 0
            child = gain + search(trick + PLAYERS, 0, new_seat, -1, -1, queens,
                                  alpha - gain, beta - gain)
        else:
            trick[n] = card
            child = search(trick, n + 1, leader, new_best, new_seat, queens, alpha, beta)
        HANDS[player] = hand
        if maximize:
            if child > value:
                value = child
            if value > alpha:
                alpha = value
        else:
            if child < value:
                value = child
            if value < beta:
                beta = value
        if alpha >= beta:
            break
    if n == 0:
        if not (e.tag == tag and e.hands == key):
            e.hands = key
            e.tag = tag
            e.lower = 0
            e.upper = ALL_POINTS
        if value <= alpha0:
            if value < e.upper:
                e.upper = value
        elif value >= beta0:
            if value > e.lower:
                e.lower = value
        else:
            e.lower = value
            e.upper = value
    return value


cdef int TRICKS[PLAYERS * (PLAYERS + 1)]


def solve(hands, trick, int leader, int queens, int alpha=-1, int beta=ALL_POINTS + 1):
    """``solver.solve`` in C: the queens' side's points from the cards in play."""
    cdef int i, best = -1, best_seat = -1, n = len(trick), card
    for i in range(PLAYERS):
        HANDS[i] = hands[i]
    for i in range(n):
        card = trick[i]
        TRICKS[i] = card
        if best < 0 or beats(card, best):
            best = card
            best_seat = (leader + i) & 3
    return search(TRICKS, n, leader, best, best_seat, queens, alpha, beta)


def root_values(hands, trick, int leader, int queens):
    """``[(card, points)]`` for every legal card of the mover, lowest id first: the queens'
    side's points from the cards in play (the trick's included) if the mover plays it and
    both sides then play perfectly (``solver.move_values`` less the points already taken)."""
    cdef int i, best = -1, best_seat = -1, n = len(trick), card, player, hand, moves
    cdef int new_best, new_seat, won, value
    for i in range(PLAYERS):
        HANDS[i] = hands[i]
    for i in range(n):
        card = trick[i]
        TRICKS[i] = card
        if best < 0 or beats(card, best):
            best = card
            best_seat = (leader + i) & 3
    player = (leader + n) & 3
    hand = HANDS[player]
    moves = legal_mask(hand, TRICKS[0] if n else -1, best)
    out = []
    for card in range(NUM_CARDS):
        if not (moves >> card) & 1:
            continue
        HANDS[player] = hand & ~(1 << card)
        if n == 0 or beats(card, best):
            new_best = card
            new_seat = player
        else:
            new_best = best
            new_seat = best_seat
        if n == PLAYERS - 1:
            won = POINTS[card]
            for i in range(n):
                won += POINTS[TRICKS[i]]
            won = won if (queens >> new_seat) & 1 else 0
            value = won + search(TRICKS + PLAYERS, 0, new_seat, -1, -1, queens, -1,
                                 ALL_POINTS + 1)
        else:
            TRICKS[n] = card
            value = search(TRICKS, n + 1, leader, new_best, new_seat, queens, -1,
                           ALL_POINTS + 1)
        HANDS[player] = hand
        out.append((card, value))
    return out


def nodes():
    """Positions expanded since the module was loaded (for measurements)."""
    return NODES


cdef inline uint64_t next_random(uint64_t* s) noexcept nogil:
    """splitmix64: the sampler's random stream."""
    cdef uint64_t z
    s[0] += <uint64_t>0x9E3779B97F4A7C15
    z = s[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


def sample_deals(hands, int hidden, forbidden, int count, uint64_t seed, int max_tries=1000):
    """Up to ``count`` deals of the ``hidden`` cards (a mask) to the seats, each seat getting as
    many as ``hands[seat]`` holds now and none of ``forbidden[seat]`` (a mask): uniform among
    such deals (a uniform shuffle, rejected until valid). Returns ``[(h0, h1, h2, h3)]`` with
    the hidden cards re-dealt and the other cards kept; fewer than ``count`` when a deal took
    more than ``max_tries`` shuffles (the caller tops up with ``State.determinize``)."""
    cdef int cards[NUM_CARDS]
    cdef int room[PLAYERS]
    cdef int bans[PLAYERS]
    cdef int kept[PLAYERS]
    cdef int dealt[PLAYERS]
    cdef int n = 0, c, p, i, j, t, k, tries, ok
    cdef uint64_t state = seed
    for c in range(NUM_CARDS):
        if (hidden >> c) & 1:
            cards[n] = c
            n += 1
    for p in range(PLAYERS):
        room[p] = bin(hands[p] & hidden).count("1")
        kept[p] = hands[p] & ~hidden
        bans[p] = forbidden[p]
    out = []
    for k in range(count):
        ok = 0
        for tries in range(max_tries):
            for i in range(n - 1, 0, -1):
                j = <int>(next_random(&state) % <uint64_t>(i + 1))
                t = cards[i]
                cards[i] = cards[j]
                cards[j] = t
            ok = 1
            i = 0
            for p in range(PLAYERS):
                dealt[p] = kept[p]
                for t in range(room[p]):
                    if (bans[p] >> cards[i]) & 1:
                        ok = 0
                    dealt[p] |= 1 << cards[i]
                    i += 1
            if ok:
                break
        if not ok:
            break
        out.append((dealt[0], dealt[1], dealt[2], dealt[3]))
    return out
