# The compiled Teka core's turn features, mirroring turns.py (included by _compiled.pyx):
# turns.turn_features' rows, one per legal turn, for ``Engine.turn_features``. Every value is
# worked out as a double and stored as float32, as the reference's numpy assignments do.

from libc.stdint cimport uint64_t

from . import turns as ref_turns

# turns.py's row layout, read from the reference so both write the same columns.
cdef int TURN_FEATURES = ref_turns.TURN_FEATURES
cdef int T_SUIT = ref_turns.SUIT
cdef int T_RANK = ref_turns.RANK
cdef int T_IS_TRUMP = ref_turns.IS_TRUMP
cdef int T_TAKES = ref_turns.TAKES
cdef int T_MASTER = ref_turns.MASTER
cdef int T_HIGHER_OUT = ref_turns.HIGHER_OUT
cdef int T_SUIT_OUT = ref_turns.SUIT_OUT
cdef int T_KEPT = ref_turns.KEPT
cdef int T_SUIT_HCP = ref_turns.SUIT_HCP
cdef int T_LEADS = ref_turns.LEADS
cdef int T_FOLLOWS = ref_turns.FOLLOWS
cdef int T_RUFFS = ref_turns.RUFFS
cdef int T_DISCARDS = ref_turns.DISCARDS
cdef int T_LOWEST = ref_turns.LOWEST
cdef int T_HIGHEST = ref_turns.HIGHEST
cdef int T_PARTNER_WINS = ref_turns.PARTNER_WINS
cdef int T_OPPONENT_WINS = ref_turns.OPPONENT_WINS
cdef int T_BEST_MASTER = ref_turns.BEST_MASTER
cdef int T_POSITION = ref_turns.POSITION
cdef int T_LAST = ref_turns.LAST
cdef int T_SIDE_TAKES = ref_turns.SIDE_TAKES
cdef int T_SURE = ref_turns.SURE
cdef int T_OPPONENTS_RUFF = ref_turns.OPPONENTS_RUFF
cdef int T_PARTNER_RUFFS = ref_turns.PARTNER_RUFFS
cdef int T_TRUMPS_OUT = ref_turns.TRUMPS_OUT
cdef int T_DECLARING = ref_turns.DECLARING
cdef int T_CONTRACT = ref_turns.CONTRACT
cdef int T_TO_MAKE = ref_turns.TO_MAKE
cdef int T_TO_BEAT = ref_turns.TO_BEAT
cdef int T_LEFT = ref_turns.LEFT
cdef int T_SURE_MARGIN = ref_turns.SURE_MARGIN
cdef int T_STEP = ref_turns.STEP
cdef int T_DOUBLE_13 = ref_turns.DOUBLE_13
cdef int T_CALL_NUMBER = ref_turns.CALL_NUMBER
cdef int T_CALL = ref_turns.CALL


cdef inline int hcp_of(uint64_t cards) noexcept:
    """The honour points of ``cards`` (bots.HCP: J 1, Q 2, K 3, A 4)."""
    cdef int total = 0, c
    while cards:
        c = lowest(cards) % 13
        if c > 8:
            total += c - 8
        cards &= cards - 1
    return total


