# The C-level interface of the compiled Teka core (_compiled.pyx has the documentation).
# Other .pyx files (a compiled search) `cimport` these declarations:
#
#     from koira_env.games.teka._compiled cimport State, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal actions, increasing (as legal_actions)
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy
#     deal_hidden(state, copy, seat, rng)         # determinize's deal into copy (a clone)

from libc.stdint cimport uint8_t, uint64_t

from koira_env.core._engine cimport CompiledEngine, CompiledState, Header

cdef enum:
    NUM_CARDS = 52
    PLAYERS = 4
    HAND_SIZE = 13
    TRICKS = 13
    MIN_BID = 8
    MAX_LEGAL = 24  # 13 cards and 5 raises, or 10 calls
    MAX_TURNS = 128  # rows of one turn_features call (a legal set has 24 at the most)
    MAX_RAISES = 8  # each raise adds a trick to a contract of 8 to 13: 5 at the most
    # actions (engine.py)
    PASS = 52
    TER = 53
    BEHI_TER = 54
    BID = 55
    DOUBLE = 61
    TRUMP = 62
    RAISE = 66
    KEEP = 71
    NEW_DEAL = 72
    NUM_ACTIONS = 73
    # card locations (engine.py): HAND + p, the trick, a finished trick; NOBODY in ``by``
    HAND = 0
    TRICK = 4
    PLAYED = 5
    NOBODY = 4
    # phases (engine.py)
    ASK = 0
    BIDDING = 1
    TRUMPS = 2
    PLAY = 3
    OVER = 4
    # option values (rules.py's choices, in order)
    NO_HONOURS_REDEAL = 0
    NO_HONOURS_ASK = 1
    NO_HONOURS_KEEP = 2
    ALL_PASS_DEALER = 0
    ALL_PASS_REDEAL = 1
    RAISES_ANY = 0
    RAISES_ONCE = 1
    RAISES_NEVER = 2
    FAILED_OPPONENTS = 0
    FAILED_DOUBLE = 1
    FAILED_NOTHING = 2


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); names follow rules.py.
    int target
    bint single_hand
    int no_honours
    bint pass_signals
    int all_pass
    int raises
    bint early_end
    int failed_bid
    int max_hands


ctypedef struct Layout:
    # Offsets of TekaGame.observation_layout's fields, and the float32 scales of the scaled ones.
    int size
    int mine, played, trick, winning, master, trick_leader, trick_winner, led_suit, phase
    int dealer, calls, call_size, declarer, contract, trump, won, needed, scores, hand_no
    float won_scale, needed_scale, score_scale, hand_scale


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    int hand_no
    int deal_no
    int first
    int dealer
    int phase
    int high  # the highest number bid so far
    int declarer
    bint double
    int contract
    int trump
    int out
    bint raised  # the declarer raised at this turn
    int leader
    int best  # the trick's winning card so far, -1 before its first card
    int best_seat
    int calls[PLAYERS]
    int won[PLAYERS]
    int scores[2]
    int hand_points[2]
    uint64_t hand[PLAYERS]  # hands are kept sorted: the mask is the list
    uint8_t loc[NUM_CARDS]  # location codes (engine.State.loc)
    uint8_t by[NUM_CARDS]  # who played each card this hand (engine.State.by)
    uint64_t played[PLAYERS]  # the cards each player played this hand (``by`` as masks)
    int raises_len
    int raise_at[MAX_RAISES]  # (tricks played, new contract) of each raise
    int raise_to[MAX_RAISES]
    int trick_len
    uint8_t trick[PLAYERS]  # the trick being played, in play order
    int tricks_len
    uint8_t trick_lead[TRICKS]  # finished tricks: leader, cards in order, winner
    uint8_t trick_cards[TRICKS][PLAYERS]
    uint8_t trick_size[TRICKS]
    uint8_t trick_win[TRICKS]


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
    cdef int _next_seat(self, int p) noexcept
    cdef void _tricks_to_go(self, int* to_make, int* to_beat) noexcept
    cdef int _raise_top(self) noexcept
    cdef int _ask(self, int action) except -1
    cdef int _call(self, int call) except -1
    cdef int _name_trump(self, int suit) except -1
    cdef int _raise(self, int bid) except -1
    cdef int _play(self, int card) except -1
    cdef int _end_hand(self, bint made) except -1
    cdef int _next_hand(self, bint played) except -1
    cdef int _end_game(self, bint truncated) except -1


cdef int deal_hidden(State state, State copy, int seat, rng) except -1  # determinize's deal


cdef inline bint beats(int card, int best, int trump) noexcept nogil:
    """engine.beats: higher in the suit of ``best``, or a trump (the core's and its search's)."""
    cdef unsigned suit = <unsigned>card // 13  # ids are not negative: no sign to correct
    if suit == <unsigned>best // 13:
        return card > best
    return suit == <unsigned>trump
