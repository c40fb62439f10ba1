# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Mätäpesä core: the rules engine and the observation writer in Cython.

``engine.py`` is the readable reference and RULES.md points at it; this module plays exactly
the same games, faster, and ``tests/games/matapesa/test_matapesa_compiled.py`` proves it by
playing both side by side and comparing every step (whose turn, the legal ranks, the
observation bytes of every seat, the views, returns, events, records). Each rule is one
method named as in the reference; each says which one it mirrors. ``MatapesaGame`` uses this
module unless asked for ``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``counts``, ``loc`` and friends builds them, so they are for tools,
bots and tests, not hot loops), and ``Engine(rules)`` writes observations and masks as
``MatapesaGame.observation`` and ``Game.action_mask`` do: ``observation(state, seat)`` (a
fresh float32 vector), ``observe_into(state, seat, row)`` (into a caller's float32 row) and
``action_mask(legal)``.

C side (declared in ``_compiled.pxd``): ``State.d`` is a plain struct (``Data``): every card's
location code, the per-seat rank counts of the hands and of the played cards, the cards
played in order and the trick in play, as the reference keeps them. ``clone()`` copies it
whole. Events are logged only when ``state.log`` is a list (``log=True``), as in the
reference.

The module is split by concern: ``_observation.pxi`` (game.py's observation: ``Engine`` and
``write_observation``), ``_hidden.pxi`` (engine.py's determinize: the cards a seat cannot
see, how a shuffle of them is put back, and the deal ``determinize`` makes of them within
what the play so far shows) and ``_adapters.pxi`` (engine.State's attributes, on the base class
``StateAttributes``). The rules, ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memset

from koira_env.core._engine cimport returns_of_places
from koira_env.core._hidden cimport hide
from koira_env.core._lists cimport int_list

from ...cards import card_name
from ...core import events
from ...core.game import IllegalActionError, Outcome, returns_from_places
from .engine import MatapesaView

cnp.import_array()


cdef tuple NAMES = tuple(card_name(c) for c in range(NUM_CARDS))
cdef str PLAY = events.PLAY
cdef str TRICK = events.TRICK
cdef str GAME_OVER = events.GAME_OVER


cdef inline int rank_of(int card) noexcept nogil:
    """cards.RANK_OF: clubs 0..12, diamonds 13..25, hearts, spades."""
    return card % NUM_RANKS


cdef inline int seat_after(int p, int n) noexcept nogil:
    return p + 1 if p + 1 < n else 0


cdef list name_list(const uint8_t* cards, int count):
    return [NAMES[cards[i]] for i in range(count)]


include "_hidden.pxi"
include "_observation.pxi"
include "_adapters.pxi"


# returns_from_places by loser and table size: the one Python call of an outcome
cdef dict RETURNS = {}


# ============================================================================ the state
@cython.final
cdef class State:
    """A game of Mätäpesä in progress, as ``engine.State`` (build it with
    ``MatapesaGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    cdef int _begin(self) except -1:
        """engine.State.__init__ (``CompiledState._start`` set the rest): deal ``deck`` (the
        cards in play) one card at a time from player_0, ``len(deck) // n`` each; the rest is
        out of play, face up."""
        cdef Data* d = &self.d
        cdef int n, dealt, i, card, p, size
        deck = self.deck
        memset(d.loc, ABSENT, sizeof(d.loc))
        n = self.opt.n
        dealt = self.opt.num_tricks * n
        size = self.opt.deck_size
        if len(deck) < size:
            raise ValueError(f"a deal needs {size} cards, got {len(deck)}")
        for i in range(size):
            card = deck[i]
            if not 0 <= card < NUM_CARDS:
                raise ValueError(f"a card is 0..{NUM_CARDS - 1}, got {card}")
            if i < dealt:
                p = i % n
                d.loc[card] = HAND + p
                d.counts[p][rank_of(card)] += 1
                d.in_hands[rank_of(card)] += 1
            else:
                d.loc[card] = OUT_OF_PLAY
                d.out_counts[rank_of(card)] += 1
        for p in range(n):
            d.hand_sizes[p] = self.opt.num_tricks
        d.loser = -1
        self._start_trick(0)
        if self.log is not None:
            self.log.append(
                {"cards": [NAMES[deck[i]] for i in range(dealt, size)], "type": "out_of_play"}
            )
        return 0

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt

    cdef void _start_trick(self, int leader) noexcept:
        """engine.State._start_trick"""
        cdef Data* d = &self.d
        d.leader = d.h.current = leader
        d.trick_start = d.plays_len
        d.need = -1
        d.high = -1
        d.winner = -1

    cdef State clone_c(self):
        """engine.State.clone: a deep copy that shares only immutable parts."""
        cdef State c = State.__new__(State)
        self.copy_into(c)
        c.opt = self.opt
        c.result = self.result
        return c

    # ------------------------------------------------------------------ legal ranks
    cdef int legal_into(self, short* out) noexcept:
        """engine.State._legal into ``out`` (in increasing order); returns the count: any rank
        held when leading; else any rank reaching the trick, plus the lowest rank held (always,
        or only when nothing reaches: ``lowest_anytime``)."""
        cdef Data* d = &self.d
        cdef const uint8_t* counts
        cdef int count = 0, r, low, need
        if d.h.is_terminal:
            return 0
        counts = d.counts[d.h.current]
        need = d.need
        if need < 0:
            for r in range(NUM_RANKS):
                if counts[r]:
                    out[count] = r
                    count += 1
            return count
        low = 0
        while low < NUM_RANKS and not counts[low]:
            low += 1
        if low < need:
            out[0] = low
            count = 1
        for r in range(need, NUM_RANKS):
            if counts[r]:
                out[count] = r
                count += 1
        if count > 1 and out[0] < need and not self.opt.lowest_anytime:
            for r in range(count - 1):  # the lowest only when nothing reaches
                out[r] = out[r + 1]
            count -= 1
        return count

    # ------------------------------------------------------------------ results
    def returns(self):
        """Zero-sum returns from the places (``outcome``); zeros before the end."""
        outcome = self.outcome()
        return [0.0] * self.opt.n if outcome is None else list(outcome.returns)

    def outcome(self):
        """engine.State.outcome, built once when the game ends (the env reads it twice)."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int p
        if not d.h.is_terminal:
            return None
        if self.result is None:
            places = tuple([n if p == d.loser else 1 for p in range(n)])
            returns = RETURNS.get(places)
            if returns is None:
                returns = RETURNS[places] = tuple(returns_from_places(places))
            last = d.plays[d.trick_start + (d.winner - d.leader + n) % n]
            self.result = Outcome(
                places=places,
                returns=returns,
                scores=tuple([-1.0 if p == d.loser else 0.0 for p in range(n)]),
                extra={
                    "loser": d.loser,
                    "last_card": NAMES[last],
                    "tricks_won": [d.tricks_won[p] for p in range(n)],
                },
            )
        return self.result

    cdef int result_into(self, float* returns, int64_t* places) except -1:
        """``returns()`` and ``outcome().places`` of the finished game without building the
        outcome (the batched env's and the search's result): the loser last, the rest first."""
        cdef int p, n = self.opt.n
        for p in range(n):
            places[p] = n if p == self.d.loser else 1
        returns_of_places(n, places, returns)
        return 0

    # ------------------------------------------------------------------ apply
    cdef int apply_c(self, int action) except -1:
        """engine.State.apply, for an int action."""
        cdef short buf[MAX_LEGAL]
        cdef int count = self.legal_into(buf)
        cdef int i
        for i in range(count):
            if buf[i] == action:
                break
        else:
            raise IllegalActionError(self._illegal(action))
        return self.apply_legal(action)

    cdef int apply_legal(self, int action) except -1:
        """``apply_c`` without the legality check, for an action ``legal_into`` gave (search
        copies keep no history: ``history`` None). engine.State._act: play the card of rank
        ``action`` in the lowest suit held."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int card = action
        if self.history is not None:
            self.history.append(action)
        d.h.actions_taken += 1
        while d.loc[card] != p:  # the lowest suit of that rank held
            card += NUM_RANKS
        d.loc[card] = PLAYED + p
        d.counts[p][action] -= 1
        d.played[p][action] += 1
        d.in_hands[action] -= 1
        d.hand_sizes[p] -= 1
        d.plays[d.plays_len] = card
        d.plays_len += 1
        if self.log is not None:
            self.log.append({"player": p, "card": NAMES[card], "type": PLAY})
        if action > d.high or (action == d.high and self.opt.tie_last):
            d.high = action
            d.winner = p
        d.need = d.high if self.opt.follow_highest else action
        if d.plays_len - d.trick_start == self.opt.n:
            return self._end_trick()
        d.h.current = seat_after(p, self.opt.n)
        return 0

    cdef int _end_trick(self) except -1:
        """engine.State._end_trick: the trick's winner leads the next; the winner of the last
        trick loses."""
        cdef Data* d = &self.d
        cdef int w = d.winner
        cdef int last
        d.tricks_won[w] += 1
        d.tricks_done += 1
        if self.log is not None:
            self.log.append(
                {
                    "player": w,
                    "trick": d.tricks_done,
                    "cards": name_list(d.plays + d.trick_start, d.plays_len - d.trick_start),
                    "type": TRICK,
                }
            )
        if d.tricks_done == self.opt.num_tricks:
            d.loser = w
            d.need = -1
            d.h.is_terminal = True
            if self.log is not None:
                last = d.plays[d.trick_start + (w - d.leader + self.opt.n) % self.opt.n]
                self.log.append({"loser": w, "card": NAMES[last], "type": GAME_OVER})
        else:
            self._start_trick(w)
        return 0

    # ------------------------------------------------------------------ information
    def view(self, int seat):
        """Everything ``seat`` may know (``engine.MatapesaView``, as ``engine.State.view``):
        its hand, and the table. As there, a negative seat counts from the end for the lists
        the reference indexes by seat."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int p, r, s, c, k
        cdef int at = seat + n if seat < 0 else seat  # the reference indexes lists by seat
        cdef const uint8_t* mine
        if not 0 <= at < n:
            raise IndexError(f"seat must be in {-n}..{n - 1}, got {seat}")
        mine = d.counts[at]
        hand = []
        for r in range(NUM_RANKS):
            for s in range(4):
                c = s * NUM_RANKS + r
                if d.loc[c] == seat:
                    hand.append(c)
        played = [[] for p in range(n)]
        for k in range(d.plays_len):
            c = d.plays[k]
            played[d.loc[c] - PLAYED].append(c)
        return MatapesaView(
            seat,
            tuple(self.legal_actions()) if seat == d.h.current else (),
            tuple(hand),
            tuple([mine[r] for r in range(NUM_RANKS)]),
            tuple([tuple(cards) for cards in played]),
            tuple([tuple([d.played[p][r] for r in range(NUM_RANKS)]) for p in range(n)]),
            tuple([c for c in range(NUM_CARDS) if d.loc[c] == OUT_OF_PLAY]),
            tuple([d.in_hands[r] - mine[r] for r in range(NUM_RANKS)]),
            tuple([d.hand_sizes[p] for p in range(n)]),
            tuple([(d.loc[d.plays[k]] - PLAYED, d.plays[k])
                   for k in range(d.trick_start, d.plays_len)]),
            d.leader,
            d.need,
            d.winner,
            d.tricks_done,
            self.opt.num_tricks,
            tuple([d.tricks_won[p] for p in range(n)]),
            d.loser,
        )

    def determinize(self, int seat, rng):
        """engine.State.determinize: a copy with the other hands re-dealt at random (sizes
        kept, within what the play so far shows), no history, log or deck, and a fresh seed.
        The same calls to ``rng`` (``getrandbits``, then ``core.deal.constrained_deal`` with
        the reference's arguments) as the reference, so both engines give the same deal (for
        any int ``seat``, as there: one that is no seat sees no hand)."""
        cdef State c = self.clone_c()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        deal_hidden(self, c, seat, rng)
        return c
