# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Kop core: the rules engine and the observation writer in Cython.

``engine.py`` is the readable reference and RULES.md points at it; this module plays exactly
the same games, faster, and ``tests/games/kop/test_kop_compiled.py`` proves it by playing
both side by side and comparing every step (whose turn, the legal actions, the observation
bytes of every seat, the views, returns, events, records). Each rule is one method named as
in the reference; each says which one it mirrors. ``KopGame`` uses this module unless asked
for ``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``hands``, ``tricks`` and friends builds them, so they are for tools,
bots, the solvers and tests, not hot loops), and ``Engine(rules)`` writes observations and
masks as ``KopGame.observation`` and ``Game.action_mask`` do: ``observation(state, seat)``
(a fresh float32 vector), ``observe_into(state, seat, row)`` (into a caller's float32 row)
and ``action_mask(legal)``.

C side (declared in ``_compiled.pxd``): ``State.d`` is a plain struct (``Data``): hands as
16-bit card masks (a hand is always sorted, so its mask is the list), every card's location
code and who played it, the trick being played and the finished ones, the declaration, the
sides, points and victory cards. ``clone()`` copies it whole. Events are logged only when
``state.log`` is a list (``log=True``), as in the reference.

The module is split by concern, each part mirroring a reference module: ``_observation.pxi``
(game.py's observation: ``Engine`` and ``write_observation``), ``_hidden.pxi`` (engine.py's
determinize: the play's constraints on the hidden cards and their constrained re-deal) and
``_adapters.pxi`` (engine.State's attributes, on the base class ``StateAttributes``). The
rules, ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t, uint16_t
from libc.string cimport memset

from koira_env.core._bits cimport cards_of, sparse_popcount
from koira_env.core._engine cimport places_of_scores, returns_of_places
from koira_env.core._lists cimport int_list

from ...core import events
from koira_env.core._deal import constrained_deal
from ...core.deck import hand_deck
from ...core.game import IllegalActionError, outcome_by_scores
from . import cards as card_tables
from . import engine as reference
from .engine import KopView

cnp.import_array()


# ============================================================================ tables
cdef tuple NAMES = tuple(card_tables.card_name(c) for c in range(NUM_CARDS))
cdef dict CHOICE_NAMES = reference.CHOICE_NAMES
cdef float ONE_F = 1.0
cdef int SUIT_OF[NUM_CARDS]
cdef int STRENGTH[NUM_CARDS]
cdef int POINTS[NUM_CARDS]
cdef uint16_t SUIT_MASK[3]  # the cards of each suit of play
cdef uint16_t BEATERS[NUM_CARDS]  # the cards that take a trick won by the card
cdef int JACKS[4]  # JACKS_HIGH_FIRST
cdef int JACK_INDEX[NUM_CARDS]  # a jack's place in JACKS_HIGH_FIRST, else -1


cdef inline uint16_t bit(int card) noexcept nogil:
    return <uint16_t>((<unsigned>1) << card)


cdef inline bint beats(int card, int best) noexcept nogil:
    """cards.beats: same suit and stronger, or a trump."""
    if SUIT_OF[card] == SUIT_OF[best]:
        return STRENGTH[card] > STRENGTH[best]
    return SUIT_OF[card] == SUIT_TRUMP


cdef void _tables():
    cdef int c, b, i
    for c in range(NUM_CARDS):
        SUIT_OF[c] = card_tables.SUIT_OF[c]
        STRENGTH[c] = card_tables.STRENGTH[c]
        POINTS[c] = card_tables.POINTS[c]
        JACK_INDEX[c] = -1
    for i in range(3):
        SUIT_MASK[i] = 0
    for c in range(NUM_CARDS):
        SUIT_MASK[SUIT_OF[c]] |= bit(c)
    for b in range(NUM_CARDS):
        BEATERS[b] = 0
        for c in range(NUM_CARDS):
            if beats(c, b):
                BEATERS[b] |= bit(c)
    for i in range(4):
        JACKS[i] = card_tables.JACKS_HIGH_FIRST[i]
        JACK_INDEX[JACKS[i]] = i


_tables()


cdef list mask_list(uint16_t mask):
    cdef uint8_t cards[NUM_CARDS]
    return int_list(cards, cards_of(mask, cards))


include "_hidden.pxi"
include "_observation.pxi"
include "_adapters.pxi"


cdef void sides(Data* d) noexcept:
    """engine.State._sides: the black queens' holders; a caller and the called jack's holder;
    or a soloist (called or silent) against the other three."""
    cdef int p, a, b
    if d.decision == SOLO or d.decision == SILENT:
        a = b = d.decider
    elif d.decision == CALL:
        a = d.decider
        b = owner(d, d.called_jack)
    else:
        a = owner(d, QC)
        b = owner(d, QS)
    for p in range(PLAYERS):
        d.side[p] = 0 if p == a or p == b else 1


cdef inline int owner(const Data* d, int card) noexcept:
    """engine.State._owner: who was dealt ``card`` this hand."""
    cdef int where = d.loc[card]
    return where - HAND if where < TRICK else d.by[card]


# ============================================================================ the state
@cython.final
cdef class State:
    """A game of Kop in progress, as ``engine.State`` (build it with ``KopGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    cdef int _begin(self) except -1:
        """engine.State.__init__ (``CompiledState._start`` set the rest): the first deal."""
        cdef int p
        for p in range(PLAYERS):
            self.d.vc[p] = self.opt.victory_cards
        return self._deal()

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt

    cdef int _deal(self) except -1:
        """engine.State._deal: hand k from a fresh deck (``hand_deck``), one card at a time
        from its leader, player k mod 4."""
        cdef Data* d = &self.d
        cdef int leader = d.hand_no % PLAYERS
        cdef int i, p, card
        cdef uint16_t seen = 0
        order = hand_deck(self.deck, self.seed, d.hand_no, NUM_CARDS)
        if len(order) != NUM_CARDS:
            raise ValueError(f"a deck must hold each card id 0..15 once, got {order!r}")
        for p in range(PLAYERS):
            d.hand[p] = 0
            d.points[p] = 0
        for i in range(NUM_CARDS):
            card = order[i]
            if not 0 <= card < NUM_CARDS or seen & bit(card):
                raise ValueError(f"a deck must hold each card id 0..15 once, got {order!r}")
            seen |= bit(card)
            p = (leader + i) % PLAYERS
            d.hand[p] |= bit(card)
            d.loc[card] = HAND + p
        memset(d.by, NOBODY, NUM_CARDS)
        d.leader = d.trick_leader = leader
        d.trick_len = 0
        d.tricks_len = 0
        d.best = d.best_seat = -1
        d.decision = d.called_jack = -1
        if self.log is not None:
            self.log.append(
                {
                    "hand": d.hand_no,
                    "leader": leader,
                    "hands": [[NAMES[c] for c in mask_list(d.hand[p])] for p in range(PLAYERS)],
                    "type": events.DEAL,
                }
            )
        d.decider = d.loc[QC] if d.loc[QC] == d.loc[QS] else -1
        d.phase = DECLARE
        d.h.current = leader
        return 0

    cdef int _start_play(self) noexcept:
        """engine.State._start_play: fix the sides and hand the lead over."""
        cdef Data* d = &self.d
        sides(d)
        d.phase = PLAY
        d.h.current = d.leader
        return 0

    cdef int _owner(self, int card) noexcept:
        return owner(&self.d, card)

    cdef bint _declared(self, int seat) noexcept:
        """engine.State._declared: whether ``seat`` has had its turn in the declaration
        round."""
        cdef Data* d = &self.d
        if d.phase != DECLARE:
            return True
        return (seat - d.leader + PLAYERS) % PLAYERS < (d.h.current - d.leader + PLAYERS) % PLAYERS

    cdef State clone_c(self):
        """engine.State.clone: a deep copy that shares only immutable parts."""
        cdef State c = State.__new__(State)
        self.copy_into(c)
        c.opt = self.opt
        c.result = self.result
        return c

    # ------------------------------------------------------------------ queries
    cdef int legal_into(self, short* out) noexcept:
        """engine.State._legal into ``out`` (in increasing order); returns the count. Declare:
        the holder of both black queens has its choices, everyone else ``pass``. Play: follow
        the led suit, else trump, else anything; among those, a card that takes the trick as
        it stands if there is one."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef uint16_t hand, allowed, winning
        cdef int count = 0
        if d.phase == PLAY:
            hand = d.hand[p]
            if d.trick_len:
                allowed = hand & SUIT_MASK[SUIT_OF[d.trick[0]]]
                if not allowed:
                    allowed = hand & SUIT_MASK[SUIT_TRUMP]
                    if not allowed:
                        allowed = hand
                winning = allowed & BEATERS[d.best]
                hand = winning if winning else allowed
            count = cards_of(hand, out)
            return count
        if d.phase == DECLARE:
            if p != d.decider:
                out[0] = PASS
                return 1
            if self.opt.no_call and d.loc[JC] == HAND + p:
                out[0] = SILENT
                out[1] = SOLO
                return 2
            out[0] = CALL
            out[1] = SILENT
            out[2] = SOLO
            return 3
        return 0

    cdef bint _is_legal(self, int action) noexcept:
        cdef short buf[MAX_LEGAL]
        cdef int i, count = self.legal_into(buf)
        for i in range(count):
            if buf[i] == action:
                return True
        return False

    # ------------------------------------------------------------------ results
    def returns(self):
        """Zero-sum returns from ``outcome``; zeros before the end and when truncated."""
        outcome = self.outcome()
        return [0.0] * PLAYERS if outcome is None else list(outcome.returns)

    def outcome(self):
        """engine.State.outcome: single hand, the winning side first (partners share a place)
        and the hand's victory-card changes as scores; whole game, places by victory cards.
        None before the end and when truncated; built once."""
        cdef Data* d = &self.d
        if d.phase != OVER or d.h.truncated:
            return None
        if self.result is None:
            if self.opt.single_hand:
                self.result = outcome_by_scores(
                    [d.hand_delta[p] for p in range(PLAYERS)],
                    teams=tuple([d.side[p] for p in range(PLAYERS)]),
                    extra={"points": [d.side_points[0], d.side_points[1]]},
                )
            else:
                self.result = outcome_by_scores(
                    [d.vc[p] for p in range(PLAYERS)], extra={"hands": d.hand_no + 1}
                )
        return self.result

    cdef int result_into(self, float* returns, int64_t* places) except -1:
        """``returns()`` and ``outcome().places`` of the finished game without building the
        outcome (the batched env's and the search's result): places by the hand's
        victory-card changes (single hand) or the victory cards, as ``outcome``."""
        cdef Data* d = &self.d
        cdef const int* by = &d.hand_delta[0] if self.opt.single_hand else &d.vc[0]
        cdef double scores[PLAYERS]
        cdef int p
        for p in range(PLAYERS):
            scores[p] = by[p]
        places_of_scores(PLAYERS, scores, places)
        returns_of_places(PLAYERS, places, returns)
        return 0

    def public_call(self, int seat):
        """engine.State.public_call: the decision ``seat`` knows of."""
        cdef Data* d = &self.d
        if d.decision == CALL or d.decision == SOLO or (
            d.decision == SILENT and seat == d.decider
        ):
            return d.decision
        return -1

    # ------------------------------------------------------------------ apply
    cdef int apply_c(self, int action) except -1:
        """engine.State.apply, for an int action."""
        if not self._is_legal(action):
            raise IllegalActionError(self._illegal(action))
        return self.apply_legal(action)

    cdef int apply_legal(self, int action) except -1:
        """engine.State._act without the legality check, for an action ``legal_into`` gave
        (search copies keep no history: ``history`` None)."""
        if self.history is not None:
            self.history.append(action)
        self.d.h.actions_taken += 1
        if action < NUM_CARDS:
            return self._play(action)
        return self._declare(action)

    cdef int _declare(self, int action) except -1:
        """engine.State._declare: the holder of both black queens calls the highest jack it
        does not hold, stays silent (announced as a pass) or calls solo; once all four have
        declared, the leader leads."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int i
        if action != PASS:
            d.decision = action
            if action == CALL:
                for i in range(4):
                    if d.loc[JACKS[i]] != HAND + p:
                        d.called_jack = JACKS[i]
                        break
        if self.log is not None:
            self.log.append(
                {
                    "player": p,
                    "announce": "pass" if action == SILENT else CHOICE_NAMES[action],
                    "choice": CHOICE_NAMES[action],
                    "jack": NAMES[d.called_jack] if action == CALL else None,
                    "type": "declare",
                }
            )
        d.h.current = (p + 1) % PLAYERS
        if d.h.current == d.leader:
            self._start_play()
        return 0

    cdef int _play(self, int card) except -1:
        """engine.State._play: the card joins the trick; the fourth card gives the trick to
        the best one, and the fourth trick ends the hand."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int winner, won = 0, i, t
        d.hand[p] &= ~bit(card)
        d.loc[card] = TRICK
        d.by[card] = p
        d.trick[d.trick_len] = card
        d.trick_len += 1
        if d.best < 0 or beats(card, d.best):
            d.best = card
            d.best_seat = p
        if self.log is not None:
            self.log.append({"player": p, "card": NAMES[card], "type": events.PLAY})
        if d.trick_len < PLAYERS:
            d.h.current = (p + 1) % PLAYERS
            return 0
        winner = d.best_seat
        for i in range(PLAYERS):
            d.loc[d.trick[i]] = WON + winner
            won += POINTS[d.trick[i]]
        d.points[winner] += won
        t = d.tricks_len
        d.trick_leaders[t] = d.trick_leader
        d.trick_winners[t] = winner
        for i in range(PLAYERS):
            d.trick_cards[t][i] = d.trick[i]
        d.tricks_len += 1
        if self.log is not None:
            self.log.append(
                {
                    "winner": winner,
                    "cards": [NAMES[d.trick[i]] for i in range(PLAYERS)],
                    "points": won,
                    "type": events.TRICK,
                }
            )
        d.trick_len = 0
        d.best = d.best_seat = -1
        d.h.current = d.trick_leader = winner
        if d.tricks_len == TRICKS:
            return self._end_hand()
        return 0

    # ------------------------------------------------------------------ scoring
    cdef int _end_hand(self) except -1:
        """engine.State._end_hand: 53 of the 104 points wins; a team's winners each take one
        victory card from each loser, a soloist takes or pays 2 per opponent (1 for a silent
        one under ``silent_scoring="team"``); 52-52 per ``rules.tie``. Then end or deal."""
        cdef Data* d = &self.d
        cdef int p, winner, queens = 0, sign, stake, lowest_vc
        cdef bint solo
        for p in range(PLAYERS):
            if d.side[p] == 0:
                queens += d.points[p]
        d.side_points[0] = queens
        d.side_points[1] = TOTAL_POINTS - queens
        if queens >= TO_WIN:
            winner = 0
        elif TOTAL_POINTS - queens >= TO_WIN or self.opt.queens_lose:
            winner = 1
        else:
            winner = -1
        for p in range(PLAYERS):
            d.hand_delta[p] = 0
        if winner >= 0:
            solo = d.decision == SOLO or d.decision == SILENT
            stake = 1 if d.decision == SILENT and self.opt.silent_team else 2
            for p in range(PLAYERS):
                sign = 1 if d.side[p] == winner else -1
                if not solo:
                    d.hand_delta[p] = 2 * sign
                elif d.side[p] == 0:
                    d.hand_delta[p] = 3 * stake * sign
                else:
                    d.hand_delta[p] = stake * sign
        for p in range(PLAYERS):
            d.vc[p] += d.hand_delta[p]
        if self.log is not None:
            self.log.append(
                {
                    "hand": d.hand_no,
                    "side": [d.side[p] for p in range(PLAYERS)],
                    "points": [d.side_points[0], d.side_points[1]],
                    "winner": None if winner < 0 else winner,
                    "change": [d.hand_delta[p] for p in range(PLAYERS)],
                    "victory_cards": [d.vc[p] for p in range(PLAYERS)],
                    "type": events.HAND_END,
                }
            )
        lowest_vc = d.vc[0]
        for p in range(1, PLAYERS):
            if d.vc[p] < lowest_vc:
                lowest_vc = d.vc[p]
        if self.opt.single_hand:
            return self._end_game(False, [d.hand_delta[p] for p in range(PLAYERS)])
        if lowest_vc <= 0:
            return self._end_game(False, [d.vc[p] for p in range(PLAYERS)])
        if d.hand_no + 1 >= self.opt.max_hands:
            return self._end_game(True, [d.vc[p] for p in range(PLAYERS)])
        d.hand_no += 1
        return self._deal()

    cdef int _end_game(self, bint truncated, list scores) except -1:
        """EngineState._end_game: no action is legal from here; the log's last event says
        how the game ended (cut off after ``max_hands``, or over with its places)."""
        cdef Data* d = &self.d
        d.h.truncated = truncated
        d.h.is_terminal = True
        d.phase = OVER
        if self.log is not None:
            if truncated:
                self.log.append(
                    {"hands": d.hand_no + 1, "victory_cards": scores, "type": events.TRUNCATED}
                )
            else:
                places = list(self.outcome().places)
                self.log.append({"places": places, "scores": scores, "type": events.GAME_OVER})
        return 0

    # ------------------------------------------------------------------ information
    def view(self, int seat):
        """What ``seat`` may know (``engine.KopView``, as ``engine.State.view``). As there,
        a negative seat counts from the end (-1: the last seat) for the hand."""
        cdef Data* d = &self.d
        cdef int at = seat + PLAYERS if seat < 0 else seat  # the reference indexes lists
        cdef int declaring = d.h.current if d.phase == DECLARE else -1
        cdef bint deciding = declaring == seat and seat == d.decider
        cdef int call
        cdef int t, i
        if not 0 <= at < PLAYERS:
            raise IndexError(f"seat must be in {-PLAYERS}..{PLAYERS - 1}, got {seat}")
        call = self.public_call(seat)
        return KopView(
            seat,
            tuple(self.legal_actions()) if seat == d.h.current else (),
            tuple(mask_list(d.hand[at])),
            d.hand_no,
            d.leader,
            tuple([((d.trick_leader + i) % PLAYERS, d.trick[i]) for i in range(d.trick_len)]),
            tuple(self.tricks),
            tuple([-1 if d.by[i] == NOBODY else d.by[i] for i in range(NUM_CARDS)]),
            tuple([d.points[i] for i in range(PLAYERS)]),
            tuple([d.vc[i] for i in range(PLAYERS)]),
            d.decider if call >= 0 or deciding else -1,
            CHOICE_NAMES.get(call),
            d.called_jack if call == CALL else -1,
            declaring,
            deciding,
        )

    def _forbidden(self):
        """engine.State._forbidden: per seat, the cards it cannot hold (a set each)."""
        return [set(mask_list(forbidden_of(&self.d, p))) for p in range(PLAYERS)]

    def _required(self, int seat):
        """engine.State._required: the unplayed cards a public call puts in the caller's
        hand, each mapped to the caller."""
        cdef uint16_t cards = required_of(&self.d, seat)
        cdef int i
        order = [QC, QS] + [JACKS[i] for i in range(4)]
        return {card: self.d.decider for card in order if cards & bit(card)}

    def determinize(self, int seat, rng):
        """engine.State.determinize: a copy with the cards ``seat`` cannot see re-dealt among
        the other hands, counts kept, within everything public (voids and must-win refusals,
        a public caller's cards: ``core.deal.constrained_deal``, called as the reference
        calls it, so the same ``rng`` gives the same deal); no history, log or deck, and a
        fresh seed."""
        cdef State c = self.clone_c()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        if c.d.phase == OVER:
            return c
        deal_hidden(self, c, seat, rng)
        return c
