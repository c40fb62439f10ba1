# What one seat of the compiled Koira core may know, mirroring info.py (included by
# _compiled.pyx): the card locations it knows (known_locations), the trump suit it knows
# (known_trump_suit) and its view (seat_view, State.view); then the cards it cannot see,
# which engine.State.determinize deals afresh: find_hidden collects them, place_hidden puts
# a shuffle of them where they lay: State.determinize's deal (core/_determinize.pxi) and the
# compiled search's (core/_search.pxi) both use the pair.

cdef inline void known_locations(State state, int seat, uint8_t* where) noexcept:
    """info.known_locations: ``pub`` plus the seat's own hand and its hidden trump card."""
    cdef Data* d = &state.d
    cdef uint64_t mask = d.hand[seat]
    memcpy(where, d.pub, NUM_CARDS)
    while mask:
        where[lowest(mask)] = HAND + seat
        mask &= mask - 1
    if d.trump_holder == seat and d.trump_card >= 0 and d.loc[d.trump_card] == TRUMP_ASIDE:
        where[d.trump_card] = TRUMP_ASIDE


cdef inline int known_trump_suit(State state, int seat) noexcept:
    """info.known_trump_suit: the hidden trump card's holder knows the suit early."""
    if state.d.trump_suit >= 0:
        return state.d.trump_suit
    if state.d.trump_holder == seat and state.d.trump_card >= 0:
        return state.d.trump_card // 13
    return -1


cdef seat_view(State state, int seat):
    """info.seat_view: what ``seat`` may know (``info.SeatView``), for ``State.view``."""
    cdef Data* d = &state.d
    cdef uint8_t where[NUM_CARDS]
    cdef uint8_t cards[NUM_CARDS]
    cdef int n = state.opt.n
    cdef int count
    cdef bint phase_one = d.phase == PHASE_ONE
    _seat(state, seat)
    count = in_order(d, d.hand[seat], not d.hands_sorted, cards)
    known_locations(state, seat, where)
    return SeatView(
        seat,
        n,
        d.phase,
        d.h.current,
        tuple([cards[i] for i in range(count)]),
        tuple(state.legal_actions()) if d.h.current == seat else (),
        (<char*>where)[:NUM_CARDS],
        tuple([popcount(d.hand[p]) for p in range(n)]),
        tuple([popcount(d.won[p]) for p in range(n)]),
        d.stock_len,
        known_trump_suit(state, seat),
        d.trump_holder,
        tuple(state.pile) if phase_one else (),
        tuple(state.round_cards) if phase_one else (),
        tuple(state.round_players) if phase_one and d.in_war else (),
        d.war_rank if phase_one and d.in_war else -1,
        d.war_depth if phase_one else 0,
        tuple([(p, tuple(cs)) for p, cs in state.trick]),
        d.trick_count,
        d.trick_needed,
        tuple(state.out),
        tuple(state.placements),
    )


cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """engine.State.determinize's hidden cards: unknown to ``seat`` and not its own (nor the
    trump card it set aside)."""
    cdef int c
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        if (
            d.pub[c] == UNKNOWN
            and d.loc[c] != HAND + seat
            and not (d.loc[c] == TRUMP_ASIDE and d.trump_holder == seat)
        ):
            hide(h, c, d.loc[c])


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept:
    """``root`` with hidden card ``shuffled[i]`` where ``h.cards[i]`` was (its location and its
    place in hand), as engine.State.determinize places its shuffle. ``seat`` (whose deal it
    is) is the cores' common signature: Koira's locations alone say where each card goes."""
    cdef int new_for[NUM_CARDS]  # the card now in old's place
    cdef int i, p, old, new
    cdef uint64_t old_hand
    out[0] = root[0]
    if h.count == 0:
        return
    for i in range(NUM_CARDS):
        new_for[i] = i
    for i in range(h.count):
        old = h.cards[i]
        new = shuffled[i]
        new_for[old] = new
        out.loc[new] = root.loc[old]
        out.stamp[new] = root.stamp[old]  # the new card takes the old one's place in hand
    for p in range(n):
        old_hand = out.hand[p] & h.mask
        out.hand[p] &= ~h.mask
        while old_hand:
            out.hand[p] |= bit(new_for[lowest(old_hand)])
            old_hand &= old_hand - 1
    if out.phase != PHASE_ONE:
        out.hands_sorted = True  # the reference sorts hands outside phase one
    for i in range(out.stock_len):
        out.stock[i] = new_for[out.stock[i]]
    if out.trump_card >= 0:
        out.trump_card = new_for[out.trump_card]
