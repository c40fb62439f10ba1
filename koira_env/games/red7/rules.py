"""Red7's rule options: every point where a reader of the seed text could differ.

Built only by ``make_rules`` (``koira_env.core.options.make_options``), so bad input gives the
suite's usual ``ValueError`` naming the valid choices. The defaults are the published basic
game (one round, last player standing wins); ``scoring="points"`` with ``canvas_draw=True``
is the published Advanced Red7. RULES.md (section Red7) says why each default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.options import RuleSet, make_options
from . import SPEC

TARGETS = {2: 40, 3: 35, 4: 30}  # Advanced Red7's points to win, by player count


@dataclass(frozen=True)
class Rules(RuleSet):
    """One validated Red7 rule set."""

    num_players: int = 4
    # Who takes the first turn of a round: the player left of the one whose palette card is
    # highest (the published rule) or player_0 in the first round, then the next seat.
    first_player: str = field(
        default="left_of_leader", metadata={"choices": ("left_of_leader", "player_0")}
    )
    # "last_standing": one round, the last player in wins (the seed text, the basic game);
    # "points": Advanced Red7's rounds, the round winner scoring its rule's cards, to a target.
    scoring: str = field(default="last_standing", metadata={"choices": ("last_standing", "points")})
    # Advanced Red7's draw: a card played to the canvas whose number is higher than the
    # number of cards in the player's palette draws the top card of the draw pile.
    canvas_draw: bool = False
    # One-round places: the winner first and everyone else tied ("winner"), or the others
    # ranked by how long they stayed in ("elimination").
    places: str = field(default="winner", metadata={"choices": ("winner", "elimination")})
    # Points to win with scoring="points"; 0: the published 40 / 35 / 30 for 2 / 3 / 4 players.
    target: int = field(default=0, metadata={"min": 0, "max": 1000})
    # Truncation safeguard for scoring="points": every round scores at least one card, so a
    # points game has at most 50 - 8n rounds and the default never truncates (RULES.md).
    max_rounds: int = field(default=100, metadata={"min": 1, "max": 100_000})

    @property
    def points_to_win(self) -> int:
        return self.target or TARGETS[self.num_players]


def make_rules(num_players: int = 4, **options: Any) -> Rules:
    """Validated rules; ``ValueError`` names the fault and the valid choices."""
    return make_options(Rules, num_players, SPEC.players, SPEC.title, **options)
