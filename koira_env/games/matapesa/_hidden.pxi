# The cards a seat of the compiled Mätäpesä core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``find_hidden`` collects them (the other
# hands), ``forbidden_sets`` says which hidden cards each seat cannot hold by the play so far, and
# ``deal_hidden``, State.determinize's deal, deals them with core.deal.constrained_deal.

cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """The cards ``seat`` cannot see and whose hand they are in (engine.State.determinize's:
    every card in a hand but its own, in id order)."""
    cdef int c
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        if d.loc[c] < PLAYED and d.loc[c] != seat:
            hide(h, c, d.loc[c])


from koira_env.core._hidden cimport hidden_list
from koira_env.core._deal import constrained_deal


cdef list forbidden_sets(State state, int seat):
    """engine.State._forbidden for the seats other than ``seat``: per seat, the hidden cards
    it cannot hold (a rank outside its bounds, engine.State._rank_bounds, or an id below the
    highest card of that rank it has played), as a list of sets indexed by seat."""
    cdef const Data* d = &state.d
    cdef int n = state.opt.n
    cdef int floor[MAX_PLAYERS][NUM_RANKS]
    cdef int lo[MAX_PLAYERS]
    cdef int hi[MAX_PLAYERS]
    cdef bint ruled
    cdef int k, r, p, c, need = -1
    for p in range(n):
        lo[p] = 0
        hi[p] = NUM_RANKS
    for k in range(d.plays_len):  # engine.State._rank_bounds
        r = rank_of(d.plays[k])
        p = d.loc[d.plays[k]] - PLAYED
        if k % n == 0:
            need = r
            continue
        if r < need:
            if r > lo[p]:
                lo[p] = r
            if not state.opt.lowest_anytime and need < hi[p]:
                hi[p] = need
        if not state.opt.follow_highest or r > need:
            need = r
    for p in range(n):
        for r in range(NUM_RANKS):
            floor[p][r] = -1 if lo[p] <= r < hi[p] else NUM_CARDS
    for k in range(d.plays_len):
        c = d.plays[k]
        p = d.loc[c] - PLAYED
        if floor[p][rank_of(c)] < c:
            floor[p][rank_of(c)] = c
    out = []
    for p in range(n):
        cards = set()
        if p != seat:
            ruled = False
            for r in range(NUM_RANKS):
                if floor[p][r] >= 0:
                    ruled = True
                    break
            if ruled:
                for c in range(NUM_CARDS):
                    if d.loc[c] < PLAYED and c < floor[p][rank_of(c)]:
                        cards.add(c)
        out.append(cards)
    return out


cdef int deal_hidden(State state, State copy, int seat, rng) except -1:
    """engine.State.determinize's deal: ``core.deal.constrained_deal`` called with the
    reference's arguments (the hidden cards in id order, the other seats in order,
    ``forbidden_sets``, the hand sizes), so ``rng`` is drawn from identically, the result
    placed into ``copy`` (a clone of ``state``)."""
    cdef Hidden h
    cdef const Data* d = &state.d
    cdef int n = state.opt.n
    cdef int i, p, card
    find_hidden(d, seat, &h)
    others = [p for p in range(n) if p != seat]
    room = {p: d.hand_sizes[p] for p in others}
    deal = constrained_deal(hidden_list(&h), others, forbidden_sets(state, seat), room, rng)
    if deal is None:
        raise RuntimeError("no deal of the hidden cards fits the play so far")
    for p in others:
        memset(copy.d.counts[p], 0, NUM_RANKS)
    for i in range(h.count):
        card = h.cards[i]
        p = deal[card]
        copy.d.loc[card] = p
        copy.d.counts[p][rank_of(card)] += 1
    return 0
