# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Koira core: the rules engine and the observation writer in Cython.

``engine.py`` is the readable reference and RULES.md points at it; this module plays exactly
the same games, faster, and ``tests/games/koira/test_koira_compiled.py`` proves it by playing both side by
side and comparing every step (whose turn, the legal set, the observation bytes, the views,
rewards, events, records). Every rule is one method named as in ``engine.State``; each says
which reference method it mirrors. ``KoiraGame`` uses this module unless asked for
``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``hands``, ``loc`` and friends builds them, so they are for tools and
tests, not hot loops), and ``Engine(rules)`` writes observations and masks as
``ObservationEncoder`` does: ``observation(state, seat)`` (a fresh float32 vector),
``observe_into(state, seat, row)`` (into a caller's preallocated float32 row) and
``action_mask(legal)``.

C interface, for other compiled modules (``_compiled.pxd``; ``cimport`` it):

* ``State.d`` is a plain struct (``Data``): hands and won piles as 52-bit card masks, the
  stock, phase-one pile and round, phase-two trick, locations. ``clone_c()`` copies it whole.
* ``state.legal_into(short* buf)`` writes the legal actions (as ``legal_actions()``, in
  increasing order but phase one's hand order) and returns how many; ``buf`` holds
  ``MAX_LEGAL``.
* ``state.apply_c(action)`` plays an action or raises ``IllegalActionError`` (nothing changes);
  ``state.apply_legal(action)`` skips the check, for an action ``legal_into`` gave.
* ``write_observation(state, seat, float* out)`` writes ``engine.size`` floats.

Events are logged only when ``state.log`` is a list (``log=True``), as in the reference.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from koira_env.core._hidden cimport MAX_HIDDEN, copy_order, hidden_list, hide
from koira_env.core._mask cimport legal_mask

from ...cards import RANKS, card_name
from ...core.game import IllegalActionError, Outcome
from . import engine as reference
from .info import SeatView
from .observation import CARD_SCALE, TRICK_SCALE, WAR_DEPTH_SCALE, observation_layout

cnp.import_array()


# ============================================================================ tables
CARD_NAMES = tuple(card_name(c) for c in range(NUM_CARDS))
cdef tuple NAMES = CARD_NAMES
cdef uint8_t RUN_FIRST[NUM_RUNS]  # engine.RUNS[i][0]
cdef uint8_t RUN_SIZE[NUM_RUNS]  # len(engine.RUNS[i])
cdef short RUN_OF[NUM_CARDS][14]  # RUN_OF[first][size]: engine.RUN_ACTION of that run
for _i, _run in enumerate(reference.RUNS):
    RUN_FIRST[_i] = _run[0]
    RUN_SIZE[_i] = len(_run)
    RUN_OF[_run[0]][len(_run)] = reference.RUN_ACTION[_run]

cdef float CARD_SCALE_F = CARD_SCALE
cdef float TRICK_SCALE_F = TRICK_SCALE
cdef float WAR_DEPTH_SCALE_F = WAR_DEPTH_SCALE

# LAYOUTS[n]: observation_layout(n) as offsets. BLOCK[n][seat][code]: the card block (0 =
# cards_mine, r = cards_hand_r, n + r = cards_won_r, then trick, discarded, my trump, unknown)
# of a card that ``seat`` knows to be at location ``code``, or -1.
cdef Layout LAYOUTS[MAX_PLAYERS + 1]
cdef signed char BLOCK[MAX_PLAYERS + 1][MAX_PLAYERS][NUM_CODES]


cdef void _fill_tables() except *:
    cdef int n, seat, p, code
    cdef Layout* lay
    for n in range(2, MAX_PLAYERS + 1):
        f = {name: part.start for name, part in observation_layout(n).items()}
        lay = &LAYOUTS[n]
        lay.size = observation_layout(n)["trick_needed"].stop
        lay.hand_sizes = f["hand_sizes"]
        lay.won_sizes = f["won_sizes"]
        lay.stock_size = f["stock_size"]
        lay.trump_suit = f["trump_suit"]
        lay.trump_holder = f["trump_holder"]
        lay.phase = f["phase"]
        lay.current_player = f["current_player"]
        lay.out = f["out"]
        lay.last_winner = f["last_winner"]
        lay.round_cards = f["round_cards"]
        lay.pile_size = f["pile_size"]
        lay.war = f["war"]
        lay.war_players = f["war_players"]
        lay.war_rank = f["war_rank"]
        lay.war_depth = f["war_depth"]
        lay.top_play = f["top_play"]
        lay.top_player = f["top_player"]
        lay.bottom_play = f["bottom_play"]
        lay.bottom_player = f["bottom_player"]
        lay.led_suit = f["led_suit"]
        lay.trick_plays = f["trick_plays"]
        lay.trick_count = f["trick_count"]
        lay.trick_needed = f["trick_needed"]
        for seat in range(n):
            for code in range(NUM_CODES):
                BLOCK[n][seat][code] = -1
            for p in range(n):
                BLOCK[n][seat][HAND + p] = (p - seat + n) % n
                BLOCK[n][seat][WON + p] = n + (p - seat + n) % n
            BLOCK[n][seat][TRICK] = 2 * n
            BLOCK[n][seat][DISCARD] = 2 * n + 1
            BLOCK[n][seat][TRUMP_ASIDE] = 2 * n + 2
            BLOCK[n][seat][UNKNOWN] = 2 * n + 3


_fill_tables()


# ============================================================================ card masks
cdef inline uint64_t bit(int card) noexcept nogil:
    return (<uint64_t>1) << card  # the cast matters: a plain 1 << 52 is a 32-bit shift


cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    return (<uint64_t>0x1FFF) << (13 * suit)


cdef inline int in_order(Data* d, uint64_t mask, bint by_arrival, uint8_t* out) noexcept nogil:
    """A hand or won pile as the reference's list: in arrival order, or in card order."""
    cdef int count = cards_of(mask, out)
    cdef int i, j
    cdef uint8_t card
    if by_arrival:
        for i in range(1, count):  # insertion sort by stamp: at most a few cards
            card = out[i]
            j = i - 1
            while j >= 0 and d.stamp[out[j]] > d.stamp[card]:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = card
    return count


cdef inline void hand_add(Data* d, int p, int card) noexcept nogil:
    d.hand[p] |= bit(card)
    d.stamp[card] = d.next_stamp
    d.next_stamp += 1


cdef inline void won_add(Data* d, int p, int card) noexcept nogil:
    d.won[p] |= bit(card)
    d.stamp[card] = d.next_stamp
    d.next_stamp += 1


cdef list card_list(uint8_t* cards, int count):
    return [NAMES[cards[i]] for i in range(count)]


cdef list run_names(int first, int size):
    return [NAMES[c] for c in range(first, first + size)]


cdef inline void known_locations(State state, int seat, uint8_t* where) noexcept:
    """info.known_locations: ``pub`` plus the seat's own hand and its hidden trump card."""
    cdef Data* d = &state.d
    cdef uint64_t mask = d.hand[seat]
    memcpy(where, d.pub, NUM_CARDS)
    while mask:
        where[lowest(mask)] = HAND + seat
        mask &= mask - 1
    if d.trump_holder == seat and d.trump_card >= 0 and d.loc[d.trump_card] == TRUMP_ASIDE:
        where[d.trump_card] = TRUMP_ASIDE


cdef inline int known_trump_suit(State state, int seat) noexcept:
    """info.known_trump_suit: the hidden trump card's holder knows the suit early."""
    if state.d.trump_suit >= 0:
        return state.d.trump_suit
    if state.d.trump_holder == seat and state.d.trump_card >= 0:
        return state.d.trump_card // 13
    return -1


# ============================================================================ rule set
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


# ============================================================================ writable copies
class _Codes(bytearray):
    """A copy of ``State.loc`` or ``State.pub`` whose item writes go back into the state, so
    tests and tools set up positions in place (``s.loc[c] = HAND``) as on the reference."""

    __slots__ = ("_name", "_state")

    def __setitem__(self, key, value):
        bytearray.__setitem__(self, key, value)
        setattr(self._state, self._name, self)

    def __repr__(self):
        return repr(bytearray(self))


cdef _codes(State state, str name, uint8_t* codes):
    copy = _Codes(<bytes>(<char*>codes)[:NUM_CARDS])
    copy._state = state
    copy._name = name
    return copy


cdef int _card(value) except -1:
    if type(value) is not int or not 0 <= value < NUM_CARDS:
        raise ValueError(f"a card must be an int in 0..51, got {value!r}")
    return value


cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """engine.State.determinize's hidden cards: unknown to ``seat`` and not its own (nor the
    trump card it set aside)."""
    cdef int c
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        if (
            d.pub[c] == UNKNOWN
            and d.loc[c] != HAND + seat
            and not (d.loc[c] == TRUMP_ASIDE and d.trump_holder == seat)
        ):
            hide(h, c, d.loc[c])


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept:
    """``root`` with hidden card ``shuffled[i]`` where ``h.cards[i]`` was (its location and its
    place in hand), as engine.State.determinize places its shuffle. ``seat`` (whose deal it
    is) is the cores' common signature: Koira's locations alone say where each card goes."""
    cdef int new_for[NUM_CARDS]  # the card now in old's place
    cdef int i, p, old, new
    cdef uint64_t old_hand
    out[0] = root[0]
    if h.count == 0:
        return
    for i in range(NUM_CARDS):
        new_for[i] = i
    for i in range(h.count):
        old = h.cards[i]
        new = shuffled[i]
        new_for[old] = new
        out.loc[new] = root.loc[old]
        out.stamp[new] = root.stamp[old]  # the new card takes the old one's place in hand
    for p in range(n):
        old_hand = out.hand[p] & h.mask
        out.hand[p] &= ~h.mask
        while old_hand:
            out.hand[p] |= bit(new_for[lowest(old_hand)])
            old_hand &= old_hand - 1
    if out.phase != PHASE_ONE:
        out.hands_sorted = True  # the reference sorts hands outside phase one
    for i in range(out.stock_len):
        out.stock[i] = new_for[out.stock[i]]
    if out.trump_card >= 0:
        out.trump_card = new_for[out.trump_card]


cdef int _seat(State state, value) except -1:
    if type(value) is not int or not 0 <= value < state.opt.n:
        raise ValueError(f"a seat must be an int in 0..{state.opt.n - 1}, got {value!r}")
    return value


cdef int _bounded(value, int low, int high, str what) except? -1:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be an int in {low}..{high}, got {value!r}")
    return value


# ============================================================================ the state
@cython.final
cdef class State:
    """A Koira game in progress, as ``engine.State`` (build it with ``KoiraGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    def __init__(self, game, deck, log=False, seed=None):
        """engine.State.__init__: deal three cards each, the rest is the stock."""
        cdef Data* d = &self.d
        cdef int n, i, card, count, dealt
        cdef uint64_t seen = 0
        self._bind(game)
        self.seed = seed
        self.deck = tuple(deck)
        self.log = [] if log else None
        self.history = []
        if len(self.deck) == NUM_CARDS:
            for c in self.deck:
                if type(c) is int and 0 <= c < NUM_CARDS:
                    seen |= bit(c)
        if seen != bit(NUM_CARDS) - 1:
            raise ValueError("a deck must hold each card id 0..51 once")
        n = self.opt.n
        memset(d, 0, sizeof(Data))
        memset(d.pub, UNKNOWN, NUM_CARDS)
        dealt = HAND_SIZE * n
        for i in range(dealt):
            card = self.deck[i]
            hand_add(d, i % n, card)
            d.loc[card] = HAND + i % n
        count = NUM_CARDS - dealt
        if n == 2:
            for i in range(NUM_CARDS - TWO_PLAYER_REMOVED, NUM_CARDS):
                d.loc[<int>self.deck[i]] = REMOVED
            count -= TWO_PLAYER_REMOVED
        for i in range(count):  # the first card after the deal is the top of the stock
            card = self.deck[dealt + count - 1 - i]
            d.stock[i] = card
            d.loc[card] = STOCK
        d.stock_len = count
        d.trump_card = d.trump_holder = d.trump_suit = d.last_winner = -1
        d.phase = PHASE_ONE
        d.war_rank = -1
        d.led_suit = -1
        self._start_trick(0)

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt
        self.rules = game.rules

    cdef State clone_c(self):
        """engine.State.clone: a deep copy that shares only immutable parts."""
        cdef State c = State.__new__(State)
        self.copy_into(c)
        c.opt = self.opt
        c.rules = self.rules
        return c

    # ------------------------------------------------------------------ queries
    cdef int legal_into(self, short* out) noexcept:
        """engine.State.legal_actions into ``out``; returns the count."""
        cdef Data* d = &self.d
        cdef uint8_t cards[NUM_CARDS]
        cdef int count, i
        if d.phase == PHASE_TWO:
            return self._phase_two_legal(out)
        if d.phase == PHASE_ONE:
            count = in_order(d, d.hand[d.h.current], not d.hands_sorted, cards)
            for i in range(count):
                out[i] = cards[i]
            if self._can_risk():
                out[count] = RISK
                count += 1
            return count
        return 0

    def returns(self):
        """Zero-sum terminal rewards per seat (all zero before the end or when truncated)."""
        cdef int n = self.opt.n
        cdef int place, p
        result = [0.0] * n
        if self.d.phase != GAME_OVER or self.d.h.truncated:
            return result
        if not self.opt.reward_placement:
            for p in range(n):
                result[p] = 1.0 / (n - 1)
            result[self.d.placements[self.d.placed - 1]] = -1.0
        else:
            for place in range(self.d.placed):
                result[self.d.placements[place]] = 1.0 - 2.0 * place / (n - 1)
        return result

    def outcome(self):
        """Places in the order players went out (the loser last); scores are the returns."""
        if self.d.phase != GAME_OVER or self.d.h.truncated:
            return None
        places = [0] * self.opt.n
        for place in range(self.d.placed):
            places[self.d.placements[place]] = place + 1
        returns = tuple(self.returns())
        return Outcome(tuple(places), returns, returns, extra={"placements": self.placements})

    def view(self, int seat):
        """What ``seat`` may know (``info.SeatView``, as ``info.seat_view`` builds it)."""
        cdef Data* d = &self.d
        cdef uint8_t where[NUM_CARDS]
        cdef uint8_t cards[NUM_CARDS]
        cdef int n = self.opt.n
        cdef int count
        cdef bint phase_one = d.phase == PHASE_ONE
        _seat(self, seat)
        count = in_order(d, d.hand[seat], not d.hands_sorted, cards)
        known_locations(self, seat, where)
        return SeatView(
            seat,
            n,
            d.phase,
            d.h.current,
            tuple([cards[i] for i in range(count)]),
            tuple(self.legal_actions()) if d.h.current == seat else (),
            (<char*>where)[:NUM_CARDS],
            tuple([popcount(d.hand[p]) for p in range(n)]),
            tuple([popcount(d.won[p]) for p in range(n)]),
            d.stock_len,
            known_trump_suit(self, seat),
            d.trump_holder,
            tuple(self.pile) if phase_one else (),
            tuple(self.round_cards) if phase_one else (),
            tuple(self.round_players) if phase_one and d.in_war else (),
            d.war_rank if phase_one and d.in_war else -1,
            d.war_depth if phase_one else 0,
            tuple([(p, tuple(cs)) for p, cs in self.trick]),
            d.trick_count,
            d.trick_needed,
            tuple(self.out),
            tuple(self.placements),
        )

    def determinize(self, int seat, rng):
        """A full state consistent with everything ``seat`` knows, hidden cards dealt at random.

        engine.State.determinize, with the same calls to ``rng`` (one ``shuffle``), so both
        engines give the same deal for the same generator state.
        """
        cdef State s = self.clone_c()
        cdef Hidden h
        cdef uint8_t order[MAX_HIDDEN]
        _seat(self, seat)
        s.deck = ()
        s.history = []
        s.log = None
        find_hidden(&self.d, seat, &h)
        shuffled = hidden_list(&h)
        rng.shuffle(shuffled)
        copy_order(&h, shuffled, order)
        place_hidden(&s.d, &self.d, &h, order, self.opt.n, seat)
        return s

    @property
    def loser(self):
        if self.d.phase == GAME_OVER and not self.d.h.truncated:
            return self.d.placements[self.d.placed - 1]
        return -1

    # ------------------------------------------------------------------ apply
    cdef int apply_c(self, int action) except -1:
        """engine.State.apply, for an int action."""
        cdef Data* d = &self.d
        cdef short buf[MAX_LEGAL]
        cdef int count, i
        if d.phase == PHASE_TWO:
            count = self._phase_two_legal(buf)
            for i in range(count):
                if buf[i] == action:
                    break
            else:
                raise IllegalActionError(self._illegal(action))
        elif d.phase == PHASE_ONE:
            if action == RISK:
                if not self._can_risk():
                    raise IllegalActionError(self._illegal(action))
            elif not (0 <= action < NUM_CARDS and d.hand[d.h.current] & bit(action)):
                raise IllegalActionError(self._illegal(action))
        else:
            raise IllegalActionError("the game is over: no action is legal")
        return self.apply_legal(action)

    cdef int apply_legal(self, int action) except -1:
        """``apply_c`` without the legality check, for callers that took ``action`` from
        ``legal_into`` (search): a state whose ``history`` is None keeps none."""
        cdef Data* d = &self.d
        if self.history is not None:
            self.history.append(action)
        if d.phase == PHASE_TWO:
            self._phase_two_act(action)
        else:
            self._phase_one_play(action)
        d.h.actions_taken += 1
        if d.h.actions_taken >= self.opt.max_actions and d.phase != GAME_OVER:
            d.h.truncated = True
            d.phase = GAME_OVER
            d.h.is_terminal = True
            if self.log is not None:
                self.log.append({"actions": d.h.actions_taken, "type": "truncated"})
        return 0

    # ================================================================== phase one
    cdef bint _can_risk(self) noexcept:
        """engine.State._can_risk"""
        return self.d.stock_len >= MIN_RISK_STOCK and (self.opt.risk_in_war or not self.d.in_war)

    cdef bint _can_play(self, int p) noexcept:
        """engine.State._can_play"""
        return self.d.hand[p] != 0 or self._can_risk()

    cdef int _start_trick(self, int leader) except -1:
        """engine.State._start_trick: a phase-one trick led by ``leader`` (or the next able)."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int k
        d.pile_len = 0
        d.round_len = 0
        d.in_war = False
        d.war_rank = -1
        d.war_depth = 0
        d.dropped_len = 0
        for k in range(n):
            d.round_players[k] = (leader + k) % n
        d.round_players_len = n
        d.round_pos = 0
        return self._next_phase_one_turn()

    cdef int _phase_one_play(self, int action) except -1:
        """engine.State._phase_one_play: a hand card or a risked stock card onto the pile."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int card
        if action == RISK:
            d.stock_len -= 1
            card = d.stock[d.stock_len]
        else:
            d.hand[p] &= ~bit(action)
            card = action
        if self.log is not None:
            self.log.append(
                {"player": p, "card": NAMES[card], "risked": action == RISK, "type": "play"}
            )
        d.loc[card] = d.pub[card] = TRICK
        d.pile_player[d.pile_len] = p
        d.pile_card[d.pile_len] = card
        d.pile_len += 1
        d.round_player[d.round_len] = p
        d.round_card[d.round_len] = card
        d.round_len += 1
        d.round_pos += 1
        return self._next_phase_one_turn()

    cdef int _next_phase_one_turn(self) except -1:
        """engine.State._next_phase_one_turn: who plays next; skip, drop out or end phase one."""
        cdef Data* d = &self.d
        cdef int p
        while d.round_pos < d.round_players_len:
            p = d.round_players[d.round_pos]
            if self._can_play(p):
                d.h.current = p
                return 0
            if self.opt.phase_one_end == END_DUE_PLAYER_EMPTY and d.stock_len == 0:
                return self._end_phase_one(True)
            if not d.in_war:
                d.round_pos += 1  # a player with nothing to play is skipped
                continue
            # A war player who cannot play drops out of the war.
            memmove(
                &d.round_players[d.round_pos],
                &d.round_players[d.round_pos + 1],
                d.round_players_len - d.round_pos - 1,
            )
            d.round_players_len -= 1
            d.dropped[d.dropped_len] = p
            d.dropped_len += 1
            if self.log is not None:
                self.log.append({"player": p, "type": "war_dropout"})
            if d.round_players_len == 1:  # the last war player left wins the pile at once
                return self._win_trick(d.round_players[0])
        return self._resolve_round()

    cdef int _tied_players(self, uint8_t* tied) noexcept:
        """engine.State._tied_players: the players whose cards start a war (rule: war trigger)
        into ``tied``, in round order; returns how many (0: no war)."""
        cdef Data* d = &self.d
        cdef int count[13]
        cdef int i, rank = -1, top = -1, found = 0
        memset(count, 0, sizeof(count))
        for i in range(d.round_len):
            count[d.round_card[i] % 13] += 1
        for i in range(12, -1, -1):
            if count[i]:
                top = i
                break
        if self.opt.war_any_tie:  # the highest rank played twice or more
            for i in range(12, -1, -1):
                if count[i] >= 2:
                    rank = i
                    break
        elif top >= 0 and count[top] >= 2:  # highest_tie: only a tie on the top rank
            rank = top
        if rank < 0:
            return 0
        d.war_rank = rank
        for i in range(d.round_len):
            if d.round_card[i] % 13 == rank:
                tied[found] = d.round_player[i]
                found += 1
        return found

    cdef int _resolve_round(self) except -1:
        """engine.State._resolve_round: the round's highest card wins, or a tie goes to war."""
        cdef Data* d = &self.d
        cdef uint8_t tied[MAX_PLAYERS]
        cdef int count, i, top = -1
        if d.round_len == 0:
            raise RuntimeError("engine invariant broken: a phase-one round without a play")
        count = self._tied_players(tied)
        if count == 0:
            for i in range(d.round_len):
                top = max(top, d.round_card[i] % 13)
            for i in range(d.round_len):
                if d.round_card[i] % 13 == top:
                    return self._win_trick(d.round_player[i])
        if self.opt.war_split:
            return self._split_trick(tied, count)
        return self._start_war(tied, count)

    cdef int _start_war(self, uint8_t* tied, int count) except -1:
        """engine.State._start_war: the tied players play again, in seat order from the leader."""
        cdef Data* d = &self.d
        cdef uint8_t able[MAX_PLAYERS]
        cdef int i, p, num_able = 0
        d.in_war = True
        d.war_depth += 1
        if self.log is not None:
            self.log.append(
                {
                    "players": [tied[i] for i in range(count)],
                    "rank": RANKS[d.war_rank],
                    "depth": d.war_depth,
                    "type": "war",
                }
            )
        if self.opt.phase_one_end == END_DUE_PLAYER_EMPTY and d.stock_len == 0:
            for i in range(count):
                if d.hand[tied[i]] == 0:
                    return self._end_phase_one(True)
        d.dropped_len = 0
        for i in range(count):
            p = tied[i]
            if self._can_play(p):
                able[num_able] = p
                num_able += 1
            else:
                d.dropped[d.dropped_len] = p
                d.dropped_len += 1
        if self.log is not None:
            for i in range(d.dropped_len):
                self.log.append({"player": d.dropped[i], "type": "war_dropout"})
        if num_able == 0:
            return self._war_stalemate(tied, count)
        if num_able == 1:
            return self._win_trick(able[0])
        memcpy(d.round_players, able, num_able)
        d.round_players_len = num_able
        d.round_len = 0
        d.round_pos = 0
        return self._next_phase_one_turn()

    cdef int _win_trick(self, int winner) except -1:
        """engine.State._win_trick: the whole pile to the winner's won pile."""
        cdef Data* d = &self.d
        cdef int i, card
        for i in range(d.pile_len):
            card = d.pile_card[i]
            won_add(d, winner, card)
            d.loc[card] = d.pub[card] = WON + winner
        d.last_winner = winner
        if self.log is not None:
            self.log.append(
                {"player": winner, "cards": card_list(d.pile_card, d.pile_len), "type": "trick_won"}
            )
        return self._after_trick(winner)

    cdef int _split_trick(self, uint8_t* tied, int count) except -1:
        """engine.State._split_trick: the tied players keep their tied cards, the rest is shared
        (the lowest to the round's last player, then round robin over the tied players)."""
        cdef Data* d = &self.d
        cdef uint8_t share[MAX_PLAYERS][MAX_PLAYERS]
        cdef int share_len[MAX_PLAYERS]
        cdef uint8_t order[MAX_PLAYERS]  # the shares in the reference's dict order
        cdef uint8_t rest[MAX_PLAYERS]
        cdef bint is_tied[MAX_PLAYERS]
        cdef int num_order = 0, num_rest = 0
        cdef int i, j, p, card, last
        memset(share_len, 0, sizeof(share_len))
        memset(is_tied, 0, sizeof(is_tied))
        for i in range(count):
            is_tied[tied[i]] = True
        for i in range(d.round_len):
            p = d.round_player[i]
            if is_tied[p]:
                share[p][0] = d.round_card[i]
                share_len[p] = 1
            else:
                rest[num_rest] = d.round_card[i]
                num_rest += 1
        for i in range(1, num_rest):  # sorted by (rank, card)
            card = rest[i]
            j = i - 1
            while j >= 0 and (rest[j] % 13) * NUM_CARDS + rest[j] > (card % 13) * NUM_CARDS + card:
                rest[j + 1] = rest[j]
                j -= 1
            rest[j + 1] = card
        for i in range(count):
            order[num_order] = tied[i]
            num_order += 1
        if num_rest:
            last = d.round_player[d.round_len - 1]
            if not is_tied[last]:
                order[num_order] = last
                num_order += 1
            share[last][share_len[last]] = rest[0]
            share_len[last] += 1
            for i in range(1, num_rest):
                p = tied[(i - 1) % count]
                share[p][share_len[p]] = rest[i]
                share_len[p] += 1
        for i in range(num_order):
            p = order[i]
            for j in range(share_len[p]):
                card = share[p][j]
                won_add(d, p, card)
                d.loc[card] = d.pub[card] = WON + p
        d.last_winner = tied[0]
        if self.log is not None:
            self.log.append(
                {
                    "players": [tied[i] for i in range(count)],
                    "shares": [
                        {"player": order[i], "cards": card_list(share[order[i]], share_len[order[i]])}
                        for i in range(num_order)
                    ],
                    "type": "split",
                }
            )
        return self._after_trick(tied[0])

    cdef int _war_stalemate(self, uint8_t* involved, int count) except -1:
        """engine.State._war_stalemate: nobody in the war can go on; the pile is dealt face up,
        in play order, to the war's players' won piles."""
        cdef Data* d = &self.d
        cdef int i, p, card
        for i in range(d.pile_len):
            p = involved[i % count]
            card = d.pile_card[i]
            won_add(d, p, card)
            d.loc[card] = d.pub[card] = WON + p
        if self.log is not None:
            shares = []
            for p in range(count):
                cards = [NAMES[d.pile_card[i]] for i in range(p, d.pile_len, count)]
                shares.append({"player": involved[p], "cards": cards})
            self.log.append({"shares": shares, "type": "stalemate"})
        return self._after_trick(involved[0])

    cdef int _after_trick(self, int next_leader) except -1:
        """engine.State._after_trick"""
        self._refill(next_leader)
        if self._phase_one_over():
            return self._end_phase_one(False)
        return self._start_trick(next_leader)

    cdef int _refill(self, int first) except -1:
        """engine.State._refill: draw back up to three, the trick's winner first."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int k, p, card, drawn
        for k in range(n):
            p = (first + k) % n
            drawn = 0
            while popcount(d.hand[p]) < HAND_SIZE and d.stock_len:
                d.stock_len -= 1
                card = d.stock[d.stock_len]
                if d.stock_len == 0:
                    self._take_trump_card(p, card)
                    break
                hand_add(d, p, card)
                d.loc[card] = HAND + p
                drawn += 1
            if drawn and self.log is not None:
                self.log.append({"player": p, "count": drawn, "type": "draw"})
        return 0

    cdef int _take_trump_card(self, int p, int card) except -1:
        """engine.State._take_trump_card: set aside hidden (A) or into hand face up (B)."""
        cdef Data* d = &self.d
        d.trump_card = card
        d.trump_holder = p
        if self.opt.trump_hidden:
            d.loc[card] = TRUMP_ASIDE
        else:
            hand_add(d, p, card)
            d.loc[card] = d.pub[card] = HAND + p
            d.trump_suit = card // 13
        if self.log is not None:
            self.log.append(
                {
                    "player": p,
                    "card": NAMES[card],
                    "revealed": not self.opt.trump_hidden,
                    "type": "trump_card",
                }
            )
        return 0

    cdef bint _phase_one_over(self) noexcept:
        """engine.State._phase_one_over: checked between tricks."""
        cdef int holders = 0
        cdef int p
        if self.d.stock_len:
            return False
        for p in range(self.opt.n):
            holders += self.d.hand[p] != 0
        if self.opt.phase_one_end == END_ONE_HOLDER:
            return holders <= 1
        return holders == 0

    cdef int _end_phase_one(self, bint return_trick) except -1:
        """engine.State._end_phase_one: hand plus won pile; the hidden trump card joins its
        holder's; an unfinished trick goes back to its players (Mattis)."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int i, p, card, leader
        cdef uint8_t cards[NUM_CARDS]
        if return_trick:
            for i in range(d.pile_len):
                p = d.pile_player[i]
                card = d.pile_card[i]
                hand_add(d, p, card)
                d.loc[card] = d.pub[card] = HAND + p
            if d.pile_len and self.log is not None:
                order = []  # players in the order they first played
                for i in range(d.pile_len):
                    if d.pile_player[i] not in order:
                        order.append(d.pile_player[i])
                shares = [
                    {
                        "player": p,
                        "cards": [
                            NAMES[d.pile_card[i]]
                            for i in range(d.pile_len)
                            if d.pile_player[i] == p
                        ],
                    }
                    for p in order
                ]
                self.log.append({"shares": shares, "type": "trick_returned"})
        d.pile_len = 0
        d.round_len = 0
        d.in_war = False
        if d.trump_card < 0:
            raise RuntimeError("engine invariant broken: phase one ended without a trump card")
        if self.opt.trump_hidden:
            won_add(d, d.trump_holder, d.trump_card)
        d.trump_suit = d.trump_card // 13
        for p in range(n):
            if self.opt.phase_one_end == END_DUE_PLAYER_EMPTY:  # Mattis: hands shown to all
                for i in range(cards_of(d.hand[p], cards)):
                    d.pub[cards[i]] = HAND + p
            for i in range(cards_of(d.won[p], cards)):
                d.loc[cards[i]] = d.pub[cards[i]] = HAND + p
            d.hand[p] |= d.won[p]
            d.won[p] = 0
        d.hands_sorted = True  # phase-two hands are in card order
        d.phase = PHASE_TWO
        if self.opt.leader_trump_holder:
            leader = d.trump_holder
        else:
            leader = d.last_winner if d.last_winner >= 0 else 0
        if self.log is not None:
            self.log.append(
                {
                    "trump_card": NAMES[d.trump_card],
                    "trump_holder": d.trump_holder,
                    "leader": leader,
                    "hand_sizes": [popcount(d.hand[p]) for p in range(n)],
                    "type": "phase_two",
                }
            )
        self._start_phase_two_trick(self._next_holder(leader, True))
        return 0

    # ================================================================== phase two
    cdef int _next_in(self, int p) noexcept:
        """engine.State._next_in: the next player after ``p`` who is still in."""
        cdef int n = self.opt.n
        cdef int k, q
        for k in range(1, n):
            q = (p + k) % n
            if not self.d.out[q]:
                return q
        return p

    cdef int _next_holder(self, int p, bint include_self) except -1:
        """engine.State._next_holder: the first player still in and holding cards, from ``p``
        (or after it) in seat order."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int k, q
        if include_self and not d.out[p] and d.hand[p]:
            return p
        for k in range(1, n):
            q = (p + k) % n
            if not d.out[q] and d.hand[q]:
                return q
        if not d.out[p] and d.hand[p]:
            return p
        raise RuntimeError("engine invariant broken: no player still in holds a card")

    cpdef void _start_phase_two_trick(self, int leader) noexcept:
        """engine.State._start_phase_two_trick"""
        cdef Data* d = &self.d
        cdef int p
        d.trick_len = 0
        d.trick_count = 0
        d.trick_needed = 0
        for p in range(self.opt.n):
            d.trick_needed += not d.out[p]
        d.led_suit = -1
        d.h.current = leader

    cdef bint beats(self, int first, int size, int top_first, int top_size, uint64_t hand) noexcept:
        """engine.State._beats: whether a play (a run from ``first``) beats the top play."""
        cdef int suit = first // 13
        cdef int top_suit = top_first // 13
        if self.opt.same_length and size != top_size:
            return False
        if suit == top_suit:
            return first % 13 > (top_first + top_size - 1) % 13
        if suit == self.d.trump_suit:
            if self.opt.trump_only_when_void:
                return not (hand & suit_mask(top_suit))
            return True
        return False

    def _beats(self, play, top, hand):
        """``beats`` with the reference's arguments (card tuples and lists), for tests."""
        cdef uint64_t mask = 0
        for card in hand:
            mask |= bit(_card(card))
        return self.beats(play[0], len(play), top[0], len(top), mask)

    cdef uint64_t _beating_cards(self, int top, uint64_t hand) noexcept:
        """engine.State._beating_cards: ``beats`` for single cards, on card masks."""
        cdef int top_suit = top // 13
        cdef int trump = self.d.trump_suit
        cdef uint64_t acts = hand & suit_mask(top_suit) & ~(bit(top + 1) - 1)
        if trump >= 0 and trump != top_suit and not (
            self.opt.trump_only_when_void and hand & suit_mask(top_suit)
        ):
            acts |= hand & suit_mask(trump)
        return acts

    cdef int _phase_two_legal(self, short* out) noexcept:
        """engine.State._phase_two_legal: in increasing order (cards, take, runs)."""
        cdef Data* d = &self.d
        cdef uint64_t hand = d.hand[d.h.current]
        cdef uint8_t cards[NUM_CARDS]
        cdef uint8_t run_first[NUM_RUNS]
        cdef uint8_t run_size[NUM_RUNS]
        cdef int count = 0
        cdef int i, j, num, top_first = 0, top_size = 0
        cdef bint leading = d.trick_len == 0
        if not leading:
            top_first = d.trick_first[d.trick_len - 1]
            top_size = d.trick_size[d.trick_len - 1]
        if not self.opt.sequences:
            if not leading:
                hand = self._beating_cards(top_first, hand)
            num = cards_of(hand, cards)
            for i in range(num):
                out[i] = cards[i]
            if not leading and (num == 0 or self.opt.voluntary_take):
                out[num] = TAKE
                num += 1
            return num
        num = cards_of(hand, cards)
        for i in range(num):
            if leading or self.beats(cards[i], 1, top_first, top_size, hand):
                out[count] = cards[i]
                count += 1
        num = self._runs_in(hand, run_first, run_size)
        if not leading:
            j = 0
            for i in range(num):
                if self.beats(run_first[i], run_size[i], top_first, top_size, hand):
                    run_first[j] = run_first[i]
                    run_size[j] = run_size[i]
                    j += 1
            if (count == 0 and j == 0) or self.opt.voluntary_take:
                out[count] = TAKE
                count += 1
            num = j
        for i in range(num):
            out[count] = RUN_OF[run_first[i]][run_size[i]]
            count += 1
        return count

    cdef int _runs_in(self, uint64_t hand, uint8_t* firsts, uint8_t* sizes) noexcept:
        """engine.State._runs_in: the runs the rules allow from this hand (rule: sequences),
        in action order; returns how many."""
        cdef int count = 0
        cdef int suit, base, start, length, k
        for suit in range(4):
            base = suit * 13
            for start in range(12):
                if self.opt.sequences_from_two and start:
                    break
                length = 0
                while start + length < 13 and hand & bit(base + start + length):
                    length += 1
                for k in range(self.opt.sequences, length + 1):
                    firsts[count] = base + start
                    sizes[count] = k
                    count += 1
        return count

    cdef int _phase_two_act(self, int action) except -1:
        """engine.State._phase_two_act: play a card or run onto the trick, or take."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int first, size, c
        cdef bint leading, ends_by_trump
        if action == TAKE:
            return self._take(p)
        if action < RISK:
            first, size = action, 1
        else:
            first = RUN_FIRST[action - FIRST_RUN]
            size = RUN_SIZE[action - FIRST_RUN]
        for c in range(first, first + size):
            d.hand[p] &= ~bit(c)
            d.loc[c] = d.pub[c] = TRICK
        leading = d.trick_len == 0
        if leading:
            d.led_suit = first // 13
        d.trick_player[d.trick_len] = p
        d.trick_first[d.trick_len] = first
        d.trick_size[d.trick_len] = size
        d.trick_len += 1
        d.trick_count += 1
        if self.log is not None:
            self.log.append({"player": p, "cards": run_names(first, size), "type": "play"})
        if not d.hand[p]:
            self._go_out(p)
            if d.phase == GAME_OVER:
                return 0
        ends_by_trump = (
            self.opt.trump_ends_trick
            and not leading
            and first // 13 == d.trump_suit
            and d.led_suit != d.trump_suit
        )
        if ends_by_trump or d.trick_count >= d.trick_needed:
            return self._discard_trick(p)
        d.h.current = self._next_in(p)
        return 0

    cdef int _take(self, int p) except -1:
        """engine.State._take: take from the trick (rule: what is taken)."""
        cdef Data* d = &self.d
        cdef int i = 0
        cdef int k, first, size, c, leader
        if self.opt.take_lowest:  # lowest face rank; the earlier play on equal ranks
            for k in range(1, d.trick_len):
                if d.trick_first[k] % 13 < d.trick_first[i] % 13:
                    i = k
        first = d.trick_first[i]
        size = d.trick_size[i]
        if self.opt.take_one_card and size > 1:
            size = 1
            d.trick_first[i] += 1
            d.trick_size[i] -= 1
        else:
            k = d.trick_len - i - 1
            memmove(&d.trick_player[i], &d.trick_player[i + 1], k)
            memmove(&d.trick_first[i], &d.trick_first[i + 1], k)
            memmove(&d.trick_size[i], &d.trick_size[i + 1], k)
            d.trick_len -= 1
        for c in range(first, first + size):
            hand_add(d, p, c)
            d.loc[c] = d.pub[c] = HAND + p
        if self.log is not None:
            self.log.append({"player": p, "cards": run_names(first, size), "type": "take"})
        if d.trick_len:
            d.h.current = self._next_in(p)
            return 0
        leader = self._next_holder(p, False)
        if self.log is not None:
            self.log.append({"next_leader": leader, "type": "trick_emptied"})
        if self.opt.emptied_ends:
            self._start_phase_two_trick(leader)
        else:  # the trick goes on: its play count is kept and the next holder leads into it
            d.led_suit = -1
            d.h.current = leader
        return 0

    cdef int _discard_trick(self, int winner) except -1:
        """engine.State._discard_trick: a complete trick leaves play; the winner leads."""
        cdef Data* d = &self.d
        cdef int i, c
        for i in range(d.trick_len):
            for c in range(d.trick_first[i], d.trick_first[i] + d.trick_size[i]):
                d.loc[c] = d.pub[c] = DISCARD
        if self.log is not None:
            cards = []
            for i in range(d.trick_len):
                cards += run_names(d.trick_first[i], d.trick_size[i])
            self.log.append({"winner": winner, "cards": cards, "type": "trick_discarded"})
        self._start_phase_two_trick(self._next_holder(winner, True))
        return 0

    cdef int _go_out(self, int p) except -1:
        """engine.State._go_out: an empty hand is out; the last one in loses."""
        cdef Data* d = &self.d
        cdef int q, still_in = 0, loser = -1
        d.out[p] = True
        d.placements[d.placed] = p
        d.placed += 1
        if self.log is not None:
            self.log.append({"player": p, "place": d.placed, "type": "out"})
        for q in range(self.opt.n):
            if not d.out[q]:
                still_in += 1
                if loser < 0:
                    loser = q
        if still_in == 1:
            d.placements[d.placed] = loser
            d.placed += 1
            d.phase = GAME_OVER
            d.h.is_terminal = True
            if self.log is not None:
                self.log.append({"loser": loser, "placements": self.placements, "type": "game_over"})
        return 0

    # ================================================================== attributes
    # engine.State's attributes, built on each read (for tools, bots and tests: not for hot
    # loops). Those that tests and tools assign to set up positions have setters; a list read
    # from the state is a copy, so assign the whole attribute (``s.hands = [...]``).
    @property
    def max_actions(self):
        return self.opt.max_actions

    @property
    def current(self):
        return self.d.h.current

    @current.setter
    def current(self, value):
        self.d.h.current = _seat(self, value)

    @property
    def phase(self):
        return self.d.phase

    @phase.setter
    def phase(self, value):
        self.d.phase = _bounded(value, PHASE_ONE, GAME_OVER, "phase")
        if value == PHASE_TWO:
            self.d.hands_sorted = True
        elif value == PHASE_ONE:
            self.d.hands_sorted = False

    @property
    def loc(self):
        return _codes(self, "loc", self.d.loc)

    @loc.setter
    def loc(self, value):
        self._set_codes(self.d.loc, value)

    @property
    def pub(self):
        return _codes(self, "pub", self.d.pub)

    @pub.setter
    def pub(self, value):
        self._set_codes(self.d.pub, value)

    cdef _set_codes(self, uint8_t* codes, value):
        data = bytes(value)
        if len(data) != NUM_CARDS or max(data) >= NUM_CODES:
            raise ValueError(f"card locations must be {NUM_CARDS} codes below {NUM_CODES}")
        memcpy(codes, <char*>data, NUM_CARDS)

    @property
    def hands(self):
        return [self._cards(self.d.hand[p], not self.d.hands_sorted) for p in range(self.opt.n)]

    @hands.setter
    def hands(self, value):
        self._set_piles(self.d.hand, value)

    @property
    def won(self):
        return [self._cards(self.d.won[p], True) for p in range(self.opt.n)]

    @won.setter
    def won(self, value):
        self._set_piles(self.d.won, value)

    cdef list _cards(self, uint64_t mask, bint by_arrival):
        cdef uint8_t cards[NUM_CARDS]
        cdef int count = in_order(&self.d, mask, by_arrival, cards)
        return [cards[i] for i in range(count)]

    cdef _set_piles(self, uint64_t* piles, value):
        """One list of cards per seat, each in arrival order."""
        cdef uint64_t masks[MAX_PLAYERS]
        cdef int p, card
        if len(value) != self.opt.n:
            raise ValueError(f"give one list of cards per seat ({self.opt.n}), got {len(value)}")
        for p in range(self.opt.n):
            masks[p] = 0
            for c in value[p]:
                card = _card(c)
                masks[p] |= bit(card)
                self.d.stamp[card] = self.d.next_stamp
                self.d.next_stamp += 1
        memcpy(piles, masks, self.opt.n * sizeof(uint64_t))

    @property
    def stock(self):
        return [self.d.stock[i] for i in range(self.d.stock_len)]

    @stock.setter
    def stock(self, value):
        cards = [_card(c) for c in value]  # checked before anything changes
        for i, card in enumerate(cards):
            self.d.stock[i] = card
        self.d.stock_len = len(cards)

    @property
    def trump_card(self):
        return self.d.trump_card

    @trump_card.setter
    def trump_card(self, value):
        self.d.trump_card = _bounded(value, -1, NUM_CARDS - 1, "trump_card")

    @property
    def trump_holder(self):
        return self.d.trump_holder

    @trump_holder.setter
    def trump_holder(self, value):
        self.d.trump_holder = _bounded(value, -1, self.opt.n - 1, "trump_holder")

    @property
    def trump_suit(self):
        return self.d.trump_suit

    @trump_suit.setter
    def trump_suit(self, value):
        self.d.trump_suit = _bounded(value, -1, 3, "trump_suit")

    @property
    def last_winner(self):
        return self.d.last_winner

    @last_winner.setter
    def last_winner(self, value):
        self.d.last_winner = _bounded(value, -1, self.opt.n - 1, "last_winner")

    @property
    def pile(self):
        return [(self.d.pile_player[i], self.d.pile_card[i]) for i in range(self.d.pile_len)]

    @pile.setter
    def pile(self, value):
        plays = [(_seat(self, p), _card(c)) for p, c in value]
        for i, (p, c) in enumerate(plays):
            self.d.pile_player[i] = p
            self.d.pile_card[i] = c
        self.d.pile_len = len(plays)

    @property
    def round_cards(self):
        return [(self.d.round_player[i], self.d.round_card[i]) for i in range(self.d.round_len)]

    @round_cards.setter
    def round_cards(self, value):
        plays = [(_seat(self, p), _card(c)) for p, c in value]
        if len(plays) > self.opt.n:
            raise ValueError(f"a round has at most one play per seat, got {len(plays)}")
        for i, (p, c) in enumerate(plays):
            self.d.round_player[i] = p
            self.d.round_card[i] = c
        self.d.round_len = len(plays)

    @property
    def round_players(self):
        return [self.d.round_players[i] for i in range(self.d.round_players_len)]

    @round_players.setter
    def round_players(self, value):
        players = [_seat(self, p) for p in value]
        if len(players) > self.opt.n:
            raise ValueError(f"a round has at most {self.opt.n} players, got {len(players)}")
        for i, p in enumerate(players):
            self.d.round_players[i] = p
        self.d.round_players_len = len(players)

    @property
    def round_pos(self):
        return self.d.round_pos

    @round_pos.setter
    def round_pos(self, value):
        self.d.round_pos = _bounded(value, 0, self.opt.n, "round_pos")

    @property
    def in_war(self):
        return self.d.in_war

    @in_war.setter
    def in_war(self, value):
        self.d.in_war = bool(value)

    @property
    def war_rank(self):
        return self.d.war_rank

    @war_rank.setter
    def war_rank(self, value):
        self.d.war_rank = _bounded(value, -1, 12, "war_rank")

    @property
    def war_depth(self):
        return self.d.war_depth

    @war_depth.setter
    def war_depth(self, value):
        self.d.war_depth = _bounded(value, 0, NUM_CARDS, "war_depth")

    @property
    def dropped(self):
        return [self.d.dropped[i] for i in range(self.d.dropped_len)]

    @property
    def trick(self):
        return [
            [self.d.trick_player[i], list(range(self.d.trick_first[i], self.d.trick_first[i] + self.d.trick_size[i]))]
            for i in range(self.d.trick_len)
        ]

    @trick.setter
    def trick(self, value):
        """``[[player, [cards of one play]], ...]``, bottom first; a play is one card or a run."""
        plays = []
        for player, cards in value:
            cards = [_card(c) for c in cards]
            if not cards or cards != list(range(cards[0], cards[0] + len(cards))) or (
                cards[0] // 13 != cards[len(cards) - 1] // 13
            ):
                raise ValueError(f"a trick play is one card or a run of one suit, got {cards}")
            plays.append((_seat(self, player), cards[0], len(cards)))
        if len(plays) > MAX_PLAYERS:
            raise ValueError(f"a trick holds at most {MAX_PLAYERS} plays, got {len(plays)}")
        for i, (player, first, size) in enumerate(plays):
            self.d.trick_player[i] = player
            self.d.trick_first[i] = first
            self.d.trick_size[i] = size
        self.d.trick_len = len(plays)

    @property
    def trick_count(self):
        return self.d.trick_count

    @trick_count.setter
    def trick_count(self, value):
        self.d.trick_count = _bounded(value, 0, MAX_PLAYERS, "trick_count")

    @property
    def trick_needed(self):
        return self.d.trick_needed

    @trick_needed.setter
    def trick_needed(self, value):
        self.d.trick_needed = _bounded(value, 0, MAX_PLAYERS, "trick_needed")

    @property
    def led_suit(self):
        return self.d.led_suit

    @led_suit.setter
    def led_suit(self, value):
        self.d.led_suit = _bounded(value, -1, 3, "led_suit")

    @property
    def out(self):
        return [bool(self.d.out[p]) for p in range(self.opt.n)]

    @out.setter
    def out(self, value):
        if len(value) != self.opt.n:
            raise ValueError(f"give one flag per seat ({self.opt.n}), got {len(value)}")
        for p in range(self.opt.n):
            self.d.out[p] = bool(value[p])

    @property
    def placements(self):
        return [self.d.placements[i] for i in range(self.d.placed)]

    @placements.setter
    def placements(self, value):
        seats = [_seat(self, p) for p in value]
        if len(set(seats)) != len(seats):
            raise ValueError(f"placements name each seat at most once, got {seats}")
        for i, p in enumerate(seats):
            self.d.placements[i] = p
        self.d.placed = len(seats)
