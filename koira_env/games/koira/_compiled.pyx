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

The module is split by concern, each part mirroring a reference module: ``_tables.pxi``
(lookup tables and card-mask helpers), ``_info.pxi`` (info.py: what a seat knows, its view,
and the hidden cards ``determinize`` deals), ``_observation.pxi`` (observation.py: ``Engine``
and ``write_observation``), ``_adapters.pxi`` (engine.State's attributes, on the base class
``StateAttributes``) and, from core/, ``_determinize.pxi`` (the deal every compiled core's
``determinize`` shares). The rules, ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from koira_env.core._hidden cimport hide
from koira_env.core._mask cimport legal_mask

from ...cards import RANKS, card_name
from ...core.game import IllegalActionError, Outcome
from . import engine as reference
from .rules import deck_cards, removed_unseen
from .info import SeatView
from .observation import CARD_SCALE, TRICK_SCALE, WAR_DEPTH_SCALE, observation_layout

cnp.import_array()

include "_tables.pxi"
include "_info.pxi"
include "_observation.pxi"
include "_adapters.pxi"
include "../../core/_determinize.pxi"


# ============================================================================ the state
@cython.final
cdef class State:
    """A Koira game in progress, as ``engine.State`` (build it with ``KoiraGame.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    def __init__(self, game, deck, log=False, seed=None):
        """engine.State.__init__: deal hand_size cards each, the rest is the stock."""
        cdef Data* d = &self.d
        cdef const Options* o
        cdef int n, i, card, count, dealt, size
        cdef uint64_t seen = 0
        self._bind(game)
        o = self.opt
        self.seed = seed
        self.deck = tuple(deck)
        self.log = [] if log else None
        self.history = []
        size = o.deck_size
        if len(self.deck) == size:
            for c in self.deck:
                if type(c) is int and 0 <= c < NUM_CARDS:
                    seen |= bit(c)
        if seen != o.in_play or popcount(seen) != size:
            if size == NUM_CARDS:
                raise ValueError("a deck must hold each card id 0..51 once")
            raise ValueError(f"a deck must hold each of the {size} cards in play once")
        n = o.n
        memset(d, 0, sizeof(Data))
        memset(d.pub, UNKNOWN, NUM_CARDS)
        if size < NUM_CARDS:  # a smaller deck: every card not in it is out, publicly
            for card in range(NUM_CARDS):
                if not o.in_play & bit(card):
                    d.loc[card] = d.pub[card] = REMOVED
        dealt = o.hand_size * n
        for i in range(dealt):
            card = self.deck[i]
            hand_add(d, i % n, card)
            d.loc[card] = HAND + i % n
        count = size - dealt - o.removed
        for i in range(size - o.removed, size):  # two players, full deck: the last ten
            d.loc[<int>self.deck[i]] = REMOVED
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
        return seat_view(self, seat)

    def determinize(self, int seat, rng):
        """A full state consistent with everything ``seat`` knows, hidden cards dealt at random.

        engine.State.determinize, with the same calls to ``rng`` (one ``shuffle``), so both
        engines give the same deal for the same generator state.
        """
        cdef State s = self.clone_c()
        _seat(self, seat)
        s.deck = ()
        s.history = []
        s.log = None
        deal_hidden(self, s, seat, rng)
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
        """engine.State._refill: draw back up to the hand size, the trick's winner first."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int k, p, card, drawn
        for k in range(n):
            p = (first + k) % n
            drawn = 0
            while popcount(d.hand[p]) < self.opt.hand_size and d.stock_len:
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
        """engine.State._phase_two_legal: in increasing order (cards, take, runs). Without
        runs the cards go straight into ``out``, with no buffers on the stack (the solver
        lists the moves of every position it makes)."""
        cdef Data* d = &self.d
        cdef uint64_t hand = d.hand[d.h.current]
        cdef int num
        if self.opt.sequences:
            return self._phase_two_legal_runs(out)
        if d.trick_len:
            hand = self._beating_cards(d.trick_first[d.trick_len - 1], hand)
        num = cards_of(hand, out)
        if d.trick_len and (num == 0 or self.opt.voluntary_take):
            out[num] = TAKE
            num += 1
        return num

    cdef int _phase_two_legal_runs(self, short* out) noexcept:
        """``_phase_two_legal`` under ``sequences``: single cards, take, then runs."""
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
        d.hand[p] &= ~(((<uint64_t>1 << size) - 1) << first)
        place_run(d, first, size, TRICK)
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
        cdef int k, first, size, leader
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
        d.hand[p] |= ((<uint64_t>1 << size) - 1) << first  # no stamps: hands are sorted now
        place_run(d, first, size, HAND + p)
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
        cdef int i
        for i in range(d.trick_len):
            place_run(d, d.trick_first[i], d.trick_size[i], DISCARD)
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
