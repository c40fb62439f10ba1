"""Mätäpesä's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``MatapesaView``: its own hand and the whole table (played
cards stay face up in front of their players, the cards left over from the deal are face
up); the other hands are counts. The full view (``seat`` ``None``) shows every hand.
"""

from __future__ import annotations

from typing import Any

from ...cards import RANK_OF, RANKS, card_name
from ...core.table import legal_moves, seat_entry, table_dict, visible_hands, zone
from .engine import MatapesaView, State


def _cards(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _seat(view: MatapesaView, p: int, hand: Any) -> dict[str, Any]:
    shown = [] if hand is None else _cards(hand)
    won = view.tricks_won[p]
    flags = ["loser"] if p == view.loser else []
    if p == view.trick_winner and view.loser < 0:
        flags.append("taking the trick")
    piles = [zone("played", cards=_cards(view.played[p]))]
    info = [f"{view.hand_sizes[p]} in hand", f"{won} trick{'s' * (won != 1)} won"]
    return seat_entry(p, shown, view.hand_sizes[p] - len(shown), piles, info, flags)


def _status(state: State, view: MatapesaView) -> str:
    if view.loser >= 0:
        return f"game over: player_{view.loser} won the last trick and loses"
    reach = f", to reach {RANKS[view.to_reach]}" if view.to_reach >= 0 else ""
    trick = f"trick {view.trick_number + 1} of {view.num_tricks}"
    return f"{trick}: player_{state.current} to play{reach}"


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Mätäpesä's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    view = state.view(0 if full else seat)
    hands = visible_hands(state, seat)

    def move_cards(rank: int) -> list[str]:
        """The card a rank puts down: the seat's lowest suit of it (the engine's rule)."""
        return [card_name(next(c for c in view.hand if RANK_OF[c] == rank))]

    zones = [zone("out of play", cards=_cards(view.out_of_play))]
    if view.loser < 0:
        zones.append(zone("trick", plays=[(p, [card_name(c)]) for p, c in view.trick]))
    if view.trick_number:
        last = view.trick_number - 1  # every seat plays once per trick: its k-th card
        plays = [(p, [card_name(view.played[p][last])]) for p in range(state.n)]
        zones.append(zone("trick before", plays=plays))
    return table_dict(
        state,
        seat,
        status=_status(state, view),
        seats=[_seat(view, p, hands[p]) for p in range(state.n)],
        zones=zones,
        moves=legal_moves(state.game, view.legal, move_cards),
    )
