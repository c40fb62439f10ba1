"""Kop's bots: ``lowest`` (sheds points), ``counter`` (counts cards, schmears to a known
partner) and a greedy rollout policy for search. Bots read only ``turn.view``."""

from __future__ import annotations

from typing import Any

from ...core.agent import Turn, no_argument
from ...core.compiled_search import compiled_plugins
from .cards import BLACK_QUEENS, JC, NUM_CARDS, POINTS, STRENGTH, SUIT_OF, TRUMP, beats
from .engine import CALL, SILENT, SOLO, KopView, State

PARTNER, UNKNOWN, OPPONENT = 1, 0, -1


def _cheapest(cards: Any) -> int:
    """The card giving away the fewest points, the weakest on ties."""
    return min(cards, key=lambda c: (POINTS[c], STRENGTH[c], c))


def _richest(cards: Any) -> int:
    """The card with the most points, the weakest on ties (keep strength for later)."""
    return max(cards, key=lambda c: (POINTS[c], -STRENGTH[c], -c))


def _weakest(cards: Any) -> int:
    """The card least able to win later: plain cards before trumps, then by strength."""
    return min(cards, key=lambda c: (SUIT_OF[c] == TRUMP, STRENGTH[c], POINTS[c]))


def known_sides(view: KopView) -> list[int]:
    """Per seat, what ``view.seat`` can be sure of: PARTNER, OPPONENT or UNKNOWN (itself:
    PARTNER). Only public plays, public calls and its own cards are used."""
    me = view.seat
    by = view.played_by
    dealt = set(view.hand) | {c for c in range(NUM_CARDS) if by[c] == me}
    sides = [UNKNOWN] * 4
    sides[me] = PARTNER

    def settle(partners: set[int]) -> list[int]:
        return [PARTNER if p == me or p in partners else OPPONENT for p in range(4)]

    others = [p for p in range(4) if p != me]
    if view.call in ("solo", "silent"):
        caller = view.caller
        return settle(set() if caller == me else set(others) - {caller})
    if view.call == "call":
        caller, jack = view.caller, view.called_jack
        if me == caller:
            return settle({by[jack]}) if by[jack] >= 0 else sides
        if jack in dealt:
            return settle({caller})
        if by[jack] >= 0:
            return settle(set(others) - {caller, by[jack]})
        sides[caller] = OPPONENT
        return sides
    mine = [q for q in BLACK_QUEENS if q in dealt]
    players = {by[q] for q in BLACK_QUEENS if by[q] >= 0}
    if len(mine) == 1:
        other = by[BLACK_QUEENS[0] if mine[0] == BLACK_QUEENS[1] else BLACK_QUEENS[1]]
        return settle({other}) if other >= 0 else sides
    if len(mine) == 2:
        return sides  # still choosing: nothing is settled yet
    if all(by[q] >= 0 for q in BLACK_QUEENS):
        return settle(set(others) - players)  # one player (a secret solo) or two
    for p in players:
        sides[p] = OPPONENT
    return sides


def _unseen(view: KopView) -> list[int]:
    """Cards neither in this hand nor played: somewhere in the other hands."""
    return [c for c in range(NUM_CARDS) if view.played_by[c] < 0 and c not in view.hand]


def _safe(card: int, unseen: list[int]) -> bool:
    """No unseen card of its suit (or trump, for a plain card) could beat it."""
    return not any(beats(u, card) for u in unseen if SUIT_OF[u] in (SUIT_OF[card], TRUMP))


class LowestBot:
    """Plays the legal card with the fewest points (the weakest on ties), whatever the trick;
    with both black queens it calls a partner (or stays silent if it may not call); without
    them it passes (its only declaration)."""

    name = "lowest"

    def act(self, turn: Turn) -> int:
        legal = turn.view.legal
        if len(legal) == 1:
            return legal[0]
        if legal[0] >= NUM_CARDS:
            return CALL if CALL in legal else SILENT
        return _cheapest(legal)


class CounterBot:
    """A card counter. With both black queens it plays alone when its two other cards are
    trumps at least as high as the jack of clubs (silently if silence scores as a solo,
    else openly), and calls a partner otherwise. Leading, it cashes the richest trump that
    no unseen card beats, else leads its cheapest plain card (plain aces and tens fall to
    any trump later: better spent while the others may still have to follow), else its
    weakest trump. Following, must-win decides whether it takes the trick: if it does, it
    plays its richest card when last or when no unseen card beats it, else its weakest
    winner (strong trumps are kept); if it cannot win, it schmears its richest card onto a
    known partner who is winning safely (or last), else plays its weakest card. Partners
    are only what it can deduce (``known_sides``)."""

    name = "counter"

    def act(self, turn: Turn) -> int:
        view = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if legal[0] >= NUM_CARDS:
            return self.choose(view, turn.rules.silent_scoring)
        unseen = _unseen(view)
        if not view.trick:
            cash = [c for c in legal if SUIT_OF[c] == TRUMP and _safe(c, unseen)]
            plain = [c for c in legal if SUIT_OF[c] != TRUMP]
            return _richest(cash) if cash else _cheapest(plain) if plain else _weakest(legal)
        last = len(view.trick) == 3
        best_seat, best = view.trick[0]
        for seat, card in view.trick[1:]:
            if beats(card, best):
                best_seat, best = seat, card
        if beats(legal[0], best):  # must-win: every legal card takes the trick
            safe = [c for c in legal if last or _safe(c, unseen)]
            return _richest(safe) if safe else _weakest(legal)
        partner = known_sides(view)[best_seat] == PARTNER
        if partner and (last or _safe(best, unseen)):
            return _richest(legal)
        return _weakest(legal)

    @staticmethod
    def choose(view: KopView, silent_scoring: str) -> int:
        rest = [c for c in view.hand if c not in BLACK_QUEENS]
        strong = all(SUIT_OF[c] == TRUMP and STRENGTH[c] >= STRENGTH[JC] for c in rest)
        if strong:
            return SILENT if silent_scoring == "solo" else SOLO
        return CALL if CALL in view.legal else SILENT


def greedy_move(state: State) -> int:
    """Rollout policy on a full state, reading only the mover's hand and the trick: take a
    trick with the richest card when last to play (must-win makes every legal card win),
    otherwise shed the cheapest card; call a partner when holding both black queens (pass,
    the only legal declaration, otherwise)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if legal[0] >= NUM_CARDS:
        return CALL if CALL in legal else SILENT
    if len(state.trick) == 3 and beats(legal[0], state.best):
        return _richest(legal)
    return _cheapest(legal)


BOTS = {
    "lowest": no_argument(LowestBot, LowestBot.name),
    "counter": no_argument(CounterBot, CounterBot.name),
}
ROLLOUT = greedy_move
SEARCH, FLAT = compiled_plugins(__package__)