cdef inline bint is_master(uint64_t unseen, int card) noexcept:
    """bots.Memory.master: every unseen card of its suit is lower (so an unseen card is no
    master of its own)."""
    return not (unseen & suit_mask(card // 13) & ~(bit(card) - 1))


cdef inline void put(float* row, int i, double value) noexcept:
    row[i] = <float>value


cdef int write_turns(State state, int seat, const int* actions, int count, float* out) except -1:
    """turns.turn_features(state.view(seat), rules, actions) into ``out`` (zeroed, ``count``
    rows)."""
    cdef Data* d = &state.d
    cdef float* row
    cdef float shared[128]
    cdef uint64_t hand = d.hand[seat], unseen = 0, mine, held
    cdef int i, k, p, s, c, action, card, suit, led = -1, best = -1, best_seat = -1
    cdef int trump = d.trump, side = seat % 2, size, trumps_out, declaring, taken, lost, left
    cdef int sure = 0, contract, n_later = 0, mates, n_can, last_card
    cdef int later[PLAYERS]
    cdef int void[PLAYERS]  # per seat: the suits it showed it lacks, as bits
    cdef double ruff_opp[4]
    cdef double ruff_mate[4]
    cdef bint takes, side_takes, master
    for i in range(count):
        out[i * TURN_FEATURES + actions[i]] = ONE_F
    if d.phase != PLAY:
        for i in range(count):
            row = out + i * TURN_FEATURES
            action = actions[i]
            if TRUMP <= action < RAISE:
                suit = action - TRUMP
                held = hand & suit_mask(suit)
                row[T_SUIT + suit] = ONE_F
                put(row, T_KEPT, popcount(held) / 13.0)
                put(row, T_SUIT_HCP, hcp_of(held) / 10.0)
            elif PASS <= action <= DOUBLE:
                row[T_CALL] = ONE_F
                if action == DOUBLE:
                    put(row, T_CALL_NUMBER, 14 / 14.0)
                elif action >= BID:
                    put(row, T_CALL_NUMBER, (action - BID + MIN_BID) / 14.0)
        return 0
    # the memory: the cards neither played nor mine
    for c in range(NUM_CARDS):
        if d.by[c] == NOBODY and not hand & bit(c):
            unseen |= bit(c)
    trumps_out = popcount(unseen & suit_mask(trump))
    # the trick
    size = 3 if d.double else PLAYERS
    if d.trick_len:
        best = d.best
        best_seat = d.best_seat
        led = d.trick[0] // 13
    p = seat
    for k in range(size - d.trick_len - 1):
        p = next_seat_of(d, p)
        later[n_later] = p
        n_later += 1
    void_suits(d, void)
    for s in range(4):
        ruff_opp[s] = ruff_mate[s] = 0.0
        if trumps_out and s != trump:
            n_can = mates = 0
            for k in range(n_later):
                p = later[k]
                if void[p] >> s & 1 and not void[p] >> trump & 1:
                    n_can += 1
                    if p % 2 == side:
                        mates += 1
            ruff_opp[s] = (n_can - mates) / 2.0
            ruff_mate[s] = mates
    # the contract
    declaring = d.declarer % 2
    taken = d.won[declaring] + d.won[declaring + 2]
    lost = d.tricks_len - taken
    left = TRICKS - d.tricks_len
    if d.declarer == seat:  # CounterBot.raise_to with no contract to beat
        sure = popcount(hand & suit_mask(trump) & masters_of(hand, unseen))
        if not trumps_out:
            sure += popcount(hand & ~suit_mask(trump) & masters_of(hand, unseen))
        sure = min(13, d.won[side] + d.won[side + 2] + sure)
    memset(shared, 0, sizeof(shared))
    shared[T_PARTNER_WINS] = best_seat >= 0 and best_seat % 2 == side
    shared[T_OPPONENT_WINS] = best_seat >= 0 and best_seat % 2 != side
    shared[T_BEST_MASTER] = best >= 0 and is_master(unseen, best)
    shared[T_POSITION + d.trick_len] = ONE_F
    shared[T_LAST] = n_later == 0
    put(shared, T_TRUMPS_OUT, trumps_out / 13.0)
    shared[T_DECLARING] = declaring == side
    put(shared, T_LEFT, left / 13.0)
    shared[T_DOUBLE_13] = d.double
    if led >= 0:
        put(shared, T_OPPONENTS_RUFF, ruff_opp[led])
        put(shared, T_PARTNER_RUFFS, ruff_mate[led])
    for i in range(count):
        row = out + i * TURN_FEATURES
        action = actions[i]
        for k in range(NUM_ACTIONS, TURN_FEATURES):
            row[k] = row[k] + shared[k]
        contract = action - RAISE + 9 if action >= RAISE else d.contract
        put(row, T_CONTRACT, contract / 13.0)
        put(row, T_TO_MAKE, max(0, contract - taken) / 13.0)
        put(row, T_TO_BEAT, max(0, TRICKS - contract + 1 - lost) / 13.0)
        if d.declarer == seat:
            put(row, T_SURE_MARGIN, (sure - contract + 13) / 26.0)
        if action >= RAISE:
            put(row, T_STEP, (contract - d.contract) / 5.0)
            continue
        card = action
        suit = card // 13
        mine = hand & suit_mask(suit)
        row[T_SUIT + suit] = ONE_F
        put(row, T_RANK, card % 13 / 12.0)
        row[T_IS_TRUMP] = suit == trump
        takes = best < 0 or beats(card, best, trump)
        row[T_TAKES] = takes
        master = is_master(unseen, card)
        row[T_MASTER] = master
        put(row, T_HIGHER_OUT, popcount(unseen & suit_mask(suit) & ~((bit(card) << 1) - 1)) / 12.0)
        put(row, T_SUIT_OUT, popcount(unseen & suit_mask(suit)) / 13.0)
        put(row, T_KEPT, (popcount(mine) - 1) / 13.0)
        put(row, T_SUIT_HCP, hcp_of(mine) / 10.0)
        if led < 0:
            row[T_LEADS] = ONE_F
            put(row, T_OPPONENTS_RUFF, ruff_opp[suit])
            put(row, T_PARTNER_RUFFS, ruff_mate[suit])
        elif suit == led:
            row[T_FOLLOWS] = ONE_F
        elif suit == trump:
            row[T_RUFFS] = ONE_F
        else:
            row[T_DISCARDS] = ONE_F
        if mine:
            row[T_LOWEST] = card == lowest(mine)
            row[T_HIGHEST] = card == highest(mine)
        side_takes = takes or best_seat % 2 == side
        row[T_SIDE_TAKES] = side_takes
        last_card = card if takes else best
        row[T_SURE] = side_takes and (
            n_later == 0
            or (is_master(unseen, last_card) and (last_card // 13 == trump or not trumps_out))
        )
    return 0


cdef uint64_t masters_of(uint64_t hand, uint64_t unseen) noexcept:
    """The cards of ``hand`` that are masters (``is_master``)."""
    cdef uint64_t found = 0, cards = hand
    cdef int c
    while cards:
        c = lowest(cards)
        if is_master(unseen, c):
            found |= bit(c)
        cards &= cards - 1
    return found


cdef void void_suits(const Data* d, int* void) noexcept:
    """search.constraints' forbidden masks as suits: per seat, the suits it failed to follow
    this hand (finished tricks and the trick being played)."""
    cdef int k, i, p, led, n
    cdef const uint8_t* cards
    for p in range(PLAYERS):
        void[p] = 0
    for k in range(d.tricks_len + 1):
        if k < d.tricks_len:
            cards = d.trick_cards[k]
            n = d.trick_size[k]
            p = d.trick_lead[k]
        else:
            cards = d.trick
            n = d.trick_len
            p = d.leader
        if not n:
            continue
        led = cards[0] // 13
        for i in range(1, n):
            p = next_seat_of(d, p)
            if cards[i] // 13 != led:
                void[p] |= 1 << led
