# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The open-card solver of ``solver.py`` in C, a playout policy and a deal sampler.

``solver.solve`` is the readable reference; ``solve`` here gives the same values (tests).
Beyond the reference, and not changing any value: moves are ordered (the cheapest winner
first when an opponent is winning, the lowest card under a partner, high cards first when
leading), of several cards of one suit with no card of another active hand or of the trick
between them only one is searched (equivalent cards), and the rest of the hand's value at
each trick boundary is kept in a table shared by every call, keyed on the four hands, who
leads, trumps, the declaring side and the idle seat. The search, the table and the sampler
are the trick solvers' shared ``core/_tricks.pxi`` (not reentrant: the table and the working
hands are the module's, and a search holds the GIL); this module holds Teka's rules.

``playout`` plays a position to the end with ``counter``'s card rules on open cards (a
master is the highest card of its suit left in the active hands and the trick), the cheap
value PIMC uses while too many cards are left to solve.
"""

from libc.stdint cimport uint64_t

ctypedef uint64_t Hand

cdef enum:
    NUM_CARDS = 52
    PLAYERS = 4
    TABLE_BITS = 19
    MAX_MOVES = NUM_CARDS
    STRIDE = PLAYERS
    LEVELS = 15
    LOW = -1
    HIGH = 14
    FLOOR = 0
    CEIL = 13

cdef struct Key:
    uint64_t h0
    uint64_t h1
    uint64_t h2
    uint64_t h3
    int tag  # 1 + leader + 4 * (trump + 4 * (declarers + 16 * (out + 1))); 0: empty

cdef uint64_t SUIT_MASK[4]
cdef Hand HANDS[PLAYERS]
cdef int TRUMP = 0
cdef int DECL = 0
cdef int OUT = -1
cdef int SIZE = 4
cdef int NEXT[PLAYERS]


cdef inline bint beats(int card, int best) noexcept nogil:
    """``engine.beats``: higher in the suit of ``best``, or a trump over a plain card."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == TRUMP


cdef inline uint64_t legal_mask(uint64_t hand, int led) noexcept nogil:
    cdef uint64_t follow
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led // 13]
    return follow if follow else hand


cdef inline int mover(int leader, int n) noexcept nogil:
    cdef int p = leader, i
    for i in range(n):
        p = NEXT[p]
    return p


cdef inline int trick_size() noexcept nogil:
    return SIZE


cdef inline int empty_value(int state) noexcept nogil:
    return 0


cdef inline bint bounded(Hand hand, int state, int alpha, int beta, int* value) noexcept nogil:
    """No tricks are lost below 0 nor won beyond the tricks left."""
    cdef int left = sparse_popcount(hand)
    if beta <= 0:
        value[0] = 0
        return True
    if alpha >= left:
        value[0] = left
        return True
    return False


cdef inline void key_of(int leader, int state, Key* key) noexcept nogil:
    key.h0 = HANDS[0]
    key.h1 = HANDS[1]
    key.h2 = HANDS[2]
    key.h3 = HANDS[3]
    key.tag = 1 + leader + 4 * (TRUMP + 4 * (DECL + 16 * (OUT + 1)))


cdef inline bint same_key(Key* a, Key* b) noexcept nogil:
    return (a.tag == b.tag and a.h0 == b.h0 and a.h1 == b.h1 and a.h2 == b.h2
            and a.h3 == b.h3)


cdef inline uint64_t hash_of(Key* key) noexcept nogil:
    cdef uint64_t h = key.h0 * <uint64_t>0x9E3779B97F4A7C15
    h ^= (key.h1 + (h >> 31)) * <uint64_t>0xBF58476D1CE4E5B9
    h ^= (key.h2 + (h >> 29)) * <uint64_t>0x94D049BB133111EB
    h ^= (key.h3 + (h >> 32) + <uint64_t>key.tag) * <uint64_t>0x9E3779B97F4A7C15
    return h ^ (h >> 29)


