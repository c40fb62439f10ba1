# The cards a seat of the compiled Red7 core cannot see, mirroring engine.py's _hidden_from
# and State.determinize (included by _compiled.pyx): ``find_hidden`` collects them,
# ``place_hidden`` puts a shuffle of them where they lay: State.determinize's deal
# (core/_determinize.pxi) and the compiled search's (core/_search.pxi) both use the pair.

cdef inline bint hidden_from(int code, int seat) noexcept nogil:
    """engine._hidden_from: whether a card at location ``code`` is hidden from ``seat``."""
    return (
        code == DRAW
        or (code < PALETTE and code != seat)
        or (FOLDED <= code < DEAD and code - FOLDED != seat)
    )

cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """The cards ``seat`` cannot see and where they lie (engine.State.determinize's)."""
    cdef int c
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        if hidden_from(d.loc[c], seat):
            hide(h, c, d.loc[c])


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept:
    """``root`` with ``shuffled[i]`` put where ``h.cards[i]`` lay, hands, draw pile and folded
    hands rebuilt in that order, as engine.State.determinize places its shuffle."""
    cdef int i, q, card, code
    out[0] = root[0]
    for q in range(n):
        if q != seat:
            out.hand[q] = 0
            out.folded_len[q] = 0
    out.draw_len = 0
    for i in range(h.count):
        card = shuffled[i]
        code = h.places[i]
        out.loc[card] = code
        if code == DRAW:
            out.draw[out.draw_len] = card
            out.draw_len += 1
        elif code < PALETTE:
            out.hand[code] |= bit(card)
        else:
            q = code - FOLDED
            out.folded[q][out.folded_len[q]] = card
            out.folded_len[q] += 1
