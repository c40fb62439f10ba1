# The compiled Koira core's rule set and observation writer, mirroring observation.py
# (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``) and writes
# what ObservationEncoder writes; ``write_observation`` is ObservationEncoder.observation on
# the state's struct, for the engine and the batched env (_vector.pyx).

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``KoiraGame.compiled`` holds one.

    ``observation`` and ``action_mask`` give the same arrays as ``ObservationEncoder``.
    """

    def __init__(self, rules):
        cdef Options* o = &self.opt
        self.rules = rules
        self.players = o.n = rules.num_players
        if not 2 <= o.n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be 2-{MAX_PLAYERS}, got {o.n}")
        self.num_actions = o.num_actions = reference.num_actions(rules)
        o.max_actions = rules.max_actions
        o.hand_size = rules.hand_size
        cards = deck_cards(rules)
        o.deck_size = len(cards)
        o.in_play = 0
        for c in cards:
            o.in_play |= bit(c)
        o.removed = removed_unseen(rules)
        o.war_any_tie = rules.war_trigger == "any_tie"
        o.war_split = rules.war_mode == "split"
        o.risk_in_war = rules.risk_in_war
        o.trump_hidden = rules.trump_card == "hidden"
        o.phase_one_end = ("one_holder", "all_played", "due_player_empty").index(
            rules.phase_one_end
        )
        o.leader_trump_holder = rules.phase_two_leader == "trump_holder"
        o.trump_only_when_void = rules.trump_only_when_void
        o.voluntary_take = rules.voluntary_take
        o.take_lowest = rules.take == "lowest"
        o.take_one_card = rules.take_one_card
        o.emptied_ends = rules.emptied_trick == "ends"
        o.sequences = rules.sequences
        o.same_length = rules.sequence_beat == "same_length"
        o.sequences_from_two = rules.sequences_from_two
        o.trump_ends_trick = rules.trump_ends_trick
        o.reward_placement = rules.reward == "placement"
        self.size = LAYOUTS[o.n].size

    def __reduce__(self):
        return Engine, (self.rules,)

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        if s.opt.n != self.opt.n:
            raise ValueError(
                f"a {s.opt.n}-player state cannot be observed by a {self.opt.n}-player engine"
            )
        write_observation(s, seat, out)
        return 0


cdef void write_observation(State state, int seat, float* out) noexcept:
    """ObservationEncoder.observation, written straight into ``out`` (zeroed first)."""
    cdef Data* d = &state.d
    cdef int n = state.opt.n
    cdef const Layout* lay = &LAYOUTS[n]
    cdef const signed char* block = BLOCK[n][seat]
    cdef uint8_t where[NUM_CARDS]
    cdef int c, p, b, i, suit
    memset(out, 0, lay.size * sizeof(float))
    known_locations(state, seat, where)
    for c in range(NUM_CARDS):
        b = block[where[c]]
        if b >= 0:
            out[b * NUM_CARDS + c] = 1.0
    for p in range(n):
        i = (p - seat + n) % n  # seat-relative: 0 is the observer
        out[lay.hand_sizes + i] = <float>popcount(d.hand[p]) * CARD_SCALE_F
        out[lay.won_sizes + i] = <float>popcount(d.won[p]) * CARD_SCALE_F
        if d.out[p]:
            out[lay.out + i] = 1.0
    out[lay.stock_size] = <float>d.stock_len * CARD_SCALE_F
    suit = known_trump_suit(state, seat)
    if suit >= 0:
        out[lay.trump_suit + suit] = 1.0
    if d.trump_holder >= 0:
        out[lay.trump_holder + (d.trump_holder - seat + n) % n] = 1.0
    if d.phase == PHASE_ONE:
        out[lay.phase] = 1.0
    elif d.phase == PHASE_TWO:
        out[lay.phase + 1] = 1.0
    if d.phase != GAME_OVER:
        out[lay.current_player + (d.h.current - seat + n) % n] = 1.0
    if d.last_winner >= 0:
        out[lay.last_winner + (d.last_winner - seat + n) % n] = 1.0
    if d.phase == PHASE_ONE:
        for i in range(d.round_len):
            p = (d.round_player[i] - seat + n) % n
            out[lay.round_cards + p * NUM_CARDS + d.round_card[i]] = 1.0
        out[lay.pile_size] = <float>d.pile_len * CARD_SCALE_F
        if d.in_war:
            out[lay.war] = 1.0
            for i in range(d.round_players_len):
                out[lay.war_players + (d.round_players[i] - seat + n) % n] = 1.0
            if d.war_rank >= 0:  # always in play; a position set up by hand may lack it
                out[lay.war_rank + d.war_rank] = 1.0
        out[lay.war_depth] = <float>d.war_depth * WAR_DEPTH_SCALE_F
        return
    # phase two, or the game over with its last trick still on view
    if d.trick_len:
        i = d.trick_len - 1
        for c in range(d.trick_first[i], d.trick_first[i] + d.trick_size[i]):
            out[lay.top_play + c] = 1.0
        out[lay.top_player + (d.trick_player[i] - seat + n) % n] = 1.0
        for c in range(d.trick_first[0], d.trick_first[0] + d.trick_size[0]):
            out[lay.bottom_play + c] = 1.0
        out[lay.bottom_player + (d.trick_player[0] - seat + n) % n] = 1.0
    if d.led_suit >= 0:
        out[lay.led_suit + d.led_suit] = 1.0
    out[lay.trick_plays] = <float>d.trick_len * TRICK_SCALE_F
    out[lay.trick_count] = <float>d.trick_count * TRICK_SCALE_F
    out[lay.trick_needed] = <float>d.trick_needed * TRICK_SCALE_F
