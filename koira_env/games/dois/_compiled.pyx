# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Dois core: the rules engine and the observation writer in Cython.

``engine.py`` is the readable reference and RULES.md points at it; this module plays exactly
the same games, faster, and ``tests/games/dois/test_dois_compiled.py`` proves it by playing
both side by side and comparing every step (whose turn, the legal actions, the observation
bytes of every seat, the views, returns, events, records). Each rule is one method named as
in the reference; each says which one it mirrors. ``DoisGame`` uses this module unless asked
for ``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``hands``, ``plays`` and friends builds them, so they are for tools,
bots, the search and tests, not hot loops), and ``Engine(rules)`` writes observations and
masks as ``DoisGame.observation`` and ``Game.action_mask`` do: ``observation(state, seat)``
(a fresh float32 vector), ``observe_into(state, seat, row)`` (into a caller's float32 row)
and ``action_mask(legal)``.

C side (declared in ``_compiled.pxd``): ``State.d`` is a plain struct (``Data``): hands, the
undealt cards and the played cards as counts per kind, every card kind each player played
this hand, what each shows, the voids, bids, tricks and scores. ``clone()`` copies it whole
(the redraws shown this hand included). The deal itself
(a hand's deck, the redeals and their shows) runs once a hand on Python lists, step for
step as the reference's, calling its ``redraw_order`` for a player's redraw so the same decks
give the same hands. Events are logged only when ``state.log`` is a list (``log=True``), as
in the reference.

The module is split by concern, each part mirroring a reference module: ``_observation.pxi``
(game.py's observation: ``Engine`` and ``write_observation``), ``_hidden.pxi`` (engine.py's
determinize: the caps and needs of the hidden hands and their constrained re-deal, the
reference's ``_constrained_deal`` in C) and ``_adapters.pxi`` (engine.State's attributes, on
the base class ``StateAttributes``). The rules, ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy, memset

from koira_env.core._engine cimport places_of_scores, returns_of_places
from koira_env.core._lists cimport int_list

from ...core import events
from ...core.deck import hand_deck
from ...core.game import IllegalActionError, outcome_by_scores, places_from_scores
from . import cards as card_tables
from . import engine as reference
from .engine import DoisView

cnp.import_array()


# ============================================================================ tables
cdef tuple KIND_NAMES = card_tables.KIND_NAMES
cdef tuple KIND_OF = card_tables.KIND_OF
cdef tuple PHASE_NAMES = reference.PHASE_NAMES
cdef str SUITS = card_tables.SUITS
cdef int COPIES[NUM_KINDS]
cdef float ONE_F = 1.0

cdef void _tables():
    cdef int k
    for k in range(NUM_KINDS):
        COPIES[k] = card_tables.COPIES[k]


_tables()
_kind_names = card_tables.kind_names
_redraw_order = reference.redraw_order


cdef int trick_winner(int n, const int* suits, const int* numbers, int leader, int trump) noexcept:
    """engine.trick_winner: the highest number shown with the trump suit if anyone shows the
    trump suit, else the highest number shown with the lead suit (the leader's); on a tie the
    later of the tied players in play order from the leader."""
    cdef int target = suits[leader], i, q, best = -1, winner = -1
    for i in range(n):
        if suits[i] == trump:
            target = trump
            break
    for i in range(n):
        q = (leader + i) % n
        if suits[q] == target and numbers[q] >= best:
            best = numbers[q]
            winner = q
    return winner


cdef inline int suit_cards(const uint8_t* counts) noexcept:
    cdef int k, total = 0
    for k in range(NUM_SUITS):
        total += counts[k]
    return total


cdef inline int number_cards(const uint8_t* counts) noexcept:
    cdef int k, total = 0
    for k in range(NUM_SUITS, NUM_KINDS):
        total += counts[k]
    return total


cdef bint good_kinds(list kinds):
    """engine._good of the counts of ``kinds``: 3 suit cards and 3 number cards or more."""
    cdef int suits = 0, numbers = 0
    for k in kinds:
        if <int>k < NUM_SUITS:
            suits += 1
        else:
            numbers += 1
    return suits >= MIN_OF_EACH and numbers >= MIN_OF_EACH


cdef tuple kind_counts(list kinds):
    """engine._counts, as a tuple."""
    cdef int counts[NUM_KINDS]
    cdef int k
    memset(counts, 0, sizeof(counts))
    for k in kinds:
        counts[k] += 1
    return tuple([counts[k] for k in range(NUM_KINDS)])


cdef list counts_list(const uint8_t* counts):
    return [counts[k] for k in range(NUM_KINDS)]


include "_hidden.pxi"
include "_observation.pxi"
include "_adapters.pxi"


# ============================================================================ the state
@cython.final
cdef class State:
    """A game of Dois in progress, as ``engine.State`` (build it with ``DoisGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    cdef int _begin(self) except -1:
        """engine.State.__init__ (``CompiledState._start`` set the rest): the first deal."""
        self.d.n = self.opt.players
        return self._deal()

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt

    cdef State clone_c(self):
        """engine.State.clone: a deep copy that shares only immutable parts."""
        cdef State c = State.__new__(State)
        self.copy_into(c)
        c.opt = self.opt
        c.result = self.result
        return c

    # ------------------------------------------------------------------ dealing
    cdef list _next_deck(self):
        """engine.State._next_deck: the next deck of the game's sequence (``hand_deck``)."""
        order = hand_deck(self.deck, self.seed, self.d.decks_used, DECK_SIZE)
        self.d.decks_used += 1
        return order

    cdef tuple _deal_from(self, list order):
        """engine.State._deal_from: 13 play cards' kinds to each player, one at a time from
        the dealer's left, in deck order (trump cards skipped); the rest stay undealt."""
        cdef int n = self.d.n, first = self.d.first, i
        cards = [KIND_OF[c] for c in order if c < PLAY_CARDS]
        hands = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            (<list>hands[(first + i) % n]).append(cards[i])
        return hands, cards[HAND_SIZE * n :]

    cdef int _deal(self) except -1:
        """engine.State._deal: hand k dealt from player k mod n; the trump card revealed;
        bad hands dealt again (``_redeal``)."""
        cdef Data* d = &self.d
        cdef int n = d.n, k = d.hand_no, p, i, c, t
        cdef bint seen
        d.first = k % n
        if k % TRUMP_BLOCK == 0:
            d.trumps_seen_len = 0
        order = self._next_deck()
        t = -1
        for c in order:
            if c >= TRUMP_CARD:
                seen = False
                for i in range(d.trumps_seen_len):
                    if d.trumps_seen[i] == c - TRUMP_CARD:
                        seen = True
                if not seen:
                    t = c - TRUMP_CARD
                    break
        if t < 0:
            raise StopIteration  # as the reference's next() on a deck with no trump left
        d.trump = t
        d.trumps_seen[d.trumps_seen_len] = t
        d.trumps_seen_len += 1
        hands, rest = self._deal_from(order)
        shows = self._redeal(hands, rest)
        memset(d.hands, 0, sizeof(d.hands))
        memset(d.remains, 0, sizeof(d.remains))
        for p in range(n):
            for c in hands[p]:
                d.hands[p][c] += 1
        for c in rest:
            d.remains[c] += 1
        if len(shows) > MAX_SHOWS:
            raise RuntimeError(f"more than {MAX_SHOWS} redraws shown in one hand")
        d.shows_len = len(shows)
        for i in range(d.shows_len):
            p, counts, final = shows[i]
            d.show_player[i] = p
            d.show_final[i] = 0
            for c in range(NUM_KINDS):
                d.show_counts[i][c] = counts[c]
            for c in final:
                d.show_final[i] |= 1 << c
        memset(d.played, 0, sizeof(d.played))
        for p in range(MAXP):
            d.suit[p] = -1
            d.number[p] = 0
            d.plays_len[p] = 0
            d.void[p] = 0
            d.bids[p] = -1
            d.won[p] = 0
        d.tricks_played = 0
        d.in_trick = 0
        d.step = 0
        d.leader = d.h.current = d.first
        d.phase = BIDDING
        if self.log is not None:
            self.log.append(
                {
                    "hand": k,
                    "dealer": (d.first - 1 + n) % n,
                    "trump": SUITS[d.trump],
                    "hands": [_kind_names(counts_list(d.hands[p])) for p in range(n)],
                    "undealt": _kind_names(counts_list(d.remains)),
                    "type": events.DEAL,
                }
            )
        return 0

    cdef list _redeal(self, list hands, list rest):
        """engine.State._redeal: each hand with fewer than 3 suit or 3 number cards, from the
        dealer's left, dealt again until it is good: its holder's redraw from it and the
        undealt cards (``redeal="player"``, when they can make a good hand), else everyone
        dealt again. Returns the shows: (player, kinds shown, the players already final)."""
        cdef int n = self.d.n, first = self.d.first, i = 0, p, j, q
        cdef bint player
        shows = []
        while i < n:
            p = (first + i) % n
            if good_kinds(hands[p]):
                i += 1
                continue
            counts = kind_counts(hands[p])
            pool = hands[p] + rest
            player = self.opt.redeal_player and good_kinds(pool)
            if self.log is not None:
                self.log.append(
                    {
                        "player": p,
                        "shown": _kind_names(counts),
                        "mode": "player" if player else "all",
                        "type": "redeal",
                    }
                )
            order = self._next_deck()
            if player:
                shows.append((p, counts))
                pool = _redraw_order(pool, order)
                hands[p] = pool[:HAND_SIZE]
                rest[:] = pool[HAND_SIZE:]
            else:
                shows = []
                hands[:], rest[:] = self._deal_from(order)
                i = 0
        result = []
        for j in range(len(shows)):
            p = shows[j][0]
            later = {r for r, _ in shows[j + 1 :]}
            result.append(
                (p, shows[j][1], tuple([q for q in range(n) if q != p and q not in later]))
            )
        return result

    # ------------------------------------------------------------------ queries
    cdef int legal_into(self, short* out) noexcept:
        """engine.State._legal and _follow into ``out`` (in increasing order); returns the
        count. Bids 0 to 12; first trick: a suit card (the lead suit if held, unless leading),
        then any number card; later tricks: the follow rule."""
        cdef Data* d = &self.d
        cdef int p = d.h.current, k, count = 0, lead, kept
        cdef const uint8_t* hand = d.hands[p]
        if d.phase == PLAYING:
            for k in range(NUM_KINDS):
                if hand[k]:
                    out[count] = k
                    count += 1
            if not d.in_trick:
                return count
            lead = d.suit[d.leader]
            if d.suit[p] != lead:
                if hand[lead]:
                    out[0] = lead
                    return 1
                return count
            kept = 0
            for k in range(count):
                if out[k] >= NUM_SUITS or out[k] == lead:
                    out[kept] = out[k]
                    kept += 1
            return kept if kept else count
        if d.phase == BIDDING:
            for k in range(TRICKS + 1):
                out[k] = BID + k
            return TRICKS + 1
        if d.phase == FIRST:
            if d.step:
                for k in range(NUM_SUITS, NUM_KINDS):
                    if hand[k]:
                        out[count] = k
                        count += 1
                return count
            lead = d.suit[d.leader] if d.in_trick else -1
            if lead >= 0 and hand[lead]:
                out[0] = lead
                return 1
            for k in range(NUM_SUITS):
                if hand[k]:
                    out[count] = k
                    count += 1
            return count
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
        """Zero-sum returns from ``outcome``; zeros before the end."""
        outcome = self.outcome()
        return [0.0] * self.d.n if outcome is None else list(outcome.returns)

    def outcome(self):
        """engine.State.outcome: places by total score (equal scores share a place), once the
        game is over; built once."""
        cdef Data* d = &self.d
        if d.phase != OVER:
            return None
        if self.result is None:
            self.result = outcome_by_scores(
                [d.scores[p] for p in range(d.n)], extra={"hands": d.hand_no}
            )
        return self.result

    cdef int result_into(self, float* returns, int64_t* places) except -1:
        """``returns()`` and ``outcome().places`` of the finished game without building the
        outcome (the batched env's and the search's result): places by total score."""
        cdef double scores[MAXP]
        cdef int p, n = self.d.n
        for p in range(n):
            scores[p] = self.d.scores[p]
        places_of_scores(n, scores, places)
        returns_of_places(n, places, returns)
        return 0

    def public_bids(self, int seat):
        """engine.State.public_bids: all bids once bidding is over; while it lasts, those made
        so far under open bidding, only ``seat``'s own under sealed bidding."""
        cdef Data* d = &self.d
        if d.phase != BIDDING or not self.opt.sealed:
            return [d.bids[p] for p in range(d.n)]
        return [d.bids[p] if p == seat else -1 for p in range(d.n)]

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
        if action >= BID:
            return self._bid(action - BID)
        return self._play(action)

    cdef int _bid(self, int bid) except -1:
        """engine.State._bid: bids go once round from the dealer's left; the last one starts
        the first trick, led by the dealer's left."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        d.bids[p] = bid
        if self.log is not None:
            self.log.append({"player": p, "bid": bid, "type": events.BID})
        d.h.current = (p + 1) % d.n
        if d.h.current == d.first:
            d.phase = FIRST
        return 0

    cdef int _play(self, int kind) except -1:
        """engine.State._play: the card covers the player's card of its type; in the first
        trick the suit card is followed by the same player's number card; the last card of a
        trick ends it."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        d.hands[p][kind] -= 1
        d.played[kind] += 1
        d.plays[p][d.plays_len[p]] = kind
        d.plays_len[p] += 1
        if d.in_trick:
            self._note_void(p, kind)
        if kind < NUM_SUITS:
            d.suit[p] = kind
        else:
            d.number[p] = kind - NUM_SUITS + 1
        if self.log is not None:
            self.log.append({"player": p, "card": KIND_NAMES[kind], "type": events.PLAY})
        if d.phase == FIRST and not d.step:
            d.step = 1
            return 0
        d.step = 0
        d.in_trick += 1
        if d.in_trick < d.n:
            d.h.current = (p + 1) % d.n
            return 0
        return self._end_trick()

    cdef int _note_void(self, int p, int kind) noexcept:
        """engine.State._note_void: not playing the lead suit when it had to shows no lead
        suit left; covering a shown lead suit with another suit, no lead suit and no number
        card left."""
        cdef Data* d = &self.d
        cdef int lead = d.suit[d.leader]
        if kind == lead:
            return 0
        if kind < NUM_SUITS:
            if d.phase == PLAYING and d.suit[p] == lead:
                d.void[p] |= NUMBERS_VOID | (1 << lead)
            else:
                d.void[p] |= 1 << lead
        elif d.phase == PLAYING and d.suit[p] != lead:
            d.void[p] |= 1 << lead
        return 0

    cdef int _end_trick(self) except -1:
        """engine.State._end_trick: the trick goes to ``trick_winner``, who leads the next."""
        cdef Data* d = &self.d
        cdef int n = d.n, q, winner = trick_winner(n, d.suit, d.number, d.leader, d.trump)
        cdef bint shown = False
        d.won[winner] += 1
        d.tricks_played += 1
        if self.log is not None:
            for q in range(n):
                if d.suit[q] == d.trump:
                    shown = True
            self.log.append(
                {
                    "winner": winner,
                    "shows": [f"{SUITS[d.suit[q]]}{d.number[q]}" for q in range(n)],
                    "trump_shown": shown,
                    "type": events.TRICK,
                }
            )
        d.phase = PLAYING
        d.in_trick = 0
        d.leader = d.h.current = winner
        if d.tricks_played == TRICKS:
            return self._end_hand()
        return 0

    # ------------------------------------------------------------------ scoring
    cdef int _end_hand(self) except -1:
        """engine.State._end_hand: an exact bid scores the bid, a miss loses the difference;
        then the next hand, or the end after ``rules.hands`` hands."""
        cdef Data* d = &self.d
        cdef int n = d.n, p, diff
        for p in range(n):
            diff = d.won[p] - d.bids[p]
            d.hand_delta[p] = d.bids[p] if diff == 0 else -(diff if diff > 0 else -diff)
            d.scores[p] += d.hand_delta[p]
        if self.log is not None:
            self.log.append(
                {
                    "hand": d.hand_no,
                    "bids": [d.bids[p] for p in range(n)],
                    "won": [d.won[p] for p in range(n)],
                    "change": [d.hand_delta[p] for p in range(n)],
                    "scores": [d.scores[p] for p in range(n)],
                    "type": events.HAND_END,
                }
            )
        d.hand_no += 1
        if d.hand_no < self.opt.hands:
            return self._deal()
        d.phase = OVER
        d.h.is_terminal = True
        if self.log is not None:
            scores = [d.scores[p] for p in range(n)]
            self.log.append(
                {"places": places_from_scores(scores), "scores": scores, "type": events.GAME_OVER}
            )
        return 0

    # ------------------------------------------------------------------ information
    def view(self, int seat):
        """What ``seat`` may know (``engine.DoisView``, as ``engine.State.view``). As there,
        a negative seat counts from the end (-1: the last seat) for the hand."""
        cdef Data* d = &self.d
        cdef int n = d.n
        cdef int at = seat + n if seat < 0 else seat  # the reference indexes lists
        cdef int k, c, p, i
        if not 0 <= at < n:
            raise IndexError(f"seat must be in {-n}..{n - 1}, got {seat}")
        return DoisView(
            seat,
            tuple(self.legal_actions()) if seat == d.h.current else (),
            tuple([k for k in range(NUM_KINDS) for c in range(d.hands[at][k])]),
            tuple(counts_list(d.hands[at])),
            PHASE_NAMES[d.phase],
            d.h.current,
            d.hand_no,
            (d.first - 1 + n) % n,
            d.trump,
            tuple([d.trumps_seen[i] for i in range(d.trumps_seen_len)]),
            d.leader,
            d.tricks_played,
            d.in_trick,
            d.suit[d.leader] if d.in_trick or d.step else -1,
            tuple([d.suit[p] for p in range(n)]),
            tuple([d.number[p] for p in range(n)]),
            tuple([tuple([d.plays[p][i] for i in range(d.plays_len[p])]) for p in range(n)]),
            tuple(counts_list(d.played)),
            tuple([d.void[p] for p in range(n)]),
            tuple(self.public_bids(seat)),
            tuple([d.won[p] for p in range(n)]),
            tuple([d.scores[p] for p in range(n)]),
            tuple([(d.show_player[i], tuple(counts_list(d.show_counts[i])))
                   for i in range(d.shows_len)]),
        )

    def _caps(self, int p):
        """engine.State._caps: per kind, the most ``p`` can hold now."""
        cdef int caps[NUM_KINDS]
        caps_into(&self.d, p, caps)
        return int_list(caps, NUM_KINDS)

    def _needs(self, int p):
        """engine.State._needs: the suit and number cards ``p`` must still hold."""
        cdef int needs[2]
        needs_into(&self.d, p, needs)
        return needs[0], needs[1]

    def determinize(self, int seat, rng):
        """engine.State.determinize: a copy with the cards ``seat`` cannot see (the other
        hands and the undealt cards) dealt again within everything public (the reference's
        ``_constrained_deal``, in C, drawing from ``rng`` as it does: the same ``rng`` gives
        the same deal); no history, log or deck, and a fresh seed."""
        cdef State c = self.clone_c()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        if c.d.phase == OVER:
            return c
        deal_hidden(self, c, seat, rng)
        return c
