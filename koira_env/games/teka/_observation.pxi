# The compiled Teka core's rule set and observation writer, mirroring game.py's observation
# (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``) and the
# observation's layout, and writes what TekaGame.observation and Game.action_mask write;
# ``write_observation`` is TekaGame.observation on the state's struct; ``turn_features`` is
# turns.turn_features (``_turns.pxi``).

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``TekaGame.compiled`` holds one.

    ``observation`` and ``action_mask`` give the same arrays as ``TekaGame.observation`` (the
    reference encoder) and ``Game.action_mask``.
    """

    def __init__(self, rules):
        # the layout's one definition (game.py imports this module)
        from ...core.encoding import layout
        from .game import _fields

        cdef Options* o = &self.opt
        cdef Layout* lay = &self.layout
        if rules.num_players != PLAYERS:
            raise ValueError(f"num_players must be {PLAYERS}, got {rules.num_players}")
        self.rules = rules
        self.players = PLAYERS
        o.target = rules.target
        o.single_hand = rules.single_hand
        o.no_honours = ("redeal", "ask", "keep").index(rules.no_honours)
        o.pass_signals = rules.pass_signals
        o.all_pass = ("dealer", "redeal").index(rules.all_pass)
        o.raises = ("any", "once", "never").index(rules.raises)
        o.early_end = rules.early_end
        o.failed_bid = ("opponents", "double", "nothing").index(rules.failed_bid)
        o.max_hands = rules.max_hands
        self.num_actions = NUM_ACTIONS
        slices, scale = layout(_fields(rules))
        start = {name: part.start for name, part in slices.items()}
        self.size = lay.size = len(scale)
        lay.mine = start["cards_mine"]
        lay.played = start["cards_played_0"]
        lay.trick = start["cards_trick"]
        lay.winning = start["cards_winning"]
        lay.master = start["cards_master"]
        lay.trick_leader = start["trick_leader"]
        lay.trick_winner = start["trick_winner"]
        lay.led_suit = start["led_suit"]
        lay.phase = start["phase"]
        lay.dealer = start["dealer"]
        lay.calls = start["call_0"]
        lay.call_size = start["call_1"] - start["call_0"]
        lay.declarer = start["declarer"]
        lay.contract = start["contract"]
        lay.trump = start["trump"]
        lay.won = start["tricks_won"]
        lay.needed = start["tricks_needed"]
        lay.scores = start["scores"]
        lay.hand_no = start["hand_no"]
        lay.won_scale = scale[lay.won]
        lay.needed_scale = scale[lay.needed]
        lay.score_scale = scale[lay.scores]
        lay.hand_scale = scale[lay.hand_no]

    def __reduce__(self):
        return Engine, (self.rules,)

    def turn_features(self, State state not None, int seat, legal):
        """``turns.turn_features(state.view(seat), rules, legal)``: a fresh (len(legal), 114)
        float32 array, one row per turn of ``legal`` (action ids, rows in its order), written
        in C from what ``seat`` may know (``write_turns``)."""
        cdef cnp.npy_intp dims[2]
        cdef int actions[MAX_TURNS]
        cdef Py_ssize_t i
        cdef int action
        self.seat_of_table(seat)
        if state.opt.target != self.opt.target or state.opt.max_hands != self.opt.max_hands:
            raise ValueError("the state was not dealt under this engine's rules")
        items = list(legal)
        if len(items) > MAX_TURNS:
            raise ValueError(f"at most {MAX_TURNS} turns, got {len(items)}")
        for i in range(len(items)):
            action = index(items[i])
            if not 0 <= action < NUM_ACTIONS:
                raise IndexError(f"an action is 0..{NUM_ACTIONS - 1}, got {action}")
            actions[i] = action
        dims[0] = len(items)
        dims[1] = TURN_FEATURES
        array = cnp.PyArray_ZEROS(2, dims, cnp.NPY_FLOAT32, 0)
        write_turns(state, seat, actions, len(items), <float*>cnp.PyArray_DATA(array))
        return array

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        if s.opt.target != self.opt.target or s.opt.max_hands != self.opt.max_hands:
            raise ValueError("the state was not dealt under this engine's rules")
        write_observation(s, seat, out)
        return 0


cdef inline void set_cards(float* out, uint64_t cards) noexcept:
    """1.0 at ``out[c]`` for each card ``c`` of ``cards``."""
    while cards:
        out[lowest(cards)] = ONE_F
        cards &= cards - 1


cdef inline int rel(int p, int seat) noexcept:
    return (p - seat + PLAYERS) % PLAYERS


cdef void write_observation(State state, int seat, float* out) noexcept:
    """TekaGame.observation, written straight into ``out`` (zeroed first). A value is the
    float32 product of its small integer and the field's float32 scale, as the reference's
    ``uint8 * float32 scale`` makes it; everything is seat-relative ("player r" is r seats
    after the observer)."""
    cdef Data* d = &state.d
    cdef const Layout* lay = &(<Engine>state.engine).layout
    cdef int c, r, p, s, top, side, to_make, to_beat, a, b
    cdef uint64_t mine = d.hand[seat], unseen = 0, cards, suit
    memset(out, 0, lay.size * sizeof(float))
    for p in range(PLAYERS):
        if p != seat:
            unseen |= d.hand[p]
    # by masks, not by card: a loop over the 52 cards' locations mispredicts its branches
    set_cards(out + lay.mine, mine)
    for c in range(d.trick_len):
        out[lay.trick + d.trick[c]] = ONE_F
    for r in range(PLAYERS):
        set_cards(out + lay.played + NUM_CARDS * r, d.played[(seat + r) % PLAYERS])
    if d.trick_len:
        cards = mine
        while cards:
            c = lowest(cards)
            if beats(c, d.best, d.trump):
                out[lay.winning + c] = ONE_F
            cards &= cards - 1
        out[lay.trick_leader + rel(d.leader, seat)] = ONE_F
        out[lay.led_suit + d.trick[0] // 13] = ONE_F
    for s in range(4):  # masters: my cards above the suit's highest unseen card
        suit = unseen & suit_mask(s)
        top = highest(suit) if suit else 13 * s - 1
        cards = mine & suit_mask(s)
        while cards:
            c = lowest(cards)
            if c > top:
                out[lay.master + c] = ONE_F
            cards &= cards - 1
    if d.best_seat >= 0:
        out[lay.trick_winner + rel(d.best_seat, seat)] = ONE_F
    if d.phase < OVER:
        out[lay.phase + d.phase] = ONE_F
    out[lay.dealer + rel(d.dealer, seat)] = ONE_F
    for r in range(PLAYERS):
        p = (seat + r) % PLAYERS
        if d.calls[p] >= 0:
            out[lay.calls + r * lay.call_size + d.calls[p] - PASS] = ONE_F
        out[lay.won + r] = <float>d.won[p] * lay.won_scale
    if d.declarer >= 0:
        out[lay.declarer + rel(d.declarer, seat)] = ONE_F
        out[lay.contract + (6 if d.double else d.contract - MIN_BID)] = ONE_F
    if d.trump >= 0:
        out[lay.trump + d.trump] = ONE_F
    state._tricks_to_go(&to_make, &to_beat)
    side = seat % 2
    if (d.declarer % 2 + 2) % 2 == side:
        a, b = to_make, to_beat
    else:
        a, b = to_beat, to_make
    out[lay.needed] = <float>a * lay.needed_scale
    out[lay.needed + 1] = <float>b * lay.needed_scale
    out[lay.scores] = <float>d.scores[side] * lay.score_scale
    out[lay.scores + 1] = <float>d.scores[1 - side] * lay.score_scale
    if d.hand_no > 255:
        out[lay.hand_no] = <float>(<double>d.hand_no / state.opt.max_hands)
    else:
        out[lay.hand_no] = <float>d.hand_no * lay.hand_scale
