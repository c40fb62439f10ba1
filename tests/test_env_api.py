"""The AEC environment against PettingZoo's own checkers, plus dealing, rewards and records."""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from bench_scripts import load_benchmark
from pettingzoo.test import api_test, render_test, seed_test

import koira_env
from koira_env.cards import card_name
from koira_env.games.koira.engine import new_game, num_actions
from koira_env.games.koira.rules import PLAYER_RANGE, Rules
from koira_env.registry import replay

CONFIGS = [
    (preset, n, {}) for preset, (lo, hi) in PLAYER_RANGE.items() for n in range(lo, hi + 1)
] + [("koira", 4, {"sequences": 2}), ("mattis", 5, {"sequences": 2})]
IDS = [f"{p}-{n}{'-seq' if o else ''}" for p, n, o in CONFIGS]


def play_random(env, rng: random.Random, max_steps: int = 100_000) -> int:
    """Random legal play until every agent is done; returns the number of actions."""
    actions = 0
    for _agent in env.agent_iter(max_steps):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        actions += 1
    return actions


@pytest.mark.filterwarnings("ignore:ignoring unknown reset option")  # api_test passes one
@pytest.mark.filterwarnings("ignore:Observation")  # dict observations, as in PettingZoo's classic
@pytest.mark.parametrize(("preset", "n", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_seed_and_render(preset, n, options):
    api_test(koira_env.env(n, preset, **options), num_cycles=60)
    seed_test(lambda: koira_env.env(n, preset, **options), num_cycles=60)
    render_test(lambda render_mode=None: koira_env.env(n, preset, render_mode, **options))


@pytest.mark.parametrize(("preset", "n", "options"), CONFIGS, ids=IDS)
def test_full_games_end_with_zero_sum_rewards_and_placements(preset, n, options):
    env = koira_env.env(n, preset, **options)
    rng = random.Random(n)
    for seed in range(3):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        infos = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                infos[agent] = info
                env.step(None)
                continue
            assert reward == 0.0  # rewards only at the end
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        state = env.unwrapped.state_object
        assert state.is_terminal and not state.truncated
        assert sum(totals.values()) == pytest.approx(0.0)
        assert [totals[f"player_{p}"] for p in range(n)] == state.returns()
        expected = [f"player_{p}" for p in state.placements]
        assert sorted(expected) == sorted(env.possible_agents)
        assert all(info["placements"] == expected for info in infos.values())
        assert totals[expected[-1]] == -1.0  # the loser


def test_action_space_size_follows_sequences():
    assert koira_env.env().action_space("player_0").n == 54
    seq = koira_env.env(sequences=2)
    assert seq.action_space("player_3").n == num_actions(seq.rules) > 54
    assert len(seq.possible_agents) == 4 and seq.possible_agents[0] == "player_0"


def test_player_0_leads_and_deck_option_deals_in_seat_order():
    deck = [card_name(c) for c in random.Random(5).sample(range(52), 52)]
    env = koira_env.env(3)
    env.reset(options={"deck": deck})
    state = env.unwrapped.state_object
    assert env.agent_selection == "player_0"
    for p in range(3):
        assert [card_name(c) for c in state.hands[p]] == deck[p : 3 * Rules().hand_size : 3]
    assert card_name(state.stock[-1]) == deck[3 * Rules().hand_size]  # top of the stock
    assert state.deck == tuple(koira_env.parse_deck(deck))


def test_seed_fixes_the_deal_and_reset_without_seed_deals_anew():
    a, b = koira_env.env(), koira_env.env()
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.unwrapped.state_object.deck == b.unwrapped.state_object.deck
    assert a.unwrapped.state_object.deck == new_game(seed=7).deck  # same shuffle as the engine
    first = a.unwrapped.state_object.deck
    a.reset()
    b.reset()
    assert a.unwrapped.state_object.deck == b.unwrapped.state_object.deck != first
    a.reset(seed=8)
    assert a.unwrapped.state_object.deck != first


def test_unknown_reset_option_warns():
    env = koira_env.env()
    with pytest.warns(UserWarning, match="dek"):
        env.reset(options={"dek": []})


def test_truncation_when_max_actions_reached():
    env = koira_env.env(4, max_actions=100)  # random 4-player games take about 200 actions
    env.reset(seed=0)
    rng = random.Random(0)
    ends = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            ends[agent] = (reward, terminated, truncated, info)
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert env.unwrapped.state_object.truncated
    assert env.unwrapped.state_object.actions_taken == 100
    assert set(ends) == set(env.possible_agents)
    for reward, terminated, truncated, info in ends.values():
        assert (reward, terminated, truncated) == (0.0, False, True) and "placements" in info


def test_game_record_replays_to_the_same_state():
    env = koira_env.env(5, "koira-b")
    env.reset(seed=3)
    play_random(env, random.Random(1))
    record = json.loads(json.dumps(env.unwrapped.game_record()))
    final = replay(record)
    state = env.unwrapped.state_object
    assert final.history == state.history and final.placements == state.placements
    assert record["result"]["finished"]


def test_pickle_keeps_a_game_in_progress():
    env = koira_env.env(4, "mattis")
    env.reset(seed=11)
    rng = random.Random(2)
    for _ in range(40):
        obs, *_ = env.last()
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.agent_selection == env.agent_selection
    for agent in env.possible_agents:
        mine, theirs = env.observe(agent), copy.observe(agent)
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])


