# The cards a seat of the compiled Kop core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``forbidden_of`` is engine.State._forbidden
# for one seat as a card mask, ``deal_hidden`` the constrained re-deal, calling
# ``core.deal.constrained_deal`` with the reference's arguments so the same ``rng`` draws the
# same deal.

cdef uint16_t forbidden_of(const Data* d, int seat) noexcept:
    """engine.State._forbidden for ``seat``: a suit it did not follow (and trumps when it did
    not trump), and the cards of its allowed suit that would have taken a trick it let go."""
    cdef uint16_t gone = 0
    cdef int t, i, n, lead, led, best, card, suit
    cdef const uint8_t* cards
    for t in range(d.tricks_len + 1):
        if t < d.tricks_len:
            lead = d.trick_leaders[t]
            cards = d.trick_cards[t]
            n = PLAYERS
        else:
            lead = d.trick_leader
            cards = d.trick
            n = d.trick_len
        if n == 0:
            continue
        led = SUIT_OF[cards[0]]
        best = cards[0]
        for i in range(1, n):
            card = cards[i]
            suit = SUIT_OF[card]
            if (lead + i) % PLAYERS != seat:
                if beats(card, best):
                    best = card
                continue
            if suit != led:
                gone |= SUIT_MASK[led]
                if suit != SUIT_TRUMP:
                    gone |= SUIT_MASK[SUIT_TRUMP]
            if beats(card, best):
                best = card
            elif suit == led or suit == SUIT_TRUMP:
                gone |= BEATERS[best] & SUIT_MASK[suit]
            else:
                gone |= BEATERS[best]
    return gone


cdef uint16_t required_of(const Data* d, int seat) noexcept:
    """engine.State._required: the unplayed cards a public call puts in the caller's hand
    (both black queens and, for a jack call, the higher jacks it skipped), unless ``seat`` is
    the caller."""
    cdef uint16_t cards
    cdef int i
    if not (d.decision == CALL or d.decision == SOLO) or d.decider == seat:
        return 0
    cards = bit(QC) | bit(QS)
    if d.decision == CALL:
        for i in range(JACK_INDEX[d.called_jack]):
            cards |= bit(JACKS[i])
    for i in range(NUM_CARDS):
        if d.by[i] != NOBODY:
            cards &= ~bit(i)
    return cards


cdef int deal_hidden(State state, State copy, int seat, rng) except -1:
    """engine.State.determinize after its ``_unseen_copy``: the other hands' cards re-dealt
    (``constrained_deal``, the reference's arguments in its order), then the black queens'
    holder and its silence as the new deal has them, and the sides."""
    cdef const Data* d = &state.d
    cdef Data* c = &copy.d
    cdef uint16_t required = required_of(d, seat)
    cdef uint16_t gone, hand
    cdef int p, card, q0, q1
    others = [p for p in range(PLAYERS) if p != seat]
    hidden = []
    forbidden = []
    for p in range(PLAYERS):
        hidden += mask_list(d.hand[p]) if p != seat else []
        gone = forbidden_of(d, p)
        if required and p != seat and p != d.decider:
            gone |= required
        forbidden.append(set(mask_list(gone)))
    room = {p: sparse_popcount(d.hand[p]) for p in others}
    deal = constrained_deal(hidden, others, forbidden, room, rng)
    assert deal is not None, "the true deal satisfies every constraint"
    for p in others:
        c.hand[p] = 0
    for card, p in deal.items():
        c.hand[<int>p] |= bit(card)
        c.loc[<int>card] = HAND + <int>p
    if not (d.decision == CALL or d.decision == SOLO):
        q0 = owner(c, QC)
        q1 = owner(c, QS)
        c.decider = q0 if q0 == q1 else -1
        c.decision = SILENT if c.decider >= 0 and copy._declared(c.decider) else -1
    if c.phase != DECLARE:
        sides(c)
    return 0

