# The compiled Red7 core's lookup tables (included by _compiled.pyx, which has the
# documentation): cards.py's tables as C arrays, filled once when the module is imported.

# cards.py's tables as C arrays, copied from the reference so both read the same numbers.
cdef tuple NAMES = tuple(ref_cards.card_name(c) for c in range(NUM_CARDS))
cdef uint8_t NUM[NUM_CARDS]  # the number's index (number - 1)
cdef uint8_t NUMBER[NUM_CARDS]  # 1..7
cdef uint8_t COLOUR[NUM_CARDS]  # 0 = red .. 6 = violet
cdef uint8_t NBIT[NUM_CARDS]  # the card's bit in its number group
cdef uint8_t KBIT[NUM_CARDS]  # its number's bit
cdef uint8_t CBIT[NUM_CARDS]  # its colour's bit
cdef uint8_t CGI[NUM_CARDS]  # the index of its colour group
cdef uint8_t ODD[NUM_CARDS]  # 0 for the even numbers (green)
cdef uint8_t HIGH[NUM_CARDS]  # 0 below 4 (violet)
cdef int8_t TOP_BIT[128]
cdef uint8_t RUN_LEN[128]
cdef int8_t RUN_HIGH[128]
cdef uint16_t ORANGE_PLUS[NUM_CARDS][128]
cdef uint16_t YELLOW_PLUS[NUM_CARDS][128]
cdef uint64_t NUMBER_MASK[NUM_COLOURS]
cdef uint64_t COLOUR_MASK[NUM_COLOURS]
cdef uint64_t EVEN_MASK = ref_cards.EVEN_MASK
cdef uint64_t LOW_MASK = ref_cards.LOW_MASK
cdef float ZERO_F = 0.0
cdef float ONE_F = 1.0


cdef void _fill_tables() except *:
    cdef int c, g, k
    for c in range(NUM_CARDS):
        NUM[c] = ref_cards.NUM[c]
        NUMBER[c] = ref_cards.NUMBER[c]
        COLOUR[c] = ref_cards.COLOUR[c]
        NBIT[c] = ref_cards.NBIT[c]
        KBIT[c] = ref_cards.KBIT[c]
        CBIT[c] = ref_cards.CBIT[c]
        CGI[c] = ref_cards.CGI[c]
        ODD[c] = ref_cards.ODD[c]
        HIGH[c] = ref_cards.HIGH[c]
        for g in range(128):
            ORANGE_PLUS[c][g] = ref_cards.ORANGE_PLUS[c][g]
            YELLOW_PLUS[c][g] = ref_cards.YELLOW_PLUS[c][g]
    for g in range(128):
        TOP_BIT[g] = ref_cards.TOP_BIT[g]
        RUN_LEN[g], RUN_HIGH[g] = ref_cards.RUN[g]
    for k in range(NUM_COLOURS):
        NUMBER_MASK[k] = ref_cards.NUMBER_MASK[k]
        COLOUR_MASK[k] = ref_cards.COLOUR_MASK[k]


_fill_tables()
