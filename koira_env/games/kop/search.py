"""Kop's perfect-information Monte Carlo values: the ``GameSpec.pimc`` plug-in of
``koira_agents.pimc``.

The cards the seat cannot see are dealt ``deals`` times consistently with what it knows, and
in each deal every legal card of the mover is scored by the open-card solver: the rest of the
hand played perfectly by both sides (``solver.py``). A card's score in a deal is the seat's
victory-card change for the hand that follows from the solved points (53 wins; the stakes of
a team, a solo or a silent solo, ``tie`` and ``silent_scoring`` as the engine scores them),
plus ``POINT_WEIGHT`` per card point of the seat's side, which only ranks cards of the same
result. The declaration round is out of reach (``None``): the agent's fallback declares
(search there measured no better than ``counter``'s rule, docs/games/kop.md).

Two engines, differing only in their random streams:

- ``"python"``, the readable reference: ``turn.sample_state()`` (``State.determinize``) for
  each deal and ``solver.move_values`` on it;
- ``"auto"`` (where ``_solver`` is built): the same constraints read from the seat's view
  (``constraints``: the engine's ``_forbidden`` and ``_required``, which the tests compare),
  deals drawn by ``_solver.sample_deals`` (uniform among the consistent deals; the engine's
  ``determinize`` tops up if a deal is hard to find) and solved by ``_solver.root_values``.
  ``State.determinize`` costs many times a compiled deal, and 64 deals a decision are
  affordable only so (docs/games/kop.md "Strength" gives the time a decision).
"""

from __future__ import annotations

from typing import Any

from ...core import tricks
from .cards import BLACK_QUEENS, JACKS_HIGH_FIRST, SUIT_OF, TO_WIN, TOTAL_POINTS, beats
from .cards import TRUMP as TRUMP_SUIT
from .engine import CALL, HAND_SIZE, PLAYERS, SILENT, SOLO, KopView
from .solver import BEATERS_MASK, SUIT_MASK
from .solver import move_values as reference_values

try:
    from ._solver import root_values, sample_deals
except ImportError:  # an unbuilt checkout: the reference runs
    root_values = sample_deals = None

ENGINES = ("auto", "python")
POINT_WEIGHT = 0.0001  # per card point of the seat's side (at most 0.0104 in all)
TRUMP_MASK = SUIT_MASK[TRUMP_SUIT]


def stake(decision: int, rules: Any) -> int:
    """Victory cards a soloist wins or pays per opponent (0: a team hand)."""
    if decision not in (SOLO, SILENT):
        return 0
    return 1 if decision == SILENT and rules.silent_scoring == "team" else 2


def hand_change(queens_points: int, mine: bool, solo_stake: int, rules: Any) -> int:
    """The victory cards a seat of the queens' side (``mine``) or the other side wins (or
    pays) when the queens' side ends the hand with ``queens_points``: ``State._end_hand``."""
    if queens_points >= TO_WIN:
        won = mine
    elif TOTAL_POINTS - queens_points >= TO_WIN or rules.tie == "queens_lose":
        won = not mine
    else:
        return 0
    sign = 1 if won else -1
    if not solo_stake:
        return 2 * sign
    return sign * solo_stake * (3 if mine else 1)


def state_values(state: Any, seat: int) -> list[tuple[int, float]]:
    """``[(card, value for seat)]`` in legal order on a full state in play (the reference)."""
    points = reference_values(state)
    mine = state.side[seat] == 0
    solo = stake(state.decision, state.rules)
    out = []
    for card in state.legal_actions():
        side_points = points[card] if mine else TOTAL_POINTS - points[card]
        change = hand_change(points[card], mine, solo, state.rules)
        out.append((card, change + POINT_WEIGHT * side_points))
    return out


def constraints(view: KopView) -> tuple[list[int], dict[int, int]]:
    """What the seat knows of the hidden cards: per seat, a mask of the cards it cannot hold
    (a suit it did not follow, trumps when it did not trump, the cards that would have taken
    a trick it let go), and the unplayed cards a public call puts in the caller's hand (both
    black queens, and the higher jacks a jack call skipped): ``{card: seat}``. The engine's
    ``State._forbidden`` and ``State._required``, from the view."""
    forbidden = [0] * PLAYERS
    for lead, cards in tricks.plays_so_far(view):
        led = SUIT_OF[cards[0]]
        best = cards[0]
        for i in range(1, len(cards)):
            card = cards[i]
            seat = (lead + i) % PLAYERS
            suit = SUIT_OF[card]
            if suit != led:
                forbidden[seat] |= SUIT_MASK[led]
                if suit != TRUMP_SUIT:
                    forbidden[seat] |= TRUMP_MASK
            if beats(card, best):
                best = card
            elif suit in (led, TRUMP_SUIT):
                forbidden[seat] |= BEATERS_MASK[best] & SUIT_MASK[suit]
            else:
                forbidden[seat] |= BEATERS_MASK[best]
    required: dict[int, int] = {}
    if view.call in ("call", "solo") and view.caller != view.seat:
        cards = list(BLACK_QUEENS)
        if view.call == "call":
            cards += JACKS_HIGH_FIRST[: JACKS_HIGH_FIRST.index(view.called_jack)]
        required = {card: view.caller for card in cards if view.played_by[card] < 0}
    return forbidden, required


def _sides(view: KopView, hands: tuple[int, ...]) -> tuple[int, int]:
    """``(queens, decision)`` in a deal: the queens' side as a seat mask (``State._sides``) and
    the decision it is scored by (a holder of both black queens who did not call is silent)."""
    played = view.played_by

    def owner(card: int) -> int:
        if played[card] >= 0:
            return played[card]
        return next(p for p in range(PLAYERS) if hands[p] >> card & 1)

    if view.call == "call":
        return 1 << view.caller | 1 << owner(view.called_jack), CALL
    if view.call in ("solo", "silent"):
        return 1 << view.caller, SOLO if view.call == "solo" else SILENT
    first, second = owner(BLACK_QUEENS[0]), owner(BLACK_QUEENS[1])
    return 1 << first | 1 << second, SILENT if first == second else -1


def view_deals(turn: Any, deals: int, seed: int) -> list[tuple[int, ...]]:
    """``deals`` deals of the hidden cards as four hand masks (the seat's own hand kept),
    uniform among those consistent with the seat's view (``core.tricks.view_deals``)."""
    forbidden, required = constraints(turn.view)
    for card, holder in required.items():
        for p in range(PLAYERS):
            if p != holder:
                forbidden[p] |= 1 << card

    def sample(hands: list[int], unseen: int) -> list[tuple[int, ...]]:
        return sample_deals(hands, unseen, forbidden, deals, seed)

    return tricks.view_deals(turn, PLAYERS, HAND_SIZE, deals, sample)


def move_values(
    turn: Any, deals: int, seed: int, engine: str = "auto"
) -> list[tuple[int, float]] | None:
    """``[(card, mean value for the seat)]`` over ``deals`` deals, in legal order; ``None`` in
    the declaration round."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    view = turn.view
    if view.declaring >= 0:
        return None
    seat = view.seat
    totals = dict.fromkeys(view.legal, 0.0)
    if root_values is None or engine == "python":
        for _ in range(deals):  # seed unused: the deals come from the turn's own generator
            for card, value in state_values(turn.sample_state(), seat):
                totals[card] += value
        return [(card, totals[card] / deals) for card in view.legal]
    for hands in view_deals(turn, deals, seed):
        for card, value in deal_values(view, turn.rules, hands):
            totals[card] += value
    return [(card, totals[card] / deals) for card in view.legal]


def deal_values(view: KopView, rules: Any, hands: tuple[int, ...]) -> list[tuple[int, float]]:
    """``[(card, value for the seat)]`` for the seat's legal cards (lowest id first, the legal
    order) in one deal (four hand masks): ``state_values`` on the compiled solver."""
    seat = view.seat
    trick = tuple(card for _, card in view.trick)
    leader = view.trick[0][0] if view.trick else seat
    queens, decision = _sides(view, hands)
    taken = sum(view.points[p] for p in range(PLAYERS) if queens >> p & 1)
    mine = queens >> seat & 1 == 1
    solo = stake(decision, rules)
    out = []
    for card, value in root_values(hands, trick, leader, queens):
        queens_points = taken + value
        side_points = queens_points if mine else TOTAL_POINTS - queens_points
        out.append(
            (card, hand_change(queens_points, mine, solo, rules) + POINT_WEIGHT * side_points)
        )
    return out
