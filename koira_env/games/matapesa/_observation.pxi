# The compiled Mätäpesä core's rule set and observation writer, mirroring game.py's
# observation (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``)
# and the observation's layout, and writes what MatapesaGame.observation and
# Game.action_mask write; ``write_observation`` is MatapesaGame.observation on the state's
# struct.

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``MatapesaGame.compiled`` holds
    one. ``observation`` and ``action_mask`` give the same arrays as
    ``MatapesaGame.observation`` and ``Game.action_mask``."""

    def __init__(self, rules):
        from .game import _fields  # the layout's one definition (game.py imports this module)
        from .rules import deck_cards

        cdef Options* o = &self.opt
        cdef Layout* lay = &self.layout
        cdef int n
        self.rules = rules
        n = self.players = o.n = rules.num_players
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {n}")
        o.deck_size = len(deck_cards(rules))
        o.num_tricks = o.deck_size // n
        o.follow_highest = rules.follow == "highest"
        o.lowest_anytime = rules.lowest_anytime
        o.tie_last = rules.tie_winner == "last"
        self.num_actions = NUM_RANKS
        start = {}
        scale = {}
        offset = 0
        for name, size, sc in _fields(n):
            start[name] = offset
            scale[name] = sc
            offset += size
        self.size = lay.size = offset
        lay.hand_ranks = start["hand_ranks"]
        lay.played_ranks = start["played_ranks_0"]  # the n played fields follow each other
        lay.out_of_play_ranks = start["out_of_play_ranks"]
        lay.unseen_ranks = start["unseen_ranks"]
        lay.trick_rank = start["trick_rank_0"]  # and the n trick fields
        lay.to_reach = start["to_reach"]
        lay.trick_winner = start["trick_winner"]
        lay.leader = start["leader"]
        lay.current_player = start["current_player"]
        lay.hand_sizes = start["hand_sizes"]
        lay.tricks_left = start["tricks_left"]
        lay.last_trick = start["last_trick"]
        lay.count_scale = scale["hand_ranks"]  # the float32 of the reference's scale vector
        lay.hand_scale = scale["hand_sizes"]
        lay.tricks_scale = scale["tricks_left"]

    def __reduce__(self):
        return Engine, (self.rules,)

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        if s.opt.n != self.opt.n:  # not read past its seats
            raise ValueError("the state was not dealt under this engine's rules")
        write_observation(s, seat, out)
        return 0


cdef inline int relative(int p, int seat, int n) noexcept nogil:
    """Seat ``p`` counted from ``seat``: "player r" is r seats after the observer."""
    return (p - seat + n) % n


cdef void write_observation(State state, int seat, float* out) noexcept:
    """MatapesaGame.observation, written straight into ``out`` (zeroed first). A value is the
    float32 product of its count and the field's float32 scale, as the reference's
    ``uint8 * float32 scale`` makes it."""
    cdef Data* d = &state.d
    cdef const Layout* lay = &(<Engine>state.engine).layout
    cdef int n = state.opt.n
    cdef float cs = lay.count_scale
    cdef const uint8_t* mine = d.counts[seat]
    cdef float* row
    cdef int r, i, p, k, card, left
    memset(out, 0, lay.size * sizeof(float))
    for r in range(NUM_RANKS):
        out[lay.hand_ranks + r] = <float>mine[r] * cs
        out[lay.out_of_play_ranks + r] = <float>d.out_counts[r] * cs
        out[lay.unseen_ranks + r] = <float>(d.in_hands[r] - mine[r]) * cs
    for i in range(n):
        p = (seat + i) % n
        row = out + lay.played_ranks + i * NUM_RANKS
        for r in range(NUM_RANKS):
            row[r] = <float>d.played[p][r] * cs
        out[lay.hand_sizes + i] = <float>d.hand_sizes[p] * lay.hand_scale
    for k in range(d.trick_start, d.plays_len):
        card = d.plays[k]
        p = d.loc[card] - PLAYED
        out[lay.trick_rank + relative(p, seat, n) * NUM_RANKS + rank_of(card)] = 1.0
    if d.need >= 0:
        out[lay.to_reach + d.need] = 1.0
    if d.winner >= 0:
        out[lay.trick_winner + relative(d.winner, seat, n)] = 1.0
    out[lay.leader + relative(d.leader, seat, n)] = 1.0
    if d.loser < 0:
        out[lay.current_player + relative(d.h.current, seat, n)] = 1.0
    left = state.opt.num_tricks - d.tricks_done
    out[lay.tricks_left] = <float>left * lay.tricks_scale
    if left == 1:
        out[lay.last_trick] = 1.0
