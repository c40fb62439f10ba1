# The compiled Red7 core's rule set and observation writer, mirroring game.py's observation
# (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``) and the
# observation's layout, and writes what Red7Game.observation, Game.action_mask and
# turns.turn_features write; ``write_observation`` is Red7Game.observation on the state's struct.

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``Red7Game.compiled`` holds one.

    ``observation``, ``action_mask`` and ``turn_features`` give the same arrays as
    ``Red7Game.observation``, ``Game.action_mask`` and ``turns.turn_features``.
    """

    def __init__(self, rules):
        from .game import _fields  # the layout's one definition (game.py imports this module)

        cdef Options* o = &self.opt
        cdef Layout* lay = &self.layout
        cdef int seat, r, code, q, n
        self.rules = rules
        n = self.players = o.n = rules.num_players
        if not 2 <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be 2-{MAX_PLAYERS}, got {n}")
        o.points = rules.scoring == "points"
        o.canvas_draw = rules.canvas_draw
        o.elimination = rules.places == "elimination"
        o.left_of_leader = rules.first_player == "left_of_leader"
        o.target = rules.points_to_win
        o.max_rounds = rules.max_rounds
        self.num_actions = NUM_ACTIONS
        start = {}
        scale = {}
        offset = 0
        for name, size, sc in _fields(rules):
            start[name] = offset
            scale[name] = sc
            offset += size
        self.size = lay.size = offset
        lay.rule = start["rule"]
        lay.leader = start["leader_red"]  # the seven leader fields follow each other
        lay.active = start["active"]
        lay.hand_sizes = start["hand_sizes"]
        lay.current_player = start["current_player"]
        lay.draw_size = start["draw_size"]
        lay.scores = start.get("scores", -1)
        lay.round = start.get("round", -1)
        lay.hand_scale = scale["hand_sizes"]
        lay.draw_scale = scale["draw_size"]
        lay.score_scale = scale.get("scores", 0.0)
        lay.round_scale = scale.get("round", 0.0)
        for seat in range(n):
            for code in range(NUM_CODES):
                lay.card_block[seat][code] = -1
            lay.card_block[seat][HAND + seat] = start["hand"]
            for r in range(n):
                lay.card_block[seat][PALETTE + (seat + r) % n] = start[f"palette_{r}"]
            lay.card_block[seat][CANVAS] = start["canvas"]
            for q in range(n):
                lay.card_block[seat][DEAD + q] = start["out_palettes"]
                if q != seat:
                    lay.card_block[seat][HAND + q] = start["unseen"]
                    lay.card_block[seat][FOLDED + q] = start["unseen"]
                if o.points:
                    lay.card_block[seat][SCORED + q] = start["scored"]
            lay.card_block[seat][DRAW] = start["unseen"]

    def __reduce__(self):
        return Engine, (self.rules,)

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        dealt_under(&self.opt, s)
        write_observation(s, seat, out)
        return 0

    def turn_features(self, State state not None, int seat, legal):
        """``turns.turn_features(state.view(seat), legal)``: a fresh (len(legal), 180) float32
        array, one row per turn of ``legal`` (any sequence of action ids, rows in its order),
        written in C from what ``seat`` may know (``write_turns``)."""
        cdef cnp.npy_intp dims[2]
        cdef Turns t
        cdef Py_ssize_t i = 0
        cdef int action
        cdef float* out
        self.seat_of_table(seat)
        dealt_under(&self.opt, state)
        dims[0] = len(legal)
        dims[1] = TURN_FEATURES
        array = cnp.PyArray_ZEROS(2, dims, cnp.NPY_FLOAT32, 0)
        out = <float*>cnp.PyArray_DATA(array)
        turns_of(&state.d, seat, state.opt.n, &t)
        for item in legal:
            action = item if type(item) is int else index(item)  # 1.0 is no action
            if not 0 <= action < NUM_ACTIONS:
                raise ValueError(f"an action is 0..{NUM_ACTIONS - 1}, got {action}")
            if i == dims[0]:
                raise ValueError("legal changed size while its rows were written")
            write_turn(&t, action, out + i * TURN_FEATURES)
            i += 1
        return array


cdef int dealt_under(const Options* opt, State s) except -1:
    """A state of another table size or scoring is refused, not read past its seats."""
    if s.opt.n != opt.n or s.opt.points != opt.points:
        raise ValueError("the state was not dealt under this engine's rules")
    return 0


cdef void write_observation(State state, int seat, float* out) noexcept:
    """Red7Game.observation, written straight into ``out`` (zeroed first). A value is the
    float32 product of its count and the field's float32 scale, as the reference's tables
    (``uint8 * float32 scale``) hold it."""
    cdef Data* d = &state.d
    cdef const Layout* lay = &(<Engine>state.engine).layout
    cdef int n = state.opt.n
    cdef const int* block = lay.card_block[seat]
    cdef int c, b, r, i, p, value
    memset(out, 0, lay.size * sizeof(float))
    for c in range(NUM_CARDS):
        b = block[d.loc[c]]
        if b >= 0:
            out[b + c] = ONE_F
    out[lay.rule + d.rule] = ONE_F
    for r in range(NUM_COLOURS):
        if d.leaders[r] >= 0:
            out[lay.leader + r * n + (d.leaders[r] - seat + n) % n] = ONE_F
    for i in range(n):
        p = (seat + i) % n  # seat-relative: "player i" is i seats after the observer
        if d.active[p]:
            out[lay.active + i] = ONE_F
        out[lay.hand_sizes + i] = <float>popcount(d.hand[p]) * lay.hand_scale
    if d.h.current >= 0:
        out[lay.current_player + (d.h.current - seat + n) % n] = ONE_F
    out[lay.draw_size] = <float>d.draw_len * lay.draw_scale
    if state.opt.points:
        for i in range(n):
            value = d.scores[(seat + i) % n]
            if value > state.opt.target:
                value = state.opt.target
            out[lay.scores + i] = <float>value * lay.score_scale
        out[lay.round] = <float>(d.round if d.round < 255 else 255) * lay.round_scale
