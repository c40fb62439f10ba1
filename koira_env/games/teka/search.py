"""Teka's perfect-information Monte Carlo values: the ``GameSpec.pimc`` plug-in of
``koira_agents.pimc``.

The cards the seat cannot see are dealt ``deals`` times consistently with what it knows, and
in each deal every legal card of the mover is scored by the declaring side's tricks for the
hand: those taken plus the rest of the hand played perfectly by both sides (``solver.py``)
once at most ``EXACT_FROM`` cards are left in the active hands, and before that the tricks
of a playout with ``counter``'s card rules on open cards. A card's score in a deal is the
seat's side's points from the hand that follows (made: the contract, 26 for a double
thirteen, for the declarers; failed: ``failed_bid`` for the opponents, 52 for a double
thirteen), its side's points counted plus and the other side's minus, plus ``TRICK_WEIGHT``
per trick of the seat's side, which only ranks cards of the same result. A raise to ``b``
scores the best card's mean under contract ``b``. The auction and the choice of trumps are
out of reach (``None``): the agent's fallback decides them.

Two engines, differing only in their random streams:

- ``"python"``, the readable reference: ``turn.sample_state()`` (``State.determinize``) for
  each deal and ``solver.card_values`` on it;
- ``"auto"`` (where ``_solver`` is built): the same constraints read from the seat's view
  (``constraints``: the engine's ``_voids`` and ``determinize``'s needs, which the tests
  compare), deals drawn by ``_solver.sample_deals`` (uniform among the consistent deals; the
  engine's ``determinize`` tops up if a deal is hard to find) and scored by
  ``_solver.root_values``.
"""

from __future__ import annotations

from typing import Any

from ...cards import NUM_CARDS, SUIT_OF
from ...core import tricks
from .engine import HAND_SIZE, HONOURS, PLAYERS, RAISE, TRICKS, TekaView
from .solver import SUIT_MASK, card_values, position

try:
    from ._solver import root_values, sample_deals
except ImportError:  # an unbuilt checkout: the reference runs
    root_values = sample_deals = None

ENGINES = ("auto", "python")
EXACT_FROM = 20  # solve exactly with at most this many cards in the active hands
TRICK_WEIGHT = 0.01  # per trick of the seat's side (at most 0.13 in all)
HONOURS_MASK = sum(1 << c for c in HONOURS)


def next_seat(p: int, out: int) -> int:
    p = (p + 1) % PLAYERS
    return (p + 1) % PLAYERS if p == out else p


def hand_points(tricks: int, contract: int, double: bool, failed_bid: str) -> int:
    """The declaring side's points from a hand in which it takes ``tricks`` (negative: the
    opponents' points), as ``State._end_hand`` scores them."""
    if tricks >= contract:
        return 26 if double else contract
    if double:
        return -52
    return -{"opponents": 1, "double": 2, "nothing": 0}[failed_bid] * contract


def constraints(view: TekaView, rules: Any) -> tuple[list[int], list[tuple[int, int]]]:
    """What the seat knows of the hidden cards: per seat, a mask of the cards it cannot hold
    (every suit it failed to follow this hand: ``State._voids``), and the ``(seat, mask)``
    pairs of which a seat must hold at least one card (``State.determinize``: an honour for a
    seat that has shown none when a hand without one is redealt, a trump for the declarer
    before its first lead)."""
    forbidden = [0] * PLAYERS
    for lead, cards in tricks.plays_so_far(view):
        led = SUIT_OF[cards[0]]
        p = lead
        for card in cards[1:]:
            p = next_seat(p, view.out)
            if SUIT_OF[card] != led:
                forbidden[p] |= SUIT_MASK[led]
    needs = []
    others = [p for p in range(PLAYERS) if p != view.seat]
    if rules.no_honours == "redeal":
        shown = {view.played_by[c] for c in HONOURS}
        needs += [(p, HONOURS_MASK) for p in others if p not in shown]
    if not view.tricks and not view.trick and view.declarer != view.seat:
        needs.append((view.declarer, SUIT_MASK[view.trump]))
    return forbidden, needs


def view_deals(turn: Any, deals: int, seed: int) -> list[tuple[int, ...]]:
    """``deals`` deals of the hidden cards as four hand masks (the seat's own hand kept),
    uniform among those consistent with the seat's view (``core.tricks.view_deals``)."""
    forbidden, needs = constraints(turn.view, turn.rules)

    def sample(hands: list[int], unseen: int) -> list[tuple[int, ...]]:
        return sample_deals(hands, unseen, forbidden, needs, deals, seed)

    return tricks.view_deals(turn, PLAYERS, HAND_SIZE, deals, sample)


def move_values(
    turn: Any, deals: int, seed: int, engine: str = "auto"
) -> list[tuple[int, float]] | None:
    """``[(action, mean value for the seat)]`` over ``deals`` deals, in legal order (cards and
    raises); ``None`` in the auction and the choice of trumps."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    view = turn.view
    if view.phase != "play":
        return None
    cards = [a for a in view.legal if a < NUM_CARDS]
    tricks: dict[int, list[int]] = {card: [] for card in cards}  # per card, per deal
    if root_values is None or engine == "python":
        for _ in range(deals):  # seed unused: the deals come from the turn's own generator
            state = turn.sample_state()
            for card, value in card_values(*position(state), cards, EXACT_FROM):
                tricks[card].append(value)
    else:
        moves = sum(1 << c for c in cards)
        trick = tuple(card for _, card in view.trick)
        leader = view.trick[0][0] if view.trick else view.seat
        declarers = _declarers(view)
        for hands in view_deals(turn, deals, seed):
            found = root_values(
                hands, trick, leader, view.trump, declarers, view.out, moves, EXACT_FROM
            )
            for card, value in found:
                tricks[card].append(value)
    return action_values(view, turn.rules, tricks)


def _declarers(view: TekaView) -> int:
    d = view.declarer
    return 1 << d if view.double else 1 << d | 1 << (d + 2) % PLAYERS


def action_values(
    view: TekaView, rules: Any, tricks: dict[int, list[int]]
) -> list[tuple[int, float]]:
    """Each legal action's mean value for the seat from the declaring side's tricks still to
    come per card and deal (``tricks``): a card under the current contract, a raise to ``b``
    as the best card under contract ``b``."""
    declarers = _declarers(view)
    taken = sum(view.won[p] for p in range(PLAYERS) if declarers >> p & 1)
    sign = 1 if declarers >> view.seat & 1 else -1
    mine = declarers >> view.seat & 1

    def value(card: int, contract: int) -> float:
        total = 0.0
        for rest in tricks[card]:
            side = taken + rest
            points = hand_points(side, contract, view.double, rules.failed_bid)
            total += sign * points + TRICK_WEIGHT * (side if mine else TRICKS - side)
        return total / len(tricks[card])

    out = []
    for action in view.legal:
        if action < NUM_CARDS:
            out.append((action, value(action, view.contract)))
        else:
            bid = action - RAISE + 9
            out.append((action, max(value(card, bid) for card in tricks)))
    return out
