"""Mätäpesä's rule options: every point where a reader of the seed text could differ.

Built only by ``make_rules`` (``koira_env.core.options.make_options``), so bad input gives the
suite's usual ``ValueError`` naming the valid choices. RULES.md explains each option.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...cards import SUIT_SETS, ranked_cards
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
    # The deck holds the deck_ranks highest ranks of each suit in play (13: 2 to A; 3: Q, K,
    # A). Fewer cards make mini Mätäpesä (deck_ranks=3, deck_suits="HS" at 3 players: Q, K, A
    # of hearts and spades, two cards each), small enough to solve exactly.
    deck_ranks: int = field(default=13, metadata={"min": 1, "max": 13})
    # The suits in play, as letters from "CDHS" in that order ("HS": hearts and spades).
    deck_suits: str = field(default="CDHS", metadata={"choices": SUIT_SETS})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    rules = make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
    size = rules.deck_ranks * len(rules.deck_suits)
    if size < num_players:
        raise ValueError(
            f"a deck of {size} cards (deck_ranks={rules.deck_ranks}, deck_suits="
            f"{rules.deck_suits!r}) cannot deal a card to each of {num_players} players"
        )
    return rules


def deck_cards(rules: Rules) -> tuple[int, ...]:
    """The ids of the cards in play, in id order (all 52 by default)."""
    return ranked_cards(rules.deck_ranks, rules.deck_suits)
