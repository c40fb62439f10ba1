# The compiled Whist 22 core's rule set and observation writer, mirroring game.py's
# observation (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``)
# and the observation's layout, and writes what WhistGame.observation and Game.action_mask
# write; ``write_observation`` is WhistGame.observation on the state's struct.

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``WhistGame.compiled`` holds one.

    ``observation`` and ``action_mask`` give the same arrays as ``WhistGame.observation``
    (the reference encoder) and ``Game.action_mask``.
    """

    def __init__(self, rules):
        # the layout's and the hand cycle's one definition (game.py imports this module)
        from ...core.encoding import layout
        from .game import _fields, hand_cycle

        cdef Options* o = &self.opt
        cdef Layout* lay = &self.layout
        cdef int seat, r, k, n
        self.rules = rules
        n = self.players = o.n = rules.num_players
        if not 3 <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be 3-{MAX_PLAYERS}, got {n}")
        o.top = NUM_CARDS // n
        o.start_score = rules.start_score
        o.hook = rules.hook
        o.floor_at_zero = rules.floor_at_zero
        o.max_hands = rules.max_hands
        cycle = hand_cycle(rules)
        if not 0 < len(cycle) <= MAX_CYCLE:
            raise ValueError(f"a hand cycle of {len(cycle)} sizes does not fit the core")
        o.cycle_len = len(cycle)
        for k in range(o.cycle_len):
            o.cycle[k] = cycle[k]
        self.num_actions = BID + o.top + 1
        fields = _fields(n, o.top, rules.start_score)
        slices, scale = layout(fields)
        start = {name: part.start for name, part in slices.items()}
        self.size = lay.size = len(scale)
        lay.fool = start["fool_declared"]
        lay.bids = start["bids"]
        lay.won = start["tricks_won"]
        lay.scores = start["scores"]
        lay.hand_size = start["hand_size"]
        lay.next_hand_size = start["next_hand_size"]
        lay.tricks_played = start["tricks_played"]
        lay.dealer = start["dealer"]
        lay.leader = start["leader"]
        lay.phase = start["phase"]
        lay.hand_number = start["hand_number"]
        lay.won_scale = scale[lay.won]
        lay.score_scale = scale[lay.scores]
        lay.tricks_scale = scale[lay.tricks_played]
        lay.number_scale = scale[lay.hand_number]
        for seat in range(n):
            for k in range(NUM_CODES):
                lay.card_block[seat][k] = -1
            lay.card_block[seat][HAND + seat] = start["hand"]
            for r in range(n):
                lay.card_block[seat][PLAYED + (seat + r) % n] = start[f"played_{r}"]
                lay.card_block[seat][TRICK + (seat + r) % n] = start[f"trick_{r}"]

    def __reduce__(self):
        return Engine, (self.rules,)

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        dealt_under(&self.opt, s)
        write_observation(s, seat, out)
        return 0


cdef int dealt_under(const Options* opt, State s) except -1:
    """A state of another table size, hand cycle or start score is refused, not read past its
    seats or its fields."""
    cdef int k
    cdef bint same = (
        s.opt.n == opt.n
        and s.opt.start_score == opt.start_score
        and s.opt.cycle_len == opt.cycle_len
    )
    if same:
        for k in range(opt.cycle_len):
            if s.opt.cycle[k] != opt.cycle[k]:
                same = False
    if not same:
        raise ValueError("the state was not dealt under this engine's rules")
    return 0


cdef void write_observation(State state, int seat, float* out) noexcept:
    """WhistGame.observation, written straight into ``out`` (zeroed first). A value is the
    float32 product of its small integer and the field's float32 scale, as the reference's
    ``uint8 * float32 scale`` makes it; everything is seat-relative ("player r" is r seats
    after the observer)."""
    cdef Data* d = &state.d
    cdef const Options* opt = state.opt
    cdef const Layout* lay = &(<Engine>state.engine).layout
    cdef int n = opt.n
    cdef int top = opt.top
    cdef const int* block = lay.card_block[seat]
    cdef int c, b, r, p, k, value
    memset(out, 0, lay.size * sizeof(float))
    for c in range(NUM_CARDS):
        b = block[d.loc[c]]
        if b >= 0:
            out[b + c] = ONE_F
    if d.fool == FOOL_LOW:
        out[lay.fool] = ONE_F
    elif d.fool == FOOL_HIGH:
        out[lay.fool + 1] = ONE_F
    for r in range(n):
        p = (seat + r) % n
        if d.bids[p] >= 0:
            out[lay.bids + r * (top + 1) + d.bids[p]] = ONE_F
        out[lay.won + r] = <float>d.won[p] * lay.won_scale
        value = d.scores[p]
        if value < 0:  # only once the game is over
            value = 0
        out[lay.scores + r] = <float>value * lay.score_scale
    if d.phase != OVER:  # once over, the hand's fields are zeros
        k = d.hand_no % opt.cycle_len
        out[lay.hand_size + d.size - 1] = ONE_F
        out[lay.next_hand_size + opt.cycle[(k + 1) % opt.cycle_len] - 1] = ONE_F
        out[lay.tricks_played] = <float>d.tricks_played * lay.tricks_scale
        out[lay.dealer + (d.first - 1 - seat + 2 * n) % n] = ONE_F
        out[lay.leader + (d.leader - seat + n) % n] = ONE_F
        out[lay.phase + d.phase] = ONE_F
    value = d.hand_no if d.hand_no < 255 else 255
    out[lay.hand_number] = <float>value * lay.number_scale
