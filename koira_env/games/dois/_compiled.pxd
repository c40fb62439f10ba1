# The C-level interface of the compiled Dois core (_compiled.pyx has the documentation).
# Other .pyx files (a compiled search) `cimport` these declarations:
#
#     from koira_env.games.dois._compiled cimport State, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal actions, increasing (as legal_actions)
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy (and a tuple)
#     deal_hidden(state, copy, seat, rng)         # determinize's deal into copy (a clone)

from libc.stdint cimport uint8_t

from koira_env.core._engine cimport CompiledEngine, CompiledState, Header

cdef enum:
    # cards.py
    NUM_SUITS = 4
    NUM_NUMBERS = 8
    NUM_KINDS = 12
    HAND_SIZE = 13
    MIN_OF_EACH = 3
    PLAY_CARDS = 64
    TRUMP_CARD = 64
    DECK_SIZE = 68
    # engine.py
    MAXP = 4  # the largest table
    TRICKS = 12
    BID = 12  # action BID + b: bid b tricks; 0..11 play a card of that kind
    NUM_ACTIONS = 25
    MAX_LEGAL = 13  # the thirteen bids, or a hand's kinds
    NUMBERS_VOID = 16
    VOID_BITS = 5
    TRUMP_BLOCK = 4
    # phases (engine.py)
    BIDDING = 0
    FIRST = 1
    PLAYING = 2
    OVER = 3
    MAX_OBS = 256  # observation entries at the most (209 at 4 players)
    MAX_SHOWS = 64  # redraws shown in one hand at the most: a pool that only just makes a good
    # hand (3 suit cards of 25) redraws 8 times on average, and 20 were met (test_dois_compiled)


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); names follow rules.py.
    int players
    int hands
    bint sealed  # bidding == "sealed"
    bint redeal_player  # redeal == "player"


ctypedef struct Layout:
    # Offsets of DoisGame.observation_layout's fields, and their float32 scales per entry.
    int size
    int hand, shows, played, voids, trump, trumps_seen, lead, leader, in_trick, dealer
    int bids, won, score_plus, score_minus, tricks_played, hand_no, phase
    int need, need_count, takes, holds
    float scale[MAX_OBS]


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    int n
    int hand_no
    int decks_used
    int first  # the dealer's left: bids first and leads the first trick
    int trump
    int trumps_seen[NUM_SUITS]
    int trumps_seen_len
    int phase
    int leader
    int tricks_played
    int in_trick
    int step  # 1 between a first-trick suit card and its number card
    uint8_t hands[MAXP][NUM_KINDS]
    uint8_t remains[NUM_KINDS]
    uint8_t played[NUM_KINDS]
    uint8_t plays[MAXP][HAND_SIZE]
    int plays_len[MAXP]
    int suit[MAXP]
    int number[MAXP]
    int void[MAXP]
    int bids[MAXP]
    int won[MAXP]
    int scores[MAXP]
    int hand_delta[MAXP]
    # engine.State.shown: per show, the player, the kinds shown, the players already final
    int shows_len
    uint8_t show_player[MAX_SHOWS]
    uint8_t show_counts[MAX_SHOWS][NUM_KINDS]
    uint8_t show_final[MAX_SHOWS]  # a bit per player


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
    cdef list _next_deck(self)
    cdef tuple _deal_from(self, list order)
    cdef int _deal(self) except -1
    cdef bint _is_legal(self, int action) noexcept
    cdef list _redeal(self, list hands, list rest)
    cdef int _bid(self, int bid) except -1
    cdef int _play(self, int kind) except -1
    cdef int _note_void(self, int p, int kind) noexcept
    cdef int _end_trick(self) except -1
    cdef int _end_hand(self) except -1


cdef int trick_winner(int n, const int* suits, const int* numbers, int leader, int trump) noexcept
cdef int deal_hidden(State state, State copy, int seat, rng) except -1  # determinize's deal
