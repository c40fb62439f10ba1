"""Rule-of-thumb Red7 bots, the fast rollout policy for search, and the compiled search loops
(``_search.pyx``: ISMCTS and flat Monte Carlo with ``thrifty`` rollouts) that
``koira_agents.ismcts`` and ``koira_agents.flat`` run on the compiled core.

Every legal turn but ``pass`` leaves the mover winning, so the bots only choose how to stay
in: which cards to spend (a hand is the player's whole future: a player with no card left is
out at their next turn) and what table to leave to the next players. Each reads only its
``turn.view`` (its hand, the palettes, the canvas, the legal turns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.agent import policy_bots
from ...core.compiled_search import compiled_plugins
from .cards import BIT, NUM_COLOURS, rule_keys
from .engine import PASS, SLOTS

if TYPE_CHECKING:
    from .engine import Red7View


def spend(action: int) -> tuple[int, int, int]:
    """How much a turn spends, for sorting: cards played, whether it changes the rule
    (palette cards stay useful, a canvas card is gone), then the cards' worth (lower is
    cheaper). ``pass`` spends everything."""
    if action == PASS:
        return (3, 1, 0)
    palette, canvas = action // SLOTS - 1, action % SLOTS - 1
    return ((palette >= 0) + (canvas >= 0), canvas >= 0, palette + canvas)


def thrifty_policy(view: Red7View) -> int:
    """The cheapest turn that stays in: one card rather than two, the palette rather than
    the canvas, and the weakest cards that do it; ``pass`` only when nothing else is legal.

    It keeps its strong cards and its rule changes for later turns, when the table is harder.
    """
    return min(view.legal, key=spend)


def pressure_policy(view: Red7View) -> int:
    """The turn after which it leads under the most rules, then the cheapest such turn.

    The next players must end their turns winning under some rule: a palette that leads
    under many rules leaves them fewer ways to do it, at the price of spending cards.
    """
    if len(view.legal) == 1:
        return view.legal[0]
    me = view.seat
    others = [
        rule_keys(sum(BIT[c] for c in palette))
        for p, palette in enumerate(view.palettes)
        if p != me and view.active[p]
    ]
    best_other = [max(keys[r] for keys in others) for r in range(NUM_COLOURS)]
    mine = sum(BIT[c] for c in view.palettes[me])

    def value(action: int) -> tuple[int, tuple[int, int, int]]:
        if action == PASS:
            return (-1, spend(action))
        palette = action // SLOTS - 1
        keys = rule_keys(mine | BIT[palette]) if palette >= 0 else rule_keys(mine)
        leads = sum(k > o for k, o in zip(keys, best_other, strict=True))
        cost = spend(action)
        return (leads, (-cost[0], -cost[1], -cost[2]))

    return max(view.legal, key=value)


BOTS = policy_bots(thrifty=thrifty_policy, pressure=pressure_policy)


def thrifty_rollout(state: Any) -> int:
    """``thrifty`` on a full state. The legal turns depend only on the mover's own hand and
    the public palettes, and ``spend`` reads only the action, so this rollout does not cheat."""
    return min(state.legal_actions(), key=spend)


ROLLOUT = thrifty_rollout
# the compiled loops play one round: a points game deals later rounds no deal can know
SEARCH, FLAT = compiled_plugins(__package__, allows=lambda turn: turn.rules.scoring != "points")
