"""Teka's rule options: every point where a reader of the seed text could differ.

Built only by ``make_rules`` (``koira_env.core.options.make_options``), so bad input gives the
suite's usual ``ValueError`` naming the valid choices. RULES.md (section Teka) says why each
default and which source it follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.options import RuleSet, make_options
from . import SPEC


@dataclass(frozen=True)
class Rules(RuleSet):
    """One validated Teka rule set."""

    num_players: int = 4
    # Points a side needs to win the game (the text: 104).
    target: int = field(default=104, metadata={"min": 8, "max": 200})
    # Play one hand only; the side that scores in it takes first place.
    single_hand: bool = False
    # A hand without an ace, king, queen or jack: redealt at once ("redeal"), its holder
    # chooses in a round before the auction ("ask", the text's "may ask"), or kept ("keep").
    no_honours: str = field(default="redeal", metadata={"choices": ("redeal", "ask", "keep")})
    # The first two speakers' passes come in three public strengths, "pass", "ter" and
    # "behi ter" (the pagat.com description); False: one pass for everyone (the seed text).
    pass_signals: bool = False
    # After three passes the dealer must bid ("dealer") or may pass too, throwing the hand in
    # ("redeal": the deal moves on, nobody scores).
    all_pass: str = field(default="dealer", metadata={"choices": ("dealer", "redeal")})
    # How often the declarer may raise its number bid during the play.
    raises: str = field(default="any", metadata={"choices": ("any", "once", "never")})
    # Stop the play as soon as the contract is made or beaten (the text), or play all tricks.
    early_end: bool = True
    # A failed number bid: the opponents score the bid ("opponents"), twice the bid
    # ("double", as the double thirteen's 52), or nobody scores ("nothing").
    failed_bid: str = field(
        default="opponents", metadata={"choices": ("opponents", "double", "nothing")}
    )
    # Truncation safeguard for the options under which hands can score nothing (RULES.md).
    max_hands: int = field(default=200, metadata={"min": 1, "max": 100_000})


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    return make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
