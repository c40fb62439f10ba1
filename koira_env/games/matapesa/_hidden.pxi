# The cards a seat of the compiled Mätäpesä core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``find_hidden`` collects them (the other
# hands), ``place_hidden`` puts a shuffle of them where they lay, ``match_suits`` moves the
# suits of a shuffle so that it fits the cards each seat has played (the lowest of a rank
# leaves first), and ``deal_matched``, State.determinize's deal, uses the three.

cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """The cards ``seat`` cannot see and whose hand they are in (engine.State.determinize's:
    every card in a hand but its own, in id order)."""
    cdef int c
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        if d.loc[c] < PLAYED and d.loc[c] != seat:
            hide(h, c, d.loc[c])


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept:
    """``root`` with ``shuffled[i]`` put into the hand ``h.cards[i]`` lay in, the other seats'
    rank counts rebuilt, as engine.State.determinize places its shuffle."""
    cdef int i, p, card
    out[0] = root[0]
    for p in range(n):
        if p != seat:
            memset(out.counts[p], 0, NUM_RANKS)
    for i in range(h.count):
        card = shuffled[i]
        p = h.places[i]
        out.loc[card] = p
        out.counts[p][rank_of(card)] += 1


from koira_env.core._hidden cimport MAX_HIDDEN, copy_order, hidden_list

cdef enum:
    DETERMINIZE_TRIES = 10000  # engine.DETERMINIZE_TRIES


cdef bint match_suits(
    const Data* d, const Hidden* h, const uint8_t* deal, uint8_t* out
) noexcept:
    """engine._match_suits, step for step: ``deal`` (``deal[i]`` goes where ``h.cards[i]``
    lay) into ``out`` with the suits of each rank moved among the hands it went to, so that
    every card of rank r a seat gets lies above every card of rank r that seat has played;
    False (``out`` then partial) if no such move exists."""
    cdef int top[MAX_PLAYERS][NUM_RANKS]
    cdef int slots[4]
    cdef int holders[4]
    cdef int took[4]
    cdef bint used[4]
    cdef int i, j, k, p, q, r, c, ns, nh, floor, want, got
    for p in range(MAX_PLAYERS):
        for r in range(NUM_RANKS):
            top[p][r] = -1
    for c in range(NUM_CARDS):
        if PLAYED <= d.loc[c] < OUT_OF_PLAY:
            top[d.loc[c] - PLAYED][rank_of(c)] = c
    for i in range(h.count):
        out[i] = deal[i]
    for r in range(NUM_RANKS):
        ns = 0
        nh = 0
        for i in range(h.count):
            if rank_of(deal[i]) != r:
                continue
            slots[ns] = i
            used[ns] = False
            ns += 1
            p = h.places[i]
            for j in range(nh):
                if holders[j] == p:
                    break
            else:  # a new holder, inserted by highest played card first, then seat
                j = nh
                while j > 0:
                    q = holders[j - 1]
                    if top[q][r] > top[p][r] or (top[q][r] == top[p][r] and q < p):
                        break
                    holders[j] = q
                    j -= 1
                holders[j] = p
                nh += 1
        for k in range(nh):
            p = holders[k]
            floor = top[p][r]
            want = 0
            got = 0
            for j in range(ns):
                if h.places[slots[j]] == p:
                    want += 1
                    if not used[j] and deal[slots[j]] > floor:
                        used[j] = True
                        took[got] = j
                        got += 1
            for j in range(ns):
                if got == want:
                    break
                if not used[j] and deal[slots[j]] > floor:
                    used[j] = True
                    took[got] = j
                    got += 1
            if got < want:
                return False
            i = 0
            for j in range(ns):
                if h.places[slots[j]] == p:
                    out[slots[j]] = deal[slots[took[i]]]
                    i += 1
    return True


cdef int deal_matched(State state, State copy, int seat, rng) except -1:
    """engine.State.determinize's deal: shuffles of the hidden cards (each from id order)
    until one has ranks within each seat's bounds (engine.State._rank_bounds) and
    ``match_suits`` fits it, ``DETERMINIZE_TRIES`` at the most (the last kept as shuffled if
    none fits), placed into ``copy`` (a clone of ``state``)."""
    cdef Hidden h
    cdef uint8_t order[MAX_HIDDEN]
    cdef uint8_t matched[MAX_HIDDEN]
    cdef int lo[MAX_PLAYERS]
    cdef int hi[MAX_PLAYERS]
    cdef int t, i, k, r, p, need = -1
    cdef const Data* d = &state.d
    cdef int n = state.opt.n
    for p in range(n):
        lo[p] = 0
        hi[p] = NUM_RANKS
    for k in range(d.plays_len):  # engine.State._rank_bounds
        r = rank_of(d.plays[k])
        p = d.loc[d.plays[k]] - PLAYED
        if k % n == 0:
            need = r
            continue
        if r < need:
            if r > lo[p]:
                lo[p] = r
            if not state.opt.lowest_anytime and need < hi[p]:
                hi[p] = need
        if not state.opt.follow_highest or r > need:
            need = r
    find_hidden(d, seat, &h)
    for t in range(DETERMINIZE_TRIES):
        shuffled = hidden_list(&h)
        rng.shuffle(shuffled)
        copy_order(&h, shuffled, order)
        for i in range(h.count):
            r = rank_of(order[i])
            p = h.places[i]
            if r < lo[p] or r >= hi[p]:
                break
        else:
            if match_suits(d, &h, order, matched):
                place_hidden(&copy.d, d, &h, matched, n, seat)
                return 0
    place_hidden(&copy.d, d, &h, order, n, seat)
    return 0
