# The cards a seat of the compiled Whist 22 core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``find_hidden`` collects them in the
# reference's order, ``place_hidden`` deals a shuffle of them back as the reference does;
# State.determinize's deal (core/_determinize.pxi) uses the pair.

cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """The cards ``seat`` cannot see, in the order engine.State.determinize lists them (so
    one shuffle of the list draws the same deal): the other players' hand cards in id order,
    then the cards set aside in id order. (Not the id order core/_hidden.pxd's ``hide``
    asks for: ``place_hidden`` below reads the order, not the places.)"""
    cdef int c, code
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        code = d.loc[c]
        if code < PLAYED and code != seat:
            hide(h, c, code)
    for c in range(NUM_CARDS):
        if d.loc[c] == ASIDE:
            hide(h, c, ASIDE)


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept:
    """``root`` with the shuffled hidden cards dealt as engine.State.determinize deals them:
    each other player in seat order takes as many as it holds, the rest go aside."""
    cdef int p, i, start = 0, count, card
    cdef uint32_t hand
    out[0] = root[0]
    for p in range(n):
        if p == seat:
            continue
        count = popcount(root.hand[p])
        hand = 0
        for i in range(start, start + count):
            card = shuffled[i]
            hand |= bit(card)
            out.loc[card] = HAND + p
        out.hand[p] = hand
        start += count
    for i in range(start, h.count):
        out.loc[shuffled[i]] = ASIDE
