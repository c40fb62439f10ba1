# The cards a seat of the compiled Dois core cannot see, mirroring engine.py's
# State.determinize (included by _compiled.pyx): ``caps_into`` and ``needs_into`` are
# engine.State._caps and _needs, ``show_groups_into`` is engine._show_groups, and
# ``constrained_deal`` is engine._constrained_deal step for step, drawing from the caller's
# ``random.Random`` in C as the reference draws from it (core/_shuffle's ``RandomState``), so
# the same ``rng`` gives the same deal. A generator C cannot follow (``random_in_c``: a
# subclass of Random, say) gets the reference's own ``_constrained_deal``.

from koira_env.core._shuffle cimport (
    RandomState,
    random_in_c,
    random_load,
    random_save,
    random_shuffle,
)

cdef int SHUFFLE_TRIES = reference.SHUFFLE_TRIES
cdef long long SEARCH_STEPS = reference.SEARCH_STEPS


cdef enum:
    PLACES = MAXP + 1  # the hidden hands (every hand for no seat), then the undealt cards


cdef struct Deal:
    # engine._constrained_deal's arguments
    int places
    int pool[NUM_KINDS]
    int rooms[PLACES]
    int caps[PLACES][NUM_KINDS]
    int needs[PLACES][2]  # suit cards, number cards
    int groups  # _show_groups: the places of each group (a bit each) and their joint caps
    int members[MAX_SHOWS]
    int group_caps[MAX_SHOWS][NUM_KINDS]
    # the deal, and the depth-first search's state
    uint8_t deal[PLACES][NUM_KINDS]  # counts, as a hand's
    int room[PLACES]
    int kinds[NUM_KINDS]
    int kind_count
    long long steps
    long long budget  # the depth-first deal's steps before it starts again
    RandomState* rng


cdef void caps_into(const Data* d, int p, int* caps) noexcept:
    """engine.State._caps: per kind, the most ``p`` can hold now: none of a void kind; for a
    hand that was final when another showed theirs, its copies minus the shown ones and its
    own plays."""
    cdef int void = d.void[p], k, i, j, mine
    for k in range(NUM_KINDS):
        if (k < NUM_SUITS and void >> k & 1) or (k >= NUM_SUITS and void & NUMBERS_VOID):
            caps[k] = 0
        else:
            caps[k] = COPIES[k]
    for j in range(d.shows_len):
        if d.show_final[j] >> p & 1:
            for k in range(NUM_KINDS):
                mine = 0
                for i in range(d.plays_len[p]):
                    if d.plays[p][i] == k:
                        mine += 1
                caps[k] = min(caps[k], COPIES[k] - d.show_counts[j][k] - mine)


cdef void needs_into(const Data* d, int p, int* needs) noexcept:
    """engine.State._needs: the suit and number cards ``p`` must still hold (its hand began
    with 3 of each)."""
    cdef int i, suits = 0, numbers
    for i in range(d.plays_len[p]):
        if d.plays[p][i] < NUM_SUITS:
            suits += 1
    numbers = d.plays_len[p] - suits
    needs[0] = max(MIN_OF_EACH - suits, 0)
    needs[1] = max(MIN_OF_EACH - numbers, 0)


