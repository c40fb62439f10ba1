# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The open-card solver of ``solver.py`` in C, a playout policy and a deal sampler.

``solver.solve`` is the readable reference; ``solve`` here gives the same values (tests).
Beyond the reference, and not changing any value: moves are ordered (the cheapest winner
first when an opponent is winning, the lowest card under a partner, high cards first when
leading), of several cards of one suit with no card of another active hand or of the trick
between them only one is searched (equivalent cards), and the rest of the hand's value at
each trick boundary is kept in a table shared by every call. A boundary position (the four
hands, who leads, trumps, the declaring side, the idle seat) determines the rest of the
hand, so an entry stays true forever: the table is never cleared, only overwritten (one
entry a slot, always replaced), and holds lower and upper bounds as alpha-beta proves them.

``playout`` plays a position to the end with ``counter``'s card rules on open cards (a
master is the highest card of its suit left in the active hands and the trick), the cheap
value PIMC uses while too many cards are left to solve.

Not reentrant: the table and the working hands are the module's, and a search holds the GIL.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc

cdef enum:
    NUM_CARDS = 52
    PLAYERS = 4
    TABLE_BITS = 19

cdef struct Entry:
    uint64_t h0
    uint64_t h1
    uint64_t h2
    uint64_t h3
    int tag  # 1 + leader + 4 * (trump + 4 * (declarers + 16 * (out + 1))); 0: empty
    int lower
    int upper

cdef Entry* TABLE = NULL
cdef uint64_t SUIT_MASK[4]
cdef uint64_t HANDS[PLAYERS]
cdef int TRUMP = 0
cdef int DECL = 0
cdef int OUT = -1
cdef int SIZE = 4
cdef int NEXT[PLAYERS]
cdef long long NODES = 0


cdef void _setup() except *:
    global TABLE
    cdef int s
    TABLE = <Entry*>calloc(1 << TABLE_BITS, sizeof(Entry))
    if TABLE == NULL:
        raise MemoryError("the Teka solver could not allocate its table")
    for s in range(4):
        SUIT_MASK[s] = (<uint64_t>0x1FFF) << (13 * s)


_setup()


cdef void _configure(hands, int trump, int declarers, int out) except *:
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


cdef inline int suit_of(int card) noexcept nogil:
    return card // 13


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


