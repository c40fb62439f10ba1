# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The open-card solvers of ``solver.py`` in C, and the deals PIMC solves them on.

The paranoid solver (``solve``, ``root_values``, ``bid_values``; ``solver.solve`` is its
readable reference, and the two give the same values: tests) is the same alpha-beta on one
seat's bid. Beyond the reference, and not changing any value:

- equivalent cards are searched once: two numbered cards of the mover with no card of
  another player between them, and not the trick's best value between them, win and lose
  against the same cards now and later (any card may be played, the highest wins);
- moves are ordered (the highest first while the seat still needs tricks, else the lowest);
- the value of the rest of the hand at each trick boundary is kept in a table shared by every
  call. A boundary position (the hands, who leads, the seat and its need) determines the rest
  of the hand, so an entry stays true forever: the table is never cleared, only overwritten
  (one entry a slot, always replaced), and holds lower and upper bounds as alpha-beta proves
  them.

The model solver (``model_values``, ``model_bid_values``; the reference is
``solver.model_move_values``, which runs the engine and ``bots.CounterBot``): the seat
searches every plan, the others bid and play by ``counter``'s rule (``counter_play``,
``counter_bid``: the bot's arithmetic step for step, so its floating-point ties fall the same
way), each from what it may know. Its table is its own, keyed on the hands, the cards set
aside (they are unseen to every player, so they move ``counter``'s chances), the leader and
every player's need.

``pimc_totals`` and ``model_totals`` deal the hidden cards (a uniform shuffle: play reveals
nothing about a hand beyond the cards it played, ``State.determinize``) and sum every root
move's value over the deals in one call. Not reentrant: the tables and the working hands are
the module's, and a search holds the GIL.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc

cdef enum:
    NUM_CARDS = 22
    FOOL_HIGH = 22
    MAX_PLAYERS = 4
    WORST = -(NUM_CARDS + 1)
    TABLE_BITS = 18
    MAX_MOVES = 24

cdef struct Entry:
    uint64_t k0
    uint64_t k1  # 0: empty (a real key has N >= 3 in it)
    int lower
    int upper

cdef Entry* TABLE = NULL
cdef int HANDS[MAX_PLAYERS]
cdef int N = 4
cdef int SEAT = 0
cdef long long NODES = 0


cdef void _setup() except *:
    global TABLE
    TABLE = <Entry*>calloc(1 << TABLE_BITS, sizeof(Entry))
    if TABLE == NULL:
        raise MemoryError("the Whist 22 solver could not allocate its table")


_setup()


cdef inline int popcount(int mask) noexcept nogil:
    cdef int count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


cdef inline int gen_moves(int player, int best, int need, int* moves) noexcept nogil:
    """The values worth searching for ``player``: one card of each run of equivalent
    numbered cards, the Fool as 0 and as 22; the highest first when ``need > 0``."""
    cdef int hand = HANDS[player], others = 0, p, c, prev = -1, count = 0, i, t
    for p in range(N):
        if p != player:
            others |= HANDS[p]
    if hand & 1:
        moves[count] = 0
        count += 1
    for c in range(1, NUM_CARDS):
        if (hand >> c) & 1:
            if prev >= 0 and (others & ((1 << c) - (1 << (prev + 1)))) == 0 and not (
                prev < best < c
            ):
                prev = c  # the same run: equivalent to its first card
                continue
            moves[count] = c
            count += 1
            prev = c
    if hand & 1:
        moves[count] = FOOL_HIGH
        count += 1
    if need > 0:
        for i in range(count // 2):
            t = moves[i]
            moves[i] = moves[count - 1 - i]
            moves[count - 1 - i] = t
    return count


cdef inline void keys(int leader, int need, uint64_t* k0, uint64_t* k1) noexcept nogil:
    k0[0] = (<uint64_t>HANDS[0] | (<uint64_t>HANDS[1] << 22)
             | ((<uint64_t>HANDS[2] & 0xFFFFF) << 44))
    k1[0] = ((<uint64_t>HANDS[2] >> 20) | (<uint64_t>HANDS[3] << 2) | (<uint64_t>leader << 24)
             | (<uint64_t>(need + 32) << 26) | (<uint64_t>SEAT << 32) | (<uint64_t>N << 35))


cdef inline Entry* slot(uint64_t k0, uint64_t k1) noexcept nogil:
    cdef uint64_t h = k0 * <uint64_t>0x9E3779B97F4A7C15 + k1 * <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 29
    h *= <uint64_t>0x94D049BB133111EB
    h ^= h >> 32
    return &TABLE[h & ((1 << TABLE_BITS) - 1)]


cdef int search(int* trick, int k, int leader, int best, int best_seat, int need,
                int alpha, int beta) noexcept nogil:
    global NODES
    cdef int player = (leader + k) % N
    cdef int hand = HANDS[player]
    cdef int moves[MAX_MOVES]
    cdef int count, i, v, card, winner, child, value, upper, left
    cdef int alpha0, beta0
    cdef bint maximize
    cdef uint64_t k0 = 0, k1 = 0
    cdef Entry* e = NULL
    if hand == 0:
        return -need if need > 0 else need
    NODES += 1
    if k == 0:
        left = popcount(hand)  # tricks still to play
        upper = need if need < 0 else (left - need if need > left else 0)
        if upper <= alpha:
            return upper
        keys(leader, need, &k0, &k1)
        e = slot(k0, k1)
        if e.k0 == k0 and e.k1 == k1:
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
    count = gen_moves(player, best, need, moves)
    maximize = player == SEAT
    value = WORST if maximize else 1
    for i in range(count):
        v = moves[i]
        card = 0 if v == FOOL_HIGH else v
        HANDS[player] = hand & ~(1 << card)
        if k == N - 1:
            winner = player if v > best else best_seat
            child = search(trick + MAX_PLAYERS, 0, winner, -1, -1,
                           need - 1 if winner == SEAT else need, alpha, beta)
        else:
            trick[k] = v
            if v > best:
                child = search(trick, k + 1, leader, v, player, need, alpha, beta)
            else:
                child = search(trick, k + 1, leader, best, best_seat, need, alpha, beta)
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
    if k == 0:
        if not (e.k0 == k0 and e.k1 == k1):
            e.k0 = k0
            e.k1 = k1
            e.lower = WORST
            e.upper = 0
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


cdef int TRICKS[MAX_PLAYERS * 8]
cdef int BEST = -1
cdef int BEST_SEAT = -1


cdef void load(hands, trick, int leader, int seat) except *:
    global N, SEAT, BEST, BEST_SEAT
    cdef int i, v
    N = len(hands)
    if not 3 <= N <= MAX_PLAYERS:
        raise ValueError(f"the solver plays 3 or 4 hands, got {N}")
    SEAT = seat
    for i in range(MAX_PLAYERS):
        HANDS[i] = hands[i] if i < N else 0
    BEST = -1
    BEST_SEAT = -1
    for i in range(len(trick)):
        v = trick[i]
        TRICKS[i] = v
        if v > BEST:
            BEST = v
            BEST_SEAT = (leader + i) % N


def solve(hands, trick, int leader, int seat, int need, int alpha=WORST, int beta=1):
    """``solver.solve`` in C: the seat's value ``-|need - t|`` under perfect play."""
    load(hands, trick, leader, seat)
    return search(TRICKS, len(trick), leader, BEST, BEST_SEAT, need, alpha, beta)


cdef int play_value(int k, int leader, int v, int need) noexcept nogil:
    """The seat's value if the mover (the seat, ``k`` cards into the trick) plays ``v``."""
    cdef int player = (leader + k) % N, hand = HANDS[player], card, winner, value
    card = 0 if v == FOOL_HIGH else v
    HANDS[player] = hand & ~(1 << card)
    if k == N - 1:
        winner = player if v > BEST else BEST_SEAT
        value = search(TRICKS + MAX_PLAYERS, 0, winner, -1, -1,
                       need - 1 if winner == SEAT else need, WORST, 1)
    else:
        TRICKS[k] = v
        if v > BEST:
            value = search(TRICKS, k + 1, leader, v, player, need, WORST, 1)
        else:
            value = search(TRICKS, k + 1, leader, BEST, BEST_SEAT, need, WORST, 1)
    HANDS[player] = hand
    return value


cdef int legal_plays(int hand, int* values) noexcept nogil:
    """The engine's legal order: the Fool as 0, the numbered cards up, the Fool as 22."""
    cdef int count = 0, c
    for c in range(NUM_CARDS):
        if (hand >> c) & 1:
            values[count] = c
            count += 1
    if hand & 1:
        values[count] = FOOL_HIGH
        count += 1
    return count


def root_values(hands, trick, int leader, int seat, int need):
    """``[(action, value)]`` for every legal card of the seat (the mover), in the engine's
    legal order: ``solver.move_values`` in play."""
    cdef int values[MAX_MOVES]
    cdef int count, i, k = len(trick)
    load(hands, trick, leader, seat)
    if (leader + k) % N != seat:
        raise ValueError(f"player_{seat} is not to move")
    count = legal_plays(HANDS[seat], values)
    return [(values[i], play_value(k, leader, values[i], need)) for i in range(count)]


def bid_values(hands, int leader, int seat, bids):
    """``[(bid, value)]``: the seat's value of each bid, the hand solved from the first lead
    (``solver.move_values`` in the bidding, by bid rather than action)."""
    load(hands, (), leader, seat)
    return [(b, search(TRICKS, 0, leader, -1, -1, b, WORST, 1)) for b in bids]


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


cdef int deal(int n, int seat, int hand, int* cards, int count, int* sizes, uint64_t* state,
              int* out) noexcept nogil:
    """One uniform deal: shuffle the ``count`` hidden cards and give each other seat its
    ``sizes[p]`` of them (the rest set aside); the seat keeps ``hand``."""
    cdef int i, j, t, p, r, at = 0
    for i in range(count - 1, 0, -1):
        j = <int>(next_random(state) % <uint64_t>(i + 1))
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    for p in range(MAX_PLAYERS):
        out[p] = 0
        if p >= n:
            continue
        if p == seat:
            out[p] = hand
            continue
        for r in range(sizes[p]):
            out[p] |= 1 << cards[at]
            at += 1
    return at


cdef int prepare(int n, int seat, int hand, int hidden, sizes, int* cards, int* room) except -1:
    cdef int count = 0, c, p, total = 0
    if not 3 <= n <= MAX_PLAYERS:
        raise ValueError(f"the solver plays 3 or 4 hands, got {n}")
    for c in range(NUM_CARDS):
        if (hidden >> c) & 1:
            cards[count] = c
            count += 1
    for p in range(n):
        room[p] = 0 if p == seat else sizes[p]
        total += room[p]
    if total > count:
        raise ValueError("more cards to deal than hidden cards")
    return count


def sample_deals(int n, int seat, int hand, int hidden, sizes, int count, uint64_t seed):
    """``count`` uniform deals of the ``hidden`` cards (a mask): ``[hands]``, one mask a
    player, each other seat getting ``sizes[p]`` cards and the seat ``hand``."""
    cdef int cards[NUM_CARDS]
    cdef int room[MAX_PLAYERS]
    cdef int out[MAX_PLAYERS]
    cdef int total, k
    cdef uint64_t state = seed
    total = prepare(n, seat, hand, hidden, sizes, cards, room)
    deals = []
    for k in range(count):
        deal(n, seat, hand, cards, total, room, &state, out)
        deals.append(tuple(out[p] for p in range(n)))
    return deals


def pimc_totals(int n, int seat, int hand, int hidden, sizes, trick, int leader, int need,
                bids, int deals, uint64_t seed):
    """Each root move's value summed over ``deals`` uniform deals (``sample_deals``'s for the
    same seed): in play (``bids`` None) ``[(action, total)]`` in the engine's legal order
    (``trick``, ``leader`` and ``need`` as for ``root_values``); in the bidding
    ``[(bid, total)]`` over ``bids``, each solved from the first lead by ``leader``."""
    global N, SEAT, BEST, BEST_SEAT
    cdef int cards[NUM_CARDS]
    cdef int room[MAX_PLAYERS]
    cdef int out[MAX_PLAYERS]
    cdef int moves[MAX_MOVES]
    cdef long totals[MAX_MOVES]
    cdef int total, k, d, i, p, count, v, best = -1, best_seat = -1
    cdef int ntrick = len(trick)
    cdef uint64_t state = seed
    total = prepare(n, seat, hand, hidden, sizes, cards, room)
    if bids is None:
        if (leader + ntrick) % n != seat:
            raise ValueError(f"player_{seat} is not to move")
        count = legal_plays(hand, moves)
        for i in range(ntrick):
            v = trick[i]
            TRICKS[i] = v
            if v > best:
                best = v
                best_seat = (leader + i) % n
    else:
        count = len(bids)
        if count > MAX_MOVES:
            raise ValueError("too many bids")
        for i in range(count):
            moves[i] = bids[i]
    for i in range(count):
        totals[i] = 0
    N = n
    SEAT = seat
    for d in range(deals):
        deal(n, seat, hand, cards, total, room, &state, out)
        for p in range(MAX_PLAYERS):
            HANDS[p] = out[p]
        for i in range(count):
            if bids is None:
                BEST = best
                BEST_SEAT = best_seat
                totals[i] += play_value(ntrick, leader, moves[i], need)
            else:
                totals[i] += search(TRICKS, 0, leader, -1, -1, moves[i], WORST, 1)
    return [(moves[i], totals[i]) for i in range(count)]


# ---------------------------------------------------------------------------------------------
# The model solver: the other players play ``counter``'s rule (``bots.CounterBot``), each from
# what it may know (its hand, the cards played, the bids and tricks); the seat searches every
# plan. A position is the hands, the cards set aside, the trick, its leader and every
# player's need (bid less tricks taken).

cdef struct MEntry:
    uint64_t k0
    uint64_t k1
    uint64_t k2  # 0: empty (a real key has N >= 3 in it)
    int value

cdef MEntry* MTABLE = NULL
cdef int NEEDS[MAX_PLAYERS]
cdef int ASIDE = 0
cdef double THRESHOLD = 0.5


cdef void _msetup() except *:
    global MTABLE
    MTABLE = <MEntry*>calloc(1 << TABLE_BITS, sizeof(MEntry))
    if MTABLE == NULL:
        raise MemoryError("the Whist 22 solver could not allocate its table")


_msetup()


cdef inline double win_chance(int value, int best, int later, int unseen) noexcept nogil:
    """``bots._win_chance``: a card of ``value`` beats ``best`` and none of the ``later``
    players shows a higher card, each showing a random card of ``unseen`` (a mask)."""
    cdef int total, higher, i, m
    cdef double chance = 1.0
    if value <= best:
        return 0.0
    total = popcount(unseen)
    higher = (unseen & 1) + (popcount(unseen >> (value + 1)) if value < NUM_CARDS else 0)
    m = later if later < total else total
    for i in range(m):
        chance *= (<double>(total - higher - i if total - higher - i > 0 else 0)
                   / <double>(total - i))
    return chance


cdef inline int unseen_of(int player) noexcept nogil:
    cdef int p, live = ASIDE
    for p in range(N):
        live |= HANDS[p]
    return live & ~HANDS[player]


cdef int counter_play(int player, int k, int best) noexcept nogil:
    """``CounterBot.act`` in play for ``player``, ``k`` cards into the trick."""
    cdef int hand = HANDS[player], count, i, a, pick = -1, need = NEEDS[player], size
    cdef int values[MAX_MOVES]
    cdef double chances[MAX_MOVES]
    cdef double c, pc
    cdef int unseen = unseen_of(player), later = N - 1 - k
    count = legal_plays(hand, values)
    if count == 1:
        return values[0]
    size = popcount(hand)
    for i in range(count):
        chances[i] = win_chance(values[i], best, later, unseen)
    if need <= 0:  # min by (chance, a == Fool=0, -a)
        for i in range(count):
            a = values[i]
            c = chances[i]
            if pick < 0 or c < pc or (c == pc and (
                    (a == 0) < (pick == 0) or ((a == 0) == (pick == 0) and a > pick))):
                pick = a
                pc = c
        return pick
    if need >= size:  # min by (-chance, a)
        for i in range(count):
            if pick < 0 or chances[i] > pc:
                pick = values[i]
                pc = chances[i]
        return pick
    for i in range(count):  # the cheapest card likely to win
        if chances[i] >= THRESHOLD and (pick < 0 or values[i] < pick):
            pick = values[i]
    if pick >= 0:
        return pick
    for i in range(count):  # min by (chance, a is the Fool, a)
        a = values[i]
        c = chances[i]
        if pick < 0 or c < pc or (c == pc and (
                (a == 0 or a == FOOL_HIGH) < (pick == 0 or pick == FOOL_HIGH)
                or ((a == 0 or a == FOOL_HIGH) == (pick == 0 or pick == FOOL_HIGH)
                    and a < pick))):
            pick = a
            pc = c
    return pick


cdef int counter_bid(int player, int forbidden, int size) noexcept nogil:
    """``CounterBot.act`` in the bidding: the legal bid nearest its cards' win chances."""
    cdef int hand = HANDS[player], c, b, pick = -1
    cdef int unseen = ((1 << NUM_CARDS) - 1) & ~hand
    cdef double estimate = 0.0, d, pd = 0.0
    for c in range(NUM_CARDS):
        if (hand >> c) & 1:
            estimate += 1.0 if c == 0 else win_chance(c, -1, N - 1, unseen)
    for b in range(size + 1):
        if b == forbidden:
            continue
        d = b - estimate if b > estimate else estimate - b
        if pick < 0 or d < pd:
            pick = b
            pd = d
    return pick


cdef inline MEntry* mslot(uint64_t k0, uint64_t k1, uint64_t k2) noexcept nogil:
    cdef uint64_t h = (k0 * <uint64_t>0x9E3779B97F4A7C15 + k1 * <uint64_t>0xBF58476D1CE4E5B9
                       + k2 * <uint64_t>0xD6E8FEB86659FD93)
    h ^= h >> 29
    h *= <uint64_t>0x94D049BB133111EB
    h ^= h >> 32
    return &MTABLE[h & ((1 << TABLE_BITS) - 1)]


cdef int msearch(int* trick, int k, int leader, int best, int best_seat) noexcept nogil:
    """The seat's value ``-|need - t|`` when it plays its best plan and the others play
    ``counter``'s rule."""
    global NODES
    cdef int player = (leader + k) % N
    cdef int hand = HANDS[player]
    cdef int moves[MAX_MOVES]
    cdef int count, i, v, card, winner, child, value, upper, left, need = NEEDS[SEAT], p
    cdef uint64_t k0 = 0, k1 = 0, k2 = 0
    cdef MEntry* e = NULL
    if hand == 0:
        return -need if need > 0 else need
    NODES += 1
    left = popcount(HANDS[SEAT])
    upper = need if need < 0 else (left - need if need > left else 0)
    if k == 0:
        k0 = (<uint64_t>HANDS[0] | (<uint64_t>HANDS[1] << 22)
              | ((<uint64_t>HANDS[2] & 0xFFFFF) << 44))
        k1 = ((<uint64_t>HANDS[2] >> 20) | (<uint64_t>HANDS[3] << 2) | (<uint64_t>leader << 24)
              | (<uint64_t>SEAT << 26) | (<uint64_t>N << 29))
        k2 = <uint64_t>ASIDE | (<uint64_t>1 << 63)
        for p in range(N):
            k2 |= <uint64_t>(NEEDS[p] + 16) << (22 + 5 * p)
        e = mslot(k0, k1, k2)
        if e.k0 == k0 and e.k1 == k1 and e.k2 == k2:
            return e.value
    if player != SEAT:
        count = 1
        moves[0] = counter_play(player, k, best)
    else:
        count = legal_plays(hand, moves)
    value = WORST
    for i in range(count):
        v = moves[i]
        card = 0 if v == FOOL_HIGH else v
        HANDS[player] = hand & ~(1 << card)
        if k == N - 1:
            winner = player if v > best else best_seat
            NEEDS[winner] -= 1
            child = msearch(trick + MAX_PLAYERS, 0, winner, -1, -1)
            NEEDS[winner] += 1
        else:
            trick[k] = v
            if v > best:
                child = msearch(trick, k + 1, leader, v, player)
            else:
                child = msearch(trick, k + 1, leader, best, best_seat)
        HANDS[player] = hand
        if child > value:
            value = child
            if value >= upper:
                break
    if k == 0:
        e.k0 = k0
        e.k1 = k1
        e.k2 = k2
        e.value = value
    return value


cdef void mload(hands, int aside, trick, int leader, int seat, needs) except *:
    global ASIDE
    cdef int i
    load(hands, trick, leader, seat)
    ASIDE = aside
    for i in range(MAX_PLAYERS):
        NEEDS[i] = needs[i] if i < N else 0


def counter_move(hands, int aside, trick, int leader, needs):
    """``counter``'s play for the player to move (the model's opponents), from the full
    position: for the tests against ``bots.CounterBot``."""
    cdef int k = len(trick)
    mload(hands, aside, trick, leader, 0, needs)
    return counter_play((leader + k) % N, k, BEST)


def counter_bid_of(hand, int n, int forbidden, int size):
    """``counter``'s bid for a hand (card ids) at ``n`` players: for the tests."""
    global N
    N = n
    HANDS[0] = sum(1 << c for c in hand)
    return counter_bid(0, forbidden, size)


cdef int mplay_value(int k, int leader, int v) noexcept nogil:
    cdef int player = (leader + k) % N, hand = HANDS[player], card, winner, value
    card = 0 if v == FOOL_HIGH else v
    HANDS[player] = hand & ~(1 << card)
    if k == N - 1:
        winner = player if v > BEST else BEST_SEAT
        NEEDS[winner] -= 1
        value = msearch(TRICKS + MAX_PLAYERS, 0, winner, -1, -1)
        NEEDS[winner] += 1
    else:
        TRICKS[k] = v
        if v > BEST:
            value = msearch(TRICKS, k + 1, leader, v, player)
        else:
            value = msearch(TRICKS, k + 1, leader, BEST, BEST_SEAT)
    HANDS[player] = hand
    return value


cdef int mbid_value(int first, int size, int hook, int* bids, int b) noexcept nogil:
    """The seat's value of bidding ``b``: the players after it bid by ``counter``'s rule
    (the last of them under the hook), then the hand from the first lead by ``first``."""
    cdef int i, p, total = 0, forbidden, bid
    for i in range(N):
        p = (first + i) % N
        if p == SEAT:
            bid = b
        elif bids[p] >= 0:
            bid = bids[p]
        else:
            forbidden = -1
            if hook and i == N - 1 and size - total >= 0:
                forbidden = size - total
            bid = counter_bid(p, forbidden, size)
        NEEDS[p] = bid
        total += bid
    return msearch(TRICKS, 0, first, -1, -1)


def model_values(hands, int aside, trick, int leader, int seat, needs):
    """``[(action, value)]`` for every legal card of the seat (the mover) in the engine's
    legal order, the others playing ``counter``'s rule: ``solver.model_move_values``."""
    cdef int values[MAX_MOVES]
    cdef int count, i, k = len(trick)
    mload(hands, aside, trick, leader, seat, needs)
    if (leader + k) % N != seat:
        raise ValueError(f"player_{seat} is not to move")
    count = legal_plays(HANDS[seat], values)
    return [(values[i], mplay_value(k, leader, values[i])) for i in range(count)]


def model_bid_values(hands, int aside, int first, int seat, bids, candidates, int size,
                     bint hook):
    """``[(bid, value)]`` for each candidate bid of the seat; ``bids[p]`` is -1 for a player
    yet to bid (it bids by ``counter``'s rule after the seat)."""
    cdef int known[MAX_PLAYERS]
    cdef int i
    mload(hands, aside, (), first, seat, [0] * len(hands))
    for i in range(N):
        known[i] = bids[i]
    return [(b, mbid_value(first, size, hook, known, b)) for b in candidates]


def model_totals(int n, int seat, int hand, int hidden, sizes, trick, int leader, needs,
                 bids, candidates, int size, bint hook, int deals, uint64_t seed):
    """``pimc_totals`` for the model solver: in play (``candidates`` None) ``[(action,
    total)]`` in the engine's legal order; in the bidding ``[(bid, total)]``."""
    global N, SEAT, BEST, BEST_SEAT, ASIDE
    cdef int cards[NUM_CARDS]
    cdef int room[MAX_PLAYERS]
    cdef int out[MAX_PLAYERS]
    cdef int moves[MAX_MOVES]
    cdef int known[MAX_PLAYERS]
    cdef int base[MAX_PLAYERS]
    cdef long totals[MAX_MOVES]
    cdef int total, d, i, p, count, v, best = -1, best_seat = -1, dealt
    cdef int ntrick = len(trick)
    cdef uint64_t state = seed
    total = prepare(n, seat, hand, hidden, sizes, cards, room)
    for p in range(n):
        base[p] = needs[p] if needs is not None else 0
        known[p] = bids[p] if bids is not None else -1
    if candidates is None:
        if (leader + ntrick) % n != seat:
            raise ValueError(f"player_{seat} is not to move")
        count = legal_plays(hand, moves)
        for i in range(ntrick):
            v = trick[i]
            TRICKS[i] = v
            if v > best:
                best = v
                best_seat = (leader + i) % n
    else:
        count = len(candidates)
        if count > MAX_MOVES:
            raise ValueError("too many bids")
        for i in range(count):
            moves[i] = candidates[i]
    for i in range(count):
        totals[i] = 0
    N = n
    SEAT = seat
    for d in range(deals):
        deal(n, seat, hand, cards, total, room, &state, out)
        dealt = 0
        for p in range(MAX_PLAYERS):
            HANDS[p] = out[p]
            dealt |= out[p]
        ASIDE = hidden & ~dealt
        for i in range(count):
            if candidates is None:
                for p in range(n):
                    NEEDS[p] = base[p]
                BEST = best
                BEST_SEAT = best_seat
                totals[i] += mplay_value(ntrick, leader, moves[i])
            else:
                totals[i] += mbid_value(leader, size, hook, known, moves[i])
    return [(moves[i], totals[i]) for i in range(count)]
