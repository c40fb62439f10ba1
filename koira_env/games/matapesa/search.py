"""Mätäpesä's compiled flat Monte Carlo: the ``GameSpec.flat`` plug-in of ``koira_agents.flat``.

Every legal rank of the seat is played on the same ``playouts`` deals of the hidden cards and
each game finished by rule-of-thumb play; the agent (``flat:N``, the ``champion``) plays the
rank with the best mean return. Two modelling choices beyond the generic loop of
``koira_agents.flat.action_values`` (which ``flat:N::python`` runs: ``State.determinize`` and
``bots.ROLLOUT``, ``shed``, for every seat), both measured in docs/games/matapesa.md
"champion":

- the deals respect what the play so far proves: a seat that gave up a card below the rank
  to reach gave up its lowest card, so it holds nothing lower (``floors``);
- each seat of each playout plays ``shed`` or ``keeper``, drawn at random (``PLAYOUT``), not
  ``shed`` alone: the opponents' styles differ, and the value of a move depends on them.

``_ranks`` plays these games on rank counts in C (suits never matter): its rules mirror the
engine's, and ``tests/games/matapesa/test_matapesa_ranks.py`` replays its legal moves, playouts
and move values on the engine and the bots (``reference_values`` is the Python side of that check).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .bots import keeper_policy, shed_policy

try:
    from . import _ranks
except ImportError:  # an unbuilt checkout: koira_agents.flat runs its reference loop
    _ranks = None

if TYPE_CHECKING:
    from ...core.agent import Turn
    from .engine import MatapesaView, State
    from .game import MatapesaGame

PLAYOUT = "mixed"  # every seat of every playout: shed or keeper at random (_ranks.POLICIES)
POLICY_OF = {"shed": shed_policy, "keeper": keeper_policy}  # the bots _ranks's policies mirror


def rules_key(game: MatapesaGame) -> tuple[int, int, int, int]:
    """``(n, follow_highest, lowest_anytime, tie_last)``: the rules as ``_ranks`` reads them."""
    return (game.num_players, game.follow_highest, game.lowest_anytime, game.tie_last)


def table_key(view: MatapesaView) -> tuple[int, int, int, int, int, int, int]:
    """``(current, leader, need, high, winner, in_trick, tricks_left)``: the trick in play as
    ``_ranks`` reads it, from the view of the seat to act."""
    high = max((card % 13 for _, card in view.trick), default=-1)
    return (
        view.seat,
        view.leader,
        view.to_reach,
        high,
        view.trick_winner,
        len(view.trick),
        view.num_tricks - view.trick_number,
    )


def floors(view: MatapesaView, game: MatapesaGame) -> list[int]:
    """Per seat, the lowest rank it can still hold (0: nothing known). A seat that played a
    card below the rank to reach gave up its lowest card, so it holds nothing lower. The tricks
    are replayed from the cards face up in front of each seat (one a trick; player_0 leads the
    first, each trick's winner the next), as ``State._act`` decides them."""
    n = game.num_players
    low = [0] * n
    leader = 0
    for t in range(view.trick_number + 1):
        need = high = winner = -1
        for i in range(n):
            seat = (leader + i) % n
            if len(view.played[seat]) <= t:
                break
            rank = view.played[seat][t] % 13
            if rank < need:
                low[seat] = max(low[seat], rank)
            if rank > high or (rank == high and game.tie_last):
                high, winner = rank, seat
            need = high if game.follow_highest else rank
        leader = winner
    return low


def flat_values(turn: Turn, playouts: int, seed: int) -> list[tuple[int, float]] | None:
    """``[(rank, mean return)]`` in legal order (``GameSpec.flat``), or ``None`` where
    ``_ranks`` is not built (then ``koira_agents.flat`` runs its reference loop)."""
    if _ranks is None:
        return None
    view: Any = turn.view
    game: Any = turn.game
    return _ranks.action_values(
        rules_key(game),
        table_key(view),
        view.hand_ranks,
        view.unseen_ranks,
        floors(view, game),
        playouts,
        PLAYOUT,
        seed,
    )


def reference_values(
    deals: Sequence[State], policies: Sequence[Sequence[str]]
) -> list[tuple[int, float]]:
    """``_ranks.deal_values`` on the engine: ``[(rank, mean return of the mover)]`` in legal
    order, each full state of ``deals`` (the same mover and hand in all) finished by the bots
    named in ``policies`` (one list a deal, a name of ``POLICY_OF`` a seat)."""
    seat = deals[0].current
    totals = dict.fromkeys(deals[0].legal_actions(), 0.0)
    for deal, names in zip(deals, policies, strict=True):
        for action in totals:
            game = deal.clone()
            game.apply(action)
            while not game.is_terminal:
                game.apply(POLICY_OF[names[game.current]](game.view(game.current)))
            totals[action] += game.returns()[seat]
    return [(action, total / len(deals)) for action, total in totals.items()]
