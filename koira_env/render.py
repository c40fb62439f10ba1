"""Text rendering of a game: public information plus the acting player's hand, nothing else."""

from __future__ import annotations

from .cards import SUITS, card_name
from .engine import GAME_OVER, PHASE_ONE, TRUMP_ASIDE, State
from .info import known_trump_suit


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


def render_text(state: State) -> str:
    """A few lines a human can follow; hidden cards other than the actor's own never appear."""
    n = state.n
    actor = state.current
    lines = [f"Koira ({state.rules.preset}, {n} players), action {state.actions_taken}"]
    if state.phase == GAME_OVER:
        if state.truncated:
            lines.append("game truncated (max_actions reached)")
        else:
            order = ", ".join(f"player_{p}" for p in state.placements)
            lines.append(f"game over: player_{state.placements[-1]} loses; order out: {order}")
        return "\n".join(lines)
    trump = known_trump_suit(state, actor)
    holder = f"player_{state.trump_holder}" if state.trump_holder >= 0 else "not drawn yet"
    suit = SUITS[trump] if trump >= 0 else "unknown"
    lines.append(
        f"phase {state.phase}; stock {len(state.stock)}; trump suit {suit}; trump card: {holder}"
    )
    for p in range(n):
        status = " (out)" if state.out[p] else ""
        marker = "*" if p == actor else " "
        won = f", won {len(state.won[p])}" if state.phase == PHASE_ONE else ""
        lines.append(f"{marker} player_{p}: {len(state.hands[p])} in hand{won}{status}")
    if state.phase == PHASE_ONE:
        pile = " ".join(f"{card_name(c)}(p{p})" for p, c in state.pile) or "-"
        lines.append(f"pile: {pile}")
        if state.in_war:
            players = ", ".join(f"player_{p}" for p in state.round_players)
            lines.append(f"war depth {state.war_depth}: {players}")
    else:
        plays = " | ".join(f"p{p}: {_cards(cards)}" for p, cards in state.trick) or "-"
        lines.append(f"trick ({state.trick_count}/{state.trick_needed} plays): {plays}")
    lines.append(f"player_{actor} to act, holding: {_cards(sorted(state.hands[actor]))}")
    if state.trump_holder == actor and state.loc[state.trump_card] == TRUMP_ASIDE:
        lines.append(f"player_{actor}'s hidden trump card: {card_name(state.trump_card)}")
    return "\n".join(lines)
