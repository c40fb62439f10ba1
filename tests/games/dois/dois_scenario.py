"""Dois scenario helpers (no tests here): deal chosen hands and play cards by name."""

from __future__ import annotations

from collections import Counter

from koira_env.games.dois.cards import COPIES, KIND_NAMES, SUITS
from koira_env.games.dois.engine import BID, State
from koira_env.games.dois.game import make_game

# Four good hands (3+ suit cards and 3+ number cards each); undealt: R R Y Y G B B B 5 6 7 8
H4 = (
    "R R R Y Y G 1 2 3 4 5 6 7",
    "R R Y Y G G 1 1 2 3 4 8 8",
    "Y Y B B B G 5 5 6 6 7 7 8",
    "G G G B B R 2 2 3 3 4 4 1",
)


def deck_of(*hands: str, trump: str = "R", first: int = 0, undealt: str = "") -> list[str]:
    """The 68-card deck that deals these 13-card hands (``"R R Y 1 2 ..."``, player_0's
    first) from player ``first`` on, one card at a time, reveals ``trump`` first among the
    trump cards and leaves the other cards undealt (``undealt`` first, then the rest in kind
    order)."""
    cards = [hand.split() for hand in hands]
    n = len(cards)
    assert all(len(h) == 13 for h in cards), [len(h) for h in cards]
    order = [cards[(first + i) % n][i // n] for i in range(13 * n)]
    rest = Counter({name: COPIES[k] for k, name in enumerate(KIND_NAMES)})
    rest.subtract(order)
    rest.subtract(undealt.split())
    assert min(rest.values()) >= 0, rest
    order += undealt.split() + [name for name in KIND_NAMES for _ in range(rest[name])]
    return order + ["T" + trump] + ["T" + s for s in SUITS if s != trump]


def deal(*hands: str, trump: str = "R", log: bool = False, **options: object) -> State:
    """A new game whose first hand deals ``hands`` (later decks come from seed 0)."""
    game = make_game(len(hands), **options)
    return game.new_state(deck_of(*hands, trump=trump), seed=0, log=log)


def play(state: State, *moves: str | int) -> None:
    """Apply moves: card names (``"R"``, ``"5"``), ``"bid 3"``, or action ids."""
    for move in moves:
        if isinstance(move, int):
            state.apply(move)
        elif move.startswith("bid "):
            state.apply(BID + int(move[4:]))
        else:
            state.apply(KIND_NAMES.index(move.upper()))


def bids(state: State, *values: int) -> None:
    """Every player bids, from the dealer's left."""
    for value in values:
        state.apply(BID + value)


def names(actions: list[int] | tuple[int, ...]) -> list[str]:
    return [KIND_NAMES[a] if a < BID else f"bid {a - BID}" for a in actions]
