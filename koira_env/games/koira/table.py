"""Koira's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``SeatView`` alone: every card is drawn where the seat knows it
to be (``view.where``: its own hand, the hidden trump card if it holds it, and everything
public: plays, won piles, takes, discards), and the rest are counts. The full view (``seat``
``None``) merges every seat's view and shows the stock in drawing order.
"""

from __future__ import annotations

from typing import Any

from ...cards import RANKS, card_name
from ...core.table import legal_moves, place_name, seat_entry, table_dict, zone
from .engine import (
    DISCARD,
    GAME_OVER,
    HAND,
    PHASE_ONE,
    TRUMP_ASIDE,
    WON,
    State,
    action_cards,
)
from .info import SeatView
from .render import SUIT_NAMES
from .rules import removed_unseen


def _names(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _at(view: SeatView, code: int) -> list[str]:
    """The cards ``view`` knows to be at location ``code``, by id."""
    return [card_name(c) for c in range(52) if view.where[c] == code]


def _seat(state: State, view: SeatView, p: int, full: bool) -> dict[str, Any]:
    """Seat ``p`` as ``view.seat`` knows it (``full``: ``view`` is p's own view)."""
    mine = full or p == view.seat
    hand = _names(sorted(view.hand)) if mine else _at(view, HAND + p)
    piles = []
    if view.phase == PHASE_ONE:
        piles.append(zone("won", cards=_at(view, WON + p)))
    if view.trump_holder == p and view.phase == PHASE_ONE:
        aside = _at(view, TRUMP_ASIDE)
        if aside or state.rules.trump_card == "hidden":
            piles.append(zone("trump card", cards=aside) if aside else zone("trump card", count=1))
    flags = []
    if view.out[p]:
        flags.append(f"out {place_name(view.placements.index(p) + 1)}")
    elif view.phase == GAME_OVER and not state.truncated:
        flags.append("loser")
    if view.trump_holder == p:
        flags.append("trump holder")
    info = [f"{view.hand_sizes[p]} in hand"]
    if view.phase == PHASE_ONE:
        info.append(f"{view.won_sizes[p]} won")
    return seat_entry(p, hand, view.hand_sizes[p] - len(hand), piles, info, flags)


def _zones(state: State, view: SeatView, full: bool) -> list[dict[str, Any]]:
    trump = SUIT_NAMES[view.trump_suit] if view.trump_suit >= 0 else "unknown"
    zones = [zone("trump", text=trump)]
    if view.phase == PHASE_ONE:
        stock = zone("stock", count=view.stock_size)
        if full:
            stock["cards"] = _names(reversed(state.stock))  # the next card to draw first
        zones.append(stock)
        zones.append(zone("trick", plays=[(p, [card_name(c)]) for p, c in view.pile]))
        if view.war_players:
            players = ", ".join(f"player_{p}" for p in view.war_players)
            rank = RANKS[view.war_rank]
            zones.append(zone("war", text=f"on {rank}s, depth {view.war_depth}: {players}"))
    elif view.phase != GAME_OVER:
        plays = [(p, _names(cs)) for p, cs in view.trick]
        count = f"{view.trick_count} of {view.trick_needed} plays"
        zones.append(zone("trick", plays=plays, text=count))
    discarded = _at(view, DISCARD)
    if discarded:
        zones.append(zone("discarded", count=len(discarded)))
    removed = removed_unseen(state.rules)
    if removed:
        zones.append(zone("removed unseen", count=removed))
    return zones


def _move_cards(action: int) -> list[str]:
    return _names(action_cards(action))


def _status(state: State, view: SeatView) -> str:
    if view.phase == GAME_OVER:
        if state.truncated:
            return "game stopped at the action limit: no result"
        return f"game over: player_{view.placements[-1]} loses"
    phase = "phase one: collecting" if view.phase == PHASE_ONE else "phase two: shedding"
    return f"{phase}; player_{view.current} to play"


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Koira's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    views = [state.view(p) for p in range(state.n)] if full else [state.view(seat)]
    view = views[0]
    if full and view.trump_holder >= 0:
        view = views[view.trump_holder]  # the hidden trump card's holder knows the suit first
    return table_dict(
        state,
        seat,
        status=_status(state, view),
        seats=[_seat(state, views[p] if full else view, p, full) for p in range(state.n)],
        zones=_zones(state, view, full),
        moves=legal_moves(state.game, view.legal, _move_cards),
    )
