"""The peer benchmark harness: quick mode end to end, tiny budgets, no timing assertions."""

from __future__ import annotations

import json
import random

import pytest
from bench_scripts import load_benchmark
from pettingzoo.test import api_test

import koira_env

peers = load_benchmark("peers")


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    out = tmp_path_factory.mktemp("bench") / "peers.json"
    data = peers.main(["--quick", "--json", str(out)])
    return data, json.loads(out.read_text())


def rows(data: dict) -> dict[str, dict]:
    return {row["name"]: row for row in data["rows"]}


def test_quick_run_measures_all_of_our_parts(quick: tuple[dict, dict]) -> None:
    data, written = quick
    assert written == json.loads(json.dumps(data))
    by_name = rows(data)
    for name in (
        "koira bare",
        "koira env",
        "null AEC env",
        "koira tournament",
        "koira vector",
        "numpy floor",
    ):
        row = by_name[name]
        assert row["available"], row["error"]
        assert row["steps_per_s"]["median"] > 0
        assert row["games_per_s"]["median"] > 0
        assert len(row["steps_per_s"]["runs"]) == data["reps"] == 1
    # Whole games only: a Koira game takes far more than one step.
    assert by_name["koira bare"]["steps_per_game"] > 20
    assert data["env_fraction_of_null_env"] > 0
    assert data["machine"]["nproc"] >= 1
    assert [t["peer"] for t in data["targets"]] == [
        "bridge obs",
        "bridge buffer",
        "hearts raw",
        "bridge buffer",
    ]
    assert by_name["koira vector"]["steps_per_game"] == 256 * 64  # a "game": 64 batch steps


def test_peer_rows_are_measured_or_explained(quick: tuple[dict, dict]) -> None:
    data, _ = quick
    for row in data["rows"]:
        if row["group"] == "peer":
            assert row["available"] == (row["error"] is None)
            if row["available"]:
                assert row["ours_over_this"] > 0
    for target in data["targets"]:
        peer = rows(data)[target["peer"]]
        assert (target["status"] == "n/a") == (not peer["available"])
        if peer["available"]:
            assert target["status"] == ("PASS" if target["ratio"] >= target["min"] else "MISS")


def test_openspiel_games_are_played_to_the_end(quick: tuple[dict, dict]) -> None:
    pytest.importorskip("pyspiel")
    by_name = rows(quick[0])
    for game in ("bridge", "hearts", "spades"):
        for mode in ("raw", "obs", "buffer"):
            assert by_name[f"{game} {mode}"]["available"], by_name[f"{game} {mode}"]["error"]
    # Bridge without the double-dummy shortcut: at least four calls and all 52 cards played.
    play = peers.openspiel("bridge", "buffer")()
    assert all(play(random.Random(seed), seed) >= 56 for seed in range(3))


def test_pettingzoo_classic_peers_run(quick: tuple[dict, dict]) -> None:
    pytest.importorskip("rlcard")
    by_name = rows(quick[0])
    for module in peers.PETTINGZOO_GAMES:
        assert by_name[module]["available"], by_name[module]["error"]


def test_a_broken_peer_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> peers.GameFn:
        raise ImportError("no module named 'nothing'\nsecond line")

    fake = [
        peers.Bench("koira bare", "ours", "koira bare", peers.bare_engine),
        peers.Bench("broken", "peer", "koira bare", broken),
    ]
    monkeypatch.setattr(peers, "benches", lambda: fake)
    data = peers.report(peers.run(2, 0.001, log=lambda _: None), 2, 0.001, "cpu")
    ours, bad = data["rows"]
    assert len(ours["steps_per_s"]["runs"]) == 2
    assert not bad["available"]
    assert bad["error"] == "ImportError: no module named 'nothing'"
    assert bad["ours_over_this"] is None
    assert "unavailable" in peers.markdown(data).splitlines()[3]
    assert all(t["status"] == "n/a" for t in data["targets"])


def test_aec_loop_plays_legal_games_of_our_env() -> None:
    env = koira_env.env()
    play = peers.aec_loop(env)
    for seed in range(3):
        steps = play(random.Random(seed), seed)
        state = env.unwrapped.state_object
        assert state.is_terminal
        assert steps == state.actions_taken
        assert not env.agents


@pytest.mark.filterwarnings(
    "ignore:.*(all zeros|probably should be|not a NumPy|render):UserWarning"
)
def test_null_env_follows_the_pettingzoo_api() -> None:
    length, num_legal = peers.calibrate(5)
    env = peers.NullEnv(10, 6, length, num_legal)
    api_test(env, num_cycles=5)
    assert peers.aec_loop(env)(random.Random(0), 0) == length
