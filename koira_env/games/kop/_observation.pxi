# The compiled Kop core's rule set and observation writer, mirroring game.py's observation
# (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``) and the
# observation's layout, and writes what KopGame.observation and Game.action_mask write;
# ``write_observation`` is KopGame.observation on the state's struct.

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``KopGame.compiled`` holds one.

    ``observation`` and ``action_mask`` give the same arrays as ``KopGame.observation`` (the
    reference encoder) and ``Game.action_mask``.
    """

    def __init__(self, rules):
        # the layout's one definition (game.py imports this module)
        from ...core.encoding import layout
        from .game import _fields

        cdef Options* o = &self.opt
        cdef Layout* lay = &self.layout
        self.rules = rules
        self.players = PLAYERS
        o.victory_cards = rules.victory_cards
        o.single_hand = rules.single_hand
        o.silent_team = rules.silent_scoring == "team"
        o.no_call = rules.call_own_jack == "no_call"
        o.queens_lose = rules.tie == "queens_lose"
        o.max_hands = rules.max_hands
        self.num_actions = NUM_ACTIONS
        slices, scale = layout(_fields(rules))
        start = {name: part.start for name, part in slices.items()}
        self.size = lay.size = len(scale)
        lay.mine = start["cards_mine"]
        lay.played = start["cards_played_0"]
        lay.won = start["cards_won_0"]
        lay.trick = start["cards_trick"]
        lay.last_trick = start["cards_last_trick"]
        lay.trick_leader = start["trick_leader"]
        lay.trick_winner = start["trick_winner"]
        lay.led_suit = start["led_suit"]
        lay.declaring = start["declaring"]
        lay.call = start["call"]
        lay.caller = start["caller"]
        lay.called_jack = start["called_jack"]
        lay.my_choice = start["my_choice"]
        lay.points = start["points"]
        lay.victory_cards = start["victory_cards"]
        lay.hand_no = start["hand_no"]
        lay.points_scale = scale[lay.points]
        lay.vc_scale = scale[lay.victory_cards]
        lay.hand_scale = scale[lay.hand_no]

    def __reduce__(self):
        return Engine, (self.rules,)

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        if (
            s.opt.victory_cards != self.opt.victory_cards
            or s.opt.max_hands != self.opt.max_hands
        ):
            raise ValueError("the state was not dealt under this engine's rules")
        write_observation(s, seat, out)
        return 0


cdef void write_observation(State state, int seat, float* out) noexcept:
    """KopGame.observation, written straight into ``out`` (zeroed first). A value is the
    float32 product of its small integer and the field's float32 scale, as the reference's
    ``uint8 * float32 scale`` makes it; everything is seat-relative ("player r" is r seats
    after the observer)."""
    cdef Data* d = &state.d
    cdef const Layout* lay = &(<Engine>state.engine).layout
    cdef int c, r, code, value, call
    memset(out, 0, lay.size * sizeof(float))
    for c in range(NUM_CARDS):
        code = d.loc[c]
        if code == HAND + seat:
            out[lay.mine + c] = ONE_F
        elif code == TRICK:
            out[lay.trick + c] = ONE_F
        elif code >= WON:
            r = (code - WON - seat + PLAYERS) % PLAYERS
            out[lay.won + r * NUM_CARDS + c] = ONE_F
        if d.by[c] != NOBODY:
            r = (d.by[c] - seat + PLAYERS) % PLAYERS
            out[lay.played + r * NUM_CARDS + c] = ONE_F
    if d.tricks_len:
        for c in range(PLAYERS):
            out[lay.last_trick + d.trick_cards[d.tricks_len - 1][c]] = ONE_F
    out[lay.trick_leader + (d.trick_leader - seat + PLAYERS) % PLAYERS] = ONE_F
    if d.best_seat >= 0:
        out[lay.trick_winner + (d.best_seat - seat + PLAYERS) % PLAYERS] = ONE_F
    if d.trick_len:
        out[lay.led_suit + SUIT_OF[d.trick[0]]] = ONE_F
    if d.phase == DECLARE:
        out[lay.declaring + (d.h.current - seat + PLAYERS) % PLAYERS] = ONE_F
    if d.decider >= 0:  # game.py's _choice
        call = d.decision if d.decision == CALL or d.decision == SOLO else -1
        if call >= 0:
            out[lay.call + (0 if call == CALL else 1)] = ONE_F
            out[lay.caller + (d.decider - seat + PLAYERS) % PLAYERS] = ONE_F
            if d.called_jack >= 0:
                out[lay.called_jack + JACK_INDEX[d.called_jack]] = ONE_F
        if d.phase == DECLARE and seat == d.h.current and seat == d.decider:
            out[lay.my_choice] = ONE_F
        if d.decision == SILENT and seat == d.decider:
            out[lay.my_choice + 1] = ONE_F
    for r in range(PLAYERS):
        c = (seat + r) % PLAYERS
        out[lay.points + r] = <float>d.points[c] * lay.points_scale
        value = d.vc[c] if d.vc[c] > 0 else 0
        out[lay.victory_cards + r] = <float>value * lay.vc_scale
    if d.hand_no > 255:
        out[lay.hand_no] = <float>(<double>d.hand_no / state.opt.max_hands)
    else:
        out[lay.hand_no] = <float>d.hand_no * lay.hand_scale
