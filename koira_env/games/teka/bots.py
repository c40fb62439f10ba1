"""Teka's bots: ``greedy`` (honour-count bidding, cheapest winner or cheapest card) and
``counter`` (trick estimates for the auction, card counting, partner play, raises), plus a
greedy rollout policy for search. Bots read only ``turn.view``."""

from __future__ import annotations

from typing import Any

from ...cards import SUIT_OF
from ...core.agent import Turn, no_argument
from ...core.compiled_search import compiled_plugins
from .engine import (
    BEHI_TER,
    BID,
    DOUBLE,
    MIN_BID,
    NEW_DEAL,
    NUM_CARDS,
    PASS,
    RAISE,
    TER,
    TRUMP,
    State,
    TekaView,
    beats,
    call_value,
)

HCP = tuple(max(0, c % 13 - 8) for c in range(NUM_CARDS))  # J 1, Q 2, K 3, A 4
# What a partner's pass says about its honour points, against the average of the unseen ones:
# without signals a pass is a hand too weak to bid; with them "pass" is a fair hand.
PARTNER_HCP = {False: {PASS: -1.5}, True: {PASS: 0.0, TER: -2.5, BEHI_TER: -5.0}}


def _by_suit(cards: Any) -> list[list[int]]:
    suits: list[list[int]] = [[], [], [], []]
    for c in cards:
        suits[SUIT_OF[c]].append(c)
    return suits


def _longest_suit(hand: Any) -> int:
    """The suit with the most cards, the most honour points on ties."""
    suits = _by_suit(hand)
    return max(range(4), key=lambda s: (len(suits[s]), sum(HCP[c] for c in suits[s])))


def _trick_state(view: TekaView) -> tuple[int, int]:
    """(card, seat) now winning the trick being played."""
    best_seat, best = view.trick[0]
    for seat, card in view.trick[1:]:
        if beats(card, best, view.trump):
            best_seat, best = seat, card
    return best, best_seat


def _cheapest(cards: Any, trump: int) -> int:
    """The card that costs least to give up: plain before trumps, then the lowest."""
    return min(cards, key=lambda c: (SUIT_OF[c] == trump, c % 13))


def _cheapest_winner(cards: Any, best: int, trump: int) -> int | None:
    winners = [c for c in cards if beats(c, best, trump)]
    return _cheapest(winners, trump) if winners else None


class GreedyBot:
    """Asks for a new deal whenever it may. Bids the lowest legal number when its hand has at
    least 16 honour points (A 4, K 3, Q 2, J 1; about 10 is average), else passes (forced to
    bid, the lowest number); never bids double thirteen and never raises. As declarer it
    names its longest suit. Leading, it plays its highest card; following, it takes the trick
    with its cheapest winning card unless its partner is winning it already, else plays its
    cheapest card (plain before trumps)."""

    name = "greedy"

    def act(self, turn: Turn) -> int:
        view = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if NEW_DEAL in legal:
            return NEW_DEAL
        if view.phase == "bid":
            bids = [a for a in legal if BID <= a < DOUBLE]
            strong = sum(HCP[c] for c in view.hand) >= 16
            return bids[0] if bids and (strong or PASS not in legal) else legal[0]
        if view.phase == "trump":
            return TRUMP + _longest_suit(view.hand)
        cards = [a for a in legal if a < NUM_CARDS]
        if not view.trick:
            return max(cards, key=lambda c: (c % 13, SUIT_OF[c] == view.trump))
        best, best_seat = _trick_state(view)
        if best_seat % 2 != view.seat % 2:
            winner = _cheapest_winner(cards, best, view.trump)
            if winner is not None:
                return winner
        return _cheapest(cards, view.trump)


class Memory:
    """What a careful player knows at a turn of the play: the unseen cards (in no hand it can
    see and not yet played), by suit."""

    def __init__(self, view: TekaView) -> None:
        mine = set(view.hand)
        unseen = [c for c in range(NUM_CARDS) if view.played_by[c] < 0 and c not in mine]
        self.unseen_by_suit = _by_suit(unseen)

    def master(self, card: int) -> bool:
        """No unseen card of its suit is higher."""
        return all(c < card for c in self.unseen_by_suit[SUIT_OF[card]])

    def trumps_out(self, trump: int) -> int:
        return len(self.unseen_by_suit[trump])


