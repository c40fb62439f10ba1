# The compiled Red7 core's turn features, mirroring turns.py (included by _compiled.pyx):
# turns.turn_features' rows, one per legal turn, for ``Engine.turn_features``.

# turns.py's row layout, read from the reference so both write the same columns.
cdef int TURN_FEATURES = ref_turns.TURN_FEATURES
cdef int MAX_OPPONENTS = ref_turns.MAX_OPPONENTS
cdef int PALETTE_CARD = ref_turns.PALETTE_CARD
cdef int CANVAS_CARD = ref_turns.CANVAS_CARD
cdef int RULE_AFTER = ref_turns.RULE_AFTER
cdef int LEADS = ref_turns.LEADS
cdef int PASSES = ref_turns.PASSES
cdef int ONE_CARD = ref_turns.ONE_CARD
cdef int TWO_CARDS = ref_turns.TWO_CARDS
cdef int MARGINS = ref_turns.MARGINS
cdef int HAND_LEFT = ref_turns.HAND_LEFT
cdef int THREAT_IN_FORCE = ref_turns.THREAT_IN_FORCE


ctypedef struct Turns:
    # What every row of one decision shares (turns.turn_features' locals), and per palette
    # card (index x + 1; 0: none) the mover's keys after it and the threats against them,
    # worked out for the first turn that plays it.
    int n, rule, hand_size, unseen
    uint8_t live[MAX_PLAYERS - 1]  # the opponents in seat order (player r at r - 1)
    uint16_t mine[NUM_COLOURS]
    uint8_t groups[NUM_GROUPS]
    uint16_t theirs[MAX_PLAYERS - 1][NUM_COLOURS]  # 0s for an opponent who is out
    uint16_t best_other[NUM_COLOURS]
    uint16_t joined[MAX_PLAYERS - 1][MAX_HIDDEN][NUM_COLOURS]  # opponent's keys + unseen card
    uint8_t known[NUM_CARDS + 1]
    uint16_t after[NUM_CARDS + 1][NUM_COLOURS]
    float threat[NUM_CARDS + 1][NUM_COLOURS][MAX_PLAYERS - 1]


cdef void turns_of(const Data* d, int seat, int n, Turns* t) noexcept:
    """The shared part of ``seat``'s rows: its keys and groups, the opponents' keys (0s once
    out, as ``d.keys`` holds them), the unseen cards (``find_hidden``: the observation's
    "unseen") and each live opponent's keys with each unseen card added (``keys_plus``)."""
    cdef Hidden h
    cdef int j, q, r, u
    find_hidden(d, seat, &h)
    t.n = n
    t.rule = d.rule
    t.hand_size = popcount(d.hand[seat])
    t.unseen = h.count
    memcpy(t.mine, d.keys[seat], sizeof(t.mine))
    memcpy(t.groups, d.groups[seat], sizeof(t.groups))
    memset(t.theirs, 0, sizeof(t.theirs))
    memset(t.best_other, 0, sizeof(t.best_other))
    memset(t.known, 0, sizeof(t.known))
    memset(t.live, 0, sizeof(t.live))
    for j in range(n - 1):
        q = (seat + j + 1) % n
        t.live[j] = d.active[q]
        if not t.live[j]:
            continue
        memcpy(t.theirs[j], d.keys[q], sizeof(t.theirs[j]))
        for r in range(NUM_COLOURS):
            if t.theirs[j][r] > t.best_other[r]:
                t.best_other[r] = t.theirs[j][r]
        for u in range(h.count):
            keys_plus(d.keys[q], d.groups[q], h.cards[u], t.joined[j][u])


cdef void know(Turns* t, int x) noexcept:
    """turns.threats for palette card ``x`` (-1: none): the mover's keys after it, and per
    rule and opponent the share of unseen cards that would put the opponent above them
    (``cards.turn_wins``' question, one ``keys_plus`` comparison per card), as float32 of the
    double share."""
    cdef int i = x + 1, j, r, u, count
    cdef uint16_t* after = t.after[i]
    t.known[i] = True
    if x >= 0:
        keys_plus(t.mine, t.groups, x, after)
    else:
        memcpy(after, t.mine, sizeof(t.mine))
    memset(t.threat[i], 0, sizeof(t.threat[i]))
    if not t.unseen:
        return
    for j in range(t.n - 1):
        if not t.live[j]:
            continue
        for r in range(NUM_COLOURS):
            count = 0
            for u in range(t.unseen):
                if t.joined[j][u][r] > after[r]:
                    count += 1
            t.threat[i][r][j] = <float>(<double>count / t.unseen)


cdef void write_turn(Turns* t, int action, float* row) noexcept:
    """One row of turns.turn_features into ``row`` (zeroed): the same values, each a double
    stored as float32, as the reference's numpy row has them."""
    cdef int x, c, i, r, j, rule, at, theirs
    cdef const uint16_t* after
    cdef float top
    if action == PASS:
        row[PASSES] = ONE_F
        return
    x = action // SLOTS - 1
    c = action % SLOTS - 1
    i = x + 1
    if not t.known[i]:
        know(t, x)
    after = t.after[i]
    if x >= 0:
        row[PALETTE_CARD + x] = ONE_F
    if c >= 0:
        row[CANVAS_CARD + c] = ONE_F
    rule = COLOUR[c] if c >= 0 else t.rule
    row[RULE_AFTER + rule] = ONE_F
    for r in range(NUM_COLOURS):
        if after[r] > t.best_other[r]:
            row[LEADS + r] = ONE_F
    row[TWO_CARDS if x >= 0 and c >= 0 else ONE_CARD] = ONE_F
    at = MARGINS
    for r in range(NUM_COLOURS):
        for j in range(MAX_OPPONENTS):
            if j + 1 < t.n and t.live[j]:
                theirs = t.theirs[j][r]
                row[at] = <float>(<double>((after[r] >> 6) - (theirs >> 6) + 7) / 14.0)
                row[at + 1] = <float>(<double>((after[r] & 63) - (theirs & 63) + 48) / 96.0)
                row[at + 2] = t.threat[i][r][j]
            at += 3
    row[HAND_LEFT] = <float>(<double>(t.hand_size - (x >= 0) - (c >= 0)) / HAND_SIZE)
    top = 0
    for j in range(t.n - 1):
        if t.threat[i][rule][j] > top:
            top = t.threat[i][rule][j]
    row[THREAT_IN_FORCE] = top
