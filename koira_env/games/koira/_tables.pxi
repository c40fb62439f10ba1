# The compiled Koira core's lookup tables and card-mask helpers (included by _compiled.pyx,
# which has the documentation): card names, engine.RUNS as C arrays, the observation's
# scales and observation.observation_layout as offsets per table size, and the card blocks
# each seat's observation writes a known card into; then the bit tricks on 52-bit card
# masks the rules and the writer share. Filled once, when the module is imported.

CARD_NAMES = tuple(card_name(c) for c in range(NUM_CARDS))
cdef tuple NAMES = CARD_NAMES
cdef uint8_t RUN_FIRST[NUM_RUNS]  # engine.RUNS[i][0]
cdef uint8_t RUN_SIZE[NUM_RUNS]  # len(engine.RUNS[i])
cdef short RUN_OF[NUM_CARDS][14]  # RUN_OF[first][size]: engine.RUN_ACTION of that run
for _i, _run in enumerate(reference.RUNS):
    RUN_FIRST[_i] = _run[0]
    RUN_SIZE[_i] = len(_run)
    RUN_OF[_run[0]][len(_run)] = reference.RUN_ACTION[_run]

cdef float CARD_SCALE_F = CARD_SCALE
cdef float TRICK_SCALE_F = TRICK_SCALE
cdef float WAR_DEPTH_SCALE_F = WAR_DEPTH_SCALE

# LAYOUTS[n]: observation_layout(n) as offsets. BLOCK[n][seat][code]: the card block (0 =
# cards_mine, r = cards_hand_r, n + r = cards_won_r, then trick, discarded, my trump, unknown)
# of a card that ``seat`` knows to be at location ``code``, or -1.
cdef Layout LAYOUTS[MAX_PLAYERS + 1]
cdef signed char BLOCK[MAX_PLAYERS + 1][MAX_PLAYERS][NUM_CODES]


cdef void _fill_tables() except *:
    cdef int n, seat, p, code
    cdef Layout* lay
    for n in range(2, MAX_PLAYERS + 1):
        f = {name: part.start for name, part in observation_layout(n).items()}
        lay = &LAYOUTS[n]
        lay.size = observation_layout(n)["trick_needed"].stop
        lay.hand_sizes = f["hand_sizes"]
        lay.won_sizes = f["won_sizes"]
        lay.stock_size = f["stock_size"]
        lay.trump_suit = f["trump_suit"]
        lay.trump_holder = f["trump_holder"]
        lay.phase = f["phase"]
        lay.current_player = f["current_player"]
        lay.out = f["out"]
        lay.last_winner = f["last_winner"]
        lay.round_cards = f["round_cards"]
        lay.pile_size = f["pile_size"]
        lay.war = f["war"]
        lay.war_players = f["war_players"]
        lay.war_rank = f["war_rank"]
        lay.war_depth = f["war_depth"]
        lay.top_play = f["top_play"]
        lay.top_player = f["top_player"]
        lay.bottom_play = f["bottom_play"]
        lay.bottom_player = f["bottom_player"]
        lay.led_suit = f["led_suit"]
        lay.trick_plays = f["trick_plays"]
        lay.trick_count = f["trick_count"]
        lay.trick_needed = f["trick_needed"]
        for seat in range(n):
            for code in range(NUM_CODES):
                BLOCK[n][seat][code] = -1
            for p in range(n):
                BLOCK[n][seat][HAND + p] = (p - seat + n) % n
                BLOCK[n][seat][WON + p] = n + (p - seat + n) % n
            BLOCK[n][seat][TRICK] = 2 * n
            BLOCK[n][seat][DISCARD] = 2 * n + 1
            BLOCK[n][seat][TRUMP_ASIDE] = 2 * n + 2
            BLOCK[n][seat][UNKNOWN] = 2 * n + 3


_fill_tables()


# ---------------------------------------------------------------------------- card masks
cdef inline uint64_t bit(int card) noexcept nogil:
    return (<uint64_t>1) << card  # the cast matters: a plain 1 << 52 is a 32-bit shift


cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    return (<uint64_t>0x1FFF) << (13 * suit)


cdef inline int in_order(Data* d, uint64_t mask, bint by_arrival, uint8_t* out) noexcept nogil:
    """A hand or won pile as the reference's list: in arrival order, or in card order."""
    cdef int count = cards_of(mask, out)
    cdef int i, j
    cdef uint8_t card
    if by_arrival:
        for i in range(1, count):  # insertion sort by stamp: at most a few cards
            card = out[i]
            j = i - 1
            while j >= 0 and d.stamp[out[j]] > d.stamp[card]:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = card
    return count


cdef inline void place_run(Data* d, int first, int size, uint8_t where) noexcept nogil:
    """``loc`` and ``pub`` of a run's cards. One card, the usual play, is two stores: written
    as a loop over the run, the compiler made each field a call to libc's ``memset``."""
    if size == 1:
        d.loc[first] = d.pub[first] = where
    else:
        memset(&d.loc[first], where, size)
        memset(&d.pub[first], where, size)


cdef inline void hand_add(Data* d, int p, int card) noexcept nogil:
    d.hand[p] |= bit(card)
    d.stamp[card] = d.next_stamp
    d.next_stamp += 1


cdef inline void won_add(Data* d, int p, int card) noexcept nogil:
    d.won[p] |= bit(card)
    d.stamp[card] = d.next_stamp
    d.next_stamp += 1


cdef list card_list(uint8_t* cards, int count):
    return [NAMES[cards[i]] for i in range(count)]


cdef list run_names(int first, int size):
    return [NAMES[c] for c in range(first, first + size)]
