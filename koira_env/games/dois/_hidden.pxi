# The cards a seat of the compiled Dois core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``caps_of`` and ``needs_of`` are
# engine.State._caps and _needs, ``redeal`` the constrained re-deal, calling the reference's
# ``_constrained_deal`` with the reference's arguments so the same ``rng`` draws the same deal.

_constrained_deal = reference._constrained_deal
_show_groups = reference._show_groups


cdef list caps_of(State state, int p):
    """engine.State._caps: per kind, the most ``p`` can hold now: none of a void kind; for a
    hand that was final when another showed theirs, its copies minus the shown ones and its
    own plays."""
    cdef const Data* d = &state.d
    cdef int void = d.void[p], k, i, j, mine
    cdef list caps = []
    for k in range(NUM_KINDS):
        if (k < NUM_SUITS and void >> k & 1) or (k >= NUM_SUITS and void & NUMBERS_VOID):
            caps.append(0)
        else:
            caps.append(COPIES[k])
    for j in range(d.shows_len):
        if d.show_final[j] >> p & 1:
            for k in range(NUM_KINDS):
                mine = 0
                for i in range(d.plays_len[p]):
                    if d.plays[p][i] == k:
                        mine += 1
                caps[k] = min(caps[k], COPIES[k] - d.show_counts[j][k] - mine)
    return caps


cdef tuple needs_of(const Data* d, int p):
    """engine.State._needs: the suit and number cards ``p`` must still hold (its hand began
    with 3 of each)."""
    cdef int i, suits = 0, numbers
    for i in range(d.plays_len[p]):
        if d.plays[p][i] < NUM_SUITS:
            suits += 1
    numbers = d.plays_len[p] - suits
    return max(MIN_OF_EACH - suits, 0), max(MIN_OF_EACH - numbers, 0)


cdef int redeal(State state, State copy, int seat, rng) except -1:
    """engine.State.determinize after its ``_unseen_copy``: the other hands and the undealt
    cards dealt again (``_constrained_deal``, the reference's arguments in its order, the
    shows' joint caps from ``_show_groups`` as the reference's)."""
    cdef const Data* d = &state.d
    cdef Data* c = &copy.d
    cdef int n = d.n, p, k, j
    others = [p for p in range(n) if p != seat]
    pool = bytearray(NUM_KINDS)
    for p in others:
        for k in range(NUM_KINDS):
            pool[k] += d.hands[p][k]
    for k in range(NUM_KINDS):
        pool[k] += d.remains[k]
    rooms = [sum(counts_list(d.hands[p])) for p in others] + [sum(counts_list(d.remains))]
    caps = [caps_of(state, p) for p in others] + [[COPIES[k] for k in range(NUM_KINDS)]]
    needs = [needs_of(d, p) for p in others] + [(0, 0)]
    groups = _show_groups(state.shown, state.plays, state.hands, seat, others)
    deal = _constrained_deal(pool, rooms, caps, needs, rng, groups)
    for j, p in enumerate(others):
        counts = deal[j]
        for k in range(NUM_KINDS):
            c.hands[p][k] = counts[k]
    counts = deal[len(deal) - 1]
    for k in range(NUM_KINDS):
        c.remains[k] = counts[k]
    return 0
