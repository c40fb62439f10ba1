"""Whist 22's rule options: every point where a reader of the seed text could differ.

Built only by ``make_rules`` (``koira_env.core.options.make_options``), so bad input gives the
suite's usual ``ValueError`` naming the valid choices. RULES.md explains each option.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.options import RuleSet, make_options
from . import SPEC


@dataclass(frozen=True)
class Rules(RuleSet):
    """One validated Whist 22 rule set (RULES.md, section Whist 22, says why each default)."""

    num_players: int = 4
    # Score everyone starts with; the game ends once someone is at zero or below.
    start_score: int = field(default=14, metadata={"min": 1, "max": 50})
    # The dealer (last bidder) may not make the bids add up to the number of tricks.
    hook: bool = True
    # Hand sizes: max, max-1, ..., 1, 2, ..., max, max-1, ... ("bounce") or with the
    # turning sizes dealt twice: ..., 2, 1, 1, 2, ..., max, max, ... ("repeat_ends").
    hand_sequence: str = field(default="bounce", metadata={"choices": ("bounce", "repeat_ends")})
    # Scores below zero are kept (False) or raised to zero (True) when a hand is scored.
    floor_at_zero: bool = False
    # The game also ends after this many hands (0: no limit; 1: the single-hand game).
    max_hands: int = field(default=0, metadata={"min": 0, "max": 10_000})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices.

    Without the hook rule every player may hit every bid forever, so ``hook=False`` needs a
    hand limit (``max_hands > 0``) to keep the game finite.
    """
    rules = make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
    if not rules.hook and rules.max_hands == 0:
        raise ValueError(
            "option hook=False needs max_hands > 0: without the hook rule a game may never "
            "end (choose hook=True, or a hand limit such as max_hands=50)"
        )
    return rules
