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
  call, keyed on the hands, who leads, the seat and its need.

The search, its table and the root step are the trick solvers' shared ``core/_tricks.pxi``;
this module holds Whist 22's rules (any card, the Fool as 0 or 22, the seat's ``-|need - t|``).

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

ctypedef int Hand

cdef enum:
    NUM_CARDS = 22
    FOOL_HIGH = 22
    MAX_PLAYERS = 4
    WORST = -(NUM_CARDS + 1)
    TABLE_BITS = 18
    MAX_MOVES = 24
    STRIDE = MAX_PLAYERS
    LEVELS = 8
    LOW = WORST
    HIGH = 1
    FLOOR = WORST
    CEIL = 0

cdef struct Key:
    uint64_t k0
    uint64_t k1  # 0: empty (a real key has N >= 3 in it)

cdef Hand HANDS[MAX_PLAYERS]
cdef int N = 4
cdef int SEAT = 0


cdef inline int moves_of(int player, Hand hand, int* trick, int k, int best, int best_seat,
                         int need, int* moves) noexcept nogil:
    """The values worth searching for ``player``: one card of each run of equivalent
    numbered cards, the Fool as 0 and as 22; the highest first when ``need > 0``."""
    cdef int others = 0, p, c, prev = -1, count = 0, i, t
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


cdef inline int mover(int leader, int k) noexcept nogil:
    return (leader + k) % N


cdef inline int trick_size() noexcept nogil:
    return N


cdef inline int empty_value(int need) noexcept nogil:
    return -need if need > 0 else need


cdef inline int reachable(Hand hand, int need) noexcept nogil:
    """The best value the seat can still reach (``hand`` holds one card a trick left): its
    need met, or short by the tricks it lacks."""
    cdef int left = sparse_popcount(hand)
    return need if need < 0 else (left - need if need > left else 0)


cdef inline bint bounded(Hand hand, int need, int alpha, int beta, int* value) noexcept nogil:
    cdef int upper = reachable(hand, need)
    if upper <= alpha:
        value[0] = upper
        return True
    return False


