"""What one seat may know: the single source for bots' views and the observation vector.

A seat knows every card's public location (``State.pub``: face-up plays, won piles, takes,
discards, the revealed trump card), its own hand, and - if it holds it - the hidden trump
card. Everything else is ``UNKNOWN``. Nothing in here reads another seat's hand.
"""

from __future__ import annotations

from typing import NamedTuple

from ...cards import SUIT_OF
from .engine import HAND, PHASE_ONE, TRUMP_ASIDE, UNKNOWN, State


def known_locations(state: State, seat: int) -> bytearray:
    """Per card, its location code as ``seat`` knows it (``UNKNOWN`` when hidden from it)."""
    where = state.pub[:]
    code = HAND + seat
    for card in state.hands[seat]:
        where[card] = code
    if state.trump_holder == seat and state.loc[state.trump_card] == TRUMP_ASIDE:
        where[state.trump_card] = TRUMP_ASIDE
    return where


def known_trump_suit(state: State, seat: int) -> int:
    """The trump suit if ``seat`` knows it, else -1 (the hidden trump card's holder knows early)."""
    if state.trump_suit >= 0:
        return state.trump_suit
    if state.trump_holder == seat:
        return SUIT_OF[state.trump_card]
    return -1


class SeatView(NamedTuple):
    """Everything one seat may know, in plain Python types, for bots and the CLI.

    A NamedTuple rather than a frozen dataclass: it is built for every decision of every
    tournament game, and a tuple is several times cheaper to build.
    """

    seat: int
    num_players: int
    phase: int  # 1, 2, or 3 (game over)
    current: int  # whose turn it is
    hand: tuple[int, ...]
    legal: tuple[int, ...]  # empty unless it is this seat's turn
    where: bytes  # per card: location code as known to this seat (engine HAND/WON/... codes)
    hand_sizes: tuple[int, ...]
    won_sizes: tuple[int, ...]
    stock_size: int
    trump_suit: int  # -1 while unknown to this seat
    trump_holder: int  # -1 until the last stock card is taken (who holds it is public)
    # phase one: the whole trick so far and the current round (trick round or war round)
    pile: tuple[tuple[int, int], ...]
    round_cards: tuple[tuple[int, int], ...]
    war_players: tuple[int, ...]  # empty when no war is on
    war_rank: int
    war_depth: int
    # phase two: the plays still in the trick, bottom first
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    trick_count: int
    trick_needed: int
    out: tuple[bool, ...]
    placements: tuple[int, ...]

    @property
    def unknown_cards(self) -> list[int]:
        return [c for c in range(52) if self.where[c] == UNKNOWN]


def seat_view(state: State, seat: int) -> SeatView:
    phase_one = state.phase == PHASE_ONE
    return SeatView(
        seat=seat,
        num_players=state.n,
        phase=state.phase,
        current=state.current,
        hand=tuple(state.hands[seat]),
        legal=tuple(state.legal_actions()) if state.current == seat else (),
        where=bytes(known_locations(state, seat)),
        hand_sizes=tuple(map(len, state.hands)),
        won_sizes=tuple(map(len, state.won)),
        stock_size=len(state.stock),
        trump_suit=known_trump_suit(state, seat),
        trump_holder=state.trump_holder,
        pile=tuple(state.pile) if phase_one else (),
        round_cards=tuple(state.round_cards) if phase_one else (),
        war_players=tuple(state.round_players) if phase_one and state.in_war else (),
        war_rank=state.war_rank if phase_one and state.in_war else -1,
        war_depth=state.war_depth if phase_one else 0,
        trick=tuple((p, tuple(cs)) for p, cs in state.trick),
        trick_count=state.trick_count,
        trick_needed=state.trick_needed,
        out=tuple(state.out),
        placements=tuple(state.placements),
    )