def test_observe_returns_fresh_arrays():
    env = koira_env.env()
    env.reset(seed=0)
    first = env.observe("player_0")
    kept = first["observation"].copy()
    first["observation"][:] = 0.5
    first["action_mask"][:] = 0
    again = env.observe("player_0")
    assert np.array_equal(again["observation"], kept) and again["action_mask"].any()


def test_render_ansi_shows_only_the_actors_hand():
    env = koira_env.env(4, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    state = env.unwrapped.state_object
    assert isinstance(text, str) and "player_0 to act" in text
    for p in range(4):
        for card in state.hands[p]:
            assert (card_name(card) in text) == (p == 0)
    human = koira_env.env(4, render_mode="human")
    human.reset(seed=4)
    assert human.render() is None


def test_bench_quick_mode_runs_and_writes_json(tmp_path: Path):
    bench = load_benchmark("bench")
    out = tmp_path / "bench.json"
    results = bench.main(["--quick", "--json", str(out)])  # every game of the registry
    saved = json.loads(out.read_text())
    assert saved["results"] == json.loads(json.dumps(results))
    for r in results:
        for name in ("engine", "env", "ceiling"):
            assert r[name]["min"] <= r[name]["median"] <= r[name]["max"] and r[name]["min"] > 0
        assert r["env_over_engine"] > 0 and r["env_over_ceiling"] > 0 and r["env_over_first"] > 0
        # the yardstick, OpenSpiel's bridge with a reused buffer, beside every game (bench extra)
        assert ("env_over_bridge" in r) == (importlib.util.find_spec("pyspiel") is not None)
    # every game, then Red7 again with split actions
    assert [r["config"].split(":")[0] for r in results] == [*koira_env.games(), "red7"]
    assert results[-1]["config"] == "red7:4:split"
    assert bench.make_config("mattis:4").rules.preset == "mattis"


def test_instruction_counter_plays_the_bench_loop_and_reads_callgrinds_total(capsys):
    """The valgrind run itself is too slow for the default tests; its two ends are checked."""
    counter = load_benchmark("instructions")
    counter.main(["--child", "env", "koira:3", "4"])
    steps = int(capsys.readouterr().out)
    assert steps == sum(load_benchmark("bench").drive(koira_env.env(3), 4)[0]) > 0
    counter.main(["--child", "vector", "red7:4", "20"])  # 2 calls of 16 steps of 256 envs
    assert int(capsys.readouterr().out) == 2 * 16 * 256
    if importlib.util.find_spec("pyspiel") is not None:  # the peer: crazy_eights for Red7
        counter.main(["--child", "peer", "red7:4", "3"])
        assert int(capsys.readouterr().out) > 3
    assert counter.instructions("==71== \n==71== Collected : 3,586,478,817\n") == 3_586_478_817
    with pytest.raises(RuntimeError, match="no instruction count"):
        counter.instructions("valgrind: command failed")


@pytest.mark.parametrize("factory", [koira_env.env, koira_env.raw_env])
def test_env_attributes_stay_on_cpythons_fast_path(factory):
    """A ``__getattr__`` hook, or a class attribute that an instance attribute shadows, turns
    off CPython's specialized attribute access: 8% more instructions per step (benchmarks.md)."""
    env = factory()
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    classes = type(env).__mro__[:-1]  # not object
    assert [c.__name__ for c in classes if "__getattr__" in vars(c)] == []
    assert sorted(name for name in vars(env) if any(name in vars(c) for c in classes)) == []


def test_text_is_titled_with_the_variant_played():
    """The renderer once called every game "Koira", Mattis included."""
    for preset, title in (("koira", "Koira"), ("koira-b", "Koira"), ("mattis", "Mattis")):
        env = koira_env.env(4, preset, render_mode="ansi")
        env.reset(seed=1)
        assert env.render().startswith(f"{title} ({preset}, 4 players)")
