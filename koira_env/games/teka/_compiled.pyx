# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Teka core: the rules engine and the observation writer in Cython.

``engine.py`` is the readable reference and RULES.md points at it; this module plays exactly
the same games, faster, and ``tests/games/teka/test_teka_compiled.py`` proves it by playing
both side by side and comparing every step (whose turn, the legal actions, the observation
bytes of every seat, the views, returns, events, records). Each rule is one method named as
in the reference; each says which one it mirrors. ``TekaGame`` uses this module unless asked
for ``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``hands``, ``tricks`` and friends builds them, so they are for tools,
bots, the solvers and tests, not hot loops), and ``Engine(rules)`` writes observations and
masks as ``TekaGame.observation`` and ``Game.action_mask`` do: ``observation(state, seat)``,
``observe_into(state, seat, row)`` and ``action_mask(legal)``; ``turn_features(state, seat,
legal)`` writes ``turns.py``'s rows.

C side (declared in ``_compiled.pxd``): ``State.d`` is a plain struct (``Data``): hands as
52-bit card masks (a hand is always sorted, so its mask is the list), the auction, the
contract and its raises, the trick being played and the finished ones, every card's location
and who played it. ``clone()`` copies it whole. Events are logged only when ``state.log`` is a
list (``log=True``), as in the reference.

