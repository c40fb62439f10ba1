"""Tricks' options, validated by ``core.options.make_options`` like every game's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from koira_env.core.options import RuleSet, make_options

from . import SPEC


@dataclass(frozen=True)
class Rules(RuleSet):
    """One validated rule set of Tricks."""

    num_players: int = 4
    # Cards dealt to each player (and tricks played): 20 cards serve four players of five.
    hand_size: int = field(default=5, metadata={"min": 1, "max": 5})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    return make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