cdef inline void pack_hands(uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The four hands in 88 bits: ``k0`` and the low 24 bits of ``k1``."""
    k0[0] = (<uint64_t>HANDS[0] | (<uint64_t>HANDS[1] << 22)
             | ((<uint64_t>HANDS[2] & 0xFFFFF) << 44))
    k1[0] = (<uint64_t>HANDS[2] >> 20) | (<uint64_t>HANDS[3] << 2)


cdef inline void key_of(int leader, int need, Key* key) noexcept nogil:
    pack_hands(&key.k0, &key.k1)
    key.k1 |= ((<uint64_t>leader << 24) | (<uint64_t>(need + 32) << 26) | (<uint64_t>SEAT << 32)
               | (<uint64_t>N << 35))


cdef inline bint same_key(Key* a, Key* b) noexcept nogil:
    return a.k0 == b.k0 and a.k1 == b.k1


cdef inline uint64_t hash_of(Key* key) noexcept nogil:
    cdef uint64_t h = key.k0 * <uint64_t>0x9E3779B97F4A7C15 + key.k1 * <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 29
    h *= <uint64_t>0x94D049BB133111EB
    return h ^ (h >> 32)


cdef inline bint maximizing(int player, int need) noexcept nogil:
    return player == SEAT


cdef inline Hand card_bit(int v) noexcept nogil:
    return 1 << (0 if v == FOOL_HIGH else v)


cdef inline bint takes(int v, int best, int k) noexcept nogil:
    return v > best


cdef inline int gain_of(int* trick, int k, int v, int winner, int need) noexcept nogil:
    return 0  # the trick moves the seat's need instead


cdef inline int state_after(int need, int winner) noexcept nogil:
    return need - 1 if winner == SEAT else need


include "../../core/_tricks.pxi"


cdef int load(hands, trick, int leader, int seat, int* best_seat) except -2:
    """Sets the players, the seat and the hands; loads the trick (its best value,
    ``best_seat``)."""
    global N, SEAT
    cdef int i
    N = len(hands)
    if not 3 <= N <= MAX_PLAYERS:
        raise ValueError(f"the solver plays 3 or 4 hands, got {N}")
    SEAT = seat
    for i in range(MAX_PLAYERS):
        HANDS[i] = hands[i] if i < N else 0
    return load_trick(trick, leader, best_seat)


def solve(hands, trick, int leader, int seat, int need, int alpha=LOW, int beta=HIGH):
    """``solver.solve`` in C: the seat's value ``-|need - t|`` under perfect play."""
    cdef int best_seat, best = load(hands, trick, leader, seat, &best_seat)
    return search(TRICKS, len(trick), leader, best, best_seat, need, alpha, beta)


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


cdef int check_mover(int seat, int k, int leader) except -1:
    if mover(leader, k) != seat:
        raise ValueError(f"player_{seat} is not to move")
    return 0


def root_values(hands, trick, int leader, int seat, int need):
    """``[(action, value)]`` for every legal card of the seat (the mover), in the engine's
    legal order: ``solver.move_values`` in play."""
    cdef int values[MAX_MOVES]
    cdef int i, k = len(trick), best_seat, best = load(hands, trick, leader, seat, &best_seat)
    cdef int count = legal_plays(HANDS[seat], values)
    check_mover(seat, k, leader)
    return [(values[i], play(TRICKS, k, leader, seat, HANDS[seat], best, best_seat, need,
                             values[i], LOW, HIGH)) for i in range(count)]


def bid_values(hands, int leader, int seat, bids):
    """``[(bid, value)]``: the seat's value of each bid, the hand solved from the first lead
    (``solver.move_values`` in the bidding, by bid rather than action)."""
    cdef int best_seat
    load(hands, (), leader, seat, &best_seat)
    return [(b, search(TRICKS, 0, leader, -1, -1, b, LOW, HIGH)) for b in bids]


cdef int deal(int n, int seat, int hand, int* cards, int count, int* sizes, Rng* rng,
              int* out) noexcept nogil:
    """One uniform deal: shuffle the ``count`` hidden cards and give each other seat its
    ``sizes[p]`` of them (the rest set aside); the seat keeps ``hand``."""
    cdef int p, r, at = 0
    shuffle(cards, count, rng)
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
    cdef Rng rng
    total = prepare(n, seat, hand, hidden, sizes, cards, room)
    rng.s = seed
    deals = []
    for k in range(count):
        deal(n, seat, hand, cards, total, room, &rng, out)
        deals.append(tuple(out[p] for p in range(n)))
    return deals



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


MTABLE = <MEntry*>new_table(TABLE_BITS, sizeof(MEntry))


cdef inline double win_chance(int value, int best, int later, int unseen) noexcept nogil:
    """``bots._win_chance``: a card of ``value`` beats ``best`` and none of the ``later``
    players shows a higher card, each showing a random card of ``unseen`` (a mask)."""
    cdef int total, higher, i, m
    cdef double chance = 1.0
    if value <= best:
        return 0.0
    total = sparse_popcount(unseen)
    higher = (unseen & 1) + (sparse_popcount(unseen >> (value + 1)) if value < NUM_CARDS else 0)
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
    size = sparse_popcount(hand)
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
    cdef int count, i, v, winner, child, value, upper, need = NEEDS[SEAT], p
    cdef uint64_t k0 = 0, k1 = 0, k2 = 0
    cdef MEntry* e = NULL
    if hand == 0:
        return empty_value(need)
    NODES += 1
    upper = reachable(HANDS[SEAT], need)
    if k == 0:
        pack_hands(&k0, &k1)
        k1 |= (<uint64_t>leader << 24) | (<uint64_t>SEAT << 26) | (<uint64_t>N << 29)
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
    for i in range(count):  # mplay's step, written out (see mplay)
        v = moves[i]
        HANDS[player] = hand & ~card_bit(v)
        if k == N - 1:
            winner = player if takes(v, best, k) else best_seat
            NEEDS[winner] -= 1
            child = msearch(trick + STRIDE, 0, winner, -1, -1)
            NEEDS[winner] += 1
        else:
            trick[k] = v
            if takes(v, best, k):
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


cdef inline int mplay(int* trick, int k, int leader, int player, Hand hand, int best,
                      int best_seat, int v) noexcept nogil:
    """The model's value once ``player`` (``k`` cards into the trick) plays ``v``, for the
    root moves. ``msearch``'s loop writes the same step out, as ``search``'s does (``play``
    in ``_tricks.pxi`` says why: through this call GCC no longer clones ``msearch`` for the
    trick boundary, 10% more instructions in the model solver, measured with callgrind)."""
    cdef int value
    HANDS[player] = hand & ~card_bit(v)
    if takes(v, best, k):
        best = v
        best_seat = player
    if k == N - 1:
        NEEDS[best_seat] -= 1
        value = msearch(trick + STRIDE, 0, best_seat, -1, -1)
        NEEDS[best_seat] += 1
    else:
        trick[k] = v
        value = msearch(trick, k + 1, leader, best, best_seat)
    HANDS[player] = hand
    return value


cdef int mload(hands, int aside, trick, int leader, int seat, needs, int* best_seat) except -2:
    global ASIDE
    cdef int i, best = load(hands, trick, leader, seat, best_seat)
    ASIDE = aside
    for i in range(MAX_PLAYERS):
        NEEDS[i] = needs[i] if i < N else 0
    return best


def counter_move(hands, int aside, trick, int leader, needs):
    """``counter``'s play for the player to move (the model's opponents), from the full
    position: for the tests against ``bots.CounterBot``."""
    cdef int k = len(trick), best_seat, best = mload(hands, aside, trick, leader, 0, needs,
                                                    &best_seat)
    return counter_play(mover(leader, k), k, best)


def counter_bid_of(hand, int n, int forbidden, int size):
    """``counter``'s bid for a hand (card ids) at ``n`` players: for the tests."""
    global N
    N = n
    HANDS[0] = sum(1 << c for c in hand)
    return counter_bid(0, forbidden, size)


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
    cdef int i, k = len(trick), best_seat
    cdef int best = mload(hands, aside, trick, leader, seat, needs, &best_seat)
    cdef int count = legal_plays(HANDS[seat], values)
    check_mover(seat, k, leader)
    return [(values[i], mplay(TRICKS, k, leader, seat, HANDS[seat], best, best_seat, values[i]))
            for i in range(count)]


def model_bid_values(hands, int aside, int first, int seat, bids, candidates, int size,
                     bint hook):
    """``[(bid, value)]`` for each candidate bid of the seat; ``bids[p]`` is -1 for a player
    yet to bid (it bids by ``counter``'s rule after the seat)."""
    cdef int known[MAX_PLAYERS]
    cdef int i, best_seat
    mload(hands, aside, (), first, seat, [0] * len(hands), &best_seat)
    for i in range(N):
        known[i] = bids[i]
    return [(b, mbid_value(first, size, hook, known, b)) for b in candidates]


cdef list totals(bint model, int n, int seat, int hand, int hidden, sizes, trick, int leader,
                 int need, needs, bids, candidates, int size, bint hook, int deals,
                 uint64_t seed):
    """Each root move's value summed over ``deals`` uniform deals (``sample_deals``'s for the
    same seed), by the paranoid solver or the ``model`` one: in play (``candidates`` None)
    ``[(action, total)]`` in the engine's legal order, in the bidding ``[(bid, total)]``."""
    global N, SEAT, ASIDE
    cdef int cards[NUM_CARDS]
    cdef int room[MAX_PLAYERS]
    cdef int out[MAX_PLAYERS]
    cdef int moves[MAX_MOVES]
    cdef int known[MAX_PLAYERS]
    cdef int base[MAX_PLAYERS]
    cdef long sums[MAX_MOVES]
    cdef int total, d, i, p, count, best = -1, best_seat = -1, dealt
    cdef int ntrick = len(trick)
    cdef Rng rng
    total = prepare(n, seat, hand, hidden, sizes, cards, room)
    rng.s = seed
    N = n
    SEAT = seat
    for p in range(n):
        base[p] = needs[p] if needs is not None else 0
        known[p] = bids[p] if bids is not None else -1
    if candidates is None:
        check_mover(seat, ntrick, leader)
        count = legal_plays(hand, moves)
        best = load_trick(trick, leader, &best_seat)
    else:
        count = len(candidates)
        if count > MAX_MOVES:
            raise ValueError("too many bids")
        for i in range(count):
            moves[i] = candidates[i]
    for i in range(count):
        sums[i] = 0
    for d in range(deals):
        deal(n, seat, hand, cards, total, room, &rng, out)
        dealt = 0
        for p in range(MAX_PLAYERS):
            HANDS[p] = out[p]
            dealt |= out[p]
        ASIDE = hidden & ~dealt
        for i in range(count):
            if not model and candidates is None:
                sums[i] += play(TRICKS, ntrick, leader, seat, hand, best, best_seat, need,
                                moves[i], LOW, HIGH)
            elif not model:
                sums[i] += search(TRICKS, 0, leader, -1, -1, moves[i], LOW, HIGH)
            elif candidates is None:
                for p in range(n):
                    NEEDS[p] = base[p]
                sums[i] += mplay(TRICKS, ntrick, leader, seat, hand, best, best_seat, moves[i])
            else:
                sums[i] += mbid_value(leader, size, hook, known, moves[i])
    return [(moves[i], sums[i]) for i in range(count)]


def pimc_totals(int n, int seat, int hand, int hidden, sizes, trick, int leader, int need,
                bids, int deals, uint64_t seed):
    """Each root move's value summed over ``deals`` uniform deals (``sample_deals``'s for the
    same seed): in play (``bids`` None) ``[(action, total)]`` in the engine's legal order
    (``trick``, ``leader`` and ``need`` as for ``root_values``); in the bidding
    ``[(bid, total)]`` over ``bids``, each solved from the first lead by ``leader``."""
    return totals(False, n, seat, hand, hidden, sizes, trick, leader, need, None, None, bids,
                  0, False, deals, seed)


def model_totals(int n, int seat, int hand, int hidden, sizes, trick, int leader, needs,
                 bids, candidates, int size, bint hook, int deals, uint64_t seed):
    """``pimc_totals`` for the model solver: in play (``candidates`` None) ``[(action,
    total)]`` in the engine's legal order; in the bidding ``[(bid, total)]``."""
    return totals(True, n, seat, hand, hidden, sizes, trick, leader, 0, needs, bids,
                  candidates, size, hook, deals, seed)
