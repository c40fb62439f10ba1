"""Every game of the registry as an OpenSpiel game (``koira_env.openspiel``): OpenSpiel's own
random simulation test on every game and Koira preset, observations and returns equal to the
env's for the same deal and play, perfect-recall information states, the suite's bots and
OpenSpiel's ISMCTS playing through ``evaluate_bots``, Shimmy's PettingZoo wrapper, and the
parameter errors."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the openspiel extra)")

import koira_env.openspiel as ko  # noqa: E402
from koira_agents.registry import make_agent  # noqa: E402
from koira_env import registry  # noqa: E402

GAMES = registry.games()
# a table size and rules that keep each game short enough for several runs per test
SHORT = {
    "kop": {"single_hand": True},
    "teka": {"single_hand": True},
    "whist22": {"max_hands": 2},
    "dois": {"hands": 2},
}


def load(game_id: str, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(f"python_{game_id}", params)


def random_play(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """A whole game of uniformly random chance and play."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {f"python_{g}" for g in GAMES} <= names
    assert [f"python_{g}" for g in GAMES] == ko.GAMES


SIMULATED = [(g, {}) for g in GAMES] + [
    ("koira", {"players": 3, "rules": p}) for p in ("koira-b", "mattis")
]
SIMULATED.append(("koira", {"players": 2, "rules": "mini"}))  # 6 chance outcomes: Q-A of H, S
MINI_MATAPESA = {"players": 3, "deck_ranks": 3, "deck_suits": "HS"}
SIMULATED.append(("matapesa", MINI_MATAPESA))