cdef int moves_of(int player, Hand hand, int* trick, int n, int best, int best_seat,
                  int state, int* cards) noexcept nogil:
    """The legal cards worth searching (one of each run of equivalent cards: no card of
    another active hand or of the trick between them), in search order: the cheapest winner
    first when an opponent is winning, the lowest card under a partner, high cards first
    when leading."""
    cdef int count = 0, s, r, c, i, j, t, key_t
    cdef bint run
    cdef int keys[NUM_CARDS]
    cdef uint64_t moves = legal_mask(hand, trick[0] if n else -1), others = 0
    cdef bint partner = n > 0 and ((DECL >> best_seat) & 1) == ((DECL >> player) & 1)
    for i in range(PLAYERS):
        if i != player and i != OUT:
            others |= HANDS[i]
    for i in range(n):
        others |= (<uint64_t>1) << trick[i]
    for s in range(4):
        if not (moves & SUIT_MASK[s]):
            continue
        run = False
        for r in range(12, -1, -1):
            c = 13 * s + r
            if (moves >> c) & 1:
                if not run:
                    cards[count] = c
                    if n == 0:
                        keys[count] = -r  # leading: high cards first
                    elif partner:
                        keys[count] = r + (13 if s == TRUMP else 0)  # lowest, plain first
                    elif beats(c, best):
                        keys[count] = r - 40 + (13 if s == TRUMP else 0)  # cheapest winner
                    else:
                        keys[count] = r + (13 if s == TRUMP else 0)
                    count += 1
                run = True
            elif (others >> c) & 1:
                run = False
    for i in range(1, count):  # insertion sort by key (stable)
        t = cards[i]
        key_t = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key_t:
            cards[j + 1] = cards[j]
            keys[j + 1] = keys[j]
            j -= 1
        cards[j + 1] = t
        keys[j + 1] = key_t
    return count


cdef inline bint maximizing(int player, int state) noexcept nogil:
    return (DECL >> player) & 1


cdef inline Hand card_bit(int card) noexcept nogil:
    return (<uint64_t>1) << card


cdef inline bint takes(int card, int best, int n) noexcept nogil:
    return n == 0 or beats(card, best)


cdef inline int gain_of(int* trick, int n, int card, int winner, int state) noexcept nogil:
    return (DECL >> winner) & 1


cdef inline int state_after(int state, int winner) noexcept nogil:
    return state


include "../../core/_tricks.pxi"
include "../../core/_deals.pxi"


cdef int _s
for _s in range(4):
    SUIT_MASK[_s] = (<uint64_t>0x1FFF) << (13 * _s)


cdef int load(hands, trick, int leader, int trump, int declarers, int out,
              int* best_seat) except -2:
    """Sets the hands and the contract; loads the trick (its best card, ``best_seat``)."""
    global TRUMP, DECL, OUT, SIZE
    cdef int p, q
    for p in range(PLAYERS):
        HANDS[p] = hands[p]
    TRUMP = trump
    DECL = declarers
    OUT = out
    SIZE = 3 if out >= 0 else 4
    for p in range(PLAYERS):
        q = (p + 1) & 3
        if q == out:
            q = (q + 1) & 3
        NEXT[p] = q
    return load_trick(trick, leader, best_seat)


def solve(hands, trick, int leader, int trump, int declarers, int out=-1, int alpha=LOW,
          int beta=HIGH):
    """``solver.solve`` in C: the declaring side's tricks from the cards in play."""
    cdef int best_seat, best = load(hands, trick, leader, trump, declarers, out, &best_seat)
    return search(TRICKS, len(trick), leader, best, best_seat, 0, alpha, beta)


def root_values(hands, trick, int leader, int trump, int declarers, int out, uint64_t moves,
                int exact_from=52, int alpha=LOW, int beta=HIGH):
    """``[(card, tricks)]`` for every card of ``moves`` (the mover's legal cards), lowest id
    first: the declaring side's tricks from the cards in play (the trick's included) if the
    mover plays it and both sides then play perfectly (``solver.move_values`` less the tricks
    already taken), searched in the window ``(alpha, beta)`` (outside it, a bound). With more
    than ``exact_from`` cards in the active hands, the tricks of a ``playout`` instead."""
    cdef int best_seat, best = load(hands, trick, leader, trump, declarers, out, &best_seat)
    cdef int n = len(trick), player = mover(leader, n), card, i, total = 0
    cdef Hand hand = HANDS[player]
    for i in range(PLAYERS):
        if i != out:
            total += sparse_popcount(HANDS[i])
    if total > exact_from:
        return [(card, run_playout(TRICKS, n, leader, best, best_seat, card))
                for card in range(NUM_CARDS) if (moves >> card) & 1]
    return [(card, play(TRICKS, n, leader, player, hand, best, best_seat, 0, card, alpha, beta))
            for card in range(NUM_CARDS) if (moves >> card) & 1]


# ------------------------------------------------------------------ playouts

cdef inline int highest_of(uint64_t mask, int suit) noexcept nogil:
    cdef int r
    for r in range(12, -1, -1):
        if (mask >> (13 * suit + r)) & 1:
            return 13 * suit + r
    return -1


