"""Mätäpesä rules scenarios: one test per decision of RULES.md (section Mätäpesä).

Each scenario deals a fixed deck (``deal``: the named hands, one card at a time from
player_0, then the cards left over) and plays ranks by name.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from koira_env.cards import RANKS, card_id, card_name
from koira_env.core.game import IllegalActionError
from koira_env.games.matapesa.engine import State
from koira_env.games.matapesa.game import MatapesaGame
from koira_env.registry import make_game

HAND_SIZES = {3: (17, 1), 4: (13, 0), 5: (10, 2), 6: (8, 4), 7: (7, 3), 8: (6, 4)}


def deal(hands: Sequence[str], out: str = "", n: int = 8) -> list[str]:
    """A deck order giving seat p the cards of ``hands[p]`` (space-separated names; seats
    beyond the list get none named) and leaving ``out`` over. Cards named nowhere fill the
    hands in seat order, then ``out``, in id order (2C 3C ... AS), so a scenario names only the
    cards that matter. Eight seats by default: six cards each, four left over."""
    named = [h.split() for h in hands] + [[] for _ in range(n - len(hands))]
    left = out.split()
    used = {card_id(c) for h in named for c in h} | {card_id(c) for c in left}
    filler = [c for c in range(52) if c not in used]
    size = 52 // n
    full = []
    for h in named:
        take = size - len(h)
        full.append([*h, *filler[:take]])
        filler = filler[take:]
    left += filler
    return [full[i % n][i // n] for i in range(size * n)] + left


def game(hands: Sequence[str], out: str = "", n: int = 8, **options: object) -> State:
    g: MatapesaGame = make_game("matapesa", n, **options)
    return g.new_state(deal(hands, out, n), log=True)


def play(state: State, ranks: str) -> None:
    """Play the ranks named in ``ranks`` ("A 7 T"), one per turn."""
    for r in ranks.split():
        state.apply(RANKS.index(r))


def finish_trick(state: State) -> None:
    """Everyone still to play in this trick plays their lowest legal rank."""
    done = len(events(state, "trick_won"))
    while len(events(state, "trick_won")) == done:
        state.apply(state.legal_actions()[0])


def legal(state: State) -> str:
    return " ".join(RANKS[a] for a in state.legal_actions())


def events(state: State, kind: str) -> list[dict]:
    return [e for e in state.log if e["type"] == kind]


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("n", sorted(HAND_SIZES))
def test_deal_as_many_as_divide_evenly_the_rest_face_up(n: int) -> None:
    size, left = HAND_SIZES[n]
    state = make_game("matapesa", n).new_state(list(range(52)), log=True)
    for seat in range(n):
        view = state.view(seat)
        assert view.hand_sizes == (size,) * n
        assert view.num_tricks == size
        assert view.out_of_play == tuple(range(52 - left, 52))  # everyone sees them
        assert sum(view.unseen_ranks) == size * (n - 1)
    assert state.log[0] == {
        "type": "out_of_play",
        "cards": [card_name(c) for c in range(52 - left, 52)],
    }


def test_deal_one_card_at_a_time_from_player_0() -> None:
    order = [card_id(c) for c in ["2C", "3C", "4C", "5C", "6C", "7C"]]
    deck = order + [c for c in range(52) if c not in order]
    state = make_game("matapesa", 5).new_state(deck)
    for i, card in enumerate(deck[:50]):
        assert card in state.view(i % 5).hand
    assert card_id("2C") in state.view(0).hand and card_id("7C") in state.view(0).hand
    assert state.view(2).out_of_play == tuple(sorted(deck[50:]))


def test_actions_are_ranks_the_lowest_suit_of_the_rank_leaves() -> None:
    state = game(["7S 7D 7H 2C 3C 4C"])
    assert state.game.action_name(5) == "7"
    assert state.game.num_actions == 13
    play(state, "7")
    assert state.log[-1] == {"type": "play", "player": 0, "card": "7D"}
    assert state.view(1).played[0] == (card_id("7D"),)
    play(state, "7")  # the leader's next 7 would be 7H: the next player has its own
    assert state.log[-1]["player"] == 1


def test_player_0_leads_the_first_trick_with_any_card() -> None:
    state = game(["2C 9D AS 5H 5S KD"])
    assert state.current == 0 and state.view(0).to_reach == -1
    assert legal(state) == "2 5 9 K A"


# ------------------------------------------------------------------ following
FOLLOW = ["KC", "5D 5H 7C 8C TC JC", "2D 6D 9D QD KH AH"]


def test_follow_same_or_higher_than_the_highest_card_or_the_lowest() -> None:
    state = game(FOLLOW)
    play(state, "K 5")
    assert legal(state) == "2 K A"  # reach the king (K, A) or play the lowest card (2)
    assert state.view(2).to_reach == RANKS.index("K")


def test_follow_previous_card_option() -> None:
    state = game(FOLLOW, follow="previous")
    play(state, "K 5")
    assert legal(state) == "2 6 9 Q K A"  # reach the 5 just played, or the lowest
    assert state.view(2).to_reach == RANKS.index("5")


def test_lowest_card_only_when_nothing_reaches_option() -> None:
    state = game(FOLLOW, lowest_anytime=False)
    play(state, "K")
    assert legal(state) == "5"  # nothing reaches the king: the lowest card is forced
    play(state, "5")
    assert legal(state) == "K A"  # the 2 is not allowed: the king and the ace reach


def test_lowest_card_that_reaches_is_one_action() -> None:
    state = game(["5C", "6D 9D"])
    play(state, "5")
    assert legal(state) == "6 8 9 T J"
    assert state.legal_actions()[0] == RANKS.index("6")


def test_illegal_follow_changes_nothing() -> None:
    state = game(FOLLOW)
    play(state, "K 5")
    before = (state.view(2), state.history[:], state.game.observation(state, 2).tobytes())
    with pytest.raises(IllegalActionError, match=r"legal actions: 0 \(2\), 11 \(K\), 12 \(A\)"):
        state.apply(RANKS.index("9"))
    assert (state.view(2), state.history, state.game.observation(state, 2).tobytes()) == before


# ------------------------------------------------------------------ tricks
TIE = [
    "9C 2C 3C 4C 5C 6C",
    "JD 2D 3D 4D 5D 6D",
    "JH 2H 3H 4H 5H 6H",
    "4S 5S 6S 7S 8S 9S",
]


def test_trick_goes_to_the_highest_rank_ties_to_the_last_played() -> None:
    state = game(TIE)
    play(state, "9 J J 4")
    finish_trick(state)
    (won,) = events(state, "trick_won")
    assert won["player"] == 2 and won["trick"] == 1
    assert won["cards"][:4] == ["9C", "JD", "JH", "4S"]
    assert state.current == 2 and state.view(0).leader == 2  # the winner leads next
    assert state.view(0).to_reach == -1


def test_tie_winner_first_option() -> None:
    state = game(TIE, tie_winner="first")
    play(state, "9 J J 4")
    finish_trick(state)
    assert events(state, "trick_won")[0]["player"] == 1
    assert state.current == 1


def test_follow_previous_still_gives_the_trick_to_the_highest_card() -> None:
    state = game(["KC 2C", "5D 2D", "7H 3H", "9S 5S"], follow="previous")
    play(state, "K 2 3 5")  # each follower reaches the card before it or plays its lowest
    finish_trick(state)
    assert events(state, "trick_won")[0]["player"] == 0


# ------------------------------------------------------------------ the end
LAST_TRICK = ["AC AD AH AS QH 2C", "JC", "JD", "QC", "QD", "JH", "QS", "JS"]


@pytest.mark.parametrize(("tie_winner", "loser", "card"), [("last", 6, "QS"), ("first", 3, "QC")])
def test_winner_of_the_last_trick_loses(tie_winner: str, loser: int, card: str) -> None:
    state = game(LAST_TRICK, out="KC KD KH KS", tie_winner=tie_winner)
    for lead in [
        "A",
        "A",
        "A",
        "A",
        "Q",
    ]:  # player_0 wins five tricks; the others shed their lowest
        play(state, lead)
        finish_trick(state)
        assert events(state, "trick_won")[-1]["player"] == 0
    assert state.view(0).trick_number == 5 and not state.is_terminal
    play(state, "2")
    for _ in range(7):
        (only,) = state.legal_actions()  # one card left: forced
        state.apply(only)
    assert state.is_terminal and state.loser == loser
    assert events(state, "game_over") == [{"type": "game_over", "loser": loser, "card": card}]
    outcome = state.outcome()
    assert outcome.places == tuple(8 if p == loser else 1 for p in range(8))
    assert outcome.scores == tuple(-1.0 if p == loser else 0.0 for p in range(8))
    assert state.returns() == pytest.approx([-1.0 if p == loser else 1 / 7 for p in range(8)])
    assert outcome.extra["loser"] == loser and outcome.extra["last_card"] == card
    assert state.legal_actions() == [] and state.view(loser).legal == ()


def test_played_cards_stay_face_up_for_everyone() -> None:
    state = game(TIE)
    play(state, "9 J J 4")
    finish_trick(state)
    play(state, "3")
    for seat in range(8):
        view = state.view(seat)
        assert view.played[:3] == (
            (card_id("9C"),),
            (card_id("JD"),),
            (card_id("JH"), card_id("3H")),
        )
        assert view.played_ranks[2][RANKS.index("J")] == 1
    obs = state.game.observation(state, 1)
    layout = state.game.observation_layout
    # player_2 is one seat after player_1: its jack and three, as rank counts / 4
    assert obs[layout["played_ranks_1"]][RANKS.index("J")] == 0.25
    assert obs[layout["trick_rank_1"]][RANKS.index("3")] == 1.0
    assert obs[layout["leader"]][1] == 1.0


@pytest.mark.parametrize("n", sorted(HAND_SIZES))
def test_every_game_takes_one_card_per_player_per_trick(n: int) -> None:
    state = make_game("matapesa", n).new_state(seed=n, log=True)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    size = HAND_SIZES[n][0]
    assert state.actions_taken == n * size
    assert len(events(state, "trick_won")) == size
    assert all(len(e["cards"]) == n for e in events(state, "trick_won"))


# ------------------------------------------------------------------ mini Mätäpesä (points M1-M4)
MINI = {"deck_ranks": 3, "deck_suits": "HS"}


def mini(deck: str, **options: object) -> State:
    return make_game("matapesa", 3, **MINI, **options).new_state(deck.split(), log=True)


def test_mini_deals_two_cards_each_from_six() -> None:
    state = mini("QH KS AH QS KH AS")
    game = state.game
    assert game.deck_size == 6 and game.deck_cards == tuple(
        map(card_id, ["QH", "KH", "AH", "QS", "KS", "AS"])
    )
    assert game.num_tricks == 2
    hands = [" ".join(card_name(c) for c in state.view(p).hand) for p in range(3)]
    assert hands == ["QH QS", "KH KS", "AH AS"]  # one card at a time from player_0
    view = state.view(0)
    assert view.out_of_play == () and view.hand_sizes == (2, 2, 2)
    assert view.unseen_ranks[RANKS.index("K")] == 2 and sum(view.unseen_ranks) == 4
    obs = game.observation(state, 0)
    assert obs[game.observation_layout["out_of_play_ranks"]].sum() == 0  # the 46 others: nowhere
    assert state.log[0] == {"type": "out_of_play", "cards": []}


def test_mini_seeds_shuffle_only_the_cards_in_play() -> None:
    game = make_game("matapesa", 3, **MINI)
    decks = {tuple(game.new_state(seed=s).deck) for s in range(30)}
    assert all(sorted(d) == sorted(game.deck_cards) for d in decks) and len(decks) > 20
    assert game.new_state(seed=7).deck == game.new_state(seed=7).deck


def test_mini_deck_holds_exactly_the_cards_in_play() -> None:
    game = make_game("matapesa", 3, **MINI)
    with pytest.raises(ValueError, match="deck must hold all 6 cards in play"):
        game.new_state([card_name(c) for c in range(52)])
    with pytest.raises(ValueError, match="not in play"):
        game.new_state(["QH", "KS", "AH", "QS", "KH", "2C"])


def test_mini_game_ties_and_the_last_trick() -> None:
    # hands: player_0 QH QS, player_1 KH KS, player_2 AH AS
    state = mini("QH KS AH QS KH AS")
    play(state, "Q K A")
    assert events(state, "trick_won")[0]["player"] == 2
    play(state, "A")  # player_2 leads its other ace: nobody reaches it
    assert legal(state) == "Q"  # player_0's lowest, and only, card
    play(state, "Q K")
    assert state.is_terminal and state.loser == 2 and state.outcome().extra["last_card"] == "AS"
    # hands: player_0 KH KS, player_1 QS AH, player_2 QH AS
    deck = "KH QS QH KS AH AS"
    state = mini(deck)
    play(state, "K A A")  # two aces: the last played takes the trick
    assert events(state, "trick_won")[0]["player"] == 2
    play(state, "Q K Q")
    assert state.loser == 0  # player_0's king takes the last trick
    state = mini(deck, tie_winner="first")
    play(state, "K A A")
    assert events(state, "trick_won")[0]["player"] == 1  # the first ace
    play(state, "Q Q K")
    assert state.loser == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deck_ranks": 0}, r"deck_ranks must be an int in 1\.\.13, got 0"),
        ({"deck_ranks": 14}, r"deck_ranks must be an int in 1\.\.13, got 14"),
        ({"deck_ranks": "3"}, r"deck_ranks must be an int"),
        ({"deck_suits": "SH"}, r"deck_suits='SH' is not valid; choose one of \['C', 'D', 'CD'"),
        ({"deck_suits": "HH"}, r"deck_suits='HH' is not valid"),
        ({"deck_suits": "X"}, r"deck_suits='X' is not valid"),
        ({"deck_suits": ""}, r"deck_suits='' is not valid"),
        ({"deck_suits": 3}, r"deck_suits=3 is not valid"),
        (
            {"deck_ranks": 1, "deck_suits": "CD"},
            r"a deck of 2 cards .* cannot deal a card to each of 3",
        ),
    ],
)
def test_impossible_deck_options_are_refused(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game("matapesa", 3, **options)
