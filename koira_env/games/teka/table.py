"""Teka's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``TekaView``: its own hand, the auction's calls, the contract,
trumps and raises, the trick being played and the last one, tricks won and the two sides'
points; the other hands are counts. In the event log a deal shows the seat only its own hand.
The full view (``seat`` ``None``) shows every hand.
"""

from __future__ import annotations

from typing import Any

from ...cards import NUM_CARDS, card_name
from ...core.table import legal_moves, score_sheet, seat_entry, table_dict, visible_hands, zone
from ...core.text import counted
from .engine import HAND_SIZE, SUIT_WORDS, State, TekaView, action_name


def _cards(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _move_cards(action: int) -> list[str]:
    return [card_name(action)] if action < NUM_CARDS else []


def _seat(view: TekaView, p: int, hand: Any) -> dict[str, Any]:
    shown = [] if hand is None else _cards(hand)
    held = HAND_SIZE - sum(1 for by in view.played_by if by == p)
    info = [
        f"won {counted(view.won[p], 'trick')}",
        f"side {p % 2}: {counted(view.scores[p % 2], 'point')}",
    ]
    if view.calls[p] >= 0:
        info.insert(0, f"called {action_name(view.calls[p])}")
    flags = []
    if p == view.dealer:
        flags.append("dealer")
    if p == view.declarer:
        flags.append("declarer")
    if p == view.out:
        flags.append("sits out")
    return seat_entry(p, shown, held - len(shown), (), info, flags)


def _status(state: State, view: TekaView) -> str:
    if state.is_terminal:
        return "game stopped at the hand limit: no result" if state.truncated else "game over"
    return f"hand {view.hand_no + 1}, {view.phase}: player_{state.current} to act"


def _zones(view: TekaView) -> list[dict[str, Any]]:
    zones = []
    if view.declarer >= 0:
        contract = "double 13" if view.double else f"{view.contract} tricks"
        trump = f", {SUIT_WORDS[view.trump]} trumps" if view.trump >= 0 else ""
        zones.append(zone("contract", text=f"player_{view.declarer}: {contract}{trump}"))
    zones.append(zone("trick", plays=[(p, [card_name(c)]) for p, c in view.trick]))
    if view.tricks:
        lead, cards, winner = view.tricks[-1]
        order = [p for p in range(lead, lead + 4) if p % 4 != view.out][: len(cards)]
        plays = [(p % 4, [card_name(c)]) for p, c in zip(order, cards, strict=True)]
        zones.append(zone("last trick", plays=plays, text=f"won by player_{winner}"))
    return zones


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Teka's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    view = state.view(state.current if full and not state.is_terminal else (seat or 0))
    hands = visible_hands(state, seat)
    return table_dict(
        state,
        seat,
        status=_status(state, view),
        seats=[_seat(view, p, hands[p]) for p in range(state.n)],
        zones=_zones(view),
        moves=legal_moves(state.game, view.legal, _move_cards),
        scores=score_sheet(
            state,
            "the sides' points after each hand (the hand's points)",
            ["side 0 (players 0, 2)", "side 1 (players 1, 3)"],
            lambda e: [f"{s} (+{d})" for s, d in zip(e["scores"], e["points"], strict=True)],
        ),
    )
