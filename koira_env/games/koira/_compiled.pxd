# The C-level interface of the compiled Koira core (_compiled.pyx has the documentation).
# Other .pyx files (the batched env, compiled search) `cimport` these declarations:
#
#     from koira_env.games.koira._compiled cimport State, Engine, MAX_LEGAL
#
#     cdef short buf[MAX_LEGAL]
#     cdef int count = state.legal_into(buf)      # legal actions, increasing (as legal_actions)
#     state.apply_c(buf[0])                       # IllegalActionError if not legal
#     state.apply_legal(buf[0])                   # unchecked: an action legal_into gave
#     cdef State twin = state.clone_c()           # a deep copy: one struct copy + list copies
#     write_observation(state, seat, row_ptr)     # engine.size floats, zeroed then written
#     find_hidden(&state.d, seat, &hidden)        # the cards seat cannot see (core/_hidden.pxd)
#     place_hidden(&out, &state.d, &hidden, shuffled, n, seat)  # a deal of them, as determinize's

from libc.stdint cimport uint8_t, uint32_t, uint64_t

from koira_env.core._bits cimport cards_of, lowest, popcount  # the suite's bit tricks
from koira_env.core._engine cimport CompiledEngine, CompiledState, Header
from koira_env.core._hidden cimport Hidden

cdef enum:
    NUM_CARDS = 52
    MAX_PLAYERS = 8
    # actions (engine.py): 0-51 play a card, then risk, take, and the runs
    RISK = 52
    TAKE = 53
    FIRST_RUN = 54
    NUM_RUNS = 312
    MAX_LEGAL = 366  # 52 cards + take + 312 runs + 1 spare
    # card locations (engine.py: values of State.loc and State.pub)
    HAND = 0
    WON = 8
    TRICK = 16
    STOCK = 17
    DISCARD = 18
    REMOVED = 19
    TRUMP_ASIDE = 20
    UNKNOWN = 21
    NUM_CODES = 22
    PHASE_ONE = 1
    PHASE_TWO = 2
    GAME_OVER = 3
    MIN_RISK_STOCK = 2
    # Options.phase_one_end
    END_ONE_HOLDER = 0
    END_ALL_PLAYED = 1
    END_DUE_PLAYER_EMPTY = 2


ctypedef struct Options:
    # A Rules as ints, built once per rule set (Engine); field names follow rules.py.
    int n
    int num_actions
    int max_actions
    int hand_size  # cards dealt to each player and refilled up to
    int deck_size  # cards in play (52, or fewer: deck_ranks, deck_suits)
    uint64_t in_play  # their card mask
    int removed  # cards the deal removes unseen (rules.removed_unseen: 10 or 0)
    bint war_any_tie  # war_trigger == "any_tie" (else "highest_tie")
    bint war_split  # war_mode == "split" (else "play_on")
    bint risk_in_war
    bint trump_hidden  # trump_card == "hidden" (else "revealed")
    int phase_one_end  # END_*
    bint leader_trump_holder  # phase_two_leader == "trump_holder" (else "last_winner")
    bint trump_only_when_void
    bint voluntary_take
    bint take_lowest  # take == "lowest" (else "bottom")
    bint take_one_card
    bint emptied_ends  # emptied_trick == "ends" (else "continues")
    int sequences  # 0, 2 or 3
    bint same_length  # sequence_beat == "same_length"
    bint sequences_from_two
    bint trump_ends_trick
    bint reward_placement  # reward == "placement" (else "loser")


ctypedef struct Layout:
    # Offsets of the observation fields (observation.observation_layout) for one table size.
    int size
    int hand_sizes, won_sizes, stock_size, trump_suit, trump_holder, phase, current_player
    int out, last_winner, round_cards, pile_size, war, war_players, war_rank, war_depth
    int top_play, top_player, bottom_play, bottom_player, led_suit
    int trick_plays, trick_count, trick_needed


