"""The turn scorer (``--arch turns``, Red7): numpy and torch agreeing, the file format and its
checks, and distillation's data keeping each decision's turn rows beside it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from koira_agents.base import play_game
from koira_agents.net import NetAgent, NetPolicy, policy_move
from koira_agents.registry import make_agent
from koira_agents.turnnet import TurnNetPolicy
from koira_env import make_game
from koira_env.core.agent import Turn
from koira_training import distill
from koira_training.turnnet import TurnNet


def decisions(game, games, seed=0):
    """(state, seat, legal) of every decision with a choice in ``games`` random games."""
    out = []
    for g in range(games):
        state, rng = game.new_state(seed=seed + g), random.Random(g)
        while not state.is_terminal:
            legal = state.legal_actions()
            if len(legal) > 1:
                out.append((state.clone(), state.current, legal))
            state.apply(rng.choice(legal))
    return out


def test_numpy_plays_what_torch_trained():
    game = make_game("red7", 4)
    torch.manual_seed(3)
    net = TurnNet(game, (16, 12))
    policy = TurnNetPolicy(*net.arrays())
    for state, seat, legal in decisions(game, 3)[::5]:
        obs = game.observation(state, seat)
        rows = game.turn_features(state, seat, legal)
        with torch.no_grad():
            scores, value = net(torch.from_numpy(obs)[None], torch.from_numpy(rows)[None])
        assert np.allclose(policy.scores(obs, rows), scores[0].numpy(), atol=1e-5)
        assert policy.value(obs) == pytest.approx(float(value[0]), abs=1e-5)
        best = legal[int(scores[0].argmax())]
        assert policy.choose_turn(obs, legal, rows) == best
        assert policy_move(policy, game, state, seat, legal[::-1]) == best  # any order in


def test_a_turn_scorer_file_plays_and_a_mismatched_one_is_refused(tmp_path):
    path = tmp_path / "turns.npz"
    run = tmp_path / "run"
    flags = ["--game", "red7", "--arch", "turns", "--hidden", "8", "--teacher", "flat:4"]
    flags += ["--games-per-round", "24", "--eval-deals", "1", "--workers", "1"]
    distill.main([*flags, "--batch-size", "32", "--run-dir", str(run), "--export", str(path)])
    game = make_game("red7", 4)
    policy = NetPolicy.load(path, game)
    assert isinstance(policy, TurnNetPolicy) and policy.meta["turn_features"] == 180
    agent = make_agent(f"net:{path}", "red7")
    assert isinstance(agent, NetAgent)
    thrifty = [make_agent("thrifty", "red7") for _ in range(3)]
    assert not play_game([agent, *thrifty], game, None, seed=5).truncated
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    np.savez(tmp_path / "wide.npz", meta=json.dumps({**meta, "turn_features": 200}), **arrays)
    with pytest.raises(ValueError, match="scores turns of 200 features; Red7 writes 180"):
        NetPolicy.load(tmp_path / "wide.npz", game)
    with pytest.raises(ValueError, match="--arch turns needs per-turn features; kop has none"):
        distill.Args(game="kop", arch="turns")
    # the data: each decision's rows, one per legal turn, in its legal actions' order
    data = distill.load_window(run, 10**6)
    assert len(data["turns"]) == data["masks"].sum()
    window = distill.load_window(run, 7)
    assert len(window["turns"]) == window["masks"].sum()
    assert np.array_equal(
        window["turns"], data["turns"][len(data["turns"]) - len(window["turns"]) :]
    )


def test_the_recorder_keeps_the_rows_of_the_turns_it_labels():
    game = make_game("red7", 4)
    recorder = distill.Recorder(game, make_agent("flat:4", "red7"), None, turns=True)

    for k, (state, seat, legal) in enumerate(decisions(game, 2, seed=40)[:30]):
        recorder.act(Turn(state.view(seat), game, random.Random(k), state))
        _, mask, target, rows = recorder.rows[-1]
        order = sorted(legal)
        assert np.array_equal(np.flatnonzero(mask), order)
        assert np.array_equal(rows, game.turn_features(state, seat, order))
        assert target[order].sum() == pytest.approx(1.0)


def test_the_turn_benchmark_times_every_row(tmp_path):
    from bench_scripts import load_benchmark

    out = tmp_path / "b.json"
    assert (
        load_benchmark("bench_turns").main(["--decisions", "40", "--reps", "1", "--json", str(out)])
        == 0
    )
    micros = json.loads(out.read_text())["micros"]
    assert set(micros) == {"reference rows", "compiled rows", "champion-net decision"}
    assert all(v > 0 for v in micros.values())
