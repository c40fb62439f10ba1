# The cards a seat of the compiled Teka core cannot see, mirroring engine.py's
# State.determinize and State._voids (included by _compiled.pyx): ``voids`` reads what the play
# showed, ``deal_hidden`` deals the other hands afresh with the reference's own deal
# (``core.deal.constrained_deal``: voids, the declarer's trump lead and, under
# ``no_honours="redeal"``, an honour in every hand as dealt), so the same ``rng`` gives the
# same deal on both engines.

from libc.stdint cimport uint64_t

from koira_env.core._bits cimport popcount

from koira_env.core._deal import constrained_deal

cdef object HONOURS_SET = reference.HONOURS_SET
cdef tuple SUIT_CARDS = reference.SUIT_CARDS


cdef inline int next_seat_of(const Data* d, int p) noexcept:
    p = (p + 1) % PLAYERS
    return (p + 1) % PLAYERS if p == d.out else p


cdef dict voids(const Data* d):
    """engine.State._voids: per seat, the cards it cannot hold (every suit it failed to follow
    this hand), as sets of card ids."""
    cdef dict forbidden = {p: set() for p in range(PLAYERS)}
    cdef int k, i, p, led
    for k in range(d.tricks_len + 1):
        if k < d.tricks_len:
            cards = [d.trick_cards[k][i] for i in range(d.trick_size[k])]
            p = d.trick_lead[k]
        elif d.trick_len:
            cards = [d.trick[i] for i in range(d.trick_len)]
            p = d.leader
        else:
            break
        led = cards[0] // 13
        for card in cards[1:]:
            p = next_seat_of(d, p)
            if card // 13 != led:
                forbidden[p] |= SUIT_CARDS[led]
    return forbidden


cdef int deal_hidden(State state, State copy, int seat, rng) except -1:
    """engine.State.determinize's deal, from ``state`` into ``copy`` (its clone)."""
    cdef const Data* d = &state.d
    cdef Data* out = &copy.d
    cdef int p, card
    cdef uint64_t hand
    others = [p for p in range(PLAYERS) if p != seat]
    hidden = []
    for p in others:
        hidden += mask_list(d.hand[p])
    needs = []
    if state.opt.no_honours == NO_HONOURS_REDEAL:
        shown = {d.by[c] for c in range(NUM_CARDS) if c % 13 >= 9}
        needs += [(p, HONOURS_SET) for p in others if p not in shown]
    if d.phase == PLAY and not d.tricks_len and not d.trick_len and d.declarer != seat:
        needs.append((d.declarer, SUIT_CARDS[d.trump]))
    room = {p: popcount(d.hand[p]) for p in others}
    deal = constrained_deal(hidden, others, voids(d), room, rng, needs)
    assert deal is not None, "the true deal satisfies every constraint"
    for p in others:
        out.hand[p] = 0
    for card, p in deal.items():
        out.hand[<int>p] |= bit(card)
        out.loc[<int>card] = HAND + p
    return 0
