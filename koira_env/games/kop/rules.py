"""Kop's rule options: every point where a reader of the seed text could differ.

Built only by ``make_rules`` (``koira_env.core.options.make_options``), so bad input gives the
suite's usual ``ValueError`` naming the valid choices. RULES.md (section Kop) says why each
default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.options import RuleSet, make_options
from . import SPEC


@dataclass(frozen=True)
class Rules(RuleSet):
    """One validated Kop rule set."""

    num_players: int = 4
    # Victory cards each player starts with; the game ends once someone has none.
    victory_cards: int = field(default=5, metadata={"min": 1, "max": 20})
    # Play one hand only; the winning side takes first place (the victory cards are unused).
    single_hand: bool = False
    # A silent holder of both black queens plays a secret solo, scored as a solo ("solo": 2
    # victory cards per opponent) or by the team rule for a side of one ("team": 1 each).
    silent_scoring: str = field(default="solo", metadata={"choices": ("solo", "team")})
    # A caller who holds the jack of clubs calls the highest jack they do not hold
    # ("next_jack") or may not call a partner at all ("no_call").
    call_own_jack: str = field(default="next_jack", metadata={"choices": ("next_jack", "no_call")})
    # 52-52: nobody wins the hand ("nobody") or the black queens' side loses ("queens_lose",
    # as Doppelkopf's Re party needs more than half).
    tie: str = field(default="nobody", metadata={"choices": ("nobody", "queens_lose")})
    # Truncation safeguard: victory cards can flow back and forth forever (RULES.md).
    max_hands: int = field(default=200, metadata={"min": 1, "max": 100_000})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    return make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
