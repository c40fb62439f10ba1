"""A card-counting bot: the heuristics' plan plus the public memory in ``view.where``.

Phase one: collecting cards is a burden in phase two, so it dumps its lowest card that
cannot win, keeping trumps (when it knows the suit) and high cards. It takes a trick only
when the win is sure - it plays last, or no unseen card and no risk can beat it - and the
pile is worth having (high cards and trumps outweigh low ones). It risks the stock when
every card in hand would take the lead.

Phase two: it sheds its cheapest play (non-trumps before trumps, runs before singles, low
before high) but counts cards: a play the next player provably cannot beat (judged from the
next player's known cards; unknown cards count as possible beaters) is worth a few ranks,
because that player must take; and it keeps "boss" cards - the highest live card of a suit
- for following rather than leading them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import RANK_OF, SUIT_OF
from .engine import HAND, PHASE_ONE, RISK, TAKE, UNKNOWN, WON, action_cards
from .heuristics import (
    ACT_LEN,
    ACT_RANK,
    ACT_SUIT,
    WAR,
    WIN,
    card_outcome,
    players_after,
    round_summary,
)

if TYPE_CHECKING:
    from ...core.agent import Turn
    from .info import SeatView
    from .rules import Rules


class ExpertAgent:
    """Card counter; ``take_bonus`` ranks are paid for a play the next player cannot beat."""

    name = "expert"

    def __init__(self, take_bonus: int = 1, pile_threshold: int = 10) -> None:
        self.take_bonus = take_bonus
        self.pile_threshold = pile_threshold

    def act(self, turn: Turn) -> int:
        view = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == PHASE_ONE:
            return self.phase_one(view, turn.rules)
        return self.phase_two(view, turn.rules)

    # ------------------------------------------------------------------ phase one
    def phase_one(self, view: SeatView, rules: Rules) -> int:
        legal = view.legal
        where = view.where
        trump = view.trump_suit
        mask, top, tie = round_summary(view.round_cards)
        any_tie = rules.war_trigger == "any_tie"
        unseen_top = -1  # highest rank that an opponent or the stock may still show
        for c in range(51, -1, -1):
            if where[c] == UNKNOWN and RANK_OF[c] > unseen_top:
                unseen_top = RANK_OF[c]
        after = players_after(view, rules.risk_in_war)
        stock_risk = view.stock_size >= 2 and (rules.risk_in_war or not view.war_players)
        pile_value = 0
        for _, c in view.pile:
            pile_value += RANK_OF[c] - 6 + (8 if SUIT_OF[c] == trump else 0)
        dump = sure = -1
        dump_key = sure_key = (99, 99)
        only_winners = True
        for a in legal:
            if a == RISK:
                continue
            r = RANK_OF[a]
            kind = card_outcome(r, mask, top, tie, any_tie)
            keep = (SUIT_OF[a] == trump, r)  # dump non-trumps first, low first
            if kind == WIN:
                is_sure = after == 0 or (r > unseen_top and not stock_risk)
                if is_sure and keep < sure_key:
                    sure, sure_key = a, keep
            else:
                only_winners = False
                # a war is a gamble on more cards: dump it only after plain losers
                key = (keep[0] + (2 if kind == WAR else 0), keep[1])
                if key < dump_key:
                    dump, dump_key = a, key
        if sure >= 0:
            value = pile_value + RANK_OF[sure] - 6 + (8 if SUIT_OF[sure] == trump else 0)
            if value > self.pile_threshold or dump < 0:
                return sure
        if dump >= 0:
            return dump
        if only_winners and legal[-1] == RISK:
            return RISK
        return min((a for a in legal if a != RISK), key=lambda a: (SUIT_OF[a] == trump, RANK_OF[a]))

    # ------------------------------------------------------------------ phase two
    def phase_two(self, view: SeatView, rules: Rules) -> int:
        legal = view.legal
        where = view.where
        trump = view.trump_suit
        seat = view.seat
        following = bool(view.trick)
        nxt = _next_in(view)
        # Per suit: the highest rank still live outside my hand, and what the next player holds.
        live_top = [-1, -1, -1, -1]
        next_top = [-1, -1, -1, -1]
        mine = HAND + seat
        theirs = HAND + nxt
        for c in range(52):
            w = where[c]
            if w == mine or (w >= WON and w != UNKNOWN):
                continue  # my own card, or out of play (won piles are empty in phase two)
            s = SUIT_OF[c]
            r = RANK_OF[c]
            if r > live_top[s]:
                live_top[s] = r
            if w in (theirs, UNKNOWN) and r > next_top[s]:
                next_top[s] = r
        next_has_trump = trump >= 0 and next_top[trump] >= 0
        bonus = self.take_bonus
        best = -1
        best_key = (99, 99, 99)
        for a in legal:
            if a == TAKE:
                continue
            suit = ACT_SUIT[a]
            is_trump = suit == trump
            top_rank = RANK_OF[action_cards(a)[-1]]
            score = ACT_RANK[a]
            if nxt != seat and not _next_can_beat(
                suit, top_rank, is_trump, next_top, next_has_trump
            ):
                score -= bonus
            if not following and not is_trump and ACT_RANK[a] > live_top[suit]:
                score += bonus  # a boss card is worth keeping for following
            key = (is_trump, -ACT_LEN[a], score)
            if key < best_key:
                best, best_key = a, key
        if best < 0:
            return TAKE
        return best


def _next_in(view: SeatView) -> int:
    """The next seat still in after this one (itself when alone)."""
    n = view.num_players
    out = view.out
    for k in range(1, n):
        q = (view.seat + k) % n
        if not out[q]:
            return q
    return view.seat


def _next_can_beat(
    suit: int, top_rank: int, is_trump: bool, next_top: list[int], next_has_trump: bool
) -> bool:
    """Whether the next player may hold a card beating this play (trumps beat plain suits)."""
    if next_top[suit] > top_rank:
        return True
    return not is_trump and next_has_trump
