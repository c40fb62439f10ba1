"""Mätäpesä's rule options: every point where a reader of the seed text could differ.

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
    """One validated Mätäpesä rule set (RULES.md, section Mätäpesä, says why each default)."""

    num_players: int = 4
    # What a follower must reach ("same or higher rank"): the highest card of the trick so
    # far (as in Cucumber) or the card played just before.
    follow: str = field(default="highest", metadata={"choices": ("highest", "previous")})
    # Whether a follower who could reach the trick may still play their lowest card (the
    # text's "or"; Cucumber allows it), or only when they cannot.
    lowest_anytime: bool = True
    # Which of several cards of the winning rank takes the trick: the last played (the text)
    # or the first.
    tie_winner: str = field(default="last", metadata={"choices": ("last", "first")})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    return make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
