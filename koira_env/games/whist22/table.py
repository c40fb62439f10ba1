"""Whist 22's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``WhistView``: its own hand, every card played this hand, the
bids, tricks and scores; the other hands and the cards set aside are counts. In the event
log a deal shows the seat only its own hand. The full view (``seat`` ``None``) shows every
hand and the cards set aside.
"""

from __future__ import annotations

from typing import Any

from ...core.table import legal_moves, score_sheet, seat_entry, table_dict, visible_hands, zone
from ...core.text import counted
from .engine import ASIDE, FOOL, FOOL_HIGH, NUM_CARDS, State, WhistView, action_name, card_name


def _cards(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _move_cards(action: int) -> list[str]:
    """The card a move plays: the Fool for either declared value, none for a bid."""
    if action == FOOL_HIGH:
        return [card_name(FOOL)]
    return [card_name(action)] if action < NUM_CARDS else []


def _seat(view: WhistView, p: int, hand: Any) -> dict[str, Any]:
    held = view.hand_size - len(view.played[p]) if view.phase != "over" else 0
    shown = [] if hand is None else _cards(hand)
    bid = view.bids[p]
    info = [f"bid {bid}" if bid >= 0 else "no bid yet", f"won {view.tricks[p]}"]
    info.append(f"score {view.scores[p]}")
    flags = ["dealer"] if p == view.dealer and view.phase != "over" else []
    piles = [zone("played", cards=_cards(view.played[p]))]
    return seat_entry(p, shown, held - len(shown), piles, info, flags)


def _status(view: WhistView) -> str:
    if view.phase == "over":
        return f"game over after {counted(view.hand_number, 'hand')}"
    what = "to bid" if view.phase == "bid" else "to play"
    hook = f" (may not bid {view.forbidden_bid})" if view.forbidden_bid >= 0 else ""
    return f"hand {view.hand_number + 1}: player_{view.current} {what}{hook}"


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Whist 22's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    view = state.view(0 if full else seat)
    hands = visible_hands(state, seat)
    zones = []
    if view.phase != "over":
        aside = NUM_CARDS - state.n * view.hand_size
        zones.append(zone("hand", text=f"{view.hand_size} card(s) each"))
        plays = [(p, [action_name(value)]) for p, value in view.trick]
        zones.append(zone("trick", plays=plays))
        if full:
            zones.append(zone("aside", cards=_cards(c for c in range(22) if state.loc[c] == ASIDE)))
        elif aside:
            zones.append(zone("aside", count=aside))
    if view.fool >= 0:
        zones.append(zone("Fool", text=f"declared {view.fool}"))
    return table_dict(
        state,
        seat,
        status=_status(view),
        seats=[_seat(view, p, hands[p]) for p in range(state.n)],
        zones=zones,
        moves=legal_moves(state.game, view.legal, _move_cards),
        face_down=("aside",),
        scores=score_sheet(
            state,
            "score after each hand (tricks won / bid)",
            [f"player_{p}" for p in range(state.n)],
            lambda e: [
                f"{s} ({t}/{b})"
                for s, t, b in zip(e["scores"], e["tricks"], e["bids"], strict=True)
            ],
        ),
    )
