"""Tricks: the suite's example game (docs/games.md, "Adding a game, step by step").

Twenty cards (ten to ace of four suits), five each; follow suit if you can, the highest card
of the led suit takes the trick and leads the next; most tricks wins. It exists to show the
smallest complete package on the engine kit, and is held to the same conformance suite as the
suite's games (``tests/test_games.py``).
"""

from __future__ import annotations

from koira_env.core.spec import GameSpec

SPEC = GameSpec(__name__, "tricks", "Tricks", (2, 4))