def suit_tricks(cards: list[int]) -> float:
    """Tricks a plain suit should take: its top sequence from the ace, plus half a trick for
    a king with a guard or a queen with two."""
    ranks = sorted((c % 13 for c in cards), reverse=True)
    tricks = 0.0
    for i, rank in enumerate(ranks):
        if rank != 12 - i:
            break
        tricks += 1
    else:
        return tricks
    if (
        tricks == 0
        and ranks
        and ((ranks[0] == 11 and len(ranks) >= 2) or (ranks[0] == 10 and len(ranks) >= 3))
    ):
        tricks = 0.5
    return tricks


def hand_tricks(hand: Any, trump: int) -> float:
    """Tricks ``hand`` should take with ``trump`` as trumps: its plain suits' sure tricks, and
    for trumps their honours plus every card beyond the third (long trumps win by ruffing
    or as the last ones out)."""
    suits = _by_suit(hand)
    total = sum(suit_tricks(suits[s]) for s in range(4) if s != trump)
    trumps = suits[trump]
    honours = sum(1.0 if c % 13 >= 11 else 0.5 if c % 13 >= 9 else 0.0 for c in trumps)
    return total + honours + max(0, len(trumps) - 3)


def side_tricks(hand: Any, trump: int, partner_hcp: float) -> float:
    """Tricks a declaring side should take: a least-squares fit over 3,000 random deals
    played out by ``counter`` with the declarer's longest suit as trumps (RULES.md, bots):
    -0.9 + 0.25 per honour point of the declarer and of its partner + 0.7 per trump held."""
    own = sum(HCP[c] for c in hand)
    length = sum(1 for c in hand if SUIT_OF[c] == trump)
    return -0.9 + 0.25 * (own + partner_hcp) + 0.7 * length


