"""The Koira rules engine: a mutable game state with a cheap ``clone()``.

No RL imports here. Each rule is decided in exactly one method; RULES.md points at them.
Search bots clone millions of times and benchmarks run millions of actions, so the state is
plain lists, ints and two bytearrays, and event logging is off unless asked for.

Card locations are tracked twice: ``loc`` is the truth, ``pub`` is what every seat knows
(``UNKNOWN`` when the card is face down). A seat's information is ``pub`` plus its own hand
plus, for its holder, the hidden trump card: see ``koira_env.games.koira.info``.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right, insort
from typing import TYPE_CHECKING, Any

from ...cards import NUM_CARDS, RANK_OF, RANKS, SUIT_OF, card_name
from ...core import events
from ...core.game import IllegalActionError, Outcome
from ...core.state import GAME_OVER_MESSAGE, EngineState
from .rules import Rules, removed_unseen

if TYPE_CHECKING:
    from .game import KoiraGame
    from .info import SeatView

# --- actions ------------------------------------------------------------------------------
RISK = 52
TAKE = 53
FIRST_RUN = 54


def _run_table() -> tuple[tuple[int, ...], ...]:
    """Every run of 2..13 consecutive ranks in one suit, ordered by suit, start, length."""
    runs = []
    for suit in range(4):
        for start in range(12):
            for length in range(2, 14 - start):
                runs.append(tuple(suit * 13 + start + k for k in range(length)))
    return tuple(runs)


RUNS = _run_table()  # action FIRST_RUN + i plays RUNS[i]
RUN_ACTION = {cards: FIRST_RUN + i for i, cards in enumerate(RUNS)}
NUM_ACTIONS_WITH_RUNS = FIRST_RUN + len(RUNS)


def num_actions(rules: Rules) -> int:
    return NUM_ACTIONS_WITH_RUNS if rules.sequences else FIRST_RUN


def action_cards(action: int) -> tuple[int, ...]:
    """The cards an action puts on the table (empty for risk and take)."""
    if action < RISK:
        return (action,)
    if action >= FIRST_RUN:
        return RUNS[action - FIRST_RUN]
    return ()


def action_name(action: int) -> str:
    if action == RISK:
        return "risk"
    if action == TAKE:
        return "take"
    return "-".join(card_name(c) for c in action_cards(action))


# --- card locations (values of State.loc and State.pub) -------------------------------------
HAND = 0  # HAND + p: in player p's hand
WON = 8  # WON + p: in player p's phase-one won pile
TRICK = 16
STOCK = 17
DISCARD = 18
REMOVED = 19  # two-player game: removed unseen (and, public, every card not in the deck)
TRUMP_ASIDE = 20  # the hidden trump card, set aside by its holder
UNKNOWN = 21  # only in pub: not public knowledge

PHASE_ONE, PHASE_TWO, GAME_OVER = 1, 2, 3
# SEATS_AFTER[n][p]: the other seats of an n-player table in play order after p
SEATS_AFTER = [[tuple((p + k) % n for k in range(1, n)) for p in range(n)] for n in range(9)]
MIN_RISK_STOCK = 2  # the last stock card is the trump card and cannot be risked


class State(EngineState):
    """A Koira game in progress. Build with ``new_game``; advance with ``apply``.

    The fast game of the engine kit: its ``apply`` and ``legal_actions`` are its own (phase one
    tests a card against the hand without listing the moves; the action limit truncates),
    the rest of the plumbing is ``EngineState``'s.

    In phase two every hand is kept sorted by card id, so the legal plays are slices found by
    bisection; code that sets up a phase-two position by hand must sort the hands too.
    """

    __slots__ = (
        "dropped",
        "hands",
        "in_war",
        "is_terminal",
        "last_winner",
        "led_suit",
        "loc",
        "max_actions",
        "out",
        "phase",
        "pile",
        "placements",
        "pub",
        "round_cards",
        "round_players",
        "round_pos",
        "rules",
        "stock",
        "trick",
        "trick_count",
        "trick_needed",
        "trump_card",
        "trump_holder",
        "trump_suit",
        "war_depth",
        "war_rank",
        "won",
    )

    # ------------------------------------------------------------------ setup
    def __init__(
        self, game: KoiraGame, deck: list[int], log: bool = False, seed: Any = None
    ) -> None:
        rules = game.rules
        n = rules.num_players
        super().__init__(game, n, tuple(deck), seed, log)  # type: ignore[arg-type]
        self.rules = rules
        self.max_actions = rules.max_actions
        self.loc = bytearray(NUM_CARDS)
        self.pub = bytearray([UNKNOWN]) * NUM_CARDS
        if len(deck) < NUM_CARDS:  # a smaller deck: every card not in it is out, publicly
            self.loc[:] = self.pub[:] = bytes([REMOVED]) * NUM_CARDS
            for card in deck:
                self.pub[card] = UNKNOWN
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        dealt = rules.hand_size * n
        for i, card in enumerate(deck[:dealt]):
            self.hands[i % n].append(card)
            self.loc[card] = HAND + i % n
        rest = deck[dealt:]
        removed = removed_unseen(rules)  # two players, full deck: the last ten, unseen
        if removed:
            for card in rest[-removed:]:
                self.loc[card] = REMOVED
            rest = rest[:-removed]
        self.stock = rest[::-1]  # stock[-1] is the top card
        for card in self.stock:
            self.loc[card] = STOCK
        self.trump_card = -1
        self.trump_holder = -1
        self.trump_suit = -1
        self.last_winner = -1
        self.phase = PHASE_ONE
        # phase == GAME_OVER as a plain attribute: a property costs a Python call on every
        # step of the env and of search (5% of an engine action, measured under callgrind)
        self.is_terminal = False
        self.pile: list[tuple[int, int]] = []  # phase one: (player, card) in play order
        self.round_cards: list[tuple[int, int]] = []
        self.round_players: list[int] = []
        self.round_pos = 0
        self.in_war = False
        self.war_rank = -1
        self.war_depth = 0
        self.dropped: list[int] = []
        self.trick: list[list[Any]] = []  # phase two: [player, [cards]] per play
        self.trick_count = 0
        self.trick_needed = 0
        self.led_suit = -1
        self.out = [False] * n
        self.placements: list[int] = []
        self.current = 0
        self._start_trick(0)

    def clone(self) -> State:
        """A deep copy that shares only immutable parts (rules); cheap enough for search."""
        c = self._copy()
        c.rules = self.rules
        c.max_actions = self.max_actions
        c.loc = self.loc[:]
        c.pub = self.pub[:]
        c.hands = [h[:] for h in self.hands]
        c.won = [w[:] for w in self.won]
        c.stock = self.stock[:]
        c.trump_card = self.trump_card
        c.trump_holder = self.trump_holder
        c.trump_suit = self.trump_suit
        c.last_winner = self.last_winner
        c.phase = self.phase
        c.is_terminal = self.is_terminal
        c.pile = self.pile[:]
        c.round_cards = self.round_cards[:]
        c.round_players = self.round_players[:]
        c.round_pos = self.round_pos
        c.in_war = self.in_war
        c.war_rank = self.war_rank
        c.war_depth = self.war_depth
        c.dropped = self.dropped[:]
        c.trick = [[p, cards[:]] for p, cards in self.trick]
        c.trick_count = self.trick_count
        c.trick_needed = self.trick_needed
        c.led_suit = self.led_suit
        c.out = self.out[:]
        c.placements = self.placements[:]
        c.cached_legal = None  # phase two's list is rebuilt: tools set positions up in place
        return c

    # ------------------------------------------------------------------ queries

    def legal_actions(self) -> list[int]:
        """Legal action ids for ``self.current`` (empty once the game is over)."""
        phase = self.phase
        if phase == PHASE_TWO:
            if self.cached_legal is None:
                self.cached_legal = self._phase_two_legal()
            return self.cached_legal[:]
        if phase == PHASE_ONE:
            acts = self.hands[self.current][:]
            if self._can_risk():
                acts.append(RISK)
            return acts
        return []

    def returns(self) -> list[float]:
        """Zero-sum terminal rewards per seat (all zero before the end or when truncated)."""
        n = self.n
        if self.phase != GAME_OVER or self.truncated:
            return [0.0] * n
        result = [0.0] * n
        if self.rules.reward == "loser":
            for p in range(n):
                result[p] = 1.0 / (n - 1)
            result[self.placements[-1]] = -1.0
        else:  # placement: +1 for first out, -1 for the loser, linear between
            for place, p in enumerate(self.placements):
                result[p] = 1.0 - 2.0 * place / (n - 1)
        return result

    def outcome(self) -> Outcome | None:
        """Places in the order players went out (the loser last); scores are the returns."""
        if self.phase != GAME_OVER or self.truncated:
            return None
        places = [0] * self.n
        for place, p in enumerate(self.placements, 1):
            places[p] = place
        returns = tuple(self.returns())
        return Outcome(tuple(places), returns, returns, extra={"placements": self.placements[:]})

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know (``koira_env.games.koira.info.seat_view``)."""
        from .info import seat_view

        return seat_view(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with everything ``seat`` knows, hidden cards dealt at random.

        The cards ``seat`` cannot see are shuffled among the places it cannot see into (other
        hands' unknown cards, the stock, the unseen removed cards, someone else's hidden trump
        card), keeping every count. The copy carries no deck order, history or log, so nothing
        hidden leaks through it. Inferences such as "she took, so she is void in hearts" are
        not used: every consistent deal is equally likely.
        """
        s = self.clone()
        s.deck = ()
        s.history = []
        s.log = None
        own = HAND + seat
        hidden = [
            c
            for c in range(NUM_CARDS)
            if s.pub[c] == UNKNOWN
            and s.loc[c] != own
            and not (s.loc[c] == TRUMP_ASIDE and s.trump_holder == seat)
        ]
        if not hidden:
            return s
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        new_for = dict(zip(hidden, shuffled, strict=True))  # the card now in old's place
        loc = self.loc
        for old, new in new_for.items():
            s.loc[new] = loc[old]
        for hand in s.hands:
            hand[:] = [new_for.get(c, c) for c in hand]
            if s.phase != PHASE_ONE:
                hand.sort()  # the engine keeps phase-two hands sorted
        s.stock = [new_for.get(c, c) for c in s.stock]
        if s.trump_card in new_for:
            s.trump_card = new_for[s.trump_card]
        return s

    @property
    def loser(self) -> int:
        return self.placements[-1] if self.phase == GAME_OVER and not self.truncated else -1

    # ------------------------------------------------------------------ apply
    def apply(self, action: int) -> None:
        """Play ``action`` for ``self.current``; raises ``IllegalActionError`` if not legal."""
        if type(action) is not int:  # 13.0 == 13: a float would pass the checks below
            action = self._integer(action)
        phase = self.phase
        if phase == PHASE_TWO:
            legal = self.cached_legal
            if legal is None:
                legal = self._phase_two_legal()
            if action not in legal:
                raise IllegalActionError(self._illegal(action))
            self.cached_legal = None
            self.history.append(action)
            self._phase_two_act(action)
        elif phase == PHASE_ONE:
            if action == RISK:
                if not self._can_risk():
                    raise IllegalActionError(self._illegal(action))
            elif action not in self.hands[self.current]:
                raise IllegalActionError(self._illegal(action))
            self.history.append(action)
            self._phase_one_play(action)
        else:
            raise IllegalActionError(GAME_OVER_MESSAGE)
        self.actions_taken += 1
        if self.actions_taken >= self.max_actions and self.phase != GAME_OVER:
            self.truncated = True
            self.phase = GAME_OVER
            self.is_terminal = True
            self._event(events.TRUNCATED, actions=self.actions_taken)

    # ================================================================== phase one
    def _can_risk(self) -> bool:
        return len(self.stock) >= MIN_RISK_STOCK and (self.rules.risk_in_war or not self.in_war)

    def _can_play(self, p: int) -> bool:
        return bool(self.hands[p]) or self._can_risk()

    def _start_trick(self, leader: int) -> None:
        """Start a phase-one trick led by ``leader`` (or the next player able to play)."""
        n = self.n
        self.pile = []
        self.round_cards = []
        self.in_war = False
        self.war_rank = -1
        self.war_depth = 0
        self.dropped = []
        self.round_players = [leader, *SEATS_AFTER[n][leader]]
        self.round_pos = 0
        self._next_phase_one_turn()

    def _phase_one_play(self, action: int) -> None:
        p = self.current
        if action == RISK:
            card = self.stock.pop()
            if self.log is not None:
                self._event(events.PLAY, player=p, card=card_name(card), risked=True)
        else:
            self.hands[p].remove(action)
            card = action
            if self.log is not None:
                self._event(events.PLAY, player=p, card=card_name(card), risked=False)
        self.loc[card] = self.pub[card] = TRICK
        play = (p, card)
        self.pile.append(play)
        self.round_cards.append(play)
        self.round_pos += 1
        self._next_phase_one_turn()

    def _next_phase_one_turn(self) -> None:
        """Find who plays next in this round; skip, drop out or end phase one on the way."""
        rp = self.round_players
        while self.round_pos < len(rp):
            p = rp[self.round_pos]
            if self._can_play(p):
                self.current = p
                return
            if self.rules.phase_one_end == "due_player_empty" and not self.stock:
                self._end_phase_one(return_trick=True)
                return
            if not self.in_war:
                self.round_pos += 1  # a player with nothing to play is skipped
                continue
            # A war player who cannot play drops out of the war.
            del rp[self.round_pos]
            self.dropped.append(p)
            self._event("war_dropout", player=p)
            if len(rp) == 1:  # the last war player left wins the pile at once
                self._win_trick(rp[0])
                return
        self._resolve_round()

    def _tied_players(self, ranks: list[int]) -> list[int]:
        """Players whose cards start a war this round, or [] (rule: war trigger).

        ``ranks`` are the round's ranks, highest first.
        """
        if self.rules.war_trigger == "any_tie":
            for k in range(1, len(ranks)):
                if ranks[k] == ranks[k - 1]:
                    rank = ranks[k]
                    break
            else:
                return []
        elif len(ranks) > 1 and ranks[0] == ranks[1]:
            rank = ranks[0]
        else:
            return []
        self.war_rank = rank
        return [p for p, c in self.round_cards if RANK_OF[c] == rank]

    def _resolve_round(self) -> None:
        ranks = sorted([RANK_OF[c] for _, c in self.round_cards], reverse=True)
        tied = self._tied_players(ranks)
        if not tied:
            top = ranks[0]
            self._win_trick(next(p for p, c in self.round_cards if RANK_OF[c] == top))
        elif self.rules.war_mode == "split":
            self._split_trick(tied)
        else:
            self._start_war(tied)

    def _start_war(self, tied: list[int]) -> None:
        """The tied players play again, in seat order from the leader (rule: war play)."""
        self.in_war = True
        self.war_depth += 1
        self._event("war", players=tied, rank=RANKS[self.war_rank], depth=self.war_depth)
        if (
            self.rules.phase_one_end == "due_player_empty"
            and not self.stock
            and any(not self.hands[p] for p in tied)
        ):
            self._end_phase_one(return_trick=True)
            return
        able = [p for p in tied if self._can_play(p)]
        self.dropped = [p for p in tied if p not in able]
        for p in self.dropped:
            self._event("war_dropout", player=p)
        if not able:
            self._war_stalemate(tied)
        elif len(able) == 1:
            self._win_trick(able[0])
        else:
            self.round_players = able
            self.round_cards = []
            self.round_pos = 0
            self._next_phase_one_turn()

    def _win_trick(self, winner: int) -> None:
        won = self.won[winner]
        loc, pub = self.loc, self.pub
        code = WON + winner
        for _, card in self.pile:
            won.append(card)
            loc[card] = pub[card] = code
        self.last_winner = winner
        if self.log is not None:
            cards = [card_name(c) for _, c in self.pile]
            self._event(events.TRICK, player=winner, cards=cards)
        self._after_trick(winner)

    def _split_trick(self, tied: list[int]) -> None:
        """Source B's first variation: the tied players keep their tied cards, the rest is shared.

        The tied cards go to the tied players' won piles rather than back to hand: returning
        them to hand would let two players holding one equal card each tie forever.
        """
        tied_cards = {p: c for p, c in self.round_cards if p in tied}
        rest = sorted(
            (c for p, c in self.round_cards if p not in tied), key=lambda c: (RANK_OF[c], c)
        )
        shares: dict[int, list[int]] = {p: [tied_cards[p]] for p in tied}
        if rest:
            last = self.round_cards[-1][0]
            shares.setdefault(last, []).append(rest.pop(0))
            for i, card in enumerate(rest):
                shares[tied[i % len(tied)]].append(card)
        for p, cards in shares.items():
            self.won[p].extend(cards)
            for card in cards:
                self.loc[card] = WON + p
                self.pub[card] = WON + p
        self.last_winner = tied[0]
        self._event("split", players=tied, shares=_shares_json(shares))
        self._after_trick(tied[0])

    def _war_stalemate(self, involved: list[int]) -> None:
        """No war player can go on: the pile is dealt face up, in play order, to the war's players.

        Source B says "shuffled and dealt evenly to all players involved". We deal in play
        order instead of shuffling so that everyone still knows where each card went, and onto
        won piles so that the cards cannot come back into phase one.
        """
        shares: dict[int, list[int]] = {p: [] for p in involved}
        for i, (_, card) in enumerate(self.pile):
            p = involved[i % len(involved)]
            shares[p].append(card)
            self.won[p].append(card)
            self.loc[card] = WON + p
            self.pub[card] = WON + p
        self._event("stalemate", shares=_shares_json(shares))
        self._after_trick(involved[0])

    def _after_trick(self, next_leader: int) -> None:
        self._refill(next_leader)
        if self._phase_one_over():
            self._end_phase_one(return_trick=False)
        else:
            self._start_trick(next_leader)

    def _refill(self, first: int) -> None:
        """Draw back up to the hand size, the trick's winner first, then in seat order."""
        stock = self.stock
        size = self.rules.hand_size
        for k in range(self.n):
            p = (first + k) % self.n
            hand = self.hands[p]
            drawn = 0
            while len(hand) < size and stock:
                card = stock.pop()
                if not stock:
                    self._take_trump_card(p, card)
                    break
                hand.append(card)
                self.loc[card] = HAND + p
                drawn += 1
            if drawn and self.log is not None:
                self._event("draw", player=p, count=drawn)

    def _take_trump_card(self, p: int, card: int) -> None:
        """The last stock card: set aside hidden (A) or taken into hand face up (B, Mattis)."""
        self.trump_card = card
        self.trump_holder = p
        if self.rules.trump_card == "hidden":
            self.loc[card] = TRUMP_ASIDE
            self._event("trump_card", player=p, card=card_name(card), revealed=False)
        else:
            self.hands[p].append(card)
            self.loc[card] = HAND + p
            self.pub[card] = HAND + p
            self.trump_suit = SUIT_OF[card]
            self._event("trump_card", player=p, card=card_name(card), revealed=True)

    def _phase_one_over(self) -> bool:
        """Checked between tricks (rule: end of phase one)."""
        if self.stock:
            return False
        holders = sum(1 for h in self.hands if h)
        end = self.rules.phase_one_end
        if end == "one_holder":
            return holders <= 1
        return holders == 0  # all_played; due_player_empty also ends here when nobody can lead

    def _end_phase_one(self, return_trick: bool) -> None:
        """Phase two starts: hand + won pile, the hidden trump card joins its holder's."""
        n = self.n
        if return_trick:  # Mattis: an unfinished trick goes back to those who played it
            returned: dict[int, list[int]] = {}
            for p, card in self.pile:
                self.hands[p].append(card)
                self.loc[card] = HAND + p
                self.pub[card] = HAND + p
                returned.setdefault(p, []).append(card)
            if returned:
                self._event("trick_returned", shares=_shares_json(returned))
        self.pile = []
        self.round_cards = []
        self.in_war = False
        reveal_hands = self.rules.phase_one_end == "due_player_empty"  # Mattis: shown to all
        if self.trump_card >= 0 and self.rules.trump_card == "hidden":
            self.won[self.trump_holder].append(self.trump_card)
        self.trump_suit = SUIT_OF[self.trump_card]
        for p in range(n):
            if reveal_hands:
                for card in self.hands[p]:
                    self.pub[card] = HAND + p
            for card in self.won[p]:
                self.loc[card] = HAND + p
                self.pub[card] = HAND + p
            self.hands[p].extend(self.won[p])
            self.hands[p].sort()  # phase-two hands stay sorted (legal moves by bisection)
            self.won[p] = []
        self.phase = PHASE_TWO
        if self.rules.phase_two_leader == "trump_holder":
            leader = self.trump_holder
        else:
            leader = self.last_winner if self.last_winner >= 0 else 0
        self._event(
            "phase_two",
            trump_card=card_name(self.trump_card),
            trump_holder=self.trump_holder,
            leader=leader,
            hand_sizes=[len(h) for h in self.hands],
        )
        self._start_phase_two_trick(self._next_holder(leader, include_self=True))

    # ================================================================== phase two
    def _next_in(self, p: int) -> int:
        """The next player after ``p`` who is still in."""
        out = self.out
        for q in SEATS_AFTER[self.n][p]:
            if not out[q]:
                return q
        return p

    def _next_holder(self, p: int, include_self: bool = False) -> int:
        """The first player still in and holding cards, from ``p`` (or after it) in seat order."""
        out, hands = self.out, self.hands
        if include_self and not out[p] and hands[p]:
            return p
        for q in SEATS_AFTER[self.n][p]:
            if not out[q] and hands[q]:
                return q
        if not out[p] and hands[p]:
            return p
        raise RuntimeError("engine invariant broken: no player still in holds a card")

    def _start_phase_two_trick(self, leader: int) -> None:
        self.trick = []
        self.trick_count = 0
        self.trick_needed = self.out.count(False)
        self.led_suit = -1
        self.current = leader

    def _beats(self, play: tuple[int, ...], top: list[int], hand: list[int]) -> bool:
        """Whether ``play`` beats the top play of the trick (rule: how to beat)."""
        r = self.rules
        if r.sequence_beat == "same_length" and len(play) != len(top):
            return False
        ps, ts = SUIT_OF[play[0]], SUIT_OF[top[0]]
        if ps == ts:
            return RANK_OF[play[0]] > RANK_OF[top[-1]]
        if ps == self.trump_suit:
            if r.trump_only_when_void:
                return not any(SUIT_OF[c] == ts for c in hand)
            return True
        return False

    def _beating_cards(self, top: int, hand: list[int]) -> list[int]:
        """``_beats`` for single cards only, on card-id ranges of the sorted phase-two hand."""
        suit_end = top - top % 13 + 13
        above = bisect_right(hand, top)
        end = bisect_left(hand, suit_end, above)
        acts = hand[above:end]
        trump = self.trump_suit * 13
        if trump != suit_end - 13 and not (
            self.rules.trump_only_when_void and bisect_left(hand, suit_end - 13, 0, end) < end
        ):
            first = bisect_left(hand, trump)
            acts += hand[first : bisect_left(hand, trump + 13, first)]
        return acts

    def _phase_two_legal(self) -> list[int]:
        p = self.current
        hand = self.hands[p]
        if not self.rules.sequences:
            if not self.trick:
                return hand[:]
            acts = self._beating_cards(self.trick[-1][1][0], hand)
            if not acts or self.rules.voluntary_take:
                acts.append(TAKE)
            acts.sort()
            return acts
        plays = [(c,) for c in hand]
        plays.extend(self._runs_in(hand))
        if not self.trick:
            return sorted(RUN_ACTION[pl] if len(pl) > 1 else pl[0] for pl in plays)
        top = self.trick[-1][1]
        acts = [
            RUN_ACTION[pl] if len(pl) > 1 else pl[0] for pl in plays if self._beats(pl, top, hand)
        ]
        if not acts or self.rules.voluntary_take:
            acts.append(TAKE)
        acts.sort()
        return acts

    def _runs_in(self, hand: list[int]) -> list[tuple[int, ...]]:
        """Runs the rules allow from this hand (rule: sequences)."""
        r = self.rules
        have = set(hand)
        runs = []
        for suit in range(4):
            base = suit * 13
            for start in range(12):
                if r.sequences_from_two and start:
                    break
                length = 0
                while start + length < 13 and base + start + length in have:
                    length += 1
                for k in range(r.sequences, length + 1):
                    runs.append(tuple(range(base + start, base + start + k)))
        return runs

    def _phase_two_act(self, action: int) -> None:
        p = self.current
        if action == TAKE:
            self._take(p)
            return
        hand = self.hands[p]
        if action < RISK:
            cards = [action]
            hand.remove(action)
            self.loc[action] = self.pub[action] = TRICK
        else:
            cards = list(RUNS[action - FIRST_RUN])
            loc, pub = self.loc, self.pub
            for card in cards:
                hand.remove(card)
                loc[card] = pub[card] = TRICK
        trick = self.trick
        leading = not trick
        if leading:
            self.led_suit = SUIT_OF[cards[0]]
        trick.append([p, cards])
        self.trick_count += 1
        if self.log is not None:
            self._event(events.PLAY, player=p, cards=[card_name(c) for c in cards])
        if not hand:
            self._go_out(p)
            if self.phase == GAME_OVER:
                return
        ends_by_trump = (
            self.rules.trump_ends_trick
            and not leading
            and SUIT_OF[cards[0]] == self.trump_suit
            and self.led_suit != self.trump_suit
        )
        if ends_by_trump or self.trick_count >= self.trick_needed:
            self._discard_trick(p)
        else:
            self.current = self._next_in(p)

    def _take(self, p: int) -> None:
        """Take from the trick (rule: what is taken)."""
        r = self.rules
        trick = self.trick
        if r.take == "bottom":
            i = 0
        else:  # lowest face rank; the earlier play on equal ranks
            i = min(range(len(trick)), key=lambda k: (RANK_OF[trick[k][1][0]], k))
        cards = trick[i][1]
        if r.take_one_card and len(cards) > 1:
            taken = [cards.pop(0)]
        else:
            taken = cards
            del trick[i]
        for card in taken:
            insort(self.hands[p], card)
            self.loc[card] = HAND + p
            self.pub[card] = HAND + p
        if self.log is not None:
            self._event("take", player=p, cards=[card_name(c) for c in taken])
        if trick:
            self.current = self._next_in(p)
            return
        leader = self._next_holder(p)
        self._event("trick_emptied", next_leader=leader)
        if self.rules.emptied_trick == "ends":
            self._start_phase_two_trick(leader)
        else:  # the trick goes on: its play count is kept and the next holder leads into it
            self.led_suit = -1
            self.current = leader

    def _discard_trick(self, winner: int) -> None:
        loc, pub = self.loc, self.pub
        for _, cards in self.trick:
            for card in cards:
                loc[card] = pub[card] = DISCARD
        if self.log is not None:
            cards = [card_name(c) for _, cs in self.trick for c in cs]
            self._event("trick_discarded", winner=winner, cards=cards)
        leader = self._next_holder(winner, include_self=True)
        self._start_phase_two_trick(leader)

    def _go_out(self, p: int) -> None:
        self.out[p] = True
        self.placements.append(p)
        self._event("out", player=p, place=len(self.placements))
        if self.out.count(False) == 1:
            loser = self.out.index(False)
            self.placements.append(loser)
            self.phase = GAME_OVER
            self.is_terminal = True
            self._event(events.GAME_OVER, loser=loser, placements=self.placements[:])


def _shares_json(shares: dict[int, list[int]]) -> list[dict[str, Any]]:
    return [{"player": p, "cards": [card_name(c) for c in cs]} for p, cs in shares.items()]


def new_game(
    num_players: int = 4,
    rules: str | Rules = "koira",
    *,
    seed: int | str | None = None,
    deck: list[str] | list[int] | None = None,
    log: bool = False,
    engine: str | None = None,
    **options: Any,
) -> State:
    """A fresh game: ``deck`` fixes the order (``deck[0]`` dealt first), else ``seed`` shuffles.
    ``engine="python"`` plays it on this module's ``State``, else on the compiled core."""
    from .game import game_for, make_game

    game = game_for(rules, engine) if isinstance(rules, Rules) and not options else None
    if game is None:
        game = make_game(num_players, rules, engine=engine, **options)
    return game.new_state(deck, seed=seed, log=log)
