# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""``core.deal.constrained_deal`` in C, for the compiled cores' ``determinize``.

The same deal for the same generator: every draw the reference makes from its
``random.Random`` (the plain shuffles, each need's options shuffled, the backtracking deal's
order by ``rng.random()`` and its shuffled choices) is made here from that generator's own
state (``core/_shuffle``'s ``RandomState``), in the same order. A generator C cannot follow
(``random_in_c``: a subclass of Random, say), or a problem beyond what the C arrays hold,
gets the reference's function.
"""

from libc.stdint cimport int8_t, uint64_t

from koira_env.core._shuffle cimport (
    RandomState,
    random_in_c,
    random_load,
    random_save,
    random_shuffle,
    random_word,
)

from . import deal as reference

cdef int SHUFFLE_TRIES = reference.SHUFFLE_TRIES

cdef enum:
    MAX_CARDS = 64  # card ids 0..63 (masks)
    MAX_SEATS = 8
    MAX_NEEDS = 8


cdef struct Problem:
    const int* cards  # in the caller's order (the reference's list)
    int count
    const int* seats
    int seat_count
    const uint64_t* forbidden  # by seat id
    int room[MAX_SEATS]  # by seat id; the backtracking deal's room left
    const int* need_seats
    const uint64_t* need_cards
    int needs
    RandomState* rng
    int8_t* owner  # by card id: the seat dealt it


cdef inline uint64_t bit(int card) noexcept:
    return (<uint64_t>1) << card


cdef bint fits(Problem* s) noexcept:
    """The plain shuffle's deal (``owner``) avoids every seat's forbidden cards and meets
    every need."""
    cdef int i, k, card
    cdef uint64_t held
    for i in range(s.count):
        card = s.cards[i]
        if s.forbidden[s.owner[card]] & bit(card):
            return False
    for k in range(s.needs):
        held = 0
        for i in range(s.count):
            if s.owner[s.cards[i]] == s.need_seats[k]:
                held |= bit(s.cards[i])
        if not held & s.need_cards[k]:
            return False
    return True


cdef bint place(Problem* s, const int* order, int count, int i) noexcept:
    """The reference's ``backtrack.place``: ``order[i:]`` dealt within the room left."""
    cdef int choices[MAX_SEATS]
    cdef int c = 0, j, p, card
    if i == count:
        return True
    card = order[i]
    for j in range(s.seat_count):
        p = s.seats[j]
        if not s.forbidden[p] & bit(card) and s.room[p] > 0:
            choices[c] = p
            c += 1
    random_shuffle(s.rng, choices, c)
    for j in range(c):
        p = choices[j]
        s.room[p] -= 1
        s.owner[card] = p
        if place(s, order, count, i + 1):
            return True
        s.room[p] += 1
    return False


cdef bint backtrack(Problem* s, uint64_t placed) noexcept:
    """The reference's ``backtrack`` of the cards not ``placed``: ordered by how few seats may
    hold them, ties by ``rng.random()`` (drawn for each card in the caller's order), then
    dealt depth-first."""
    cdef int order[MAX_CARDS]
    cdef int options[MAX_CARDS]
    cdef uint64_t ties[MAX_CARDS]
    cdef int count = 0, i, j, card, n
    cdef uint64_t a, b, tie
    for i in range(s.count):
        card = s.cards[i]
        if placed & bit(card):
            continue
        n = 0
        for j in range(s.seat_count):
            n += not s.forbidden[s.seats[j]] & bit(card)
        a = random_word(s.rng) >> 5  # random(): 53 bits from two words, compared as ints
        b = random_word(s.rng) >> 6
        tie = a << 26 | b
        j = count  # sorted() is stable: insert after every key not greater
        while j > 0 and (options[j - 1] > n or (options[j - 1] == n and ties[j - 1] > tie)):
            order[j] = order[j - 1]
            options[j] = options[j - 1]
            ties[j] = ties[j - 1]
            j -= 1
        order[j] = card
        options[j] = n
        ties[j] = tie
        count += 1
    return place(s, order, count, 0)


cdef int deal_cards(Problem* s) noexcept:
    """The reference's ``constrained_deal`` into ``s.owner``: 1 dealt, 0 no deal (None)."""
    cdef int order[MAX_CARDS]
    cdef int options[MAX_NEEDS][MAX_CARDS]
    cdef int sizes[MAX_NEEDS]
    cdef int picks[MAX_NEEDS]
    cdef int room[MAX_SEATS]
    cdef int t, i, j, k, p, card
    cdef uint64_t placed
    cdef bint clash
    for i in range(s.count):
        order[i] = s.cards[i]
    for t in range(SHUFFLE_TRIES):
        random_shuffle(s.rng, order, s.count)
        i = 0
        for j in range(s.seat_count):
            p = s.seats[j]
            for k in range(s.room[p]):
                s.owner[order[i + k]] = p
            i += s.room[p]
        if fits(s):
            return 1
    for k in range(s.needs):  # each need's candidates, in the caller's order, shuffled
        p = s.need_seats[k]
        sizes[k] = 0
        for i in range(s.count):
            card = s.cards[i]
            if s.need_cards[k] & bit(card) and not s.forbidden[p] & bit(card):
                options[k][sizes[k]] = card
                sizes[k] += 1
        random_shuffle(s.rng, options[k], sizes[k])
        picks[k] = 0
    for k in range(s.needs):
        if not sizes[k]:  # a need no card can meet: no deal (after every shuffle, as there)
            return 0
    for j in range(s.seat_count):
        room[s.seats[j]] = s.room[s.seats[j]]
    while True:  # itertools.product over the needs' picks, the last need fastest
        placed = 0
        clash = False
        for j in range(s.seat_count):
            s.room[s.seats[j]] = room[s.seats[j]]
        for k in range(s.needs):
            card = options[k][picks[k]]
            if placed & bit(card):
                if s.owner[card] != s.need_seats[k]:
                    clash = True
                    break
                continue
            placed |= bit(card)
            s.owner[card] = s.need_seats[k]
            s.room[s.need_seats[k]] -= 1
        if not clash:
            for j in range(s.seat_count):
                if s.room[s.seats[j]] < 0:
                    clash = True
            if not clash and backtrack(s, placed):
                return 1
        k = s.needs - 1
        while k >= 0:
            picks[k] += 1
            if picks[k] < sizes[k]:
                break
            picks[k] = 0
            k -= 1
        if k < 0:
            return 0


def constrained_deal(cards, seats, forbidden, room, rng, needs=()):
    """``core.deal.constrained_deal`` (the same arguments, the same dict of card -> seat or
    ``None``, the same draws from ``rng``), in C where ``rng`` can be followed there."""
    cdef Problem s
    cdef RandomState generator
    cdef int card_ids[MAX_CARDS]
    cdef int seat_ids[MAX_SEATS]
    cdef uint64_t bans[MAX_SEATS]
    cdef int need_seats[MAX_NEEDS]
    cdef uint64_t need_cards[MAX_NEEDS]
    cdef int8_t owner[MAX_CARDS]
    cdef int i, p, found, total = 0
    if (
        not random_in_c(rng)
        or len(cards) > MAX_CARDS
        or len(seats) > MAX_SEATS
        or len(needs) > MAX_NEEDS
    ):
        return reference.constrained_deal(cards, seats, forbidden, room, rng, needs)
    s.count = len(cards)
    for i in range(s.count):
        card = cards[i]
        if not 0 <= card < MAX_CARDS:  # beyond a card mask: the reference's own (nothing drawn)
            return reference.constrained_deal(cards, seats, forbidden, room, rng, needs)
        card_ids[i] = card
    s.seat_count = len(seats)
    for i in range(s.seat_count):
        p = seats[i]
        if not 0 <= p < MAX_SEATS:
            return reference.constrained_deal(cards, seats, forbidden, room, rng, needs)
        seat_ids[i] = p
        s.room[p] = room[p]
        total += s.room[p]
        bans[p] = 0
        for card in forbidden[p]:
            if 0 <= card < MAX_CARDS:
                bans[p] |= bit(card)
    if total != s.count:  # rooms that do not hold the cards exactly: the reference's own
        return reference.constrained_deal(cards, seats, forbidden, room, rng, needs)
    s.needs = len(needs)
    for i in range(s.needs):
        need_seats[i] = needs[i][0]
        need_cards[i] = 0
        for card in needs[i][1]:
            if 0 <= card < MAX_CARDS:
                need_cards[i] |= bit(card)
    s.cards = card_ids
    s.seats = seat_ids
    s.forbidden = bans
    s.need_seats = need_seats
    s.need_cards = need_cards
    s.owner = owner
    s.rng = &generator
    rest = random_load(rng, &generator)
    try:
        found = deal_cards(&s)
    finally:
        random_save(rng, &generator, rest)
    if not found:
        return None
    return {card_ids[i]: owner[card_ids[i]] for i in range(s.count)}
