"""Whist 22 bots: a card counter that plays to hit its bid exactly, and a greedy one.

Each reads only ``turn.view`` (its hand and the public memory), ``turn.game`` and
``turn.rng``. ``ROLLOUT`` is the greedy policy on a full state for ISMCTS rollouts; it reads
only the mover's hand and public information, so it is not a cheating rollout.
"""

from __future__ import annotations

from typing import Any

from ...core.agent import Turn
from ...core.compiled_search import compiled_plugins
from .engine import BID, BIDDING, FOOL, FOOL_HIGH, NUM_CARDS, PLAYING, State, WhistView

GREEDY_HIGH = 15  # greedy bids one trick per card at least this high, plus the Fool


def _closest_bid(estimate: float, forbidden: int, largest: int) -> int:
    """The legal bid nearest ``estimate`` (ties go to the lower bid)."""
    bids = [b for b in range(largest + 1) if b != forbidden]
    return min(bids, key=lambda b: (abs(b - estimate), b))


class CounterBot:
    """Counts the cards it cannot see and plays each trick to land exactly on its bid.

    Win chance of a card: 0 if it does not beat the trick's best card so far, else the
    chance that none of the players still to play holds a higher card, each of them showing
    one card drawn at random from the cards this seat has not seen (the Fool, unseen, counts
    as higher than anything). Bidding: the sum of its cards' chances when leading, the Fool
    counting as one sure trick (it can always win as 22); the nearest legal bid.
    Play: with no more tricks needed, the card least likely to win (ties: the highest
    numbered, to get rid of danger while it is safe; the Fool=0 kept for later); needing
    every remaining trick, the card most likely to win (ties: the lowest); otherwise the
    cheapest card whose chance reaches ``threshold``, else the least likely card to win
    (ties: the lowest), keeping the high cards and the Fool for later tricks.
    """

    def __init__(self, threshold: float = 0.5) -> None:
        self.threshold = threshold
        self.name = "counter" if threshold == 0.5 else f"counter:{threshold:g}"

    def act(self, turn: Turn) -> int:
        view: WhistView = turn.view
        if len(view.legal) == 1:
            return view.legal[0]
        unseen = _unseen(view)
        n = turn.game.num_players
        if view.phase == "bid":
            estimate = sum(
                1.0 if card == FOOL else _win_chance(card, -1, n - 1, unseen) for card in view.hand
            )
            return BID + _closest_bid(estimate, view.forbidden_bid, view.hand_size)
        best = max((value for _, value in view.trick), default=-1)
        later = n - 1 - len(view.trick)
        chance = {a: _win_chance(a, best, later, unseen) for a in view.legal}
        need = view.bids[view.seat] - view.tricks[view.seat]
        if need <= 0:
            return min(view.legal, key=lambda a: (chance[a], a == FOOL, -a))
        if need >= len(view.hand):
            return min(view.legal, key=lambda a: (-chance[a], a))
        likely = [a for a in view.legal if chance[a] >= self.threshold]
        if likely:
            return min(likely)
        return min(view.legal, key=lambda a: (chance[a], a in (FOOL, FOOL_HIGH), a))


def _unseen(view: WhistView) -> list[int]:
    """The cards this seat has not seen this hand: other hands and the cards set aside."""
    seen = set(view.hand)
    for cards in view.played:
        seen.update(cards)
    return [card for card in range(NUM_CARDS) if card not in seen]


def _win_chance(value: int, best: int, later: int, unseen: list[int]) -> float:
    """Chance that a card of ``value`` wins: it beats ``best`` and none of the ``later``
    players shows a higher card, each showing a random unseen card (see ``CounterBot``)."""
    if value <= best:
        return 0.0
    total = len(unseen)
    higher = sum(1 for card in unseen if card > value or card == FOOL)
    chance = 1.0
    for i in range(min(later, total)):
        chance *= max(total - higher - i, 0) / (total - i)
    return chance


class GreedyBot:
    """Bids one trick per card of ``high`` or more (and the Fool), then plays its highest
    card (the Fool as 22) while it still needs tricks and its lowest card (the Fool as 0)
    once it has its bid. The dealer denied its bid by the hook rule bids one more."""

    def __init__(self, high: int = GREEDY_HIGH) -> None:
        self.high = high
        self.name = "greedy" if high == GREEDY_HIGH else f"greedy:{high}"

    def act(self, turn: Turn) -> int:
        view: WhistView = turn.view
        if view.phase == "bid":
            return _greedy_bid(view.hand, self.high, view.forbidden_bid)
        if view.tricks[view.seat] < view.bids[view.seat]:
            return view.legal[-1]
        return view.legal[0]


def _greedy_bid(hand: Any, high: int, forbidden: int) -> int:
    bid = sum(1 for card in hand if card >= high or card == FOOL)
    if bid == forbidden:
        bid = bid + 1 if bid < len(hand) else bid - 1
    return BID + bid


def greedy_rollout(state: State) -> int:
    """``GreedyBot`` on a full state, reading only the mover's hand and public information."""
    p = state.current
    hand = state.hands[p]
    if state.phase == BIDDING:
        return _greedy_bid(hand, GREEDY_HIGH, state.forbidden_bid())
    if state.phase != PLAYING:
        raise ValueError("the game is over: no action to choose")
    if state.won[p] < state.bids[p]:
        return FOOL_HIGH if hand[0] == FOOL else hand[-1]
    return hand[0]


def counter(arg: str | None = None) -> CounterBot:
    """``counter`` or ``counter:T``: T (0 < T <= 1) is the win chance it wants from a card
    it plays to take a trick it needs."""
    if arg is None:
        return CounterBot()
    try:
        threshold = float(arg)
    except ValueError:
        threshold = -1.0
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"counter's argument is a win chance in (0, 1], got {arg!r}")
    return CounterBot(threshold)


def greedy(arg: str | None = None) -> GreedyBot:
    """``greedy`` or ``greedy:H``: H (1..21) is the lowest card it bids a trick for."""
    if arg is None:
        return GreedyBot()
    if not arg.isdigit() or not 1 <= int(arg) <= 21:
        raise ValueError(f"greedy's argument is a card number 1..21, got {arg!r}")
    return GreedyBot(int(arg))


BOTS = {"counter": counter, "greedy": greedy}
ROLLOUT = greedy_rollout
# ISMCTS and flat Monte Carlo in C with greedy rollouts (``_search.pyx``)
SEARCH, FLAT = compiled_plugins(__package__)