@pytest.mark.parametrize(
    "game_id, params",
    SIMULATED,
    ids=[f"{g}-{p.get('rules', p.get('deck_suits', 'default'))}" for g, p in SIMULATED],
)
def test_random_sim_test(game_id: str, params: dict[str, object]) -> None:
    game = load(game_id, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_parameters_are_the_rule_options() -> None:
    game = load("koira", players=3, rules="mattis")
    rules = game.koira_game.rules
    assert (rules.num_players, rules.preset, rules.war_trigger) == (3, "mattis", "highest_tie")
    assert load("koira", players=3, rules="mattis", war_mode="split").koira_game.rules.war_mode == (
        "split"
    )
    params = game.get_parameters()
    assert params["players"] == 3 and params["rules"] == "mattis"
    for game_id in GAMES:
        spec = registry.spec(game_id)
        expected = set(spec.make_game().rules.to_dict()) - {"num_players", "preset"}
        params = load(game_id).get_parameters()
        assert set(params) - {"players", "rules"} == expected
        assert params["players"] == spec.default_players
        assert load(game_id).num_players() == spec.default_players
    assert load("kop", victory_cards=2).koira_game.rules.victory_cards == 2


@pytest.mark.parametrize(
    "params, error, words",
    [
        ({"nope": 1}, pyspiel.SpielError, "Unknown parameter 'nope'"),
        ({"single_hand": 1}, pyspiel.SpielError, "Wrong type for parameter single_hand"),
        ({"players": "4"}, pyspiel.SpielError, "Wrong type for parameter players"),
        ({"players": 3}, ValueError, "python_kop: Kop is played by 4 players"),
        ({"tie": "never"}, ValueError, "option tie='never' is not valid"),
        ({"victory_cards": 0}, ValueError, "victory_cards must be an int in 1..20"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object], error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        load("kop", **params)


def test_bad_preset_and_table_size_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown rules preset 'nope'"):
        load("koira", rules="nope")
    with pytest.raises(ValueError, match="preset 'mattis' is played by 3-8 players"):
        load("koira", players=2, rules="mattis")


def test_chance_deals_each_deck_card_by_card() -> None:
    game = load("kop")
    state = game.new_initial_state()
    assert state.is_chance_node() and state.engine is None
    seen: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(card for card, _ in outcomes) == sorted(set(range(16)) - set(seen))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        seen.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    assert state.decks == seen and list(state.engine.deck) == seen
    # a game of several hands asks chance for each further deck
    state = random_play(game, 1)
    assert len(state.decks) > 16 and len(state.decks) % 16 == 0
    assert list(state.engine.deck) == state.decks


def test_a_redeal_of_the_first_deal_asks_chance_for_another_deck() -> None:
    game = load("teka", single_hand=True)  # a hand without honours is dealt again
    rng = random.Random(0)
    while True:
        deck = rng.sample(range(52), 52)
        if len(game.koira_game.new_state(deck=deck, seed=0).deck) > 52:
            break
    state = deal(game, deck)
    assert state.is_chance_node() and state.engine is None and len(state.chance_outcomes()) == 52
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    assert len(state.decks) == 104 and list(state.engine.deck) == state.decks


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_and_returns_are_the_envs(game_id: str) -> None:
    game = load(game_id, **SHORT.get(game_id, {}))
    kgame = game.koira_game
    n = game.num_players()
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        observed: dict[int, list[np.ndarray]] = {}  # actions played -> each seat's observation
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if rng.random() < 0.2 or not state.actions:
                observed[len(state.actions)] = [
                    np.asarray(state.observation_tensor(p), np.float32) for p in range(n)
                ]
                assert state.observation_string(0) == kgame.render(state.engine, 0)
            state.apply_action(rng.choice(state.legal_actions()))
        env = registry.make_raw(game_id, n, **SHORT.get(game_id, {}))
        env.reset(options={"deck": list(state.decks)})
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for i, action in enumerate(state.actions):
            if i in observed:
                for p, tensor in enumerate(observed[i]):
                    obs = env.observe(f"player_{p}")["observation"]
                    assert tensor.shape == (kgame.observation_size,)
                    np.testing.assert_array_equal(tensor, obs)
            env.step(action)
        for agent in env.possible_agents:
            rewards[agent] = env._cumulative_rewards[agent]
        assert env.state_object.is_terminal
        assert state.returns() == list(env.state_object.returns())
        assert state.returns() == [rewards[f"player_{p}"] for p in range(n)]
        assert sum(state.returns()) == pytest.approx(0.0)


def deal(game: pyspiel.Game, deck: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    return state


def test_information_state_has_perfect_recall() -> None:
    game = load("kop", single_hand=True)
    deck = list(range(16))  # dealt one at a time from player_0: player_p holds deck[p::4]
    other = deck[:]
    other[1], other[2] = other[2], other[1]  # player_1 and player_2 swap a card
    mine = deck[:]
    mine[0], mine[1] = mine[1], mine[0]  # player_0 and player_1 swap a card
    a, b, c = deal(game, deck), deal(game, other), deal(game, mine)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(3) == b.information_state_string(3)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.information_state_string(0) != c.information_state_string(0)
    # the same public play keeps player_0 unable to tell a from b
    for _ in range(4):
        if set(a.legal_actions()) != set(b.legal_actions()):
            break
        action = a.legal_actions()[0]
        a.apply_action(action)
        b.apply_action(action)
        assert a.information_state_string(0) == b.information_state_string(0)
    # what a seat saw stays in its information state: the same position reached through
    # different earlier views is a different information state
    state = random_play(game, 3)
    strings = set()
    replay = deal(game, state.decks)
    for action in state.actions:
        strings.add(replay.information_state_string(replay.current_player()))
        replay.apply_action(action)
    assert len(strings) == len(state.actions)


RESAMPLED = [
    (game_id, SHORT.get(game_id, {}))
    for game_id in ["kop", "koira", "whist22", "teka", "red7", "dois"]
]
RESAMPLED += [("matapesa", MINI_MATAPESA), ("matapesa", {})]


@pytest.mark.parametrize(
    "game_id, params",
    RESAMPLED,
    ids=["kop", "koira", "whist22", "teka", "red7", "dois", "matapesa-mini", "matapesa"],
)
def test_resample_from_infostate(game_id: str, params: dict[str, object]) -> None:
    game = load(game_id, **params)
    rng = random.Random(0)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        player = state.current_player()
        if rng.random() < 0.3:
            sampled = state.resample_from_infostate(player, rng.random)
            assert sampled.information_state_string(player) == state.information_state_string(
                player
            )
            assert sampled.legal_actions() == state.legal_actions()
            chance = [a.action for a in sampled.full_history() if a.player < 0]
            outcomes = [sampled._game.outcome[card] for card in sampled.decks]  # places in the deck
            assert chance == outcomes and len(chance) == len(state.decks)
            played = [a.action for a in sampled.full_history() if a.player >= 0]
            assert played == sampled.actions and len(played) == len(state.actions)
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def test_dois_resamples_after_a_show_every_time() -> None:
    """150 games of two hands at 4 players whose first deal has a show (seeds found by the
    engine): every resample made while the show is in view succeeds, with the player's
    information state. Each show's redraw deck is built (``engine.redraw_deck``), and
    ``determinize`` keeps the hands at each show apart."""
    from koira_env import make_game

    engine_game = make_game("dois", 4, hands=2)
    game = load("dois", **SHORT["dois"])
    rng = random.Random(0)
    games = resampled = 0
    seed = 0
    while games < 150:
        dealt = engine_game.new_state(seed=seed)
        seed += 1
        if not dealt.shown:
            continue
        games += 1
        state = deal(game, dealt.deck[: dealt.decks_used * 68])
        while not state.is_chance_node() and state.engine.view(0).shown:
            player = state.current_player()
            if rng.random() < 0.1:
                sampled = state.resample_from_infostate(player, rng.random)
                assert sampled.information_state_string(player) == state.information_state_string(
                    player
                )
                resampled += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert resampled > 400


def test_suite_bots_play_through_evaluate_bots() -> None:
    for game_id, agent, params in [
        ("kop", "counter", {"single_hand": True}),
        ("koira", "greedy", {"players": 3}),
    ]:
        game = load(game_id, **params)
        n = game.num_players()
        bots = [ko.AgentBot(make_agent(agent, game_id), 0, seed=1)] + [
            pyspiel.make_uniform_random_bot(p, p) for p in range(1, n)
        ]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
        assert len(returns) == n and sum(returns) == pytest.approx(0.0)


@pytest.mark.parametrize(
    "game_id, params",
    [
        ("kop", {"single_hand": True}),
        ("koira", {"players": 2}),
        ("matapesa", MINI_MATAPESA),
        ("dois", SHORT["dois"]),
    ],
    ids=["kop", "koira", "matapesa-mini", "dois"],
)
def test_openspiel_ismcts_plays_a_game(game_id: str, params: dict[str, object]) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(game_id, **params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1))
    n = game.num_players()
    bots = [bot] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, n)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert len(returns) == n and sum(returns) == pytest.approx(0.0)


def test_shimmy_pettingzoo_wrapper_passes_api_test() -> None:
    shimmy = pytest.importorskip("shimmy", reason="Shimmy is not installed (the openspiel extra)")
    from pettingzoo.test import api_test

    env = shimmy.OpenSpielCompatibilityV0(env=load("kop", single_hand=True))
    api_test(env, num_cycles=200)


def test_mini_matapesa_deals_its_six_cards_as_chance() -> None:
    game = load("matapesa", **MINI_MATAPESA)
    state = game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 6] * 6)
    for _ in range(6):
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node() and state.current_player() == 0
    assert [c % 13 for c in state.decks] == [10, 11, 12, 10, 11, 12]  # Q K A of hearts, spades


