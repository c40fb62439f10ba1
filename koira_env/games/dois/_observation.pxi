# The compiled Dois core's rule set and observation writer, mirroring game.py's observation
# (included by _compiled.pyx): ``Engine`` holds one Rules as C ints (``Options``) and the
# observation's layout, and writes what DoisGame.observation and Game.action_mask write;
# ``write_observation`` is DoisGame.observation on the state's struct.

cdef class Engine:
    """One rule set as C ints, and the observation writer; ``DoisGame.compiled`` holds one.

    ``observation`` and ``action_mask`` give the same arrays as ``DoisGame.observation`` (the
    reference encoder) and ``Game.action_mask``.
    """

    def __init__(self, rules):
        # the layout's one definition (game.py imports this module)
        from ...core.encoding import layout
        from .game import _fields

        cdef Options* o = &self.opt
        cdef Layout* lay = &self.layout
        cdef int i
        self.rules = rules
        self.players = o.players = rules.num_players
        o.hands = rules.hands
        o.sealed = rules.bidding == "sealed"
        o.redeal_player = rules.redeal == "player"
        self.num_actions = NUM_ACTIONS
        slices, scale = layout(_fields(rules.num_players, rules.hands))
        start = {name: part.start for name, part in slices.items()}
        self.size = lay.size = len(scale)
        if lay.size > MAX_OBS:
            raise ValueError(f"an observation of {lay.size} entries is past MAX_OBS")
        for i in range(lay.size):
            lay.scale[i] = scale[i]
        lay.hand = start["hand"]
        lay.shows = start["shows_0"]
        lay.played = start["played"]
        lay.voids = start["voids_1"]
        lay.trump = start["trump"]
        lay.trumps_seen = start["trumps_seen"]
        lay.lead = start["lead"]
        lay.leader = start["leader"]
        lay.in_trick = start["played_in_trick"]
        lay.dealer = start["dealer"]
        lay.bids = start["bid_0"]
        lay.won = start["won"]
        lay.score_plus = start["score_plus"]
        lay.score_minus = start["score_minus"]
        lay.tricks_played = start["tricks_played"]
        lay.hand_no = start["hand_no"]
        lay.phase = start["phase"]
        lay.need = start["need"]
        lay.need_count = start["need_count"]
        lay.takes = start["takes"]
        lay.holds = start["holds"]

    def __reduce__(self):
        return Engine, (self.rules,)

    cdef int write(self, object state, int seat, float* out) except -1:
        cdef State s = state  # a TypeError for anything else
        if s.opt.players != self.opt.players or s.opt.hands != self.opt.hands:
            raise ValueError("the state was not dealt under this engine's rules")
        write_observation(s, seat, out)
        return 0


cdef inline int rel(int p, int seat, int n) noexcept:
    return (p - seat + n) % n


cdef void write_trick(const Data* d, int seat, State state, uint8_t* takes) noexcept:
    """DoisGame._trick: per card kind ``seat`` may play now, whether the show it makes would
    take the trick against the players who have played to it (``takes``), and also against
    those still to play as they show now (``takes + NUM_KINDS``, "holds")."""
    cdef int n = d.n, i, kind, suit, number, count
    cdef int suits[MAXP]
    cdef int numbers[MAXP]
    cdef int played[MAXP]
    cdef short legal[MAX_LEGAL]
    cdef int mine_suit = d.suit[seat], mine_number = d.number[seat]
    cdef bint later = d.in_trick + 1 < n
    for i in range(n):
        suits[i] = played[i] = d.suit[i]
        numbers[i] = d.number[i]
    for i in range(d.in_trick + 1, n):
        played[(d.leader + i) % n] = -1
    count = state.legal_into(legal)
    for i in range(count):
        kind = legal[i]
        if kind < NUM_SUITS:
            suit = kind
            number = mine_number
        else:
            suit = mine_suit
            number = kind - NUM_SUITS + 1
        if not number:
            continue
        suits[seat] = played[seat] = suit
        numbers[seat] = number
        if trick_winner(n, suits, numbers, d.leader, d.trump) == seat:
            takes[kind] = takes[NUM_KINDS + kind] = 1
        elif later and trick_winner(n, played, numbers, d.leader, d.trump) == seat:
            takes[kind] = 1


cdef void write_observation(State state, int seat, float* out) noexcept:
    """DoisGame.observation, written straight into ``out``: the reference's small integers
    (into a byte buffer, zeroed first), each turned into the float32 product with its field's
    float32 scale, as the reference's ``uint8 * float32 scale`` makes it. Everything is
    seat-relative ("player r" is r seats after the observer)."""
    cdef const Data* d = &state.d
    cdef const Layout* lay = &(<Engine>state.engine).layout
    cdef int n = d.n, r, p, k, i, at, bid, won, score
    cdef uint8_t buf[MAX_OBS]
    memset(buf, 0, lay.size)
    for k in range(NUM_KINDS):
        buf[lay.hand + k] = d.hands[seat][k]
        buf[lay.played + k] = d.played[k]
    for r in range(n):
        p = (seat + r) % n
        at = lay.shows + r * NUM_KINDS
        if d.suit[p] >= 0:
            buf[at + d.suit[p]] = 1
        if d.number[p] > 0:
            buf[at + NUM_SUITS + d.number[p] - 1] = 1
        if r:
            at = lay.voids + (r - 1) * VOID_BITS
            for i in range(VOID_BITS):
                buf[at + i] = (d.void[p] >> i) & 1
        bid = d.bids[p]
        if d.phase == BIDDING and state.opt.sealed and p != seat:
            bid = -1
        if bid >= 0:
            buf[lay.bids + r * (TRICKS + 1) + bid] = 1
        buf[lay.won + r] = d.won[p]
        score = d.scores[p]
        if score > 0:
            buf[lay.score_plus + r] = score
        elif score < 0:
            buf[lay.score_minus + r] = -score
    buf[lay.trump + d.trump] = 1
    for i in range(d.trumps_seen_len):
        buf[lay.trumps_seen + d.trumps_seen[i]] = 1
    if d.in_trick or d.step:
        buf[lay.lead + d.suit[d.leader]] = 1
    buf[lay.leader + rel(d.leader, seat, n)] = 1
    for i in range(d.in_trick):
        buf[lay.in_trick + rel((d.leader + i) % n, seat, n)] = 1
    buf[lay.dealer + rel((d.first - 1 + n) % n, seat, n)] = 1
    buf[lay.tricks_played] = d.tricks_played
    buf[lay.hand_no] = d.hand_no
    if d.phase < OVER:
        buf[lay.phase + d.phase] = 1
    bid = d.bids[seat]
    won = d.won[seat]
    if bid >= 0:  # DoisGame._need
        if won < bid:
            buf[lay.need] = 1
            buf[lay.need_count] = bid - won
        else:
            buf[lay.need + (1 if won == bid else 2)] = 1
            buf[lay.need_count + 1] = won - bid
    if d.h.current == seat and (d.phase == FIRST or d.phase == PLAYING):
        write_trick(d, seat, state, &buf[lay.takes])
    for i in range(lay.size):
        out[i] = <float>buf[i] * lay.scale[i]
