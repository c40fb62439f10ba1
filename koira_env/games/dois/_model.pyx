# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Dois's model playouts in C: the engine's rules for one hand and ``counter``'s rule.

``search.py`` says what they are for; ``search.model_move_values`` is the readable reference
(it runs ``engine.State`` and ``bots.CounterBot`` themselves), and the two give the same
values on the same deals (tests). What is here, each a step-for-step copy of its reference:

- the rules of one hand (``legal``, ``apply``: ``State._legal``, ``_follow``, ``_play``,
  ``_note_void``, ``_end_trick``, ``_end_hand``'s score), stopping when the hand is over;
- ``counter``'s bid and play from each player's own view (``counter_move``: ``_estimate``,
  ``_choose``, ``win_chance``, ``_beat_chance``, ``_hold_chance``; the binomials exact in 64
  bits, so every floating-point value, and so every tie, falls as in Python);
- the deals: the cards the seat cannot see shuffled uniformly and dealt again until every
  other hand keeps its shown voids and its 3 suit and 3 number cards (``State.determinize``'s
  constraints but the redeal shows, for which ``search.py`` passes Python's deals).

``model_totals`` sums, over the deals, the seat's score for the hand after each root action,
every player (the seat too) then playing ``counter``'s rule. Not reentrant: it holds the GIL.
"""

from libc.stdint cimport uint64_t
from libc.math cimport rint

from koira_env.core._rng cimport Rng, shuffle

cdef enum:
    NK = 12  # card kinds: 0-3 the suits, 4-11 the numbers 1-8
    NS = 4
    HAND = 13
    TRICKS = 12
    BID = 12
    MAXP = 4
    NUMBERS_VOID = 16
    BIDDING = 0
    FIRST = 1
    PLAYING = 2
    OVER = 3
    POOL = 64
    DEAL_TRIES = 500

cdef int COPIES[NK]
COPIES[:] = [8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4]

cdef double PER_HIGH = 0.65
cdef double PER_TRUMP = 1.4
cdef double MEAN_HIGH = <double>HAND / 2 * 3 / 8
cdef double MEAN_TRUMPS = <double>HAND / 2 / 4
cdef double AVOIDED = 0.25
cdef int HIGH = 6

cdef uint64_t COMB[POOL + 1][HAND + 1]


cdef void _setup():
    cdef int n, k
    for n in range(POOL + 1):
        COMB[n][0] = 1
        for k in range(1, HAND + 1):
            COMB[n][k] = 0 if k > n else COMB[n][k - 1] * (n - k + 1) // k


_setup()


cdef struct Hand:
    int n
    int trump
    int hands[MAXP][NK]
    int played[NK]
    int nplays[MAXP]
    int suit[MAXP]
    int number[MAXP]
    int void[MAXP]
    int bids[MAXP]
    int won[MAXP]
    int scores[MAXP]
    int leader
    int current
    int in_trick
    int step
    int phase
    int tricks


# ---------------------------------------------------------------------- the rules
cdef inline int trick_winner(int n, int* suits, int* numbers, int leader, int trump) noexcept:
    cdef int target = suits[leader], i, q, best = -1, winner = -1
    for i in range(n):
        if suits[i] == trump:
            target = trump
            break
    for i in range(n):
        q = (leader + i) % n
        if suits[q] == target and numbers[q] >= best:
            best = numbers[q]
            winner = q
    return winner


cdef int legal(Hand* s, int* out) noexcept:
    """``State._legal`` and ``_follow``, in kind order."""
    cdef int p = s.current, k, count = 0, lead
    cdef int* hand = s.hands[p]
    if s.phase == BIDDING:
        for k in range(TRICKS + 1):
            out[k] = BID + k
        return TRICKS + 1
    if s.phase == FIRST:
        if s.step:
            for k in range(NS, NK):
                if hand[k]:
                    out[count] = k
                    count += 1
            return count
        lead = s.suit[s.leader] if s.in_trick else -1
        if lead >= 0 and hand[lead]:
            out[0] = lead
            return 1
        for k in range(NS):
            if hand[k]:
                out[count] = k
                count += 1
        return count
    if s.phase != PLAYING:
        return 0
    for k in range(NK):
        if hand[k]:
            out[count] = k
            count += 1
    if not s.in_trick:
        return count
    lead = s.suit[s.leader]
    if s.suit[p] != lead:
        if hand[lead]:
            out[0] = lead
            return 1
        return count
    cdef int kept = 0
    for k in range(count):
        if out[k] >= NS or out[k] == lead:
            out[kept] = out[k]
            kept += 1
    return kept if kept else count


cdef void apply(Hand* s, int action) noexcept:
    """``State._bid`` / ``_play`` (with ``_note_void`` and ``_end_trick``)."""
    cdef int p = s.current, lead, kind = action, q
    if action >= BID:
        s.bids[p] = action - BID
        s.current = (p + 1) % s.n
        if s.current == s.leader:  # the first bidder leads the first trick
            s.phase = FIRST
        return
    s.hands[p][kind] -= 1
    s.played[kind] += 1
    s.nplays[p] += 1
    if s.in_trick:
        lead = s.suit[s.leader]
        if kind != lead:
            if kind < NS:
                if s.phase == PLAYING and s.suit[p] == lead:
                    s.void[p] |= NUMBERS_VOID | (1 << lead)
                else:
                    s.void[p] |= 1 << lead
            elif s.phase == PLAYING and s.suit[p] != lead:
                s.void[p] |= 1 << lead
    if kind < NS:
        s.suit[p] = kind
    else:
        s.number[p] = kind - NS + 1
    if s.phase == FIRST and not s.step:
        s.step = 1
        return
    s.step = 0
    s.in_trick += 1
    if s.in_trick < s.n:
        s.current = (p + 1) % s.n
        return
    q = trick_winner(s.n, s.suit, s.number, s.leader, s.trump)
    s.won[q] += 1
    s.tricks += 1
    s.phase = PLAYING
    s.in_trick = 0
    s.leader = s.current = q
    if s.tricks == TRICKS:
        s.phase = OVER


cdef inline int score(Hand* s, int p) noexcept:
    """``State._end_hand``'s score change: the bid if exact, else minus the miss."""
    cdef int d = s.won[p] - s.bids[p]
    return s.bids[p] if d == 0 else (-d if d > 0 else d)


cdef int value(Hand* s, int seat, int win_bonus) noexcept:
    """The seat's score for the hand, plus ``win_bonus`` if that makes its total the highest
    (ties too): ``search.hand_value``."""
    cdef int q, mine = s.scores[seat] + score(s, seat)
    if not win_bonus:
        return score(s, seat)
    for q in range(s.n):
        if q != seat and s.scores[q] + score(s, q) > mine:
            return score(s, seat)
    return score(s, seat) + win_bonus


# ---------------------------------------------------------------------- counter's rule
cdef int counter_bid(int* counts, int trump, int n) noexcept:
    """``bots._bid``: round (half to even, as Python) the hand's expected tricks."""
    cdef int k, high = 0
    for k in range(NS, NK):
        if k - NS + 1 >= HIGH:
            high += counts[k]
    cdef double tricks = (<double>TRICKS / n + PER_HIGH * (high - MEAN_HIGH)
                          + PER_TRUMP * (counts[trump] - MEAN_TRUMPS))
    if tricks < 0.0:
        tricks = 0.0
    if tricks > TRICKS:
        tricks = TRICKS
    return BID + <int>rint(tricks)


cdef inline bint kind_void(int k, int void) noexcept:
    return (void >> k) & 1 if k < NS else (void & NUMBERS_VOID) != 0


cdef double hold_chance(bint* kinds, int* unseen, int void, int size) noexcept:
    """``bots._hold_chance``: the chance a hand of ``size`` drawn from the unseen cards (its
    void kinds excepted) holds one of ``kinds``."""
    cdef int k, total = 0, good = 0
    for k in range(NK):
        if not kind_void(k, void):
            total += unseen[k]
            if kinds[k]:
                good += unseen[k]
    if not good or size <= 0:
        return 0.0
    if size > total - good:
        return 1.0
    return 1.0 - <double>COMB[total - good][size] / <double>COMB[total][size]


cdef inline bint beats(int suit, int number, int s, int v, int lead, int trump) noexcept:
    if s == trump:
        return suit == trump and number >= v
    return suit == trump or (suit == lead and lead == s and number >= v)


cdef double beat_chance(Hand* s, int q, int sh_s, int sh_v, int lead, int* unseen) noexcept:
    """``bots._beat_chance`` for ``q`` still to play against the shown (suit, number)."""
    cdef int trump = s.trump, k, size = HAND - s.nplays[q], void = s.void[q]
    cdef bint kinds[NK]
    cdef double forced, free, a, b
    for k in range(NK):
        kinds[k] = k == lead
    forced = hold_chance(kinds, unseen, void, size)
    if s.phase == FIRST:
        if trump == lead:
            free = 0.0
        else:
            for k in range(NK):
                kinds[k] = k == trump
            a = hold_chance(kinds, unseen, void, size)
            for k in range(NK):
                kinds[k] = k >= NS and beats(trump, k - NS + 1, sh_s, sh_v, lead, trump)
            free = a * hold_chance(kinds, unseen, void, size)
        for k in range(NK):
            kinds[k] = k >= NS and beats(lead, k - NS + 1, sh_s, sh_v, lead, trump)
        b = hold_chance(kinds, unseen, void, size)
        return forced * b + (1.0 - forced) * free
    cdef int q_suit = s.suit[q], q_number = s.number[q]
    for k in range(NK):
        if k < NS:
            kinds[k] = beats(k, q_number, sh_s, sh_v, lead, trump)
        else:
            kinds[k] = beats(q_suit, k - NS + 1, sh_s, sh_v, lead, trump)
    if q_suit == lead:
        for k in range(NS):
            if k != lead:
                kinds[k] = False
        return hold_chance(kinds, unseen, void, size)
    kinds[lead] = False
    free = hold_chance(kinds, unseen, void, size)
    return forced * (1.0 if beats(lead, q_number, sh_s, sh_v, lead, trump) else 0.0) + (
        1.0 - forced) * free


cdef double win_chance(Hand* s, int p, int* suits, int* numbers, int* unseen) noexcept:
    """``bots.win_chance``: the chance ``p`` takes the trick with ``suits``/``numbers`` shown
    after its card."""
    cdef int n = s.n, leader = s.leader, i, q
    cdef int masked[MAXP]
    for q in range(n):
        masked[q] = -1
    for i in range(s.in_trick + 1):
        q = (leader + i) % n
        masked[q] = suits[q]
    if trick_winner(n, masked, numbers, leader, s.trump) != p:
        return 0.0
    cdef double chance = 1.0, tries
    for i in range(s.in_trick + 1, n):
        q = (leader + i) % n
        tries = 1.0 if s.won[q] < s.bids[q] else AVOIDED
        chance *= 1.0 - tries * beat_chance(s, q, masked[p], numbers[p], masked[leader], unseen)
    return chance


cdef int shown_strength(int kind, int trump) noexcept:
    """``bots._shown_strength``: its number, or 9 for the trump suit."""
    if kind < NS:
        return 9 if kind == trump else 0
    return kind - NS + 1


cdef int counter_move(Hand* s, double margin) noexcept:
    """``CounterBot.act`` for the player to act, from its own view."""
    cdef int moves[TRICKS + 1]
    cdef int count = legal(s, moves)
    if count == 1:
        return moves[0]
    cdef int p = s.current, n = s.n, i, k, x, pick = -1
    if s.phase == BIDDING:
        return counter_bid(s.hands[p], s.trump, n)
    cdef int* hand = s.hands[p]
    cdef int unseen[NK]
    cdef int suits[MAXP]
    cdef int numbers[MAXP]
    cdef double values[NK]
    cdef double v, judged, best
    cdef bint pairing = s.phase == FIRST and moves[0] < NS
    cdef bint want = s.won[p] < s.bids[p]
    cdef bint seen
    for k in range(NK):
        unseen[k] = COPIES[k] - hand[k] - s.played[k]
    for i in range(count):
        kind = moves[i]
        for k in range(n):
            suits[k] = s.suit[k]
            numbers[k] = s.number[k]
        if kind < NS:
            suits[p] = kind
        else:
            numbers[p] = kind - NS + 1
        if pairing:
            seen = False
            judged = 0.0
            for x in range(NS, NK):
                if hand[x]:
                    numbers[p] = x - NS + 1
                    v = win_chance(s, p, suits, numbers, unseen)
                    if not seen or (v > judged if want else v < judged):
                        judged = v
                    seen = True
            values[i] = judged
        else:
            values[i] = win_chance(s, p, suits, numbers, unseen)
    best = values[0]
    for i in range(1, count):
        if (values[i] > best) if want else (values[i] < best):
            best = values[i]
    cdef int key, best_key = 1 << 30
    for i in range(count):
        if (values[i] >= best - margin) if want else (values[i] <= best + margin):
            key = shown_strength(moves[i], s.trump) * 16 + moves[i]
            if key < best_key:
                best_key = key
                pick = moves[i]
    return pick


cdef void play_out(Hand* s, double margin) noexcept:
    while s.phase != OVER:
        apply(s, counter_move(s, margin))


# ---------------------------------------------------------------------- deals
cdef bint deal(Hand* s, int seat, int* pool, int size, int* need_s, int* need_n,
               Rng* rng) noexcept:
    """Deal the shuffled ``pool`` (kinds) to the other players, as many as each holds; the
    rest is the undealt pile. False when a hand breaks a shown void or holds fewer suit or
    number cards than it must."""
    cdef int i, q, k, start = 0, room, suits, nums
    shuffle(pool, size, rng)
    for q in range(s.n):
        if q == seat:
            continue
        for k in range(NK):
            s.hands[q][k] = 0
        room = HAND - s.nplays[q]
        suits = 0
        for i in range(start, start + room):
            k = pool[i]
            if kind_void(k, s.void[q]):
                return False
            s.hands[q][k] += 1
            suits += k < NS
        nums = room - suits
        if suits < need_s[q] or nums < need_n[q]:
            return False
        start += room
    return True


cdef void read_position(Hand* s, dict pos, int* need_s, int* need_n):
    """The seat's view (``search.view_position``) into ``s``; the other hands empty."""
    cdef int q, k, seat = pos["seat"]
    s.n = pos["n"]
    s.trump = pos["trump"]
    for q in range(s.n):
        for k in range(NK):
            s.hands[q][k] = pos["hand"][k] if q == seat else 0
        s.nplays[q] = pos["nplays"][q]
        s.suit[q] = pos["suits"][q]
        s.number[q] = pos["numbers"][q]
        s.void[q] = pos["voids"][q]
        s.bids[q] = pos["bids"][q]
        s.won[q] = pos["won"][q]
        s.scores[q] = pos["scores"][q]
        need_s[q] = pos["needs"][q][0]
        need_n[q] = pos["needs"][q][1]
    for k in range(NK):
        s.played[k] = pos["played"][k]
    s.leader = pos["leader"]
    s.current = seat
    s.in_trick = pos["in_trick"]
    s.step = pos["step"]
    s.phase = pos["phase"]
    s.tricks = pos["tricks"]


cdef int hidden_pool(Hand* s, int seat, int* pool) noexcept:
    """The kinds the seat cannot see, one entry a card; returns how many."""
    cdef int k, c, size = 0
    for k in range(NK):
        for c in range(COPIES[k] - s.hands[seat][k] - s.played[k]):
            pool[size] = k
            size += 1
    return size


def deal_hands(dict pos, uint64_t seed):
    """One deal as ``model_totals`` draws it: every hand as counts per kind (the seat's its
    own), or None where rejection gives up (what the tests check against the constraints)."""
    cdef Hand s
    cdef int pool[POOL]
    cdef int need_s[MAXP]
    cdef int need_n[MAXP]
    cdef Rng rng
    rng.s = seed
    cdef int q, k, tries = 0, seat = pos["seat"]
    read_position(&s, pos, need_s, need_n)
    cdef int size = hidden_pool(&s, seat, pool)
    while not deal(&s, seat, pool, size, need_s, need_n, &rng):
        tries += 1
        if tries == DEAL_TRIES:
            return None
    return [[s.hands[q][k] for k in range(NK)] for q in range(s.n)]


def model_totals(dict pos, list actions, int deals, uint64_t seed, double margin=0.1,
                 list fixed=None, int win_bonus=0):
    """``[(action, summed value)]`` over ``deals`` deals for the seat of ``pos``
    (``search.view_position``): the seat's score for the hand after each of ``actions``,
    every player then playing ``counter``'s rule (``margin``), plus ``win_bonus`` where that
    makes its total the highest. ``fixed``: the deals to use
    (a list of per-player count lists, the seat's ignored) instead of drawing them."""
    cdef Hand root, s
    cdef int q, k, d, a, size = 0, tries, seat = pos["seat"]
    cdef int pool[POOL]
    cdef int need_s[MAXP]
    cdef int need_n[MAXP]
    cdef Rng rng
    rng.s = seed
    cdef int count = len(actions)
    cdef int acts[TRICKS + 1]
    cdef long long totals[TRICKS + 1]
    if count < 1 or count > TRICKS + 1:
        raise ValueError(f"model_totals needs 1 to {TRICKS + 1} actions, got {count}")
    if deals < 1:
        raise ValueError(f"model_totals needs at least one deal, got {deals}")
    if fixed is not None and len(fixed) < deals:
        raise ValueError(f"model_totals got {len(fixed)} fixed deals for {deals} deals")
    read_position(&root, pos, need_s, need_n)
    size = hidden_pool(&root, seat, pool)
    cdef int moves[TRICKS + 1]
    cdef int legal_count = legal(&root, moves)
    allowed = [moves[a] for a in range(legal_count)]
    for a in range(count):
        acts[a] = actions[a]
        totals[a] = 0
        if acts[a] not in allowed:
            raise ValueError(f"action {acts[a]} is not legal for the seat here: {allowed}")
    for d in range(deals):
        if fixed is not None:
            for q in range(root.n):
                if q != seat:
                    for k in range(NK):
                        root.hands[q][k] = fixed[d][q][k]
        else:
            tries = 0
            while not deal(&root, seat, pool, size, need_s, need_n, &rng):
                tries += 1
                if tries == DEAL_TRIES:
                    return None  # too constrained to deal by rejection: the caller deals
        for a in range(count):
            s = root
            apply(&s, acts[a])
            play_out(&s, margin)
            totals[a] += value(&s, seat, win_bonus)
    return [(actions[a], float(totals[a])) for a in range(count)]


def counter_action(dict pos, list hands, double margin=0.1):
    """``counter``'s move for the seat of ``pos`` with every hand given (``hands``): what the
    tests compare with ``bots.CounterBot``."""
    cdef Hand s
    cdef int need_s[MAXP]
    cdef int need_n[MAXP]
    cdef int q, k
    read_position(&s, pos, need_s, need_n)
    for q in range(s.n):
        for k in range(NK):
            s.hands[q][k] = hands[q][k]
    return counter_move(&s, margin)