@pytest.mark.slow
def test_exact_nashconv_of_agents_and_cfr_plus_on_mini_matapesa(tmp_path: Path) -> None:
    """With two cards a hand, playing one's highest card first is dominant (the seat left
    with the highest card takes the last trick and loses): ``shed`` does and is exactly
    unexploitable; ``lowest`` does the opposite. CFR+ closes in on an equilibrium, and a
    solver restored from its checkpoint goes on exactly as the one that never stopped."""
    from open_spiel.python.algorithms import cfr, exploitability

    from koira_experiments.openspiel_exact import agent_policy, load_solver, save_solver

    game = load("matapesa", **MINI_MATAPESA)
    assert exploitability.nash_conv(game, agent_policy(game, "shed")) == pytest.approx(0.0)
    assert exploitability.nash_conv(game, agent_policy(game, "lowest")) == pytest.approx(1.2)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    save_solver(tmp_path / "cfr.json", solver, [], 0.0)
    resumed = cfr.CFRPlusSolver(game)
    load_solver(tmp_path / "cfr.json", resumed)
    for s in (solver, resumed):
        s.evaluate_and_update_policy()
    average = solver.average_policy().action_probability_array
    assert np.allclose(resumed.average_policy().action_probability_array, average)
    assert exploitability.nash_conv(game, solver.average_policy()) < 0.3
