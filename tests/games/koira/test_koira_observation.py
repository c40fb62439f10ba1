"""Koira's observation holds exactly what the seat may know (``info``), seat-relative."""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import numpy as np
import pytest

import koira_env
from koira_env.games.koira.engine import HAND, TRICK, TRUMP_ASIDE, UNKNOWN, WON, State, new_game
from koira_env.games.koira.info import seat_view
from koira_env.games.koira.observation import ObservationEncoder, observation_layout
from koira_env.games.koira.rules import make_rules

CONFIGS = [("koira", 2), ("koira", 4), ("koira-b", 5), ("mattis", 4), ("koira", 8)]


def random_states(preset: str, n: int, games: int, seed: int = 0, **options) -> list[State]:
    """Every state of some random games (clones), for checks over many positions."""
    rules = make_rules(n, preset, **options)
    rng = random.Random(seed)
    states = []
    for g in range(games):
        state = new_game(rules=rules, seed=seed * 1000 + g)
        while not state.is_terminal:
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def decode_locations(obs: np.ndarray, layout: dict[str, slice], seat: int, n: int) -> bytes:
    """The engine location codes the card blocks say, undoing the seat rotation."""
    codes = {"cards_mine": HAND + seat, "cards_trick": TRICK, "cards_discarded": 18}
    codes |= {"cards_my_trump": TRUMP_ASIDE, "cards_unknown": UNKNOWN}
    for r in range(n):
        codes[f"cards_won_{r}"] = WON + (seat + r) % n
        if r:
            codes[f"cards_hand_{r}"] = HAND + (seat + r) % n
    where = bytearray(52)
    total = np.zeros(52, np.float32)
    for name, code in codes.items():
        block = obs[layout[name]]
        total += block
        for card in np.flatnonzero(block):
            where[card] = code
    assert np.array_equal(total, np.ones(52)), "each card is in exactly one block"
    return bytes(where)


def one_hot_index(block: np.ndarray) -> int:
    hits = np.flatnonzero(block)
    assert len(hits) <= 1
    return int(hits[0]) if len(hits) else -1


