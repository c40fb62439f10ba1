"""Build games from a chosen deal and drive them by card names, for the rules scenario tests.

A scenario names the three cards each seat is dealt and the top of the stock; every other
card fills the rest of the deck in id order (2C, 3C, ... AS), so any few consecutive filler
cards have different ranks and risking through the filler starts no war.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from koira_env import RISK, TAKE, State, card_id, new_game
from koira_env.cards import NUM_CARDS, SUITS
from koira_env.games.koira.engine import DISCARD, HAND, PHASE_ONE, PHASE_TWO, RUN_ACTION

PRESET_NAMES = ("koira", "koira-b", "mattis")
THREE_HANDS = [["KC", "9C", "2C"], ["5D", "9D", "3D"], ["5H", "TH", "4H"]]  # K, 5, 5 to start


def deck(
    n: int, hands: Sequence[Sequence[str]], stock: Sequence[str] = (), removed: Sequence[str] = ()
) -> list[str]:
    """A deck order that deals ``hands[p]`` to seat p and puts ``stock`` on top, top first.

    ``removed`` (two players only) are the last ten cards, which the deal removes unseen.
    """
    if len(hands) != n or any(len(h) != 3 for h in hands):
        raise ValueError(f"give exactly 3 cards for each of the {n} seats, got {hands}")
    order = [hands[i % n][i // n] for i in range(3 * n)] + list(stock)
    tail = list(removed)
    named = {card_id(c) for c in order + tail}
    if len(named) != len(order) + len(tail):
        raise ValueError("a card is named twice in the scenario")
    filler = [c for c in range(NUM_CARDS) if c not in named]
    return order + filler + tail


def game(
    n: int,
    preset: str,
    hands: Sequence[Sequence[str]],
    stock: Sequence[str] = (),
    removed: Sequence[str] = (),
    **options: Any,
) -> State:
    """A logged game dealt by ``deck``."""
    return new_game(n, preset, deck=deck(n, hands, stock, removed), log=True, **options)


def action(name: str) -> int:
    """``"risk"``, ``"take"``, a card ``"QS"`` or a run ``"5H-6H-7H"`` as an action id."""
    if name == "risk":
        return RISK
    if name == "take":
        return TAKE
    cards = tuple(card_id(c) for c in name.split("-"))
    return cards[0] if len(cards) == 1 else RUN_ACTION[cards]


def play(state: State, *names: str) -> State:
    """Apply the named actions in turn (each must be legal)."""
    for name in names:
        state.apply(action(name))
    return state


def legal(state: State) -> set[int]:
    return set(state.legal_actions())


def ids(*names: str) -> list[int]:
    return [card_id(c) for c in names]


def events(state: State, kind: str) -> list[dict[str, Any]]:
    assert state.log is not None, "build the game with log=True"
    return [e for e in state.log if e["type"] == kind]


def risk_down_to(state: State, stock_left: int) -> State:
    """Everyone risks until the stock holds ``stock_left`` cards (hands stay as dealt)."""
    while state.phase == PHASE_ONE and len(state.stock) > stock_left:
        state.apply(RISK)
    return state


def phase_two(
    n: int, preset: str, hands: Sequence[Sequence[str]], trump: str, leader: int = 0, **options: Any
) -> State:
    """A phase-two position: ``hands[p]`` per seat, ``trump`` suit letter, ``leader`` to lead.

    Reaching a chosen phase-two position through a deal would take a long scripted phase
    one, so the position is set directly: every other card is discarded, then the engine's
    own trick start takes over. Phase-two entry itself is tested from real deals.
    """
    s = new_game(n, preset, seed=0, log=True, **options)
    s.stock = []
    s.won = [[] for _ in range(n)]
    s.hands = [sorted(ids(*h)) for h in hands]  # the engine keeps phase-two hands sorted
    s.loc[:] = bytes([DISCARD]) * NUM_CARDS
    s.pub[:] = bytes([DISCARD]) * NUM_CARDS
    for p, hand in enumerate(s.hands):
        for card in hand:
            s.loc[card] = s.pub[card] = HAND + p
    s.trump_suit = SUITS.index(trump)
    s.trump_card = s.trump_suit * 13
    s.trump_holder = leader
    s.phase = PHASE_TWO
    s.log = []
    s._start_phase_two_trick(leader)
    return s


END = [["KC", "7C", "4C"], ["AD", "7D", "3D"], ["QH", "2H", "AS"]]


def endgame(preset: str, **options: Any) -> State:
    """Three players risk the stock down to its last card, then player 1 wins the trick that
    takes it as the trump card (KS), and a sevens war uses up players 0 and 1: only player 2
    (AS) and, if the trump card is revealed, player 1 (KS) still hold cards."""
    s = risk_down_to(game(3, preset, END, **options), 1)
    return play(s, "QH", "KC", "AD", "7D", "2H", "7C", "3D", "4C")


MINI_CARDS = ("QH", "KH", "AH", "QS", "KS", "AS")  # mini Koira's deck, in card-id order


def mini_deck(hands: Sequence[Sequence[str]], stock: Sequence[str]) -> list[str]:
    """A two-player deck order dealing ``hands[p]`` to seat p (one card at a time, seat 0
    first), then ``stock`` top first: its last card is the trump card."""
    size = len(hands[0])
    order = [hands[i % 2][i // 2] for i in range(2 * size)] + list(stock)
    if len(set(order)) != len(order):
        raise ValueError("a card is named twice in the scenario")
    return order


def mini(hands: Sequence[Sequence[str]], stock: Sequence[str], **options: Any) -> State:
    """A logged mini Koira game (``rules="mini"``) dealt by ``mini_deck``."""
    return new_game(2, "mini", deck=mini_deck(hands, stock), log=True, **options)
