"""Rule-of-thumb Mätäpesä bots, and the fast rollout policy for search.

The game is decided by the last trick: whoever plays the highest card to it loses (ties:
the last of them). Everything before is hand management: a player wants a low card left at
the end, and high cards on the way to reach tricks without being forced to give up their low
cards ("play same or higher, or your lowest"). The bots differ in how they spend those.
Each reads only its ``turn.view`` (its hand, the table, the legal ranks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.agent import policy_bots
from ...core.compiled_search import compiled_plugins

if TYPE_CHECKING:
    from .engine import MatapesaView


def shed_policy(view: MatapesaView) -> int:
    """The highest legal rank: shed high cards early, keep low ones for the last trick.

    Leading, it plays its highest card, so every follower must match it or give up their
    lowest card; following, its highest card if that reaches the trick, else the forced
    lowest. Its lowest card is played only when nothing else is legal.
    """
    return view.legal[-1]


def lowest_policy(view: MatapesaView) -> int:
    """The lowest legal rank: duck every trick it can, keeping the high cards.

    The naive way to avoid tricks; it ends the game holding its highest cards, so it is the
    weak baseline the other bots should beat.
    """
    return view.legal[0]


def keeper_policy(view: MatapesaView) -> int:
    """Reach tricks as cheaply as possible, and never give the lowest card away early.

    Leading: the second-lowest rank held (the lowest is kept for the last trick, and the high
    ones for reaching later tricks). Following: the lowest rank that reaches the trick; the
    lowest card only when nothing reaches (or it is the only card).
    """
    legal = view.legal
    if view.to_reach < 0:  # leading: every rank held is legal
        return legal[1] if len(legal) > 1 else legal[0]
    reaching = [a for a in legal if a >= view.to_reach]
    return reaching[0] if reaching else legal[0]


BOTS = policy_bots(shed=shed_policy, keeper=keeper_policy, lowest=lowest_policy)


def shed_rollout(state: Any) -> int:
    """``shed`` on a full state: the highest legal rank. The legal ranks depend only on the
    mover's own hand and the public trick, so this rollout does not cheat."""
    return state.legal_actions()[-1]


ROLLOUT = shed_rollout
# SO-ISMCTS in C (flat Monte Carlo is the rank-count core's: GameSpec.flat)
SEARCH = compiled_plugins(__package__)[0]
