# The cards a seat cannot see, for the compiled cores' deals (each game's `find_hidden` fills it,
# its `place_hidden` puts a shuffle of them where they lay; its State.determinize and its
# compiled search both deal that way). `cimport` what a module uses:
#
#     from koira_env.core._hidden cimport MAX_HIDDEN, Hidden, hide, hidden_list

from libc.stdint cimport uint8_t, uint64_t

cdef enum:
    MAX_HIDDEN = 64  # hidden cards at the most (a card mask's bits)


cdef struct Hidden:
    int count
    uint64_t mask  # the hidden cards as a card mask
    uint8_t cards[MAX_HIDDEN]  # in id order
    uint8_t places[MAX_HIDDEN]  # where each lies (the game's location code)


cdef inline void hide(Hidden* h, int card, int place) noexcept nogil:
    """Add ``card``, lying at ``place``, to the hidden cards (in id order: call in that order;
    ``h.count`` and ``h.mask`` start at 0)."""
    h.cards[h.count] = card
    h.places[h.count] = place
    h.mask |= (<uint64_t>1) << card
    h.count += 1


cdef inline list hidden_list(const Hidden* h):
    """The hidden cards, in id order, as a list."""
    return [h.cards[i] for i in range(h.count)]


cdef inline void copy_order(const Hidden* h, list cards, uint8_t* out):
    """``out[i] = cards[i]`` for the ``h.count`` hidden cards ``cards`` (in some order)."""
    cdef int i
    for i in range(h.count):
        out[i] = cards[i]
