"""Red7's per-turn features: the compiled writer (``_compiled.Engine.turn_features``) gives
the reference's rows (``turns.turn_features``) bit for bit, neither reads what the seat cannot
see, a hand-built deal's entries are the ones worked out by hand, and a game without per-turn
features says so."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from red7_scenario import deal, turn

import koira_env
from koira_env.games.red7.cards import GREEN, RED, VIOLET, card_id
from koira_env.games.red7.engine import PASS
from koira_env.games.red7.game import make_game
from koira_env.games.red7.turns import (
    CANVAS_CARD,
    LEADS,
    MARGINS,
    ONE_CARD,
    PALETTE_CARD,
    PASSES,
    RULE_AFTER,
    THREAT_IN_FORCE,
    TURN_FEATURES,
    TWO_CARDS,
    turn_features,
)

# every table size, with and without Advanced Red7's points and draws
CASES = [
    (2, {}),
    (3, {"places": "elimination"}),
    (4, {}),
    (2, {"scoring": "points", "canvas_draw": True}),
    (3, {"scoring": "points"}),
    (4, {"scoring": "points", "canvas_draw": True, "first_player": "player_0"}),
]


def reference_rows(state: Any, seat: int, legal: Any) -> np.ndarray:
    return turn_features(state.view(seat), legal)


def decisions(n: int, options: dict[str, Any], games: int) -> Any:
    """(game, state, legal) at every decision of ``games`` random games on the compiled core."""
    game = make_game(n, engine="compiled", **options)
    rng = random.Random(n * 100 + len(options))
    for seed in range(games):
        state = game.new_state(seed=seed)
        while not state.over:
            legal = state.legal_actions()
            yield game, state, legal
            state.apply(rng.choice(legal))


def test_the_compiled_rows_are_the_references_bit_for_bit():
    """Over 2,000 decisions at 2-4 players, with points: the same float32 bytes, rows in the
    order asked (here and there shuffled), and a compiled game answers with the C writer."""
    count = 0
    rng = random.Random(7)
    for n, options in CASES:
        for game, state, legal in decisions(n, options, 12 if options.get("scoring") else 40):
            assert game.turn_features.__self__ is game.compiled
            asked = rng.sample(legal, len(legal)) if count % 3 == 0 else legal
            rows = game.turn_features(state, state.current, asked)
            assert rows.dtype == np.float32 and rows.shape == (len(legal), TURN_FEATURES)
            assert rows.tobytes() == reference_rows(state, state.current, asked).tobytes()
            count += 1
    assert count >= 2000


def test_both_writers_read_nothing_the_seat_cannot_see():
    """A re-deal of the hidden cards (``determinize``) changes no row of either writer."""
    redealt = 0
    for n, options in CASES:
        rng = random.Random(n)
        for k, (game, state, legal) in enumerate(decisions(n, options, 2)):
            if k % 4:
                continue
            seat = state.current
            other = state.determinize(seat, rng)
            redealt += other.hands != state.hands or other.draw != state.draw
            for write in (game.turn_features, reference_rows):
                assert write(other, seat, legal).tobytes() == write(state, seat, legal).tobytes()
    assert redealt >= 20  # the hidden cards did move


def test_a_hand_built_deal_by_hand():
    """Two players: player_1's O5 leads red over player_0's R4, so player_0 moves first,
    holding R6 G2 B3 Y5 V1 I6 O3; 40 cards are unseen, all seven 7s among them."""
    hand = "R6 G2 B3 Y5 V1 I6 O3"
    for engine in ("compiled", "python"):
        state = deal([hand, ""], "R4 O5", engine=engine)
        game = state.game
        assert state.current == 0 and state.palettes == [[card_id("R4")], [card_id("O5")]]
        legal = state.legal_actions()
        asked = [PASS, turn("R6"), turn(None, "G2"), turn("R6", "B3")]
        assert set(asked) <= set(legal)
        rows = game.turn_features(state, 0, asked)
        assert (rows == reference_rows(state, 0, asked)).all()
        pass_row, r6, g2, r6_b3 = rows

        assert pass_row[PASSES] == 1.0 and pass_row.sum() == 1.0  # a pass is only its flag

        # R6 to the palette: still red, where R6 beats O5 but V1..: a 7 joining O5 wins
        assert r6[PALETTE_CARD + card_id("R6")] == 1.0 and r6[CANVAS_CARD:RULE_AFTER].sum() == 0
        assert r6[ONE_CARD] == 1.0 and r6[TWO_CARDS] == 0.0
        assert r6[LEADS + RED] == 1.0 and r6[LEADS + VIOLET] == 0.0  # no card below 4
        red = MARGINS + 9 * RED  # per rule 3 x (count margin, best-card margin, threat)
        assert r6[red] == np.float32(7 / 14)  # one card each
        assert r6[red + 1] == np.float32((card_id("R6") - card_id("O5") + 48) / 96)
        assert r6[red + 2] == np.float32(7 / 40) == r6[THREAT_IN_FORCE]  # the seven 7s

        # G2 to the canvas alone: green (R4 is player_0's even card; O5 has none)
        assert list(g2[RULE_AFTER : RULE_AFTER + 7]) == [0, 0, 0, 1, 0, 0, 0]
        assert g2[CANVAS_CARD + card_id("G2")] == 1.0 and g2[:CANVAS_CARD].sum() == 0
        assert g2[LEADS + GREEN] == 1.0
        # an even card above R4 joining O5 beats it: the 6s player_0 does not hold
        assert g2[THREAT_IN_FORCE] == np.float32(5 / 40) == g2[MARGINS + 9 * GREEN + 2]

        # R6 then B3: both flags, blue in force, one card fewer in hand than R6 alone
        assert r6_b3[TWO_CARDS] == 1.0 and r6_b3[RULE_AFTER + 4] == 1.0
        assert r6_b3[-2] == np.float32(5 / 7) and r6[-2] == np.float32(6 / 7)


def test_the_compiled_writer_refuses_what_it_cannot_read():
    game = make_game(3, engine="compiled")
    state = game.new_state(seed=1)
    assert game.turn_features(state, 0, []).shape == (0, TURN_FEATURES)
    with pytest.raises(ValueError, match="seat must be"):
        game.turn_features(state, 3, [PASS])
    with pytest.raises(ValueError, match=r"an action is 0\.\.2499, got 2500"):
        game.turn_features(state, 0, [2500])
    with pytest.raises(ValueError, match="rules"):
        game.turn_features(make_game(2, engine="compiled").new_state(seed=1), 0, [PASS])
    with pytest.raises(TypeError):
        game.turn_features(state, 0, [1.0])


def test_a_game_without_per_turn_features_names_itself():
    game = koira_env.make_game("kop")
    state = game.new_state(seed=0)
    assert game.turn_feature_size == 0
    with pytest.raises(NotImplementedError, match="Kop has no per-turn features"):
        game.turn_features(state, state.current, state.legal_actions())
