"""Teka: Afghanistan's auction whist for two partnerships: one round of bids from 8 to 13 tricks
(or double thirteen, alone), declarer's trumps, play stops once the contract is decided, game
to 104."""

from __future__ import annotations

from ...core.spec import GameSpec

SPEC = GameSpec(
    __name__, "teka", "Teka", (4, 4), pimc="search.move_values", single_hand={"single_hand": True}
)