cdef void show_groups_into(const Data* d, int seat, const int* others, Deal* s) noexcept:
    """engine._show_groups: for each show, the hidden hands final then (a bit per place) and
    per kind the most they may hold together now; the same places at a later show tighten
    the earlier group's caps."""
    cdef int cap[NUM_KINDS]
    cdef int j, i, k, r, q, g, places, seen
    s.groups = 0
    for j in range(d.shows_len):
        for k in range(NUM_KINDS):
            cap[k] = COPIES[k] - d.show_counts[j][k]
        seen = 1 << d.show_player[j]  # each later shower's hand at this show: its next show
        for i in range(j + 1, d.shows_len):
            r = d.show_player[i]
            if not seen >> r & 1:
                seen |= 1 << r
                for k in range(NUM_KINDS):
                    cap[k] -= d.show_counts[i][k]
        for q in range(d.n):
            if d.show_final[j] >> q & 1:
                for i in range(d.plays_len[q]):
                    cap[d.plays[q][i]] -= 1
                if q == seat:
                    for k in range(NUM_KINDS):
                        cap[k] -= d.hands[q][k]
        places = 0
        for i in range(s.places - 1):
            if d.show_final[j] >> others[i] & 1:
                places |= 1 << i
        for g in range(s.groups):
            if s.members[g] == places:
                for k in range(NUM_KINDS):
                    s.group_caps[g][k] = min(s.group_caps[g][k], cap[k])
                break
        else:
            if places:
                s.members[s.groups] = places
                memcpy(s.group_caps[s.groups], cap, sizeof(cap))
                s.groups += 1


cdef bint fits(const uint8_t* counts, const int* cap, const int* need) noexcept:
    """engine._fits"""
    cdef int k
    for k in range(NUM_KINDS):
        if counts[k] > cap[k]:
            return False
    return suit_cards(counts) >= need[0] and number_cards(counts) >= need[1]


cdef bint groups_hold(Deal* s) noexcept:
    """Every group's places together within its caps."""
    cdef int g, j, k, total
    for g in range(s.groups):
        for k in range(NUM_KINDS):
            total = 0
            for j in range(s.places):
                if s.members[g] >> j & 1:
                    total += s.deal[j][k]
            if total > s.group_caps[g][k]:
                return False
    return True


cdef bint shuffled_deal(Deal* s) noexcept:
    """The reference's plain shuffles: the pool's cards, shuffled again each try, cut into
    the places in order; the first deal within every constraint."""
    cdef int cards[PLAY_CARDS]
    cdef int count = 0, t, j, k, c, start
    cdef bint good
    for k in range(NUM_KINDS):
        for c in range(s.pool[k]):
            cards[count] = k
            count += 1
    for t in range(SHUFFLE_TRIES):
        random_shuffle(s.rng, cards, count)
        start = 0
        good = True
        for j in range(s.places):
            memset(s.deal[j], 0, sizeof(s.deal[j]))
            for c in range(start, start + s.rooms[j]):
                s.deal[j][cards[c]] += 1
            start += s.rooms[j]
            if not fits(s.deal[j], s.caps[j], s.needs[j]):
                good = False
                break
        if good and groups_hold(s):
            return True
    return False


cdef bint feasible(Deal* s, int index) noexcept:
    """Whether the kinds from ``index`` on can still fill every place and its needs, and
    every group within its caps (the reference's ``feasible``)."""
    cdef int j, t, k, g, most, caps_in, supply_s, supply_n, need_s, need_n, outside
    cdef int room_in, room_out
    for j in range(s.places):
        supply_s = supply_n = 0
        for t in range(index, s.kind_count):
            k = s.kinds[t]
            if k < NUM_SUITS:
                supply_s += min(s.pool[k], s.caps[j][k])
            else:
                supply_n += min(s.pool[k], s.caps[j][k])
        need_s = max(s.needs[j][0] - suit_cards(s.deal[j]), 0)
        need_n = max(s.needs[j][1] - number_cards(s.deal[j]), 0)
        if supply_s < need_s or supply_n < need_n or supply_s + supply_n < s.room[j]:
            return False
        if s.room[j] < need_s + need_n:
            return False
    for g in range(s.groups):
        supply_s = supply_n = outside = 0
        for t in range(index, s.kind_count):
            k = s.kinds[t]
            caps_in = 0
            for j in range(s.places):
                if s.members[g] >> j & 1:
                    caps_in += s.caps[j][k]
            most = min(s.pool[k], s.group_caps[g][k], caps_in)
            if k < NUM_SUITS:
                supply_s += most
            else:
                supply_n += most
            outside += max(s.pool[k] - min(s.group_caps[g][k], caps_in), 0)
        need_s = need_n = room_in = room_out = 0
        for j in range(s.places):
            if s.members[g] >> j & 1:
                need_s += max(s.needs[j][0] - suit_cards(s.deal[j]), 0)
                need_n += max(s.needs[j][1] - number_cards(s.deal[j]), 0)
                room_in += s.room[j]
            else:
                room_out += s.room[j]
        if supply_s < need_s or supply_n < need_n or supply_s + supply_n < room_in:
            return False
        if outside > room_out:
            return False
    return True


