"""Dois bots: ``greedy`` (judges the trick as it stands) and ``counter`` (counts the unseen
cards and weighs what the players still to play can do), and a greedy rollout for search.

Both read only ``turn.view`` (their hand and the public table), ``turn.game`` and
``turn.rng``. Both bid their hand's expected tricks (``_estimate``) and play by one rule
(``_choose``): value each legal card (in the first trick a suit card with the best number
card to go with it), then, wanting the trick, take the best value, else the least; among
cards of about that value, the one that puts the least strength on show, since what a
player shows stays for the next trick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

from ...core.agent import Turn, no_argument
from ...core.compiled_search import compiled_plugins
from .cards import COPIES, HAND_SIZE, NUM_KINDS, NUM_SUITS, number_of
from .engine import (
    BID,
    FIRST,
    NUMBER_KINDS,
    NUMBERS_VOID,
    SUIT_KINDS,
    TRICKS,
    DoisView,
    State,
    trick_winner,
)

Table = tuple[list[int], list[int]]  # what everyone shows: suits, numbers

HIGH = 6  # a number card of at least this counts as high when bidding
# Tricks a hand takes, fitted on the bots' own games (docs/games/dois.md): a share of the 12
# tricks, plus this much per high number card and per trump suit card above the average.
PER_HIGH = 0.65
PER_TRUMP = 1.4
MEAN_HIGH = HAND_SIZE / 2 * 3 / 8  # about half a hand is number cards, 3 of 8 numbers high
MEAN_TRUMPS = HAND_SIZE / 2 / 4
AVOIDED = 0.25  # the chance a player who wants no more tricks still takes one it can take


def _estimate(counts: Sequence[int], trump: int, n: int) -> float:
    """Expected tricks of a fresh hand (counts per kind) at a table of ``n``."""
    high = sum(counts[k] for k in NUMBER_KINDS if number_of(k) >= HIGH)
    trumps = counts[trump]
    tricks = TRICKS / n + PER_HIGH * (high - MEAN_HIGH) + PER_TRUMP * (trumps - MEAN_TRUMPS)
    return min(max(tricks, 0.0), float(TRICKS))


def _bid(counts: Sequence[int], trump: int, n: int) -> int:
    return BID + round(_estimate(counts, trump, n))


def _shown_strength(kind: int, trump: int) -> int:
    """How much strength a card puts on show: its number, or 9 for the trump suit."""
    if kind < NUM_SUITS:
        return 9 if kind == trump else 0
    return number_of(kind)


def _choose(
    legal: Sequence[int],
    hand: Sequence[int],
    table: Table,
    p: int,
    trump: int,
    pairing: bool,
    value: Callable[[Table], float],
    want: bool,
    margin: float,
) -> int:
    """The card ``_choose``'s rule picks (module docstring); ``pairing``: a first-trick suit
    card, judged with each number card in hand, the best for the purpose."""
    values = {}
    for kind in legal:
        suits, numbers = table[0][:], table[1][:]
        if kind < NUM_SUITS:
            suits[p] = kind
        else:
            numbers[p] = number_of(kind)
        if pairing:
            judged = []
            for x in NUMBER_KINDS:
                if hand[x]:
                    numbers[p] = number_of(x)
                    judged.append(value((suits, numbers[:])))
            values[kind] = max(judged) if want else min(judged)
        else:
            values[kind] = value((suits, numbers))
    if want:
        best = max(values.values())
        pick = [k for k in legal if values[k] >= best - margin]
    else:
        least = min(values.values())
        pick = [k for k in legal if values[k] <= least + margin]
    return min(pick, key=lambda k: (_shown_strength(k, trump), k))


def _greedy(
    legal: Sequence[int],
    hand: Sequence[int],
    table: Table,
    p: int,
    leader: int,
    trump: int,
    pairing: bool,
    want: bool,
) -> int:
    """Greedy play: the trick as it stands decides (the players still to play keeping what
    they show)."""

    def takes(t: Table) -> float:
        return float(trick_winner(t[0], t[1], leader, trump) == p)

    return _choose(legal, hand, table, p, trump, pairing, takes, want, 0.0)


class GreedyBot:
    """Bids its hand's expected tricks (``_estimate``). Plays by the trick as it stands, as if
    the players still to play kept what they show: while it needs tricks it takes this one
    with the card showing the least strength that does it (else plays its weakest card);
    once its bid is made, the card showing the least strength that does not take it."""

    name = "greedy"

    def act(self, turn: Turn) -> int:
        view: DoisView = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "bid":
            return _bid(view.counts, view.trump, turn.game.num_players)
        p = view.seat
        table = (list(view.suits), list(view.numbers))
        pairing = view.phase == "first trick" and legal[0] < NUM_SUITS
        want = view.won[p] < view.bids[p]
        return _greedy(legal, view.counts, table, p, view.leader, view.trump, pairing, want)


def _hold_chance(kinds: list[int], unseen: list[int], void: int, size: int) -> float:
    """Chance that a hand of ``size`` cards drawn from the unseen cards (its void kinds
    excepted) holds one of ``kinds`` at least."""
    allowed = [
        k
        for k in range(NUM_KINDS)
        if not ((k < NUM_SUITS and void >> k & 1) or (k >= NUM_SUITS and void & NUMBERS_VOID))
    ]
    total = sum(unseen[k] for k in allowed)
    good = sum(unseen[k] for k in kinds if k in allowed)
    if not good or size <= 0:
        return 0.0
    if size > total - good:
        return 1.0
    return 1.0 - comb(total - good, size) / comb(total, size)


def _beat_chance(
    view: DoisView, q: int, shown: tuple[int, int], lead: int, unseen: list[int]
) -> float:
    """The chance that ``q``, still to play, can come to beat a trick of lead suit ``lead``
    now won by the ``shown`` suit and number (the later player wins ties). In the first
    trick ``q`` plays a suit card (the lead suit if held) and a number card; later it covers
    one card, and must play the lead suit if it holds one and does not show it (a shown lead
    suit it may cover only with the lead suit)."""
    s, v = shown
    trump = view.trump

    def beats(suit: int, number: int) -> bool:
        if s == trump:
            return suit == trump and number >= v
        return suit == trump or (suit == lead == s and number >= v)

    def hold(kinds: list[int]) -> float:
        return _hold_chance(kinds, unseen, view.voids[q], HAND_SIZE - len(view.plays[q]))

    def numbers_beating(suit: int) -> list[int]:
        return [k for k in NUMBER_KINDS if beats(suit, number_of(k))]

    forced = hold([lead])  # the chance q holds the lead suit
    if view.phase == "first trick":
        free = 0.0 if trump == lead else hold([trump]) * hold(numbers_beating(trump))
        return forced * hold(numbers_beating(lead)) + (1.0 - forced) * free
    q_suit, q_number = view.suits[q], view.numbers[q]
    kinds = [k for k in SUIT_KINDS if beats(k, q_number)] + numbers_beating(q_suit)
    if q_suit == lead:
        return hold([k for k in kinds if k >= NUM_SUITS or k == lead])
    free = hold([k for k in kinds if k != lead])
    return forced * beats(lead, q_number) + (1.0 - forced) * free


def win_chance(view: DoisView, table: Table, n: int) -> float:
    """The chance that ``view.seat`` takes the trick with ``table`` on show after its card:
    0 if a player who has already played beats it, else the chance that none of the players
    still to play beats it (``_beat_chance``), each trying to only while it still needs
    tricks (else with chance ``AVOIDED``)."""
    p, leader = view.seat, view.leader
    done = {(leader + i) % n for i in range(view.in_trick + 1)}  # me included
    suits = [s if q in done else -1 for q, s in enumerate(table[0])]
    if trick_winner(suits, table[1], leader, view.trump) != p:
        return 0.0
    unseen = [COPIES[k] - view.counts[k] - view.played[k] for k in range(NUM_KINDS)]
    chance = 1.0
    for i in range(view.in_trick + 1, n):
        q = (leader + i) % n
        tries = 1.0 if view.won[q] < view.bids[q] else AVOIDED
        shown = (suits[p], table[1][p])
        chance *= 1.0 - tries * _beat_chance(view, q, shown, suits[leader], unseen)
    return chance


class CounterBot:
    """Counts the cards it has not seen: the value of a card is its chance to take the trick
    (``win_chance``): each player still to play may cover one card with any kind it may hold
    (drawn from the unseen cards, its shown voids excepted; the follow rule applied).
    Chances within ``margin`` count as equal (``_choose``). Bids its hand's expected tricks."""

    def __init__(self, margin: float = 0.1) -> None:
        self.margin = margin
        self.name = "counter" if margin == 0.1 else f"counter:{margin:g}"

    def act(self, turn: Turn) -> int:
        view: DoisView = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        n = turn.game.num_players
        if view.phase == "bid":
            return _bid(view.counts, view.trump, n)
        p = view.seat
        table = (list(view.suits), list(view.numbers))
        pairing = view.phase == "first trick" and legal[0] < NUM_SUITS
        want = view.won[p] < view.bids[p]

        def chance(t: Table) -> float:
            return win_chance(view, t, n)

        return _choose(legal, view.counts, table, p, view.trump, pairing, chance, want, self.margin)


def greedy_rollout(state: State) -> int:
    """``GreedyBot`` on a full state, reading only the mover's hand and the public table."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    p = state.current
    if legal[0] >= BID:
        return _bid(state.hands[p], state.trump, state.n)
    table = (state.suit, state.number)
    pairing = state.phase == FIRST and not state.step
    want = state.won[p] < state.bids[p]
    return _greedy(legal, state.hands[p], table, p, state.leader, state.trump, pairing, want)


def counter(arg: str = "") -> CounterBot:
    """``counter`` or ``counter:M``: M (0 <= M <= 1) is the win chance it gives up to show
    less strength."""
    if not arg:
        return CounterBot()
    try:
        margin = float(arg)
    except ValueError:
        margin = -1.0
    if not 0.0 <= margin <= 1.0:
        raise ValueError(f"counter's argument is a chance margin in [0, 1], got {arg!r}")
    return CounterBot(margin)


BOTS = {"greedy": no_argument(GreedyBot, "greedy"), "counter": counter}
ROLLOUT = greedy_rollout
SEARCH, FLAT = compiled_plugins(__package__)
