"""Teka scenario helpers (no tests here): deal chosen hands and play moves by name."""

from __future__ import annotations

from koira_env.games.teka.engine import HAND, NOBODY, PLAYED, TRICK, State
from koira_env.games.teka.game import TekaGame, make_game

# A deal for most scenarios (player_0 speaks first in hand 0, player_3 deals): player_0 holds
# seven top spades and five more top cards; every hand has an honour.
STRONG = (
    "AS KS QS JS TS 9S 8S AH KH AD AC KC 2C",
    "7S 6S 5S QH JH TH KD QD JD TC 9C 8C 4C",
    "4S 3S 9H 8H 7H 6H TD 9D 8D 7D JC 7C 6C",
    "2S 5H 4H 3H 2H 6D 5D 4D 3D 2D QC 5C 3C",
)
# The same with QC and 2C exchanged: player_3 holds no ace, king, queen or jack.
POOR = (
    "AS KS QS JS TS 9S 8S AH KH AD AC KC QC",
    STRONG[1],
    STRONG[2],
    "2S 5H 4H 3H 2H 6D 5D 4D 3D 2D 2C 5C 3C",
)
# player_0 holds all thirteen spades.
SPADES = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


def deck_of(*hands: str) -> list[str]:
    """The deck that deals these four hands (13 names each, player_0 first) in hand 0: the
    first speaker, player_0, gets the first thirteen cards, and so on round the table."""
    cards = [hand.split() for hand in hands]
    assert [len(h) for h in cards] == [13] * 4
    return [card for hand in cards for card in hand]


def deal(*hands: str, log: bool = False, **options: object) -> State:
    """A new game whose first deal gives ``hands`` (later deals come from seed 0)."""
    game = make_game(4, **options)
    return game.new_state(deck_of(*(hands or STRONG)), seed=0, log=log)


def play(state: State, *moves: str) -> None:
    """Apply moves given by name: a card (``"AS"``) or a call (``"bid 9"``, ``"pass"``,
    ``"double 13"``, ``"trump hearts"``, ``"raise 10"``, ``"keep"``, ``"new deal"``)."""
    for move in moves:
        state.apply(state.game.action_id(move))


def top_down(state: State, declarer_side_high: bool = True) -> None:
    """Play the hand out: the declarer's side plays its highest legal card, the others their
    lowest (no raises); stops when the hand (or the game) ends."""
    hand = state.hand_no
    while not state.is_terminal and state.hand_no == hand:
        cards = [a for a in state.legal_actions() if a < 52]
        high = (state.current % 2 == state.declarer % 2) == declarer_side_high
        state.apply(max(cards) if high else min(cards))


def names(game: TekaGame, actions: list[int] | tuple[int, ...]) -> list[str]:
    return [game.action_name(a) for a in actions]


def check_cards(state: State) -> None:
    """Every card in exactly one place, and the location tables agree with the hands."""
    places = [c for h in state.hands for c in h] + state.trick
    places += [c for _, cards, _ in state.tricks for c in cards]
    assert sorted(places) == list(range(52))
    for p, hand in enumerate(state.hands):
        assert hand == sorted(hand)
        assert all(state.loc[c] == HAND + p and state.by[c] == NOBODY for c in hand)
    assert all(state.loc[c] == TRICK for c in state.trick)
    for _, cards, _ in state.tricks:
        assert all(state.loc[c] == PLAYED for c in cards)
    assert sum(state.won) == len(state.tricks)