cdef bint group_over(Deal* s, int j, int kind, int give) noexcept:
    """Whether ``give`` more of ``kind`` at place ``j`` takes one of its groups past a cap."""
    cdef int g, i, total
    for g in range(s.groups):
        if s.members[g] >> j & 1:
            total = give
            for i in range(s.places):
                if s.members[g] >> i & 1:
                    total += s.deal[i][kind]
            if total > s.group_caps[g][kind]:
                return True
    return False


cdef int place(Deal* s, int index) noexcept:
    """The kinds from ``index`` on, each spread over the places in a random order: 1 dealt,
    0 impossible from here, -1 over the budget (the reference's ``place``)."""
    cdef int order[PLACES]
    cdef int j
    if index == s.kind_count:
        return 1
    for j in range(s.places):
        order[j] = j
    random_shuffle(s.rng, order, s.places)
    return spread(s, index, order, 0, s.pool[s.kinds[index]])


cdef int spread(Deal* s, int index, const int* order, int i, int left) noexcept:
    """``left`` cards of kind ``kinds[index]`` over the places ``order[i:]``, each amount
    tried in a random order (the reference's ``spread``)."""
    cdef int amounts[PLAY_CARDS + 1]
    cdef int kind = s.kinds[index], j = order[i], most, count, a, give, found
    cdef bint last = i == s.places - 1
    s.steps += 1
    if s.steps > s.budget:
        return -1
    most = min(left, s.room[j], s.caps[j][kind])
    if last:
        count = 1 if left <= most else 0
        amounts[0] = left
    else:
        count = max(most + 1, 0)
        for a in range(count):
            amounts[a] = a
        random_shuffle(s.rng, amounts, count)
    for a in range(count):
        give = amounts[a]
        if give and group_over(s, j, kind, give):
            continue
        s.deal[j][kind] += give
        s.room[j] -= give
        if last:
            found = place(s, index + 1) if feasible(s, index + 1) else 0
        else:
            found = spread(s, index, order, i + 1, left - give)
        if found:
            return found
        s.deal[j][kind] -= give
        s.room[j] += give
    return 0


cdef int constrained_deal(Deal* s) except -1:
    """engine._constrained_deal into ``s.deal``: a few plain shuffles, then the depth-first
    deal, kind by kind (the most constrained first), restarted in a new random order with
    twice the budget whenever it runs over (``s.budget``: the first one)."""
    cdef int k, t, j, key, kind, found
    cdef int keys[NUM_KINDS]
    if shuffled_deal(s):
        return 0
    s.kind_count = 0
    for k in range(NUM_KINDS):
        if s.pool[k]:
            s.kinds[s.kind_count] = k
            s.kind_count += 1
    while True:
        random_shuffle(s.rng, s.kinds, s.kind_count)
        for t in range(s.kind_count):  # the reference's sort: stable, by places that may hold it
            kind = s.kinds[t]
            key = 0
            for j in range(s.places):
                key += s.caps[j][kind] != 0
            j = t
            while j > 0 and keys[j - 1] > key:
                keys[j] = keys[j - 1]
                s.kinds[j] = s.kinds[j - 1]
                j -= 1
            keys[j] = key
            s.kinds[j] = kind
        memset(s.deal, 0, sizeof(s.deal))
        memcpy(s.room, s.rooms, sizeof(s.room))
        s.steps = 0
        found = place(s, 0)
        if found < 0:
            s.budget *= 2
            continue
        if not found:
            raise AssertionError("the true deal satisfies every constraint")
        return 0


