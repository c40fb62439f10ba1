"""Text rendering of a game from one seat's view: public information plus that seat's hand.

One renderer serves the environment's ``render()`` (the acting player's view) and the
terminal game for people (``koira_experiments.human_play``), so both show the same table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...cards import RANKS, card_name
from ...core import events
from ...core.text import counted, describe_shared
from .engine import GAME_OVER, PHASE_ONE, TRUMP_ASIDE, State
from .info import SeatView, seat_view

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def cards_text(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


def view_lines(view: SeatView, names: Sequence[str] | None = None) -> list[str]:
    """The table as ``view.seat`` sees it, without its hand (callers word that line).

    ``names`` label the players (e.g. "you", a bot's name).
    """
    trump = SUIT_NAMES[view.trump_suit] if view.trump_suit >= 0 else "unknown"
    hidden = [c for c in range(52) if view.where[c] == TRUMP_ASIDE]
    if hidden:
        trump += f" (hidden trump card {card_name(hidden[0])}, held by player_{view.seat})"
    elif view.trump_holder >= 0:
        trump += f" (trump card with player_{view.trump_holder})"
    lines = [f"trump: {trump}; stock: {counted(view.stock_size, 'card')}"]
    for p in range(view.num_players):
        label = f" ({names[p]})" if names else ""
        status = f"; out in place {view.placements.index(p) + 1}" if view.out[p] else ""
        won = f", won {view.won_sizes[p]}" if view.phase == PHASE_ONE else ""
        lines.append(f"  player_{p}{label}: {view.hand_sizes[p]} in hand{won}{status}")
    if view.phase == PHASE_ONE:
        pile = ", ".join(f"player_{p} {card_name(c)}" for p, c in view.pile) or "empty"
        lines.append(f"trick: {pile}")
        if view.war_players:
            players = ", ".join(f"player_{p}" for p in view.war_players)
            lines.append(f"WAR on rank {RANKS[view.war_rank]} (depth {view.war_depth}): {players}")
    else:
        plays = " | ".join(f"player_{p} {'-'.join(map(card_name, cs))}" for p, cs in view.trick)
        lines.append(
            f"trick: {plays or 'empty (leader plays)'}"
            f"  [{view.trick_count} of {view.trick_needed} plays]"
        )
    return lines


def render_text(state: State, seat: int) -> str:
    """A few lines a human can follow: public information and ``seat``'s own cards only."""
    title = "Mattis" if state.rules.preset == "mattis" else "Koira"
    lines = [f"{title} ({state.rules.preset}, {state.n} players), action {state.actions_taken}"]
    if state.phase != GAME_OVER:
        lines[0] += f", phase {state.phase}"
    if state.phase == GAME_OVER:
        if state.truncated:
            lines.append("game truncated (max_actions reached)")
        else:
            order = ", ".join(f"player_{p}" for p in state.placements)
            lines.append(f"game over: player_{state.placements[-1]} loses; order out: {order}")
        return "\n".join(lines)
    view = seat_view(state, seat)
    lines += view_lines(view)
    hand = cards_text(sorted(view.hand))
    if seat == state.current:
        lines.append(f"player_{seat} to act, holding: {hand}")
    else:
        lines += [f"player_{state.current} to act", f"player_{seat} holds: {hand}"]
    return "\n".join(lines)


# the kinds worded without code (``core.text.describe_shared``)
EVENT_TEXT = {
    "draw": "player_{player} draws {count}",
    "trick_emptied": "the trick is empty; player_{next_leader} leads",
    "out": "player_{player} is out in place {place}",
    events.GAME_OVER: "GAME OVER: player_{loser} loses; order out: {placements}",
    "war_dropout": "player_{player} cannot play and drops out of the war",
}


def describe_event(event: dict[str, Any]) -> str:
    """One human-readable line per event, for demos and ``koira replay``; ``KeyError`` for a
    kind it does not know (``core.record.describe_event`` then shows the raw JSON)."""
    kind = event["type"]
    who = f"player_{event['player']}" if "player" in event else ""
    if kind == events.PLAY:
        if "card" in event:
            return f"{who} plays {event['card']}" + (
                " (risked from the stock)" if event["risked"] else ""
            )
        return f"{who} plays {'-'.join(event['cards'])}"
    if kind == "war":
        players = ", ".join(f"player_{p}" for p in event["players"])
        return f"WAR on {event['rank']}s (depth {event['depth']}): {players}"
    if kind == events.TRICK:
        return f"{who} wins the trick: {' '.join(event['cards'])}"
    if kind == "trump_card":
        shown = event["card"] if event["revealed"] else "a hidden card"
        return f"{who} takes the last stock card as the trump card: {shown}"
    if kind == "phase_two":
        return (
            f"--- phase two: trump card {event['trump_card']}"
            f" (held by player_{event['trump_holder']}), player_{event['leader']} leads;"
            f" hand sizes {event['hand_sizes']}"
        )
    if kind == "take":
        return f"{who} takes {' '.join(event['cards'])}"
    if kind == "trick_discarded":
        return f"player_{event['winner']} completes the trick; discarded {' '.join(event['cards'])}"
    if kind in ("split", "stalemate", "trick_returned"):
        parts = "; ".join(f"player_{s['player']}: {' '.join(s['cards'])}" for s in event["shares"])
        return f"{kind.replace('_', ' ')}: {parts}"
    return describe_shared(event, EVENT_TEXT)
