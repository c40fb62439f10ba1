# The C-level interface of the compiled Whist 22 core (_compiled.pyx has the documentation).
# Other .pyx files (a compiled search) `cimport` these declarations:
#
#     from koira_env.games.whist22._compiled cimport State, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal actions, increasing (as legal_actions)
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy + list copies
#     find_hidden(&state.d, seat, &hidden)        # the cards seat cannot see (core/_hidden.pxd)
#     place_hidden(&out, &state.d, &hidden, shuffled, n, seat)  # a deal of them, as determinize's

from libc.stdint cimport uint8_t, uint32_t

from koira_env.core._engine cimport CompiledEngine, CompiledState, Header
from koira_env.core._hidden cimport Hidden

cdef enum:
    NUM_CARDS = 22
    MAX_PLAYERS = 4
    FOOL = 0  # the Fool's card id
    FOOL_LOW = 0  # action: the Fool declared 0
    FOOL_HIGH = 22  # action: the Fool declared 22
    BID = 23  # action BID + b: bid b tricks
    MAX_LEGAL = 16  # bids 0..7, or 7 cards and the Fool's second value
    MAX_CYCLE = 16  # hand sizes of one cycle: 14 at the most (3 players, repeat_ends)
    # card locations (engine.py): "+ p" for the seat
    HAND = 0
    PLAYED = 4
    TRICK = 8
    ASIDE = 12
    NUM_CODES = 13
    # phases (engine.py)
    BIDDING = 0
    PLAYING = 1
    OVER = 2


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); names follow rules.py.
    int n
    int top  # the largest hand: NUM_CARDS // n
    int start_score
    bint hook
    bint floor_at_zero
    int max_hands  # 0: no limit
    int cycle_len
    int cycle[MAX_CYCLE]  # game.hand_cycle(rules)


ctypedef struct Layout:
    # Offsets of WhistGame.observation_layout's fields, and the float32 scales of the scaled ones.
    int size
    int card_block[MAX_PLAYERS][NUM_CODES]  # per seat and location code: a card block, or -1
    int fool, bids, won, scores, hand_size, next_hand_size, tricks_played
    int dealer, leader, phase, hand_number
    float won_scale, score_scale, tricks_scale, number_scale


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    int hand_no
    int size  # cards dealt to each player this hand
    int first  # left of the dealer: first to bid and to lead
    int leader
    int phase
    int bid_total
    int bids_made
    int best  # the trick's best value so far, -1 before its first card
    int best_player
    int tricks_played
    int fool  # the Fool's declared value this hand, -1 before it is played
    int scores[MAX_PLAYERS]
    int bids[MAX_PLAYERS]  # -1: not yet bid
    int won[MAX_PLAYERS]
    uint32_t hand[MAX_PLAYERS]  # hands are kept sorted: the mask is the list
    uint8_t played[MAX_PLAYERS][NUM_CARDS]  # each player's cards of this hand, in play order
    int played_len[MAX_PLAYERS]
    uint8_t trick_player[MAX_PLAYERS]  # the current trick in play order
    uint8_t trick_value[MAX_PLAYERS]
    int trick_len
    uint8_t loc[NUM_CARDS]  # location codes (engine.State.loc)


cdef class Engine(CompiledEngine):
    cdef Options opt
    cdef Layout layout


cdef class StateAttributes(CompiledState):
    # the struct and engine.State's attributes over it (_adapters.pxi); State subclasses it
    cdef Data d
    cdef const Options* opt  # the engine's (CompiledState.engine)


cdef class State(StateAttributes):
    # the interface for other compiled modules is CompiledState's (core/_engine.pxd)
    cdef readonly object result  # the Outcome, built once by outcome()

    cdef State clone_c(self)
    # engine.py State methods of the same names
    cdef int _deal(self) except -1
    cdef int _forbidden_bid(self) noexcept
    cdef bint _is_legal(self, int action) noexcept
    cdef int _bid(self, int bid) except -1
    cdef int _end_trick(self) except -1
    cdef int _end_hand(self) except -1


cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept
cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept
