# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Whist 22 core: the rules engine and the observation writer in Cython.

``engine.py`` is the readable reference and RULES.md points at it; this module plays exactly
the same games, faster, and ``tests/games/whist22/test_whist22_compiled.py`` proves it by
playing both side by side and comparing every step (whose turn, the legal actions, the
observation bytes of every seat, the views, returns, events, records). Each rule is one
method named as in the reference; each says which one it mirrors. ``WhistGame`` uses this
module unless asked for ``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``hands``, ``trick`` and friends builds them, so they are for tools,
bots, the solvers and tests, not hot loops), and ``Engine(rules)`` writes observations and
masks as ``WhistGame.observation`` and ``Game.action_mask`` do: ``observation(state, seat)``
(a fresh float32 vector), ``observe_into(state, seat, row)`` (into a caller's float32 row)
and ``action_mask(legal)``.

C side (declared in ``_compiled.pxd``): ``State.d`` is a plain struct (``Data``): hands as
22-bit card masks (a hand is always sorted, so its mask is the list), the bids, tricks won
and scores, each player's cards played this hand in order, the trick being played and every
card's location code. ``clone()`` copies it whole. Events are logged only when ``state.log``
is a list (``log=True``), as in the reference.

The module is split by concern, each part mirroring a reference module: ``_observation.pxi``
(game.py's observation: ``Engine`` and ``write_observation``), ``_hidden.pxi`` (engine.py's
determinize: the cards a seat cannot see and their re-deal), ``_adapters.pxi`` (engine.State's
attributes, on the base class ``StateAttributes``) and, from core/, ``_determinize.pxi`` (the
deal every compiled core's ``determinize`` shares). The rules, ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memset

from koira_env.core._bits cimport cards_of, popcount
from koira_env.core._hidden cimport hide
from koira_env.core._lists cimport int_list

from ...core.deck import hand_deck
from ...core.game import IllegalActionError, outcome_by_scores, places_from_scores
from . import engine as reference
from .engine import WhistView

cnp.import_array()


# ============================================================================ tables
cdef tuple NAMES = tuple(reference.card_name(c) for c in range(NUM_CARDS))
cdef tuple PHASE_NAMES = reference.PHASE_NAMES
cdef float ONE_F = 1.0


cdef inline uint32_t bit(int card) noexcept nogil:
    return (<uint32_t>1) << card


cdef inline int card_of(int value) noexcept nogil:
    """The card that plays as ``value`` (a card action, 0..22): card ``value``, but 22 is the
    Fool (id 0) declared high (engine.py's ids and actions)."""
    return FOOL if value == FOOL_HIGH else value


cdef list mask_list(uint32_t mask):
    cdef uint8_t cards[NUM_CARDS]
    return int_list(cards, cards_of(mask, cards))


include "_hidden.pxi"
include "_observation.pxi"
include "_adapters.pxi"
include "../../core/_determinize.pxi"


# ============================================================================ the state
@cython.final
cdef class State:
    """A game of Whist 22 in progress, as ``engine.State`` (build it with
    ``WhistGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    cdef int _begin(self) except -1:
        """engine.State.__init__ (``CompiledState._start`` set the rest): the first deal."""
        cdef int p
        for p in range(self.opt.n):
            self.d.scores[p] = self.opt.start_score
        return self._deal()

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt

    cdef int _deal(self) except -1:
        """engine.State._deal: deal hand ``hand_no`` one card at a time from the dealer's
        left, the rest aside."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int k = d.hand_no
        cdef int size = self.opt.cycle[k % self.opt.cycle_len]
        cdef int first = k % n
        cdef int i, p, card
        cdef uint32_t seen = 0
        cdef uint8_t order[NUM_CARDS]
        cards = hand_deck(self.deck, self.seed, k, NUM_CARDS)
        for i in range(NUM_CARDS):
            card = cards[i]
            if not 0 <= card < NUM_CARDS or seen & bit(card):
                raise ValueError(f"a deck must hold each card id 0..21 once, got {cards!r}")
            seen |= bit(card)
            order[i] = card
        for p in range(n):
            d.hand[p] = 0
            d.bids[p] = -1
            d.won[p] = 0
            d.played_len[p] = 0
        memset(d.loc, ASIDE, NUM_CARDS)
        for i in range(n * size):
            p = (first + i) % n
            d.hand[p] |= bit(order[i])
            d.loc[order[i]] = HAND + p
        d.size = size
        d.first = first
        d.bid_total = 0
        d.bids_made = 0
        d.trick_len = 0
        d.best = -1
        d.best_player = -1
        d.tricks_played = 0
        d.fool = -1
        d.leader = first
        d.h.current = first
        d.phase = BIDDING
        if self.log is not None:
            self.log.append(
                {
                    "hand": k,
                    "size": size,
                    "dealer": (first + n - 1) % n,
                    "hands": [[NAMES[c] for c in mask_list(d.hand[p])] for p in range(n)],
                    "aside": [NAMES[order[i]] for i in range(n * size, NUM_CARDS)],
                    "type": "deal",
                }
            )
        return 0

    cdef State clone_c(self):
        """engine.State.clone: a deep copy that shares only immutable parts."""
        cdef State c = State.__new__(State)
        self.copy_into(c)
        c.opt = self.opt
        c.result = self.result
        return c

    # ------------------------------------------------------------------ queries
    cdef int _forbidden_bid(self) noexcept:
        """engine.State.forbidden_bid: the bid the hook rule denies the dealer (the last
        bidder) now, or -1."""
        cdef Data* d = &self.d
        cdef int rest
        if d.phase != BIDDING or d.bids_made != self.opt.n - 1 or not self.opt.hook:
            return -1
        rest = d.size - d.bid_total
        return rest if rest >= 0 else -1

    def forbidden_bid(self):
        """The bid the hook rule denies the dealer (the last bidder) now, or -1."""
        return self._forbidden_bid()

    cdef int legal_into(self, short* out) noexcept:
        """engine.State._legal into ``out`` (in increasing order); returns the count: in play
        the hand's cards (the Fool as 0 first) and the Fool as 22 when held, in the bidding
        every bid 0..size but the one the hook rule forbids."""
        cdef Data* d = &self.d
        cdef uint32_t hand
        cdef int count = 0, b, forbidden
        if d.phase == PLAYING:
            hand = d.hand[d.h.current]
            count = cards_of(hand, out)
            if d.hand[d.h.current] & 1:
                out[count] = FOOL_HIGH
                count += 1
            return count
        if d.phase == BIDDING:
            forbidden = self._forbidden_bid()
            for b in range(d.size + 1):
                if b != forbidden:
                    out[count] = BID + b
                    count += 1
        return count

    cdef bint _is_legal(self, int action) noexcept:
        cdef Data* d = &self.d
        if d.phase == PLAYING:
            if action == FOOL_HIGH:
                return d.hand[d.h.current] & 1
            return action < NUM_CARDS and d.hand[d.h.current] & bit(action)
        if d.phase == BIDDING:
            return BID <= action <= BID + d.size and action - BID != self._forbidden_bid()
        return False

    # ------------------------------------------------------------------ results
    def returns(self):
        """Zero-sum returns from the places (``outcome``); zeros before the end."""
        outcome = self.outcome()
        return [0.0] * self.opt.n if outcome is None else list(outcome.returns)

    def outcome(self):
        """engine.State.outcome: places by final score (highest first, equal scores share),
        once the game is over; built once."""
        cdef Data* d = &self.d
        if d.phase != OVER:
            return None
        if self.result is None:
            self.result = outcome_by_scores(
                [d.scores[p] for p in range(self.opt.n)], extra={"hands": d.hand_no}
            )
        return self.result

    # ------------------------------------------------------------------ apply
    cdef int apply_c(self, int action) except -1:
        """engine.State.apply, for an int action."""
        if not self._is_legal(action):
            raise IllegalActionError(self._illegal(action))
        return self.apply_legal(action)

    cdef int apply_legal(self, int action) except -1:
        """engine.State._act without the legality check, for an action ``legal_into`` gave
        (search copies keep no history: ``history`` None): a bid is ``_bid``'s; any card may
        be played, and the highest value (the Fool as declared) wins the trick."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int card
        if self.history is not None:
            self.history.append(action)
        d.h.actions_taken += 1
        if action >= BID:
            return self._bid(action - BID)
        card = card_of(action)
        d.hand[p] &= ~bit(card)
        d.loc[card] = TRICK + p
        d.played[p][d.played_len[p]] = card
        d.played_len[p] += 1
        d.trick_player[d.trick_len] = p
        d.trick_value[d.trick_len] = action
        d.trick_len += 1
        if card == FOOL:
            d.fool = action
        if action > d.best:
            d.best = action
            d.best_player = p
        if self.log is not None:
            self.log.append({"player": p, "card": NAMES[card], "value": action, "type": "play"})
        if d.trick_len == self.opt.n:
            return self._end_trick()
        d.h.current = p + 1 if p + 1 < self.opt.n else 0
        return 0

    cdef int _bid(self, int bid) except -1:
        """engine.State._bid: bids go once round from the dealer's left; the dealer's bid
        starts the play."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        d.bids[p] = bid
        d.bid_total += bid
        d.bids_made += 1
        if self.log is not None:
            self.log.append({"player": p, "bid": bid, "type": "bid"})
        if d.bids_made == self.opt.n:
            d.phase = PLAYING
            d.h.current = d.first
        else:
            d.h.current = p + 1 if p + 1 < self.opt.n else 0
        return 0

    cdef int _end_trick(self) except -1:
        """engine.State._end_trick"""
        cdef Data* d = &self.d
        cdef int winner = d.best_player
        cdef int i
        d.won[winner] += 1
        for i in range(d.trick_len):
            d.loc[card_of(d.trick_value[i])] = PLAYED + d.trick_player[i]
        if self.log is not None:
            self.log.append({"winner": winner, "value": d.best, "type": "trick_won"})
        d.trick_len = 0
        d.best = -1
        d.tricks_played += 1
        if d.tricks_played == d.size:
            return self._end_hand()
        d.leader = d.h.current = winner
        return 0

    cdef int _end_hand(self) except -1:
        """engine.State._end_hand: a missed bid costs one point per trick over or under; then
        end or deal again."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int p, lowest_score
        cdef int lost[MAX_PLAYERS]
        for p in range(n):
            lost[p] = abs(d.won[p] - d.bids[p])
            d.scores[p] -= lost[p]
            if self.opt.floor_at_zero and d.scores[p] < 0:
                d.scores[p] = 0
        if self.log is not None:
            self.log.append(
                {
                    "hand": d.hand_no,
                    "bids": [d.bids[p] for p in range(n)],
                    "tricks": [d.won[p] for p in range(n)],
                    "lost": [lost[p] for p in range(n)],
                    "scores": [d.scores[p] for p in range(n)],
                    "type": "hand_end",
                }
            )
        d.hand_no += 1
        lowest_score = d.scores[0]
        for p in range(1, n):
            if d.scores[p] < lowest_score:
                lowest_score = d.scores[p]
        if lowest_score <= 0 or d.hand_no == self.opt.max_hands:
            d.phase = OVER
            d.h.is_terminal = True
            if self.log is not None:
                scores = [d.scores[p] for p in range(n)]
                self.log.append(
                    {"scores": scores, "places": places_from_scores(scores), "type": "game_over"}
                )
            return 0
        return self._deal()

    # ------------------------------------------------------------------ information
    def view(self, int seat):
        """What ``seat`` may know (``engine.WhistView``, as ``engine.State.view``). As there,
        a negative seat counts from the end (-1: the last seat)."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int at = seat + n if seat < 0 else seat  # the reference indexes lists by seat
        cdef bint over = d.phase == OVER
        if not 0 <= at < n:
            raise IndexError(f"seat must be in {-n}..{n - 1}, got {seat}")
        return WhistView(
            seat,
            tuple(self.legal_actions()) if seat == d.h.current and not over else (),
            tuple(mask_list(d.hand[at])),
            PHASE_NAMES[d.phase],
            d.h.current,
            d.hand_no,
            d.size,
            (d.first + n - 1) % n,
            d.leader,
            tuple([d.bids[p] for p in range(n)]),
            tuple([d.won[p] for p in range(n)]),
            tuple([(d.trick_player[i], d.trick_value[i]) for i in range(d.trick_len)]),
            tuple([tuple(int_list(d.played[p], d.played_len[p])) for p in range(n)]),
            d.fool,
            self._forbidden_bid(),
            tuple([d.scores[p] for p in range(n)]),
        )

    def determinize(self, int seat, rng):
        """engine.State.determinize: a copy with the other hands and the cards set aside
        re-dealt at random among themselves (counts kept); no history, log or deck, and a
        fresh seed. The same calls to ``rng`` (``getrandbits``, then one ``shuffle``) as the
        reference, so both engines give the same deal (for any int ``seat``, as there: one
        that is no seat sees no hand)."""
        cdef State c = self.clone_c()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        deal_hidden(self, c, seat, rng)
        return c
