# The cards a seat of the compiled Mätäpesä core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``find_hidden`` collects them (the other
# hands), ``place_hidden`` puts a shuffle of them where they lay: State.determinize's deal
# (core/_determinize.pxi) uses the pair.

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
