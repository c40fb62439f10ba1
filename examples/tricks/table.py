"""Tricks' table for the web page and the ``rgb_array`` picture (``Game.table``), built from
the seat's view: the other hands are counts, and a deal in the log shows only its own hand."""

from __future__ import annotations

from typing import Any

from koira_env.core.table import legal_moves, seat_entry, table_dict, zone
from koira_env.core.text import counted

from .engine import State, card_name


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Tricks' table dict (schema: ``koira_env.core.table``)."""
    view = state.view(0 if seat is None else seat)
    seats = []
    for p in range(state.n):
        shown = view.hand if p == seat else state.hands[p] if seat is None else ()
        info = [counted(view.tricks_won[p], "trick")]
        hidden = view.hand_sizes[p] - len(shown)
        seats.append(seat_entry(p, [card_name(c) for c in shown], hidden, info=info))
    status = "game over" if state.is_terminal else f"player_{state.current} to play"
    return table_dict(
        state,
        seat,
        status=status,
        seats=seats,
        zones=[zone("trick", plays=[(p, [card_name(c)]) for p, c in view.trick])],
        moves=legal_moves(state.game, view.legal, lambda a: [card_name(a)]),
    )
