"""Red7 scenario helpers (no tests here): deal chosen hands and palettes, play turns by name."""

from __future__ import annotations

from koira_env.games.red7.cards import NUM_CARDS, card_id, card_name
from koira_env.games.red7.engine import State, action_of
from koira_env.games.red7.game import make_game


def deck_of(hands: list[str], palettes: str, draw: str = "") -> list[str]:
    """The deck dealing these hands (up to seven names each; the rest filled with unused
    cards, lowest first), one palette card per seat and a draw pile starting with ``draw``
    (its top first; the unused cards follow, lowest first)."""
    n = len(hands)
    named = [h.split() for h in hands]
    used = {card_id(c) for cards in [*named, palettes.split(), draw.split()] for c in cards}
    spare = [card_name(c) for c in range(NUM_CARDS) if c not in used]
    full = []
    for cards in named:
        while len(cards) < 7:
            cards.append(spare.pop(0))
        full.append(cards)
    order = [full[p][k] for k in range(7) for p in range(n)]
    return [*order, *palettes.split(), *draw.split(), *spare]


def deal(hands: list[str], palettes: str, draw: str = "", log: bool = False, **options) -> State:
    """A new game dealing ``hands`` and ``palettes`` (``deck_of``); later rounds from seed 0."""
    game = make_game(len(hands), **options)
    return game.new_state(deck_of(hands, palettes, draw), seed=0, log=log)


def turn(palette: str | None = None, canvas: str | None = None) -> int:
    """The action playing these cards (by name) to the palette and then the canvas."""
    return action_of(
        None if palette is None else card_id(palette), None if canvas is None else card_id(canvas)
    )


def names(cards) -> list[str]:
    return [card_name(c) for c in cards]
