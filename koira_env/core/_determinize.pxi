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


cdef int deal_hidden(State state, State copy, int seat, rng) except -1:
    """Deal the cards ``seat`` cannot see in ``state`` afresh into ``copy`` (a clone of
    ``state``), with one ``rng.shuffle``: engine.State.determinize's deal."""
    cdef Hidden h
    cdef uint8_t order[MAX_HIDDEN]
    find_hidden(&state.d, seat, &h)
    shuffled = hidden_list(&h)
    rng.shuffle(shuffled)
    copy_order(&h, shuffled, order)
    place_hidden(&copy.d, &state.d, &h, order, state.opt.n, seat)
    return 0
