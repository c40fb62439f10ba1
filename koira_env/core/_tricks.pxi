# The open-card trick solvers' shared machinery (Kop, Whist 22, Teka: each game's
# ``_solver.pyx`` includes this file), written once: the transposition table of bounds, the
# alpha-beta over tricks, the step that plays one card and the trick loader (Kop's and Teka's
# rejection sampler of deals is ``_deals.pxi``, included after it). Included, not cimported:
# every game's rules below are its own inline functions, so the C compiler inlines them into
# this skeleton as if it were written out in each module, and the hot loop stays free of
# calls through pointers and of Python objects.
#
# What a game defines before ``include``:
#
#   ctypedef ... Hand               a card mask (int, or uint64_t past 32 cards)
#   cdef struct Key                 what a trick boundary's table entry is keyed on
#   cdef enum: NUM_CARDS, MAX_MOVES (plays of one hand), STRIDE (a scratch trick's room),
#       LEVELS (scratch tricks), TABLE_BITS, LOW / HIGH (below / above every value: where a
#       maximizing / minimizing player starts), FLOOR / CEIL (a fresh entry's bounds)
#   cdef Hand HANDS[...]            the working hands, one mask a seat
#   and these ``cdef inline ... noexcept nogil`` rules, ``state`` being the one int the game
#   carries down the search (Kop: the queens' seats, Whist 22: the seat's need, Teka: 0):
#     int mover(int leader, int n)                  the seat to play the trick's card n
#     int trick_size()                              the cards of a full trick
#     int empty_value(int state)                    the value once every card is played
#     bint bounded(Hand hand, int state, int alpha, int beta, int* value)
#                                                   at a boundary: the value is known already
#     void key_of(int leader, int state, Key* key)  the boundary's table key
#     bint same_key(Key* a, Key* b)
#     uint64_t hash_of(Key* key)
#     int moves_of(int player, Hand hand, int* trick, int n, int best, int best_seat,
#                  int state, int* moves)           the plays worth searching, in order
#     bint maximizing(int player, int state)
#     Hand card_bit(int play)                       the card a play takes out of the hand
#     bint takes(int play, int best, int n)         the play wins the trick so far
#     int gain_of(int* trick, int n, int play, int winner, int state)
#                                                   the value a completed trick adds
#     int state_after(int state, int winner)        ``state`` for the next trick

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc

from koira_env.core._bits cimport sparse_popcount
from koira_env.core._rng cimport Rng, shuffle

cdef struct Entry:
    Key key
    int lower
    int upper

cdef Entry* TABLE = NULL
cdef long long NODES = 0
# the trick being played, then a scratch trick per level of the search
cdef int TRICKS[STRIDE * LEVELS]


cdef void* new_table(int bits, size_t entry) except NULL:
    """A zeroed table of ``2**bits`` entries (a zero entry is empty: no real key is zero)."""
    cdef void* table = calloc(<size_t>1 << bits, entry)
    if table == NULL:
        raise MemoryError(f"an open-card solver could not allocate its table ({bits} bits)")
    return table


TABLE = <Entry*>new_table(TABLE_BITS, sizeof(Entry))


cdef int search(int* trick, int n, int leader, int best, int best_seat, int state,
                int alpha, int beta) noexcept nogil:
    """The position's value under perfect play of both sides (exact inside ``(alpha, beta)``,
    else a bound on the same side). A boundary position (``n == 0``) determines the rest of
    the hand, so its table entry stays true forever: the table is never cleared, only
    overwritten (one entry a slot, always replaced), and holds the bounds alpha-beta proved."""
    global NODES
    cdef int player = mover(leader, n)
    cdef Hand hand = HANDS[player]
    cdef int moves[MAX_MOVES]
    cdef int count, i, child, value = 0, alpha0, beta0, v, new_best, new_seat, gain
    cdef bint maximize
    cdef Key key
    cdef Entry* e = NULL
    if hand == 0:
        return empty_value(state)
    NODES += 1
    if n == 0:
        if bounded(hand, state, alpha, beta, &value):
            return value
        key_of(leader, state, &key)
        e = &TABLE[hash_of(&key) & ((1 << TABLE_BITS) - 1)]
        if same_key(&e.key, &key):
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
    count = moves_of(player, hand, trick, n, best, best_seat, state, moves)
    maximize = maximizing(player, state)
    value = LOW if maximize else HIGH
    for i in range(count):
        v = moves[i]
        HANDS[player] = hand & ~card_bit(v)
        if takes(v, best, n):
            new_best = v
            new_seat = player
        else:
            new_best = best
            new_seat = best_seat
        if n == trick_size() - 1:
            gain = gain_of(trick, n, v, new_seat, state)
            child = gain + search(trick + STRIDE, 0, new_seat, -1, -1, state_after(state, new_seat),
                                  alpha - gain, beta - gain)
        else:
            trick[n] = v
            child = search(trick, n + 1, leader, new_best, new_seat, state, alpha, beta)
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
        if not same_key(&e.key, &key):  # a new position, or a deeper one took the slot
            e.key = key
            e.lower = FLOOR
            e.upper = CEIL
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


cdef inline int play(int* trick, int n, int leader, int player, Hand hand, int best,
                     int best_seat, int state, int v, int alpha, int beta) noexcept nogil:
    """The value once ``player`` (holding ``hand``, ``n`` cards into the trick) plays ``v``,
    for the calls that score every legal play. ``search``'s loop writes the same step out:
    GCC then clones ``search`` for the trick boundary (``n == 0``, no best card) and inlines a
    trick's plies into the clone, which a call through this function prevents (20% more
    instructions a position in Kop's search, measured with callgrind)."""
    cdef int gain, value
    HANDS[player] = hand & ~card_bit(v)
    if takes(v, best, n):
        best = v
        best_seat = player
    if n == trick_size() - 1:
        gain = gain_of(trick, n, v, best_seat, state)
        value = gain + search(trick + STRIDE, 0, best_seat, -1, -1, state_after(state, best_seat),
                              alpha - gain, beta - gain)
    else:
        trick[n] = v
        value = search(trick, n + 1, leader, best, best_seat, state, alpha, beta)
    HANDS[player] = hand
    return value


cdef int load_trick(trick, int leader, int* best_seat) except -2:
    """Copies the trick being played into ``TRICKS``; its winning play so far (-1: none), and
    its seat in ``best_seat``."""
    cdef int i, v, best = -1
    best_seat[0] = -1
    for i in range(len(trick)):
        v = trick[i]
        TRICKS[i] = v
        if takes(v, best, i):
            best = v
            best_seat[0] = mover(leader, i)
    return best


def nodes():
    """Positions expanded since the module was loaded (for measurements)."""
    return NODES
