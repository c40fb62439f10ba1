# The rejection sampler of deals of Kop's and Teka's compiled solvers (their PIMC plug-ins'
# deals of the hidden cards), written once; included after ``_tricks.pxi`` by the games that
# deal this way (Whist 22 deals its own), so it sees the game's ``NUM_CARDS``.

cdef list rejection_deals(hands, uint64_t hidden, forbidden, needs, int count, uint64_t seed,
                          int max_tries):
    """Up to ``count`` deals of the ``hidden`` cards (a mask) to the seats, each seat getting as
    many as ``hands[seat]`` holds of them now, none of ``forbidden[seat]`` (a mask) and, for
    each ``(seat, wanted)`` of ``needs``, at least one card of the mask ``wanted``: uniform
    among such deals (a uniform shuffle, rejected until valid). Returns one tuple of masks a
    deal, the hidden cards re-dealt and the other cards kept; fewer than ``count`` when a deal
    took more than ``max_tries`` shuffles (the caller tops up with ``State.determinize``)."""
    cdef int cards[NUM_CARDS]
    cdef int room[8]
    cdef uint64_t bans[8]
    cdef uint64_t kept[8]
    cdef uint64_t dealt[8]
    cdef int need_seat[8]
    cdef uint64_t need_mask[8]
    cdef int n = 0, c, p, i, t, k, tries, ok, num_needs = len(needs), seats = len(hands)
    cdef Rng rng
    rng.s = seed
    if seats > 8 or num_needs > 8:
        raise ValueError("at most 8 seats and 8 needs")
    for i in range(num_needs):
        need_seat[i] = needs[i][0]
        need_mask[i] = needs[i][1]
    for c in range(NUM_CARDS):
        if (hidden >> c) & 1:
            cards[n] = c
            n += 1
    for p in range(seats):
        room[p] = sparse_popcount(<uint64_t>hands[p] & hidden)
        kept[p] = <uint64_t>hands[p] & ~hidden
        bans[p] = forbidden[p]
    out = []
    for k in range(count):
        ok = 0
        for tries in range(max_tries):
            shuffle(cards, n, &rng)
            ok = 1
            i = 0
            for p in range(seats):
                dealt[p] = kept[p]
                for t in range(room[p]):
                    dealt[p] |= (<uint64_t>1) << cards[i]
                    i += 1
                if dealt[p] & bans[p]:
                    ok = 0
                    break
            if ok:
                for i in range(num_needs):
                    if not (dealt[need_seat[i]] & need_mask[i]):
                        ok = 0
                        break
            if ok:
                break
        if not ok:
            break
        out.append(tuple([dealt[p] for p in range(seats)]))
    return out
