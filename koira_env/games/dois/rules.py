"""Dois's rule options: every point where a reader of the seed text could differ.

Built only by ``make_rules`` (``koira_env.core.options.make_options``), so bad input gives the
suite's usual ``ValueError`` naming the valid choices. RULES.md (section Dois) says why each
default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.options import RuleSet, make_options
from . import SPEC


@dataclass(frozen=True)
class Rules(RuleSet):
    """One validated Dois rule set."""

    num_players: int = 4
    # Hands in a game (the text: 8); 1 is the single-hand game. The trump pile is reshuffled
    # after every fourth hand.
    hands: int = field(default=8, metadata={"min": 1, "max": 20})
    # Bids are made in turn from the dealer's left, each seen by the later bidders ("open",
    # as the published game's tokens are taken in turn), or kept hidden until everyone has
    # bid ("sealed").
    bidding: str = field(default="open", metadata={"choices": ("open", "sealed")})
    # A hand with fewer than 3 suit cards or 3 number cards: that player alone shows it and
    # draws a new hand from it and the undealt cards ("player", the seed text), or everyone
    # is dealt again ("all").
    redeal: str = field(default="player", metadata={"choices": ("player", "all")})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    return make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
