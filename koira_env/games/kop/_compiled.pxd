# The C-level interface of the compiled Kop core (_compiled.pyx has the documentation).
# Other .pyx files (a compiled search) `cimport` these declarations:
#
#     from koira_env.games.kop._compiled cimport State, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal actions, increasing (as legal_actions)
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy
#     deal_hidden(state, copy, seat, rng)         # determinize's deal into copy (a clone)

from libc.stdint cimport uint8_t, uint16_t

from koira_env.core._engine cimport CompiledEngine, CompiledState, Header

cdef enum:
    NUM_CARDS = 16
    PLAYERS = 4
    TRICKS = 4
    # actions (engine.py): 0..15 play that card
    CALL = 16
    SILENT = 17
    SOLO = 18
    PASS = 19
    NUM_ACTIONS = 20
    MAX_LEGAL = 4  # a hand of 4 cards, or the three declarations
    # card locations (engine.py): "+ p" for the seat
    HAND = 0
    TRICK = 4
    WON = 5
    NOBODY = 4  # Data.by of an unplayed card
    # phases (engine.py)
    DECLARE = 0
    PLAY = 1
    OVER = 2
    # cards.py
    SUIT_TRUMP = 0
    JC = 1
    QC = 2
    QS = 14
    TOTAL_POINTS = 104
    TO_WIN = 53


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); names follow rules.py.
    int victory_cards
    bint single_hand
    bint silent_team  # silent_scoring == "team"
    bint no_call  # call_own_jack == "no_call"
    bint queens_lose  # tie == "queens_lose"
    int max_hands


ctypedef struct Layout:
    # Offsets of KopGame.observation_layout's fields, and the float32 scales of the scaled ones.
    int size
    int mine, played, won, trick, last_trick
    int trick_leader, trick_winner, led_suit, declaring
    int call, caller, called_jack, my_choice
    int points, victory_cards, hand_no
    float points_scale, vc_scale, hand_scale


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    int hand_no
    int phase
    int leader  # who led the first trick of this hand
    int trick_leader
    int best  # the trick's best card so far, -1 before its first card
    int best_seat
    int decider  # the holder of both black queens, -1 if they are split
    int decision  # CALL, SILENT, SOLO or -1
    int called_jack  # -1 unless a partner was called
    int vc[PLAYERS]
    int hand_delta[PLAYERS]
    int points[PLAYERS]
    int side_points[2]
    int side[PLAYERS]  # 0: the black queens' side (read only out of the declaration round)
    uint16_t hand[PLAYERS]  # hands are kept sorted: the mask is the list
    uint8_t loc[NUM_CARDS]  # location codes (engine.State.loc)
    uint8_t by[NUM_CARDS]  # who played each card this hand (engine.State.by)
    uint8_t trick[PLAYERS]
    int trick_len
    uint8_t trick_leaders[TRICKS]  # the finished tricks (engine.State.tricks)
    uint8_t trick_cards[TRICKS][PLAYERS]
    uint8_t trick_winners[TRICKS]
    int tricks_len


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
    cdef bint _is_legal(self, int action) noexcept
    cdef int _start_play(self) noexcept
    cdef int _owner(self, int card) noexcept
    cdef bint _declared(self, int seat) noexcept
    cdef int _declare(self, int action) except -1
    cdef int _play(self, int card) except -1
    cdef int _end_hand(self) except -1
    cdef int _end_game(self, bint truncated, list scores) except -1


cdef void sides(Data* d) noexcept
cdef uint16_t forbidden_of(const Data* d, int seat) noexcept
cdef int deal_hidden(State state, State copy, int seat, rng) except -1  # determinize's deal