cdef int deal_hidden(State state, State copy, int seat, rng) except -1:
    """engine.State.determinize after its ``_unseen_copy``: the hidden hands (every hand
    when ``seat`` is no seat) and the undealt cards dealt again within the caps, needs and
    shows' groups, from ``rng`` as the reference deals from it."""
    cdef const Data* d = &state.d
    cdef Data* c = &copy.d
    cdef Deal s
    cdef RandomState generator
    cdef int others[MAXP]
    cdef int p, k, j, last = 0  # last: the undealt cards' place, after the hidden hands
    for p in range(d.n):
        if p != seat:
            others[last] = p
            last += 1
    s.places = last + 1
    for k in range(NUM_KINDS):
        s.caps[last][k] = COPIES[k]
        s.pool[k] = d.remains[k]
    s.rooms[last] = suit_cards(d.remains) + number_cards(d.remains)
    s.needs[last][0] = s.needs[last][1] = 0
    for j in range(last):
        p = others[j]
        for k in range(NUM_KINDS):
            s.pool[k] += d.hands[p][k]
        s.rooms[j] = suit_cards(d.hands[p]) + number_cards(d.hands[p])
        caps_into(d, p, s.caps[j])
        needs_into(d, p, s.needs[j])
    show_groups_into(d, seat, others, &s)
    if random_in_c(rng):
        s.budget = SEARCH_STEPS
        s.rng = &generator
        rest = random_load(rng, &generator)
        try:
            constrained_deal(&s)
        finally:
            random_save(rng, &generator, rest)
    else:
        deal = reference._constrained_deal(
            bytearray([s.pool[k] for k in range(NUM_KINDS)]),
            [s.rooms[j] for j in range(s.places)],
            [[s.caps[j][k] for k in range(NUM_KINDS)] for j in range(s.places)],
            [(s.needs[j][0], s.needs[j][1]) for j in range(s.places)],
            rng,
            [
                (
                    [j for j in range(last) if s.members[g] >> j & 1],
                    [s.group_caps[g][k] for k in range(NUM_KINDS)],
                )
                for g in range(s.groups)
            ],
        )
        for j in range(s.places):
            for k in range(NUM_KINDS):
                s.deal[j][k] = deal[j][k]
    for j in range(last):
        for k in range(NUM_KINDS):
            c.hands[others[j]][k] = s.deal[j][k]
    for k in range(NUM_KINDS):
        c.remains[k] = s.deal[last][k]
    return 0


def py_constrained_deal(pool, rooms, caps, needs, rng, groups=(), search_steps=None):
    """``constrained_deal`` on the reference's arguments, with the depth-first deal's first
    budget ``search_steps`` (default ``SEARCH_STEPS``), for the tests against
    ``engine._constrained_deal``."""
    cdef Deal s
    cdef RandomState generator
    cdef int j, k, g
    if not random_in_c(rng):
        raise ValueError("rng must be a random.Random (not a subclass)")
    if not 0 < len(rooms) <= PLACES or len(groups) > MAX_SHOWS:
        raise ValueError(f"at most {PLACES} places and {MAX_SHOWS} groups")
    s.places = len(rooms)
    for k in range(NUM_KINDS):
        s.pool[k] = pool[k]
    for j in range(s.places):
        s.rooms[j] = rooms[j]
        s.needs[j][0], s.needs[j][1] = needs[j]
        for k in range(NUM_KINDS):
            s.caps[j][k] = caps[j][k]
    s.groups = len(groups)
    for g, (members, cap) in enumerate(groups):
        s.members[g] = sum(1 << j for j in members)
        for k in range(NUM_KINDS):
            s.group_caps[g][k] = cap[k]
    s.budget = SEARCH_STEPS if search_steps is None else search_steps
    s.rng = &generator
    rest = random_load(rng, &generator)
    try:
        constrained_deal(&s)
    finally:
        random_save(rng, &generator, rest)
    return [[s.deal[j][k] for k in range(NUM_KINDS)] for j in range(s.places)]
