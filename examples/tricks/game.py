"""Tricks as a game of the suite: the options, the observation, action names and text.

The observation is built from ``state.view(seat)`` alone, so it cannot show a hidden card;
the suite's fast games build theirs from bytes tables instead (``core.encoding``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koira_env.core import events
from koira_env.core.game import Game, action_index
from koira_env.core.text import dealt_hands, hand_and_moves, result_line

from . import SPEC
from .engine import NUM_CARDS, State, card_id, card_name
from .rules import Rules, make_rules


class TricksGame(Game):
    """Tricks under one ``Rules``; build it with ``make_game``."""

    spec = SPEC
    deck_size = NUM_CARDS
    max_decks = 1  # dealt once
    state_class = State  # what the kit's new_state deals

    def __init__(self, rules: Rules) -> None:
        n = rules.num_players
        fields = [
            ("cards_mine", NUM_CARDS, 1.0),
            ("cards_trick", NUM_CARDS, 1.0),
            ("cards_played", NUM_CARDS, 1.0),
            ("trick_leader", n, 1.0),  # seat-relative: entry r is r seats after me
            ("tricks_won", n, 1.0 / rules.hand_size),
        ]
        super().__init__(rules, NUM_CARDS, fields)  # action a: play card a

    card_name = staticmethod(card_name)
    card_id = staticmethod(card_id)

    def action_name(self, action: int) -> str:
        return card_name(action_index(action, self.num_actions))

    def observation(self, state: State, seat: int) -> np.ndarray:
        view = state.view(seat)
        n = self.num_players
        codes = np.zeros(self.observation_size, np.uint8)
        where = self.observation_layout
        codes[where["cards_mine"]][list(view.hand)] = 1
        codes[where["cards_trick"]][[c for _, c in view.trick]] = 1
        codes[where["cards_played"]][list(view.played)] = 1
        if view.trick:
            codes[where["trick_leader"]][(view.trick[0][0] - seat) % n] = 1
        codes[where["tricks_won"]] = [view.tricks_won[(seat + r) % n] for r in range(n)]
        return codes * self._scale

    def render(self, state: State, seat: int) -> str:
        view = state.view(seat)
        trick = " ".join(f"{card_name(c)}(p{p})" for p, c in view.trick) or "-"
        lines = [
            f"{self.title}: tricks won {list(view.tricks_won)}",
            f"Trick: {trick}",
        ]
        lines += hand_and_moves(self, seat, map(card_name, view.hand), view.legal)
        if state.is_terminal:
            lines.append(result_line(state, 1))
        return "\n".join(lines)

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == events.DEAL:
            return f"Deal. {dealt_hands(event)}"
        if kind == events.TRICK:
            return f"player_{event['winner']} takes {' '.join(event['cards'])}"
        return super().describe_event(event)  # a card played, the result (core.text)


def make_game(num_players: int = 4, **options: Any) -> TricksGame:
    """A ``TricksGame``; ``ValueError`` for a bad player count or option."""
    return TricksGame(make_rules(num_players, **options))