cdef inline int popcount(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef int order(uint64_t moves, uint64_t others, int n, int best, int best_seat, int player,
               int* cards) noexcept nogil:
    """The moves worth searching (one of each run of equivalent cards: no card of ``others``,
    the other active hands and the trick, between them), in search order."""
    cdef int count = 0, s, r, c, i, j, t, key_t
    cdef bint run
    cdef int keys[NUM_CARDS]
    cdef bint partner = n > 0 and ((DECL >> best_seat) & 1) == ((DECL >> player) & 1)
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


cdef inline Entry* slot(int tag) noexcept nogil:
    cdef uint64_t h = HANDS[0] * <uint64_t>0x9E3779B97F4A7C15
    h ^= (HANDS[1] + (h >> 31)) * <uint64_t>0xBF58476D1CE4E5B9
    h ^= (HANDS[2] + (h >> 29)) * <uint64_t>0x94D049BB133111EB
    h ^= (HANDS[3] + (h >> 32) + <uint64_t>tag) * <uint64_t>0x9E3779B97F4A7C15
    h ^= h >> 29
    return &TABLE[h & ((1 << TABLE_BITS) - 1)]


cdef int search(int* trick, int n, int leader, int best, int best_seat,
                int alpha, int beta) noexcept nogil:
    global NODES
    cdef int player = leader, i, count, card, new_best, new_seat, gain, child, value, left
    cdef uint64_t hand, others = 0
    cdef int cards[NUM_CARDS]
    cdef int alpha0, beta0, tag = 0
    cdef bint maximize, hit = False
    cdef Entry* e = NULL
    for i in range(n):
        player = NEXT[player]
    hand = HANDS[player]
    if hand == 0:
        return 0
    NODES += 1
    if n == 0:
        left = popcount(hand)  # tricks left
        if beta <= 0:
            return 0
        if alpha >= left:
            return left
        tag = 1 + leader + 4 * (TRUMP + 4 * (DECL + 16 * (OUT + 1)))
        e = slot(tag)
        hit = (e.tag == tag and e.h0 == HANDS[0] and e.h1 == HANDS[1] and e.h2 == HANDS[2]
               and e.h3 == HANDS[3])
        if hit:
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
    for i in range(PLAYERS):
        if i != player and i != OUT:
            others |= HANDS[i]
    for i in range(n):
        others |= (<uint64_t>1) << trick[i]
    count = order(legal_mask(hand, trick[0] if n else -1), others, n, best, best_seat, player,
                  cards)
    maximize = (DECL >> player) & 1
    value = -1 if maximize else 14
    for i in range(count):
        card = cards[i]
        HANDS[player] = hand & ~((<uint64_t>1) << card)
        if n == 0 or beats(card, best):
            new_best = card
            new_seat = player
        else:
            new_best = best
            new_seat = best_seat
        if n == SIZE - 1:
            gain = (DECL >> new_seat) & 1
            child = gain + search(trick + PLAYERS, 0, new_seat, -1, -1, alpha - gain, beta - gain)
        else:
            trick[n] = card
            child = search(trick, n + 1, leader, new_best, new_seat, alpha, beta)
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
        if not hit:
            e.h0 = HANDS[0]
            e.h1 = HANDS[1]
            e.h2 = HANDS[2]
            e.h3 = HANDS[3]
            e.tag = tag
            e.lower = 0
            e.upper = 13
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


# the trick being played, then a scratch trick per level of the search
cdef int TRICKS[PLAYERS * 15]


cdef int _load_trick(trick, int leader, int* best_seat) except -2:
    cdef int i, card, best = -1, p = leader
    for i in range(len(trick)):
        card = trick[i]
        TRICKS[i] = card
        if best < 0 or beats(card, best):
            best = card
            best_seat[0] = p
        p = NEXT[p]
    return best


def solve(hands, trick, int leader, int trump, int declarers, int out=-1, int alpha=-1,
          int beta=14):
    """``solver.solve`` in C: the declaring side's tricks from the cards in play."""
    cdef int best_seat = -1, best
    _configure(hands, trump, declarers, out)
    best = _load_trick(trick, leader, &best_seat)
    return search(TRICKS, len(trick), leader, best, best_seat, alpha, beta)


cdef int mover_of(int leader, int n) noexcept nogil:
    cdef int p = leader, i
    for i in range(n):
        p = NEXT[p]
    return p


def root_values(hands, trick, int leader, int trump, int declarers, int out, uint64_t moves,
                int exact_from=52, int alpha=-1, int beta=14):
    """``[(card, tricks)]`` for every card of ``moves`` (the mover's legal cards), lowest id
    first: the declaring side's tricks from the cards in play (the trick's included) if the
    mover plays it and both sides then play perfectly (``solver.move_values`` less the tricks
    already taken), searched in the window ``(alpha, beta)`` (outside it, a bound). With more
    than ``exact_from`` cards in the active hands, the tricks of a ``playout`` instead."""
    cdef int best_seat = -1, best, n = len(trick), player, card, new_best, new_seat, gain
    cdef int value, i, total = 0
    cdef uint64_t hand
    _configure(hands, trump, declarers, out)
    best = _load_trick(trick, leader, &best_seat)
    player = mover_of(leader, n)
    hand = HANDS[player]
    for i in range(PLAYERS):
        if i != out:
            total += popcount(HANDS[i])
    out_values = []
    for card in range(NUM_CARDS):
        if not (moves >> card) & 1:
            continue
        HANDS[player] = hand & ~((<uint64_t>1) << card)
        if n == 0 or beats(card, best):
            new_best = card
            new_seat = player
        else:
            new_best = best
            new_seat = best_seat
        if total > exact_from:
            if n == SIZE - 1:
                value = ((DECL >> new_seat) & 1) + run_playout(TRICKS + PLAYERS, 0, new_seat,
                                                              -1, -1)
            else:
                TRICKS[n] = card
                value = run_playout(TRICKS, n + 1, leader, new_best, new_seat)
        elif n == SIZE - 1:
            gain = (DECL >> new_seat) & 1
            value = gain + search(TRICKS + PLAYERS, 0, new_seat, -1, -1, alpha - gain,
                                  beta - gain)
        else:
            TRICKS[n] = card
            value = search(TRICKS, n + 1, leader, new_best, new_seat, alpha, beta)
        HANDS[player] = hand
        out_values.append((card, value))
    return out_values


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
            length = popcount(moves & SUIT_MASK[s])
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


cdef int run_playout(int* trick, int n, int leader, int best, int best_seat) noexcept nogil:
    """The declaring side's tricks from here when every seat follows ``policy``. Leaves
    ``HANDS`` as it found them."""
    cdef uint64_t saved[PLAYERS]
    cdef uint64_t live
    cdef int cur[PLAYERS]
    cdef int i, player, card, tricks = 0
    for i in range(PLAYERS):
        saved[i] = HANDS[i]
    for i in range(n):
        cur[i] = trick[i]
    player = mover_of(leader, n)
    while HANDS[player]:
        live = 0
        for i in range(PLAYERS):
            if i != OUT:
                live |= HANDS[i]
        card = policy(player, legal_mask(HANDS[player], cur[0] if n else -1), cur, n, best,
                      best_seat, live)
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
    cdef int best_seat = -1, best
    _configure(hands, trump, declarers, out)
    best = _load_trick(trick, leader, &best_seat)
    return run_playout(TRICKS, len(trick), leader, best, best_seat)


def nodes():
    """Positions expanded since the module was loaded (for measurements)."""
    return NODES


# ------------------------------------------------------------------ deals

cdef inline uint64_t next_random(uint64_t* s) noexcept nogil:
    """splitmix64: the sampler's random stream."""
    cdef uint64_t z
    s[0] += <uint64_t>0x9E3779B97F4A7C15
    z = s[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


def sample_deals(hands, uint64_t hidden, forbidden, needs, int count, uint64_t seed,
                 int max_tries=2000):
    """Up to ``count`` deals of the ``hidden`` cards (a mask) to the seats, each seat getting as
    many as ``hands[seat]`` holds of them now, none of ``forbidden[seat]`` (a mask) and, for
    each ``(seat, wanted)`` of ``needs``, at least one card of the mask ``wanted``: uniform
    among such deals (a uniform shuffle, rejected until valid). Returns ``[(h0, h1, h2, h3)]``
    with the hidden cards re-dealt and the other cards kept; fewer than ``count`` when a deal
    took more than ``max_tries`` shuffles (the caller tops up with ``State.determinize``)."""
    cdef int cards[NUM_CARDS]
    cdef int room[PLAYERS]
    cdef uint64_t bans[PLAYERS]
    cdef uint64_t kept[PLAYERS]
    cdef uint64_t dealt[PLAYERS]
    cdef int need_seat[8]
    cdef uint64_t need_mask[8]
    cdef int n = 0, c, p, i, j, t, k, tries, ok, num_needs = len(needs)
    cdef uint64_t state = seed
    if num_needs > 8:
        raise ValueError("at most 8 needs")
    for i in range(num_needs):
        need_seat[i] = needs[i][0]
        need_mask[i] = needs[i][1]
    for c in range(NUM_CARDS):
        if (hidden >> c) & 1:
            cards[n] = c
            n += 1
    for p in range(PLAYERS):
        room[p] = popcount(<uint64_t>hands[p] & hidden)
        kept[p] = <uint64_t>hands[p] & ~hidden
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
                    dealt[p] |= (<uint64_t>1) << cards[i]
                    i += 1
                if dealt[p] & bans[p]:
                    ok = 0
                    break
            if ok:
                for i in range(num_needs):
                    if not (dealt[need_seat[i]] & need_mask[i]):
                        ok = 0
                        break
            if ok:
                break
        if not ok:
            break
        out.append((dealt[0], dealt[1], dealt[2], dealt[3]))
    return out
