# The deal of a compiled core's ``State.determinize``, written once: the cards a seat cannot
# see dealt afresh among the places it cannot see into, counts kept. A game's _compiled.pyx
# includes this file; it uses the core's ``State`` (its ``d``, the ``Data`` struct, and its
# ``opt.n``), ``find_hidden`` and ``place_hidden`` (each game's own: which cards are hidden
# and how a shuffle of them is put back, as the game's engine.State.determinize does).
#
# The calls to ``rng`` are the reference's: one ``shuffle`` of the hidden cards as a list in
# ``find_hidden``'s order (id order; Whist 22's reference lists the other hands' cards, then
# those set aside), so both engines give the same deal for the same generator state. A game whose
# reference draws more (Red7's fresh seed) draws it before calling ``deal_hidden``.

from libc.stdint cimport uint8_t

from koira_env.core._hidden cimport MAX_HIDDEN, Hidden, copy_order, hidden_list
from koira_env.core._shuffle cimport RandomState, random_in_c, random_load, random_save, random_shuffle


cdef int deal_hidden(State state, State copy, int seat, rng) except -1:
    """Deal the cards ``seat`` cannot see in ``state`` afresh into ``copy`` (a clone of
    ``state``), with one ``rng.shuffle``: engine.State.determinize's deal. The shuffle is made
    in C from ``rng``'s own generator where core/_shuffle can follow it (the same draws)."""
    cdef Hidden h
    cdef RandomState generator
    cdef uint8_t order[MAX_HIDDEN]
    cdef int cards[MAX_HIDDEN]
    cdef int i
    find_hidden(&state.d, seat, &h)
    if random_in_c(rng):
        for i in range(h.count):
            cards[i] = h.cards[i]
        rest = random_load(rng, &generator)
        random_shuffle(&generator, cards, h.count)
        random_save(rng, &generator, rest)
        for i in range(h.count):
            order[i] = cards[i]
    else:
        shuffled = hidden_list(&h)
        rng.shuffle(shuffled)
        copy_order(&h, shuffled, order)
    place_hidden(&copy.d, &state.d, &h, order, state.opt.n, seat)
    return 0
