# The C-level interface of the compiled Red7 core (_compiled.pyx has the documentation).
# Other .pyx files (the compiled search) `cimport` these declarations:
#
#     from koira_env.games.red7._compiled cimport State, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal turns, increasing (as legal_actions)
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy + list copies
#     find_hidden(&state.d, seat, &hidden)        # the cards seat cannot see (core/_hidden.pxd)
#     place_hidden(&out, &state.d, &hidden, shuffled, n, seat)  # a deal of them, as determinize's

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint64_t

from koira_env.core._engine cimport CompiledEngine, CompiledState, Header
from koira_env.core._hidden cimport Hidden

cdef enum:
    NUM_CARDS = 49
    NUM_COLOURS = 7
    MAX_PLAYERS = 4
    HAND_SIZE = 7
    SLOTS = 50
    NUM_ACTIONS = 2500
    PASS = 0
    MAX_LEGAL = 64  # pass + 7 canvas cards + 7 palette cards x (alone + 6 canvas cards) = 57
    RED = 0
    # card locations (engine.py): "+ p" for the seat
    HAND = 0
    PALETTE = 4
    CANVAS = 8
    DRAW = 9
    FOLDED = 10
    DEAD = 14
    SCORED = 18
    NUM_CODES = 22
    # a palette's groups (cards.CGROUP): 7 number groups, 7 colour groups, numbers, colours
    CGROUP = 7
    NUMBERS = 14
    COLOURS_IN = 15
    NUM_GROUPS = 16


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); names follow rules.py.
    int n
    bint points  # scoring == "points"
    bint canvas_draw
    bint elimination  # places == "elimination"
    bint left_of_leader  # first_player == "left_of_leader"
    int target  # points_to_win
    int max_rounds


ctypedef struct Layout:
    # Offsets of Red7Game.observation_layout's fields, and the float32 scales of the scaled ones.
    int size
    int card_block[MAX_PLAYERS][NUM_CODES]  # per seat and location code: a card block, or -1
    int rule, leader, active, hand_sizes, current_player, draw_size, scores, round
    float hand_scale, draw_scale, score_scale, round_scale


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    int round
    int rule
    int alive
    int winner
    uint64_t hand[MAX_PLAYERS]  # hands are kept sorted: the mask is the list
    uint64_t mask[MAX_PLAYERS]  # palettes as masks (engine.State.masks)
    uint8_t palette[MAX_PLAYERS][NUM_CARDS]  # palettes in play order
    int palette_len[MAX_PLAYERS]
    uint16_t keys[MAX_PLAYERS][NUM_COLOURS]  # cards.rule_keys of each palette (0s once out)
    uint8_t groups[MAX_PLAYERS][NUM_GROUPS]  # cards.groups_of of each palette
    uint16_t best[NUM_COLOURS]  # per rule: the largest key
    int8_t leaders[NUM_COLOURS]  # per rule: the seat holding it, -1 if nobody
    uint8_t leading[MAX_PLAYERS]  # per seat: the rules it leads (bit r)
    uint8_t draw[NUM_CARDS]  # draw[draw_len - 1] is the top card
    int draw_len
    uint8_t canvas[NUM_CARDS]
    int canvas_len
    uint8_t active[MAX_PLAYERS]
    uint8_t folded[MAX_PLAYERS][NUM_CARDS]  # in the reference's list order
    int folded_len[MAX_PLAYERS]
    uint8_t eliminated[MAX_PLAYERS]
    int eliminated_len
    int scores[MAX_PLAYERS]
    uint8_t scored[MAX_PLAYERS][NUM_CARDS]  # in the order scored
    int scored_len[MAX_PLAYERS]
    uint64_t scored_all
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
    cdef void _find_leaders(self) noexcept
    cdef void _raise(self, int p) noexcept
    cdef int _play(self, int p, int palette, int canvas) except -1
    cdef int _eliminate(self, int p) except -1
    cdef int _end_round(self) except -1


cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept
cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept
