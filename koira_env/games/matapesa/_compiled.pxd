# The C-level interface of the compiled Mätäpesä core (_compiled.pyx has the documentation).
# Other .pyx files `cimport` these declarations:
#
#     from koira_env.games.matapesa._compiled cimport State, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal ranks, increasing (as legal_actions)
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy + list copies
#     find_hidden(&state.d, seat, &hidden)        # the cards seat cannot see (core/_hidden.pxd)
#     deal_hidden(state, copy, seat, rng)         # determinize's deal into copy (a clone)

from libc.stdint cimport uint8_t

from koira_env.core._engine cimport CompiledEngine, CompiledState, Header
from koira_env.core._hidden cimport Hidden

cdef enum:
    NUM_CARDS = 52
    NUM_RANKS = 13  # an action is a rank
    MAX_PLAYERS = 8
    MIN_PLAYERS = 3
    MAX_LEGAL = 16  # at most the 13 ranks
    # card locations (engine.py): "+ p" for the seat
    HAND = 0
    PLAYED = 8
    OUT_OF_PLAY = 16
    ABSENT = 17  # not in the deck the rules play with (the deck options)


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); names follow game.py's MatapesaGame.
    int n
    int num_tricks  # also the hand size: deck_size // n
    int deck_size  # the cards in play: 52, or fewer under the deck options
    bint follow_highest  # follow == "highest"
    bint lowest_anytime
    bint tie_last  # tie_winner == "last"


ctypedef struct Layout:
    # Offsets of MatapesaGame.observation_layout's fields, and the float32 scales of the
    # scaled ones.
    int size
    int hand_ranks, played_ranks, out_of_play_ranks, unseen_ranks, trick_rank
    int to_reach, trick_winner, leader, current_player, hand_sizes, tricks_left, last_trick
    float count_scale, hand_scale, tricks_scale


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    uint8_t loc[NUM_CARDS]  # location codes (engine.State.loc)
    uint8_t counts[MAX_PLAYERS][NUM_RANKS]  # per seat: the ranks in its hand
    uint8_t played[MAX_PLAYERS][NUM_RANKS]  # per seat: the ranks it has played
    uint8_t in_hands[NUM_RANKS]  # per rank: how many are in any hand
    uint8_t out_counts[NUM_RANKS]  # per rank: how many are out of play
    uint8_t hand_sizes[MAX_PLAYERS]
    uint8_t plays[NUM_CARDS]  # every card played, in order
    int plays_len
    int tricks_won[MAX_PLAYERS]
    int tricks_done
    int loser  # -1 until the last trick is won
    int leader
    int trick_start  # where the current (at the end: the last) trick starts in plays
    int need  # the rank to reach; -1 while leading
    int high  # the trick's highest rank so far
    int winner  # the seat taking the trick so far


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
    cdef void _start_trick(self, int leader) noexcept
    cdef int _end_trick(self) except -1


cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept
cdef int deal_hidden(State state, State copy, int seat, rng) except -1  # determinize's deal