class CounterBot:
    """A bidder and card counter.

    Auction: takes its longest suit as trumps and estimates its side's tricks with
    ``side_tricks``, reading its partner's honour points from its call (no call yet: the
    average of the unseen points; a bid b: 2 + (b - 8) above it; a pass 1.5 below, or with
    ``pass_signals`` "pass" average, "ter" 2.5 and "behi ter" 5 below); bids the lowest legal
    number within ``margin`` of the estimate, double thirteen when its own hand holds 12.5
    sure tricks (``hand_tricks``), the lowest number when forced. Its own signals: "pass"
    with 10+ honour points, "ter" with 6+, else "behi ter". Declarer: names its longest
    suit; raises to its side's tricks plus its sure winners (trump masters, and plain masters
    once no trump is out) when that beats the contract. Play: leading, cashes its highest
    trump master while trumps are out if its side declared, else its highest plain master,
    else leads the lowest card of its shortest plain suit (to ruff it later); following, plays
    its cheapest card under a partner who wins with a master or plays last, else takes the
    trick with its cheapest master (its cheapest winner when last or without a master),
    else discards its cheapest card (plain before trumps). Masters are counted from the
    unseen cards (``Memory``).
    """

    name = "counter"
    margin = 0.2  # bid up to this many tricks above the estimate

    def act(self, turn: Turn) -> int:
        view = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if NEW_DEAL in legal:
            return NEW_DEAL
        if view.phase == "bid":
            return self.call(view, turn.rules.pass_signals)
        if view.phase == "trump":
            return TRUMP + _longest_suit(view.hand)
        memory = Memory(view)
        raises = [a for a in legal if a >= RAISE]
        if raises:
            target = self.raise_to(view, memory)
            if target >= 0 and RAISE + target - 9 in raises:
                return RAISE + target - 9
        cards = [a for a in legal if a < NUM_CARDS]
        if not view.trick:
            return self.lead(view, memory, cards)
        return self.follow(view, memory, cards)

    def call(self, view: TekaView, signals: bool) -> int:
        legal = view.legal
        own = sum(HCP[c] for c in view.hand)
        partner = view.calls[(view.seat + 2) % 4]
        average = (40 - own) / 3
        if partner < 0:
            partner_hcp = average
        elif partner >= BID:
            partner_hcp = average + 2 + call_value(partner) - MIN_BID
        else:
            partner_hcp = average + PARTNER_HCP[signals][partner]
        trump = _longest_suit(view.hand)
        if DOUBLE in legal and hand_tricks(view.hand, trump) >= 12.5:
            return DOUBLE
        reach = side_tricks(view.hand, trump, partner_hcp) + self.margin
        bids = [a for a in legal if BID <= a < DOUBLE]
        if bids and (call_value(bids[0]) <= reach or PASS not in legal):
            return bids[0]
        if PASS not in legal:
            return DOUBLE
        if TER in legal:
            return PASS if own >= 10 else TER if own >= 6 else BEHI_TER
        return PASS

    @staticmethod
    def raise_to(view: TekaView, memory: Memory) -> int:
        side = view.seat % 2
        won = view.won[side] + view.won[side + 2]
        trump = view.trump
        sure = sum(1 for c in view.hand if SUIT_OF[c] == trump and memory.master(c))
        if memory.trumps_out(trump) == 0:
            sure += sum(1 for c in view.hand if SUIT_OF[c] != trump and memory.master(c))
        target = min(13, won + sure)
        return target if target > view.contract else -1

    @staticmethod
    def lead(view: TekaView, memory: Memory, cards: list[int]) -> int:
        trump = view.trump
        masters = [c for c in cards if memory.master(c)]
        if view.declarer % 2 == view.seat % 2 and memory.trumps_out(trump):
            trump_masters = [c for c in masters if SUIT_OF[c] == trump]
            if trump_masters:
                return max(trump_masters)
        plain_masters = [c for c in masters if SUIT_OF[c] != trump]
        if plain_masters:
            return max(plain_masters)
        plain = [s for s in _by_suit(c for c in cards if SUIT_OF[c] != trump) if s]
        return min(min(plain, key=len)) if plain else min(cards)

    @staticmethod
    def follow(view: TekaView, memory: Memory, cards: list[int]) -> int:
        trump = view.trump
        best, best_seat = _trick_state(view)
        last = len(view.trick) == (2 if view.double else 3)
        if best_seat % 2 == view.seat % 2 and (last or memory.master(best)):
            return _cheapest(cards, trump)
        winners = [c for c in cards if beats(c, best, trump)]
        if winners:
            masters = [c for c in winners if memory.master(c)]
            return _cheapest(masters if masters and not last else winners, trump)
        return _cheapest(cards, trump)


def greedy_move(state: State) -> int:
    """Rollout policy on a full state, reading only the mover's hand and the public table:
    a new deal when allowed; the lowest legal bid with 16+ honour points (else pass, or the
    lowest bid when forced); its longest suit as trumps; never a raise; in play, the
    cheapest card that takes the trick from the opponents, else the cheapest card."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    hand = state.hands[state.current]
    if legal[0] >= NUM_CARDS:
        if NEW_DEAL in legal:
            return NEW_DEAL
        if legal[0] >= TRUMP:
            return TRUMP + _longest_suit(hand)
        bids = [a for a in legal if BID <= a < DOUBLE]
        if bids and (PASS not in legal or sum(HCP[c] for c in hand) >= 16):
            return bids[0]
        return PASS if PASS in legal else DOUBLE
    cards = [a for a in legal if a < NUM_CARDS]
    trump = state.trump
    if state.trick and state.best_seat % 2 != state.current % 2:
        winner = _cheapest_winner(cards, state.best, trump)
        if winner is not None:
            return winner
    return _cheapest(cards, trump)


BOTS = {
    "greedy": no_argument(GreedyBot, GreedyBot.name),
    "counter": no_argument(CounterBot, CounterBot.name),
}
ROLLOUT = greedy_move
SEARCH, FLAT = compiled_plugins(__package__)
