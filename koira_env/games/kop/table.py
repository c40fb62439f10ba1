"""Kop's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``KopView``: its own hand, the tricks of this hand, the public
call or solo (and its own silence), points and victory cards; the other hands are counts. In
the event log a deal shows the seat only its own hand and a silent holder's turn reads as
the pass it announced. The full view (``seat`` ``None``) shows every hand and the sides.
"""

from __future__ import annotations

from typing import Any

from ...core.table import legal_moves, score_sheet, seat_entry, table_dict, visible_hands, zone
from ...core.text import counted
from .cards import NUM_CARDS, card_name
from .engine import HAND_SIZE, KopView, State


def _cards(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _move_cards(action: int) -> list[str]:
    return [card_name(action)] if action < NUM_CARDS else []


def _seat(view: KopView, p: int, hand: Any, sides: list[int]) -> dict[str, Any]:
    played = sum(1 for by in view.played_by if by == p)
    shown = [] if hand is None else _cards(hand)
    won = [c for _, cards, winner in view.tricks if winner == p for c in cards]
    info = [counted(view.victory_cards[p], "victory card"), counted(view.points[p], "point")]
    flags = []
    role = {"call": "caller", "solo": "solo", "silent": "silent solo"}.get(view.call or "")
    if p == view.caller and role:
        flags.append(role)
    if view.called_jack >= 0 and view.played_by[view.called_jack] == p:
        flags.append("partner")  # the called jack is played: its holder is known
    if sides and sides[p] == 0:
        flags.append("black queens' side")
    piles = [zone("won", cards=_cards(won))]
    return seat_entry(p, shown, HAND_SIZE - played - len(shown), piles, info, flags)


def _seen(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event as ``seat`` saw it: a declaration is what was announced unless it is the
    seat's own."""
    if event["type"] == "declare" and event["player"] != seat:
        return {**event, "choice": event["announce"]}
    return event


def _status(state: State, view: KopView) -> str:
    if state.is_terminal:
        return "game stopped at the hand limit: no result" if state.truncated else "game over"
    hand = f"hand {view.hand_no + 1}"
    if view.declaring >= 0:
        return f"{hand}: declarations, player_{view.declaring} to declare"
    return f"{hand}: player_{state.current} to play"


def _zones(view: KopView) -> list[dict[str, Any]]:
    zones = []
    if view.call == "call":
        zones.append(
            zone("call", text=f"player_{view.caller} called {card_name(view.called_jack)}")
        )
    elif view.call == "solo":
        zones.append(zone("call", text=f"player_{view.caller} plays solo"))
    elif view.call == "silent":
        zones.append(zone("call", text=f"player_{view.caller} plays a silent solo"))
    zones.append(zone("trick", plays=[(p, [card_name(c)]) for p, c in view.trick]))
    if view.tricks:
        lead, cards, winner = view.tricks[-1]
        plays = [((lead + i) % len(view.points), [card_name(c)]) for i, c in enumerate(cards)]
        zones.append(zone("last trick", plays=plays, text=f"won by player_{winner}"))
    return zones


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Kop's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    if full:  # the truth: the deciding seat's view knows its own (even silent) choice
        view = state.view(state.decider if state.decider >= 0 else 0)
        sides = list(state.side)
    else:
        view = state.view(seat)
        sides = []
    hands = visible_hands(state, seat)
    return table_dict(
        state,
        seat,
        status=_status(state, view),
        seats=[_seat(view, p, hands[p], sides) for p in range(state.n)],
        zones=_zones(view),
        moves=legal_moves(state.game, view.legal, _move_cards),
        seen=_seen,
        scores=score_sheet(
            state,
            "victory cards after each hand (the hand's change)",
            [f"player_{p}" for p in range(state.n)],
            lambda e: [
                f"{v} ({d:+d})" for v, d in zip(e["victory_cards"], e["change"], strict=True)
            ],
        ),
    )