cdef inline bint master(int card, uint64_t live) noexcept nogil:
    """No live card of its suit is higher."""
    cdef uint64_t above = SUIT_MASK[card // 13] & ~(((<uint64_t>2) << card) - 1)
    return not (live & above)


cdef inline int cheapest(uint64_t cards) noexcept nogil:
    """The card that costs least to give up: plain before trumps, then the lowest rank."""
    cdef int best = -1, key, best_key = 100, c
    for c in range(NUM_CARDS):
        if (cards >> c) & 1:
            key = c % 13 + (13 if c // 13 == TRUMP else 0)
            if key < best_key:
                best_key = key
                best = c
    return best


cdef int policy(int player, uint64_t moves, int* trick, int n, int best, int best_seat,
                uint64_t live) noexcept nogil:
    """``CounterBot``'s card rules on open cards (``live``: the cards in the active hands)."""
    cdef int c, s, shortest, length, min_len
    cdef uint64_t masters = 0, winners = 0, plain
    cdef bint declaring = (DECL >> player) & 1
    cdef bint last
    for c in range(NUM_CARDS):
        if (moves >> c) & 1 and master(c, live & ~HANDS[player]):
            masters |= (<uint64_t>1) << c
    if n == 0:
        if declaring and (live & ~HANDS[player] & SUIT_MASK[TRUMP]):
            c = highest_of(masters, TRUMP)
            if c >= 0:
                return c
        plain = masters & ~SUIT_MASK[TRUMP]
        if plain:
            for c in range(NUM_CARDS - 1, -1, -1):  # highest plain master (by id, as counter)
                if (plain >> c) & 1:
                    return c
        shortest = -1
        min_len = 99
        for s in range(4):
            if s == TRUMP:
                continue
            length = sparse_popcount(moves & SUIT_MASK[s])
            if 0 < length < min_len:
                min_len = length
                shortest = s
        if shortest < 0:
            return cheapest(moves)
        for c in range(13 * shortest, 13 * shortest + 13):
            if (moves >> c) & 1:
                return c
    last = n == SIZE - 1
    if ((DECL >> best_seat) & 1) == declaring and (last or master(best, live)):
        return cheapest(moves)
    for c in range(NUM_CARDS):
        if (moves >> c) & 1 and beats(c, best):
            winners |= (<uint64_t>1) << c
    if winners:
        if (winners & masters) and not last:
            return cheapest(winners & masters)
        return cheapest(winners)
    return cheapest(moves)


cdef int run_playout(int* trick, int n, int leader, int best, int best_seat,
                     int first) noexcept nogil:
    """The declaring side's tricks from here when every seat follows ``policy``, the mover
    playing ``first`` instead if it is a card (not -1). Leaves ``HANDS`` as it found them."""
    cdef uint64_t saved[PLAYERS]
    cdef uint64_t live
    cdef int cur[PLAYERS]
    cdef int i, player, card, tricks = 0
    for i in range(PLAYERS):
        saved[i] = HANDS[i]
    for i in range(n):
        cur[i] = trick[i]
    player = mover(leader, n)
    while HANDS[player]:
        live = 0
        for i in range(PLAYERS):
            if i != OUT:
                live |= HANDS[i]
        card = first if first >= 0 else policy(
            player, legal_mask(HANDS[player], cur[0] if n else -1), cur, n, best, best_seat, live
        )
        first = -1
        HANDS[player] &= ~((<uint64_t>1) << card)
        if n == 0 or beats(card, best):
            best = card
            best_seat = player
        cur[n] = card
        n += 1
        if n == SIZE:
            tricks += (DECL >> best_seat) & 1
            player = best_seat
            n = 0
            best = -1
        else:
            player = NEXT[player]
    for i in range(PLAYERS):
        HANDS[i] = saved[i]
    return tricks


def playout(hands, trick, int leader, int trump, int declarers, int out=-1):
    """The declaring side's tricks from the cards in play when every seat plays ``policy``."""
    cdef int best_seat, best = load(hands, trick, leader, trump, declarers, out, &best_seat)
    return run_playout(TRICKS, len(trick), leader, best, best_seat, -1)


# ------------------------------------------------------------------ deals

def sample_deals(hands, uint64_t hidden, forbidden, needs, int count, uint64_t seed,
                 int max_tries=2000):
    """Up to ``count`` deals of the ``hidden`` cards (a mask), each seat getting as many as
    ``hands[seat]`` holds of them now, none of ``forbidden[seat]`` and, for each ``(seat,
    wanted)`` of ``needs``, a card of ``wanted``: uniform among such deals
    (``rejection_deals``). Returns ``[(h0, h1, h2, h3)]``."""
    return rejection_deals(hands, hidden, forbidden, needs, count, seed, max_tries)
