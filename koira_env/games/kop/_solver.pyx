# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The open-card solver of ``solver.py`` in C: the same alpha-beta minimax on card points.

``solver.solve`` is the readable reference; the two give the same values (tests). Beyond the
reference, and not changing any value: moves are ordered (the richest card first), and the
value of the rest of the hand at each trick boundary is kept in a table shared by every call.
A boundary position is keyed on the four hands, who leads and the queens' side. The search,
the table and the sampler are the trick solvers' shared ``core/_tricks.pxi`` (not reentrant:
the table and the working hands are the module's, and a search holds the GIL); this module
holds Kop's rules: who plays, what is legal, what a trick is worth.
"""

from libc.stdint cimport uint64_t

from .cards import POINTS as POINTS_LIST
from .cards import SUIT_OF as SUIT_OF_LIST
from .solver import BEATERS_MASK as BEATERS_MASK_LIST
from .solver import SUIT_MASK as SUIT_MASK_LIST

ctypedef int Hand

cdef enum:
    NUM_CARDS = 16
    PLAYERS = 4
    TRUMP = 0
    ALL_POINTS = 104
    TABLE_BITS = 18
    MAX_MOVES = NUM_CARDS
    STRIDE = PLAYERS
    LEVELS = PLAYERS + 1
    LOW = -1
    HIGH = ALL_POINTS + 1
    FLOOR = 0
    CEIL = ALL_POINTS

cdef struct Key:
    uint64_t hands
    int tag  # 1 + leader + 4 * queens; 0: empty

cdef int SUIT_MASK[3]
cdef int BEATERS[NUM_CARDS]
cdef int POINTS[NUM_CARDS]
cdef int SUIT_OF[NUM_CARDS]
cdef Hand HANDS[PLAYERS]


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


cdef inline int mover(int leader, int n) noexcept nogil:
    return (leader + n) & 3


cdef inline int trick_size() noexcept nogil:
    return PLAYERS


cdef inline int empty_value(int queens) noexcept nogil:
    return 0


cdef inline bint bounded(Hand hand, int queens, int alpha, int beta, int* value) noexcept nogil:
    return False


cdef inline void key_of(int leader, int queens, Key* key) noexcept nogil:
    key.hands = (<uint64_t>HANDS[0] | (<uint64_t>HANDS[1] << 16) | (<uint64_t>HANDS[2] << 32)
                 | (<uint64_t>HANDS[3] << 48))
    key.tag = 1 + leader + 4 * queens


cdef inline bint same_key(Key* a, Key* b) noexcept nogil:
    return a.tag == b.tag and a.hands == b.hands


cdef inline uint64_t hash_of(Key* key) noexcept nogil:
    cdef uint64_t h = (key.hands * <uint64_t>0x9E3779B97F4A7C15
                       + <uint64_t>key.tag * <uint64_t>0xBF58476D1CE4E5B9)
    return h ^ (h >> 29)


cdef inline int moves_of(int player, Hand hand, int* trick, int n, int best, int best_seat,
                         int queens, int* cards) noexcept nogil:
    """The legal cards, richest first (the stronger first among equal points)."""
    cdef int mask = legal_mask(hand, trick[0] if n else -1, best)
    cdef int count = 0, c, i, j, t
    for c in range(NUM_CARDS - 1, -1, -1):
        if (mask >> c) & 1:
            cards[count] = c
            count += 1
    for i in range(1, count):  # insertion sort by points, descending (stable)
        t = cards[i]
        j = i - 1
        while j >= 0 and POINTS[cards[j]] < POINTS[t]:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = t
    return count


cdef inline bint maximizing(int player, int queens) noexcept nogil:
    return (queens >> player) & 1


cdef inline Hand card_bit(int card) noexcept nogil:
    return 1 << card


cdef inline bint takes(int card, int best, int n) noexcept nogil:
    return n == 0 or beats(card, best)


cdef inline int gain_of(int* trick, int n, int card, int winner, int queens) noexcept nogil:
    """The trick's card points if the queens' side takes it."""
    cdef int won = POINTS[card], j
    if not (queens >> winner) & 1:
        return 0
    for j in range(n):
        won += POINTS[trick[j]]
    return won


cdef inline int state_after(int queens, int winner) noexcept nogil:
    return queens


include "../../core/_tricks.pxi"
include "../../core/_deals.pxi"


cdef void _setup() except *:
    cdef int c
    for c in range(3):
        SUIT_MASK[c] = SUIT_MASK_LIST[c]
    for c in range(NUM_CARDS):
        BEATERS[c] = BEATERS_MASK_LIST[c]
        POINTS[c] = POINTS_LIST[c]
        SUIT_OF[c] = SUIT_OF_LIST[c]


_setup()


cdef int load(hands, trick, int leader, int* best_seat) except -2:
    cdef int i
    for i in range(PLAYERS):
        HANDS[i] = hands[i]
    return load_trick(trick, leader, best_seat)


def solve(hands, trick, int leader, int queens, int alpha=LOW, int beta=HIGH):
    """``solver.solve`` in C: the queens' side's points from the cards in play."""
    cdef int best_seat, best = load(hands, trick, leader, &best_seat)
    return search(TRICKS, len(trick), leader, best, best_seat, queens, alpha, beta)


def root_values(hands, trick, int leader, int queens):
    """``[(card, points)]`` for every legal card of the mover, lowest id first: the queens'
    side's points from the cards in play (the trick's included) if the mover plays it and
    both sides then play perfectly (``solver.move_values`` less the points already taken)."""
    cdef int best_seat, best = load(hands, trick, leader, &best_seat), n = len(trick)
    cdef int player = mover(leader, n), card
    cdef Hand hand = HANDS[player]
    cdef int moves = legal_mask(hand, TRICKS[0] if n else -1, best)
    return [(card, play(TRICKS, n, leader, player, hand, best, best_seat, queens, card, LOW,
                        HIGH)) for card in range(NUM_CARDS) if (moves >> card) & 1]


def sample_deals(hands, int hidden, forbidden, int count, uint64_t seed, int max_tries=1000):
    """Up to ``count`` deals of the ``hidden`` cards (a mask) to the seats, each seat getting as
    many as ``hands[seat]`` holds now and none of ``forbidden[seat]`` (a mask): uniform among
    such deals (``rejection_deals``). Returns ``[(h0, h1, h2, h3)]``."""
    return rejection_deals(hands, hidden, forbidden, (), count, seed, max_tries)
