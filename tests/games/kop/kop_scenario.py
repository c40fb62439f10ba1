"""Kop scenario helpers (no tests here): deal chosen hands and play cards by name."""

from __future__ import annotations

from koira_env.games.kop.engine import CALL, DECLARE, PASS, SILENT, SOLO, State
from koira_env.games.kop.game import KopGame, make_game

CHOICES = {"call": CALL, "silent": SILENT, "solo": SOLO, "pass": PASS}


def deck_of(*hands: str) -> list[str]:
    """The deck that deals these four hands (``"QC AC JD TS"`` each, player_0 first) when
    player_0 leads: cards go one at a time to player_0, player_1, ..."""
    cards = [hand.split() for hand in hands]
    assert [len(h) for h in cards] == [4, 4, 4, 4]
    return [cards[p][k] for k in range(4) for p in range(4)]


def deal(*hands: str, log: bool = False, **options: object) -> State:
    """A new game whose first hand deals ``hands`` (the later hands come from seed 0)."""
    game = make_game(4, **options)
    return game.new_state(deck_of(*hands), seed=0, log=log)


def play(state: State, *moves: str) -> None:
    """Apply moves given as card names or ``call`` / ``silent`` / ``solo`` / ``pass``."""
    for move in moves:
        action = CHOICES[move] if move in CHOICES else state.game.card_id(move)
        state.apply(action)


def declare(state: State, choice: str = "call") -> None:
    """Finish the declaration round: every seat passes, the holder of both black queens (if
    any) makes ``choice``."""
    while state.phase == DECLARE:
        legal = state.legal_actions()
        state.apply(legal[0] if legal == [PASS] else CHOICES[choice])


def names(game: KopGame, actions: list[int] | tuple[int, ...]) -> list[str]:
    return [game.action_name(a) for a in actions]