ctypedef struct Data:
    # Everything a game in progress holds besides Python objects; copying it is the clone.
    # Hands and won piles are 52-bit card masks; their list order (phase one keeps the order
    # cards arrived in) comes from `stamp`, a per-card arrival counter.
    Header h  # current, actions_taken, truncated, is_terminal (first: CompiledState.head)
    int phase
    # from `h` to `hands_sorted`, everything a phase-two move writes: the solver copies
    # only these to take a move back (tests/games/koira/test_koira_solver.py checks it)
    uint8_t loc[NUM_CARDS]
    uint8_t pub[NUM_CARDS]
    uint64_t hand[MAX_PLAYERS]
    # phase two: each play is a run of `trick_size` consecutive cards from `trick_first`
    uint8_t trick_player[NUM_CARDS]
    uint8_t trick_first[NUM_CARDS]
    uint8_t trick_size[NUM_CARDS]
    int trick_len
    int trick_count
    int trick_needed
    int led_suit
    uint8_t out[MAX_PLAYERS]
    uint8_t placements[MAX_PLAYERS]
    int placed
    bint hands_sorted  # phase two reached: hands read in card order, not arrival order
    uint32_t stamp[NUM_CARDS]  # read in phase one only
    uint32_t next_stamp
    uint64_t won[MAX_PLAYERS]
    uint8_t stock[NUM_CARDS]  # stock[stock_len - 1] is the top card
    int stock_len
    int trump_card
    int trump_holder
    int trump_suit
    int last_winner
    # phase one
    uint8_t pile_player[NUM_CARDS]
    uint8_t pile_card[NUM_CARDS]
    int pile_len
    uint8_t round_player[MAX_PLAYERS]  # round_cards: (player, card) of this round
    uint8_t round_card[MAX_PLAYERS]
    int round_len
    uint8_t round_players[MAX_PLAYERS]
    int round_players_len
    int round_pos
    bint in_war
    int war_rank
    int war_depth
    uint8_t dropped[MAX_PLAYERS]
    int dropped_len


cdef class Engine(CompiledEngine):
    cdef Options opt  # the observation's offsets are per table size (LAYOUTS in _tables.pxi)


cdef class StateAttributes(CompiledState):
    # the struct and engine.State's attributes over it (_adapters.pxi); State subclasses it
    cdef Data d
    cdef const Options* opt  # the engine's (CompiledState.engine)
    # attribute helpers
    cdef _set_codes(self, uint8_t* codes, value)
    cdef list _cards(self, uint64_t mask, bint by_arrival)
    cdef _set_piles(self, uint64_t* piles, value)


cdef class State(StateAttributes):
    # other compiled modules call CompiledState's interface (core/_engine.pxd) and read ``d``
    cdef readonly object rules

    cdef State clone_c(self)

    # phase one (engine.py State methods of the same names)
    cdef bint _can_risk(self) noexcept
    cdef bint _can_play(self, int p) noexcept
    cdef int _start_trick(self, int leader) except -1
    cdef int _phase_one_play(self, int action) except -1
    cdef int _next_phase_one_turn(self) except -1
    cdef int _tied_players(self, uint8_t* tied) noexcept
    cdef int _resolve_round(self) except -1
    cdef int _start_war(self, uint8_t* tied, int count) except -1
    cdef int _win_trick(self, int winner) except -1
    cdef int _split_trick(self, uint8_t* tied, int count) except -1
    cdef int _war_stalemate(self, uint8_t* involved, int count) except -1
    cdef int _after_trick(self, int next_leader) except -1
    cdef int _refill(self, int first) except -1
    cdef int _take_trump_card(self, int p, int card) except -1
    cdef bint _phase_one_over(self) noexcept
    cdef int _end_phase_one(self, bint return_trick) except -1
    # phase two
    cdef int _next_in(self, int p) noexcept
    cdef int _next_holder(self, int p, bint include_self) except -1
    cpdef void _start_phase_two_trick(self, int leader) noexcept
    cdef bint beats(self, int first, int size, int top_first, int top_size, uint64_t hand) noexcept
    cdef uint64_t _beating_cards(self, int top, uint64_t hand) noexcept
    cdef int _phase_two_legal(self, short* out) noexcept
    cdef int _phase_two_legal_runs(self, short* out) noexcept
    cdef int _runs_in(self, uint64_t hand, uint8_t* firsts, uint8_t* sizes) noexcept
    cdef int _phase_two_act(self, int action) except -1
    cdef int _take(self, int p) except -1
    cdef int _discard_trick(self, int winner) except -1
    cdef int _go_out(self, int p) except -1


cdef void write_observation(State state, int seat, float* out) noexcept
cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept
cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept
