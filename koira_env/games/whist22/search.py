"""Whist 22's perfect-information Monte Carlo values: ``GameSpec.pimc`` for ``koira_agents.pimc``.

The cards the seat cannot see (the other hands and the cards set aside) are dealt ``deals``
times, uniformly: any card may be played, so play reveals nothing about a hand beyond the
cards it played, and a uniform re-deal is exactly the seat's belief (``State.determinize``).
In each deal every legal action of the seat, its bids as well as its cards (the Fool as 0
and as 22), is scored by an open-card solver (``solver.py``): the seat's score change for
the hand, ``-|tricks - bid|``, under the solver's play.

The solver is the model solver (``solver.model_move_values``): the seat plays its best plan
knowing every card, and the other players bid and play by ``counter``'s rule, each from what
it may know. The paranoid solver (``solver.move_values``: the others minimize the seat's
value together) is kept behind ``paranoid=True``: it is slow from the first lead and,
searched where it is cheap (the last two or three cards), measured no better than
``counter`` (docs/games/whist22.md "champion" gives both measurements).

Two engines, differing only in their random streams:

- ``"python"``, the readable reference: ``turn.sample_state()`` (``State.determinize``) for
  each deal and the reference solver on it (the model solver's runs the engine and
  ``bots.CounterBot`` themselves);
- ``"auto"`` (where ``_solver`` is built): the position read from the seat's view
  (``view_position``; the tests compare it with the full state's), the deals drawn and every
  move solved in one compiled call (``_solver.model_totals``, ``_solver.pimc_totals``).
"""

from __future__ import annotations

from typing import Any

from .engine import BID, NUM_CARDS, WhistView
from .solver import model_move_values
from .solver import move_values as paranoid_values

try:
    from ._solver import model_totals, pimc_totals
except ImportError:  # an unbuilt checkout: the reference runs
    model_totals = pimc_totals = None

ENGINES = ("auto", "python")


def view_position(view: WhistView) -> dict[str, Any]:
    """What the solvers need from the seat's view: its hand and the hidden cards (every card
    neither in its hand nor played this hand: the other hands and the cards set aside) as
    masks, each player's cards in hand, the trick's values and its leader (the first to
    lead in the bidding), every player's need (bid, or 0 before it bids, less tricks taken)
    and the bids (-1 for a player yet to bid)."""
    hand = sum(1 << c for c in view.hand)
    played = 0
    for cards in view.played:
        for c in cards:
            played |= 1 << c
    return {
        "n": len(view.bids),
        "seat": view.seat,
        "hand": hand,
        "hidden": ((1 << NUM_CARDS) - 1) & ~hand & ~played,
        "sizes": [view.hand_size - len(cards) for cards in view.played],
        "trick": tuple(value for _, value in view.trick),
        "leader": view.trick[0][0] if view.trick else view.leader,
        "needs": [max(b, 0) - t for b, t in zip(view.bids, view.tricks, strict=True)],
        "bids": list(view.bids),
    }


def move_values(
    turn: Any, deals: int, seed: int, engine: str = "auto", paranoid: bool = False
) -> list[tuple[int, float]]:
    """``[(action, mean value for the seat)]`` over ``deals`` deals, in legal order, bids
    included."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    view = turn.view
    if model_totals is None or engine == "python":
        solve = paranoid_values if paranoid else model_move_values
        totals = dict.fromkeys(view.legal, 0.0)
        for _ in range(deals):  # seed unused: the deals come from the turn's own generator
            for action, value in solve(turn.sample_state(), view.seat).items():
                totals[action] += value
        return [(action, totals[action] / deals) for action in view.legal]
    pos = view_position(view)
    bids = [a - BID for a in view.legal] if view.phase == "bid" else None
    if paranoid:
        sums = pimc_totals(
            pos["n"],
            pos["seat"],
            pos["hand"],
            pos["hidden"],
            pos["sizes"],
            pos["trick"],
            pos["leader"],
            pos["needs"][pos["seat"]],
            bids,
            deals,
            seed,
        )
    else:
        sums = model_totals(
            pos["n"],
            pos["seat"],
            pos["hand"],
            pos["hidden"],
            pos["sizes"],
            pos["trick"],
            pos["leader"],
            pos["needs"],
            pos["bids"],
            bids,
            view.hand_size,
            turn.rules.hook,
            deals,
            seed,
        )
    offset = BID if bids is not None else 0
    return [(offset + move, total / deals) for move, total in sums]