@pytest.mark.parametrize(("preset", "n"), CONFIGS)
def test_observation_decodes_to_what_the_seat_knows(preset, n):
    states = random_states(preset, n, games=3, seed=n)
    enc = ObservationEncoder(states[0].rules)
    lay = enc.layout
    for state in states[:: max(1, len(states) // 150)]:
        for seat in range(n):
            obs = enc.observation(state, seat)
            assert obs.dtype == np.float32 and obs.shape == (enc.size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            view = seat_view(state, seat)
            assert decode_locations(obs, lay, seat, n) == view.where
            rot = [(seat + r) % n for r in range(n)]
            assert np.allclose(obs[lay["hand_sizes"]] * 52, [view.hand_sizes[p] for p in rot])
            assert np.allclose(obs[lay["won_sizes"]] * 52, [view.won_sizes[p] for p in rot])
            assert obs[lay["stock_size"]][0] * 52 == pytest.approx(view.stock_size)
            assert one_hot_index(obs[lay["trump_suit"]]) == view.trump_suit
            holder = one_hot_index(obs[lay["trump_holder"]])
            assert holder == (-1 if view.trump_holder < 0 else (view.trump_holder - seat) % n)
            assert np.array_equal(obs[lay["out"]], [view.out[p] for p in rot])
            phase = one_hot_index(obs[lay["phase"]]) + 1
            assert phase == (view.phase if view.phase < 3 else 0)
            if view.phase < 3:
                assert one_hot_index(obs[lay["current_player"]]) == (view.current - seat) % n
            played = obs[lay["round_cards"]].reshape(n, 52)
            expected = np.zeros((n, 52))
            for p, card in view.round_cards:
                expected[(p - seat) % n, card] = 1
            assert np.array_equal(played, expected)
            assert obs[lay["war"]][0] == bool(view.war_players)
            assert one_hot_index(obs[lay["war_rank"]]) == view.war_rank
            war_players = sorted((p - seat) % n for p in view.war_players)
            assert np.flatnonzero(obs[lay["war_players"]]).tolist() == war_players
            if view.trick:
                top_player, top_cards = view.trick[-1]
                assert np.flatnonzero(obs[lay["top_play"]]).tolist() == sorted(top_cards)
                assert one_hot_index(obs[lay["top_player"]]) == (top_player - seat) % n
                bottom_player, bottom_cards = view.trick[0]
                assert np.flatnonzero(obs[lay["bottom_play"]]).tolist() == sorted(bottom_cards)
                assert one_hot_index(obs[lay["bottom_player"]]) == (bottom_player - seat) % n
            else:
                assert not obs[lay["top_play"]].any() and not obs[lay["bottom_play"]].any()
            assert obs[lay["trick_count"]][0] * 8 == pytest.approx(view.trick_count)
            assert obs[lay["trick_needed"]][0] * 8 == pytest.approx(view.trick_needed)


@pytest.mark.parametrize(
    ("preset", "n", "options"),
    [
        *[(p, n, {}) for p, n in CONFIGS],
        ("koira", 4, {"sequences": 2}),
        ("koira-b", 3, {"sequences": 3}),
    ],
)
def test_mask_equals_the_engines_legal_actions(preset, n, options):
    env = koira_env.env(n, preset, **options)
    rng = random.Random(1)
    steps = 0
    seed = 0
    while steps < 2500:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            state = env.unwrapped.state_object
            if env.terminations[agent] or env.truncations[agent]:
                assert not env.observe(agent)["action_mask"].any()
                env.step(None)
                continue
            legal = state.legal_actions()
            for other in env.possible_agents:
                mask = env.observe(other)["action_mask"]
                assert mask.dtype == np.int8
                expected = legal if other == agent else []
                assert np.flatnonzero(mask).tolist() == sorted(expected)
            env.step(rng.choice(legal))
            steps += 1


@pytest.mark.parametrize(("preset", "n"), CONFIGS)
def test_hidden_cards_do_not_change_the_observation(preset, n):
    """Any deal of the cards a seat cannot see gives it byte-identical arrays."""
    states = random_states(preset, n, games=4, seed=10 + n)
    enc = ObservationEncoder(states[0].rules)
    rng = random.Random(3)
    changed = 0
    for state in states[:: max(1, len(states) // 120)]:
        for seat in range(n):
            other = state.determinize(seat, rng)
            changed += other.loc != state.loc
            assert enc.observation(other, seat).tobytes() == enc.observation(state, seat).tobytes()
            if state.current == seat and not state.is_terminal:
                assert sorted(other.legal_actions()) == sorted(state.legal_actions())
    assert changed > 50  # the hidden cards really moved


def swapped_deck(deck: list[int], i: int, j: int) -> list[int]:
    deck = deck[:]
    deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("rules", ["koira", "mattis"])
def test_two_decks_differing_only_in_hidden_cards(rules):
    """Swap a card of player_1's deal with a deep stock card: player_0 cannot tell, even later."""
    n = 4
    env_a, env_b = koira_env.env(n, rules), koira_env.env(n, rules)
    deck = random.Random(8).sample(range(52), 52)
    env_a.reset(options={"deck": deck})
    env_b.reset(options={"deck": swapped_deck(deck, 1, 40)})  # deck[1] goes to player_1
    for _ in range(4 * n):  # both games take the same actions while they can
        a = env_a.unwrapped.state_object
        b = env_b.unwrapped.state_object
        seat = a.current
        assert seat == b.current
        obs_a, obs_b = env_a.observe("player_0"), env_b.observe("player_0")
        assert obs_a["observation"].tobytes() == obs_b["observation"].tobytes()
        assert obs_a["action_mask"].tobytes() == obs_b["action_mask"].tobytes()
        common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        env_a.step(common[0])
        env_b.step(common[0])


def test_observation_swap_hidden_cards_in_place():
    """Swap a card of player_2's hand with a stock card in a live state."""
    states = random_states("koira", 4, games=2, seed=5)
    enc = ObservationEncoder(states[0].rules)
    swaps = 0
    for state in states:
        if len(state.stock) < 2 or not state.hands[2]:
            continue
        other = state.clone()
        hands, stock = other.hands, other.stock  # copies on the compiled core: assigned back
        hand_card, stock_card = hands[2][0], stock[0]
        if state.pub[hand_card] != UNKNOWN:
            continue
        hands[2][0], stock[0] = stock_card, hand_card
        other.hands, other.stock = hands, stock
        other.loc[hand_card], other.loc[stock_card] = other.loc[stock_card], other.loc[hand_card]
        swaps += 1
        for seat in (0, 1, 3):
            assert enc.observation(other, seat).tobytes() == enc.observation(state, seat).tobytes()
        assert enc.observation(other, 2).tobytes() != enc.observation(state, 2).tobytes()
    assert swaps > 20


@pytest.mark.parametrize("n", range(2, 9))
def test_layout_tiles_the_vector(n):
    layout = observation_layout(n)
    start = 0
    for sl in layout.values():
        assert sl.start == start and sl.stop > sl.start
        start = sl.stop
    env = koira_env.env(n)
    assert env.observation_space("player_0")["observation"].shape == (start,)
    assert env.unwrapped.observation_layout == layout
    assert layout["cards_mine"] == slice(0, 52)


def test_documented_layout_matches_the_code():
    """docs/environment.md's table (n = 4 offsets) must follow the code."""
    doc = Path(__file__).resolve().parents[3] / "docs" / "environment.md"
    rows = re.findall(r"^\| `(\w+)`[^|]*\| [^|]+ \| (\d+):(\d+) \|", doc.read_text(), re.M)
    layout = observation_layout(4)
    assert len(rows) >= 25
    for name, start, stop in rows:
        if name in ("cards_hand_1", "cards_won_0"):  # a row for the whole group of blocks
            group = [sl for key, sl in layout.items() if key.startswith(name[:-1])]
            assert (group[0].start, group[-1].stop) == (int(start), int(stop)), name
        else:
            assert layout[name] == slice(int(start), int(stop)), name


# The observation is a contract with every trained model (the shipped one included): speed
# work on the encoder must keep it byte for byte. Change these digests only together with a
# retrained model and a note in docs/environment.md.
GOLDEN_OBSERVATIONS = {
    ("koira", 4, ()): "96816c6e9eda86bcf029752c5b47e6aaa2677b49ef338560c7e25dd406ac9e42",
    ("koira-b", 5, (("sequences", 2),)): (
        "ddf9f16f12c6bea05860245624807e1a12a28afcbdcb7167b296035d82f2abcb"
    ),
    ("mattis", 3, ()): "c6f39976944ddecda0a0f9f08a3fafe05537daf83e00a4015039641974f9a795",
    ("koira", 2, (("max_actions", 100),)): (
        "43c2cb1ddd38ed6cffef5ec83f048c752f24e6cbebb61d48d690047691272cab"
    ),
}


@pytest.mark.parametrize(("preset", "n", "options"), list(GOLDEN_OBSERVATIONS))
def test_observations_are_byte_identical_to_the_pinned_encoding(preset, n, options):
    states = random_states(preset, n, games=3, seed=7, **dict(options))
    enc = ObservationEncoder(states[0].rules)
    digest = hashlib.sha256()
    for state in states:
        for seat in range(n):
            digest.update(enc.observation(state, seat).tobytes())
    assert digest.hexdigest() == GOLDEN_OBSERVATIONS[preset, n, options]