The module is split by concern, each part mirroring a reference module: ``_observation.pxi``
(game.py's observation: ``Engine`` and ``write_observation``), ``_hidden.pxi`` (engine.py's
determinize: what the play showed of the hidden hands, and their re-deal by
``core.deal.constrained_deal``, the reference's own deal, so the same ``rng`` deals the same),
``_turns.pxi`` (turns.py's rows) and ``_adapters.pxi`` (engine.State's attributes, on the
base class ``StateAttributes``).
The rules, ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memset

from koira_env.core._bits cimport cards_of, highest, lowest
from koira_env.core._engine cimport places_of_scores, returns_of_places
from koira_env.core._lists cimport int_list
from koira_env.core._shuffle cimport hand_deck_into

from operator import index

from ...core import events
from ...core.game import IllegalActionError, outcome_by_scores
from . import engine as reference
from .engine import TekaView

cnp.import_array()


# ============================================================================ tables
cdef tuple NAMES = tuple(reference.card_name(c) for c in range(NUM_CARDS))
cdef tuple ACTION_NAMES = tuple(reference.action_name(a) for a in range(NUM_ACTIONS))
cdef tuple PHASE_NAMES = reference.PHASE_NAMES
cdef tuple SUIT_WORDS = reference.SUIT_WORDS
cdef float ONE_F = 1.0
cdef uint64_t HONOUR_MASK = 0
cdef int _s
for _s in range(4):
    HONOUR_MASK |= (<uint64_t>0xF) << (13 * _s + 9)  # J, Q, K, A of each suit
cdef uint64_t SUIT_MASK_ALL = ((<uint64_t>1) << 13) - 1


cdef inline uint64_t bit(int card) noexcept nogil:
    return (<uint64_t>1) << card


cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    return SUIT_MASK_ALL << (13 * suit)


cdef list mask_list(uint64_t mask):
    cdef uint8_t cards[NUM_CARDS]
    return int_list(cards, cards_of(mask, cards))


include "_hidden.pxi"
include "_turns.pxi"
include "_observation.pxi"
include "_adapters.pxi"


# ============================================================================ the state
@cython.final
cdef class State:
    """A game of Teka in progress, as ``engine.State`` (build it with ``TekaGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    cdef int _begin(self) except -1:
        """engine.State.__init__ (``CompiledState._start`` set the rest): the first deal."""
        return self._deal()

    cdef int deal_size(self) noexcept:
        return NUM_CARDS

    cdef bint deals_again(self) noexcept:
        return not self.opt.single_hand  # every hand of a game to the target is a new deck

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt

    cdef int _deal(self) except -1:
        """engine.State._deal: a fresh deck per deal, 13 cards at once to each player from the
        first speaker; under ``no_honours="redeal"`` a deal leaving a hand without an honour is
        replaced at once by the next deck."""
        cdef Data* d = &self.d
        cdef int first = d.hand_no % PLAYERS
        cdef int i, p, card
        cdef uint64_t seen
        cdef uint64_t hands[PLAYERS]
        cdef int cards[NUM_CARDS]
        cdef bint poor
        while True:
            hand_deck_into(self.deck, self.seed, d.deal_no, NUM_CARDS, cards)
            seen = 0
            for p in range(PLAYERS):
                hands[p] = 0
            for i in range(NUM_CARDS):
                card = cards[i]
                if not 0 <= card < NUM_CARDS or seen & bit(card):
                    start = d.deal_no * NUM_CARDS
                    listed = self.deck[start : start + NUM_CARDS]
                    raise ValueError(f"a deck must hold each card id 0..51 once, got {listed!r}")
                seen |= bit(card)
                hands[(first + i // HAND_SIZE) % PLAYERS] |= bit(card)
            poor = False
            for p in range(PLAYERS):
                if not hands[p] & HONOUR_MASK:
                    poor = True
            if self.opt.no_honours != NO_HONOURS_REDEAL or not poor:
                break
            if self.log is not None:
                players = [p for p in range(PLAYERS) if not hands[p] & HONOUR_MASK]
                self.log.append(
                    {"hand": d.hand_no, "deal": d.deal_no, "players": players, "type": "redeal"}
                )
            d.deal_no += 1
        d.first = first
        d.dealer = (first + PLAYERS - 1) % PLAYERS
        for p in range(PLAYERS):
            d.hand[p] = hands[p]
            d.played[p] = 0
            d.calls[p] = -1
            d.won[p] = 0
        for card in range(NUM_CARDS):
            d.by[card] = NOBODY
        for p in range(PLAYERS):
            for card in mask_list(hands[p]):
                d.loc[<int>card] = HAND + p
        d.high = 0
        d.declarer = -1
        d.double = False
        d.contract = 0
        d.trump = -1
        d.out = -1
        d.raises_len = 0
        d.raised = False
        d.trick_len = 0
        d.tricks_len = 0
        d.best = -1
        d.best_seat = -1
        d.leader = first
        d.phase = ASK if self.opt.no_honours == NO_HONOURS_ASK else BIDDING
        d.h.current = first
        if self.log is not None:
            names = [[NAMES[c] for c in mask_list(d.hand[p])] for p in range(PLAYERS)]
            self.log.append(
                {
                    "hand": d.hand_no,
                    "deal": d.deal_no,
                    "dealer": d.dealer,
                    "hands": names,
                    "type": events.DEAL,
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
    cdef int _next_seat(self, int p) noexcept:
        """engine.State.next_seat: the next seat in turn order, skipping a double thirteen's
        partner."""
        p = (p + 1) % PLAYERS
        return (p + 1) % PLAYERS if p == self.d.out else p

    def next_seat(self, int p):
        """The next seat in turn order, skipping a double thirteen's partner."""
        return self._next_seat(p)

    cdef void _tricks_to_go(self, int* to_make, int* to_beat) noexcept:
        """engine.State.tricks_to_go"""
        cdef Data* d = &self.d
        cdef int side, taken, lost
        if d.declarer < 0:
            to_make[0] = to_beat[0] = 0
            return
        side = d.declarer % 2
        taken = d.won[side] + d.won[side + 2]
        lost = d.tricks_len - taken
        to_make[0] = max(0, d.contract - taken)
        to_beat[0] = max(0, TRICKS - d.contract + 1 - lost)

    def tricks_to_go(self):
        """(tricks the declaring side still needs, tricks the other side still needs)."""
        cdef int to_make, to_beat
        self._tricks_to_go(&to_make, &to_beat)
        return to_make, to_beat

    cdef int _raise_top(self) noexcept:
        """engine.State.raise_targets as its last contract (the first is ``contract + 1``):
        ``contract`` when no raise is open."""
        cdef Data* d = &self.d
        cdef int side, reach
        if (
            d.raised
            or d.double
            or self.opt.raises == RAISES_NEVER
            or (self.opt.raises == RAISES_ONCE and d.raises_len)
        ):
            return -1
        side = (d.declarer % 2 + 2) % 2  # as Python's %: asked before any bid too
        reach = d.won[side] + d.won[side + 2] + TRICKS - d.tricks_len
        return min(13, reach)

    def raise_targets(self):
        """The contracts the declarer may raise to now (engine.State.raise_targets)."""
        cdef int top = self._raise_top()
        if top < 0:
            return range(0)
        return range(self.d.contract + 1, top + 1)

    cdef int legal_into(self, short* out) noexcept:
        """engine.State._legal into ``out`` (in increasing order); returns the count."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int count = 0, b, s, top
        cdef uint64_t hand = d.hand[p], cards
        if d.phase == PLAY:
            if d.trick_len:
                cards = hand & suit_mask(d.trick[0] // 13)
                if not cards:
                    cards = hand
            elif d.tricks_len == 0:
                cards = hand & suit_mask(d.trump)
            else:
                cards = hand
            count = cards_of(cards, out)
            if p == d.declarer:
                top = self._raise_top()
                for b in range(d.contract + 1, top + 1):
                    out[count] = RAISE + b - 9
                    count += 1
            return count
        if d.phase == BIDDING:
            if not (self.opt.all_pass == ALL_PASS_DEALER and p == d.dealer and d.declarer < 0):
                out[count] = PASS
                count += 1
                if self.opt.pass_signals and (p - d.first + PLAYERS) % PLAYERS < 2:
                    out[count] = TER
                    out[count + 1] = BEHI_TER
                    count += 2
            if not d.double:
                for b in range(BID + max(MIN_BID, d.high + 1) - MIN_BID, DOUBLE):
                    out[count] = b
                    count += 1
            out[count] = DOUBLE
            return count + 1
        if d.phase == TRUMPS:
            for s in range(4):
                if hand & suit_mask(s):
                    out[count] = TRUMP + s
                    count += 1
            return count
        if d.phase == ASK:
            out[0] = KEEP
            if hand & HONOUR_MASK:
                return 1
            out[1] = NEW_DEAL
            return 2
        return 0

    # ------------------------------------------------------------------ results
    def returns(self):
        """Zero-sum returns from the places (``outcome``); zeros before the end and when
        truncated."""
        outcome = self.outcome()
        return [0.0] * PLAYERS if outcome is None else list(outcome.returns)

    def outcome(self):
        """engine.State.outcome: sides share places; whole game by points, single hand by the
        hand's points; None before the end and when truncated."""
        cdef Data* d = &self.d
        cdef const int* team
        if d.phase != OVER or d.h.truncated:
            return None
        if self.result is None:
            team = &d.scores[0]
            if self.opt.single_hand:
                team = &d.hand_points[0]
            scores = [team[p % 2] for p in range(PLAYERS)]
            extra = {"hands": d.hand_no + 1, "points": [d.scores[0], d.scores[1]]}
            self.result = outcome_by_scores(scores, teams=(0, 1, 0, 1), extra=extra)
        return self.result

    cdef int result_into(self, float* returns, int64_t* places) except -1:
        """``returns()`` and ``outcome().places`` of the finished game without building the
        outcome (the batched env's result): places by the sides' points, as ``outcome``."""
        cdef Data* d = &self.d
        cdef const int* team = &d.hand_points[0] if self.opt.single_hand else &d.scores[0]
        cdef double scores[PLAYERS]
        cdef int p
        for p in range(PLAYERS):
            scores[p] = team[p % 2]
        places_of_scores(PLAYERS, scores, places)
        returns_of_places(PLAYERS, places, returns)
        return 0

    # ------------------------------------------------------------------ apply
    cdef int apply_c(self, int action) except -1:
        """engine.State.apply, for an int action."""
        cdef short buf[MAX_LEGAL]
        cdef int count = self.legal_into(buf), i
        for i in range(count):
            if buf[i] == action:
                return self.apply_legal(action)
        raise IllegalActionError(self._illegal(action))

    cdef int apply_legal(self, int action) except -1:
        """engine.State._act without the legality check, for an action ``legal_into`` gave
        (search copies keep no history: ``history`` None)."""
        if self.history is not None:
            self.history.append(action)
        self.d.h.actions_taken += 1
        if action < NUM_CARDS:
            return self._play(action)
        if action < TRUMP:
            return self._call(action)
        if action < RAISE:
            return self._name_trump(action - TRUMP)
        if action < KEEP:
            return self._raise(action - RAISE + 9)
        return self._ask(action)

    cdef int _ask(self, int action) except -1:
        """engine.State._ask: keep the hand, or (without an honour) ask for a new deal."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        if self.log is not None:
            self.log.append({"player": p, "choice": ACTION_NAMES[action], "type": "ask"})
        if action == NEW_DEAL:
            d.deal_no += 1
            return self._deal()
        d.h.current = (p + 1) % PLAYERS
        if d.h.current == d.first:
            d.phase = BIDDING
        return 0

    cdef int _call(self, int call) except -1:
        """engine.State._call: record one auction call; after the dealer's, the declarer names
        trumps, or with no bid the hand is thrown in."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        d.calls[p] = call
        if call == DOUBLE:
            d.declarer = p
            d.double = True
            d.contract = 13
        elif call >= BID:
            d.high = d.contract = call - BID + MIN_BID
            d.declarer = p
        if self.log is not None:
            self.log.append({"player": p, "call": ACTION_NAMES[call], "type": "call"})
        if p != d.dealer:
            d.h.current = (p + 1) % PLAYERS
        elif d.declarer < 0:
            if self.log is not None:
                self.log.append({"hand": d.hand_no, "type": "throw_in"})
            d.hand_points[0] = d.hand_points[1] = 0
            return self._next_hand(False)
        else:
            if d.double:
                d.out = (d.declarer + 2) % PLAYERS
            d.phase = TRUMPS
            d.h.current = d.declarer
        return 0

    cdef int _name_trump(self, int suit) except -1:
        """engine.State._name_trump"""
        cdef Data* d = &self.d
        d.trump = suit
        if self.log is not None:
            self.log.append({"player": d.h.current, "suit": SUIT_WORDS[suit], "type": "trump"})
        d.phase = PLAY
        d.leader = d.h.current
        return 0

    cdef int _raise(self, int bid) except -1:
        """engine.State._raise: the declarer's side now needs ``bid`` tricks."""
        cdef Data* d = &self.d
        d.contract = bid
        d.raised = True
        d.raise_at[d.raises_len] = d.tricks_len
        d.raise_to[d.raises_len] = bid
        d.raises_len += 1
        if self.log is not None:
            self.log.append({"player": d.h.current, "contract": bid, "type": "raise"})
        return 0

    cdef int _play(self, int card) except -1:
        """engine.State._play: follow, take the trick with the highest card of the led suit or
        the highest trump; the hand ends after 13 tricks or (``early_end``) once decided."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int winner, i, k, to_make, to_beat
        d.raised = False
        d.hand[p] &= ~bit(card)
        d.loc[card] = TRICK
        d.by[card] = p
        d.played[p] |= bit(card)
        d.trick[d.trick_len] = card
        d.trick_len += 1
        if d.best < 0 or beats(card, d.best, d.trump):
            d.best = card
            d.best_seat = p
        if self.log is not None:
            self.log.append({"player": p, "card": NAMES[card], "type": events.PLAY})
        if d.trick_len < (3 if d.double else PLAYERS):
            d.h.current = self._next_seat(p)
            return 0
        winner = d.best_seat
        k = d.tricks_len
        for i in range(d.trick_len):
            d.loc[d.trick[i]] = PLAYED
            d.trick_cards[k][i] = d.trick[i]
        d.won[winner] += 1
        d.trick_lead[k] = d.leader
        d.trick_size[k] = d.trick_len
        d.trick_win[k] = winner
        d.tricks_len += 1
        if self.log is not None:
            names = [NAMES[d.trick[i]] for i in range(d.trick_len)]
            self.log.append({"winner": winner, "cards": names, "type": events.TRICK})
        d.trick_len = 0
        d.best = d.best_seat = -1
        d.h.current = d.leader = winner
        self._tricks_to_go(&to_make, &to_beat)
        if d.tricks_len == TRICKS or (self.opt.early_end and not (to_make and to_beat)):
            return self._end_hand(not to_make)
        return 0

    # ------------------------------------------------------------------ scoring
    cdef int _end_hand(self, bint made) except -1:
        """engine.State._end_hand: a made contract scores its number (26 for a double
        thirteen) for the declaring side; a failed one scores for the opponents by
        ``failed_bid`` (52 for a double thirteen)."""
        cdef Data* d = &self.d
        cdef int side = d.declarer % 2
        cdef int scorer, points
        if made:
            scorer = side
            points = 26 if d.double else d.contract
        else:
            scorer = 1 - side
            if d.double:
                points = 52
            elif self.opt.failed_bid == FAILED_OPPONENTS:
                points = d.contract
            elif self.opt.failed_bid == FAILED_DOUBLE:
                points = 2 * d.contract
            else:
                points = 0
        d.hand_points[0] = d.hand_points[1] = 0
        d.hand_points[scorer] = points
        d.scores[scorer] += points
        if self.log is not None:
            self.log.append(
                {
                    "hand": d.hand_no,
                    "declarer": d.declarer,
                    "contract": d.contract,
                    "double": bool(d.double),
                    "tricks": d.won[side] + d.won[side + 2],
                    "made": bool(made),
                    "points": [d.hand_points[0], d.hand_points[1]],
                    "scores": [d.scores[0], d.scores[1]],
                    "type": events.HAND_END,
                }
            )
        return self._next_hand(True)

    cdef int _next_hand(self, bint played) except -1:
        """engine.State._next_hand: the game ends after the hand in which a side reaches
        ``target`` (or the first played hand with ``single_hand``), is cut off after
        ``max_hands``, or the deal passes on."""
        cdef Data* d = &self.d
        if (self.opt.single_hand and played) or max(d.scores[0], d.scores[1]) >= self.opt.target:
            return self._end_game(False)
        if d.hand_no + 1 >= self.opt.max_hands:
            return self._end_game(True)
        d.hand_no += 1
        d.deal_no += 1
        return self._deal()

    cdef int _end_game(self, bint truncated) except -1:
        """EngineState._end_game"""
        cdef Data* d = &self.d
        d.h.truncated = truncated
        d.h.is_terminal = True
        d.phase = OVER
        if self.log is not None:
            scores = [d.scores[0], d.scores[1]]
            if truncated:
                self.log.append(
                    {"hands": d.hand_no + 1, "scores": scores, "type": events.TRUNCATED}
                )
            else:
                places = list(self.outcome().places)
                self.log.append({"places": places, "scores": scores, "type": events.GAME_OVER})
        return 0

    # ------------------------------------------------------------------ information
    def view(self, int seat):
        """What ``seat`` may know (``engine.TekaView``, as ``engine.State.view``). As there,
        a negative seat counts from the end (-1: the last seat)."""
        cdef Data* d = &self.d
        cdef int at = seat + PLAYERS if seat < 0 else seat  # the reference indexes by seat
        cdef int p, i
        if not 0 <= at < PLAYERS:
            raise IndexError(f"seat must be in {-PLAYERS}..{PLAYERS - 1}, got {seat}")
        trick = []
        p = d.leader
        for i in range(d.trick_len):
            trick.append((p, d.trick[i]))
            p = self._next_seat(p)
        return TekaView(
            seat,
            tuple(self.legal_actions()) if seat == d.h.current else (),
            tuple(mask_list(d.hand[at])),
            PHASE_NAMES[d.phase],
            d.h.current,
            d.hand_no,
            d.dealer,
            d.first,
            tuple([d.calls[p] for p in range(PLAYERS)]),
            d.declarer,
            d.contract,
            bool(d.double),
            d.trump,
            d.out,
            tuple(self.raises),
            tuple(trick),
            tuple(self.tricks),
            tuple([-1 if d.by[i] == NOBODY else d.by[i] for i in range(NUM_CARDS)]),
            tuple([d.won[p] for p in range(PLAYERS)]),
            (d.scores[0], d.scores[1]),
        )

    def determinize(self, int seat, rng):
        """engine.State.determinize: a copy with the cards ``seat`` cannot see re-dealt among
        the other hands (counts kept) within what the play showed; no history, log or deck,
        and a fresh seed. The same calls to ``rng`` as the reference (``getrandbits``, then
        ``constrained_deal``'s), so both engines give the same deal."""
        cdef State c = self.clone_c()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        if self.d.phase == OVER:
            return c
        deal_hidden(self, c, seat, rng)
        return c

    def _voids(self):
        """engine.State._voids: per seat, the cards it cannot hold (the suits it failed to
        follow this hand)."""
        return voids(&self.d)
