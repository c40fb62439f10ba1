"""Tournaments: schedule, determinism, resuming after a kill, and the statistics."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import seeded

from koira_agents import registry
from koira_agents.ismcts import ISMCTSAgent
from koira_agents.ratings import (
    cluster_mean,
    cluster_rate,
    head_to_head,
    plackett_luce,
    t_quantile,
    wilson,
)
from koira_agents.registry import default_agents, make_agent
from koira_agents.report import TIMING, summarize
from koira_agents.schedule import TournamentConfig, jobs, lineups, schedule
from koira_agents.tournament import LOG, run_tournament
from koira_env.core.jobs import read_log
from koira_env.core.record import load_record
from koira_env.games import koira as koira_package
from koira_env.registry import replay, replay_states

CONFIG = TournamentConfig(agents=("random", "greedy", "dumper"), deals=12, seed=5)
RESULT_FILES = ("results.json", "leaderboard.csv", "head_to_head.csv")


def results(folder: Path) -> dict[str, str]:
    return {name: (folder / name).read_text() for name in RESULT_FILES}


# ------------------------------------------------------------------ schedule
def test_lineups_are_combinations_or_multisets_with_everyone():
    assert lineups(["a", "b", "c", "d", "e"], 4) == [
        ("a", "b", "c", "d"),
        ("a", "b", "c", "e"),
        ("a", "b", "d", "e"),
        ("a", "c", "d", "e"),
        ("b", "c", "d", "e"),
    ]
    assert lineups(["a", "b"], 4) == [
        ("a", "a", "a", "b"),
        ("a", "a", "b", "b"),
        ("a", "b", "b", "b"),
    ]
    assert lineups(["a"], 3) == [("a", "a", "a")]


def test_schedule_plays_every_table_equally_often_and_rounds_deals_up():
    config = TournamentConfig(agents=tuple(f"{x}=random" for x in "abcde"), deals=12, seed=1)
    tables = Counter(tuple(sorted(t)) for t in schedule(config))
    assert len(tables) == 5 and set(tables.values()) == {3}  # 12 deals -> 15
    assert schedule(config) == schedule(config)
    seatings = jobs(config)
    assert len(seatings) == 15 * 4
    # each deal is played once in each rotation: every agent of the table sits in every seat
    for deal in range(15):
        games = [j.seats for j in seatings if j.deal == deal]
        assert len(games) == 4
        for seat in range(4):
            assert sorted(g[seat] for g in games) == sorted(games[0])


def test_fewer_agents_than_seats_and_deals_than_tables_still_fill_every_seat():
    config = TournamentConfig(agents=("a=random", "b=random", "c=random"), deals=2, seed=1)
    tables = schedule(config)
    assert len(tables) == 2 and all(len(t) == 4 and set(t) == {"a", "b", "c"} for t in tables)


def test_schedule_samples_evenly_when_tables_outnumber_deals():
    agents = tuple(f"r{i}=random" for i in range(10))  # 210 possible tables
    config = TournamentConfig(agents=agents, deals=25, seed=3)
    tables = schedule(config)
    assert len(tables) == 25
    assert all(len(set(t)) == 4 for t in tables)
    counts = Counter(label for t in tables for label in t)
    assert max(counts.values()) - min(counts.values()) <= 1
    assert sum(counts.values()) == 100


def test_config_is_validated():
    with pytest.raises(ValueError, match="unique"):
        TournamentConfig(agents=("random", "random"))
    with pytest.raises(ValueError, match="unknown rule option"):
        TournamentConfig(agents=("random",), options=(("nonsense", 1),))
    with pytest.raises(ValueError, match="positive"):
        TournamentConfig(agents=("random",), deals=0)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        TournamentConfig(agents=("x=nobody",))


def test_default_agents_leave_out_search_bots():
    names = default_agents()
    assert "random" in names and "ismcts" not in names


# ------------------------------------------------------------------ running
def test_same_seed_same_results_any_worker_count(tmp_path):
    one = run_tournament(CONFIG, tmp_path / "one", workers=1)
    two = run_tournament(CONFIG, tmp_path / "two", workers=2)
    assert seeded(one) == seeded(two)
    assert results(tmp_path / "one") == results(tmp_path / "two")
    assert one["complete"] and one["games_played"] == 12 * 4
    other = run_tournament(
        TournamentConfig(agents=CONFIG.agents, deals=12, seed=6), tmp_path / "other", workers=1
    )
    assert other["agents"] != one["agents"]
    assert (tmp_path / "one" / "head_to_head.png").stat().st_size > 1000


def test_decision_times_count_every_decision_asked_and_only_those(tmp_path):
    config = TournamentConfig(agents=("random", "greedy", "ismcts:3"), deals=3, seed=2)
    run_tournament(config, tmp_path, workers=1, save_records=len(jobs(config)))
    rows = read_log(tmp_path / LOG)
    asked = Counter()  # label -> moves with more than one legal action, from the records
    for path in (tmp_path / "records").glob("*.json"):
        seats = rows[path.stem.removeprefix("game-")]["seats"]
        for state in replay_states(load_record(path))[:-1]:
            if len(state.legal_actions()) > 1:
                asked[seats[state.current]] += 1
    with (tmp_path / TIMING).open() as f:
        timing = {r["agent"]: r for r in csv.DictReader(f)}
    assert {a: int(timing[a]["decisions"]) for a in timing} == dict(asked)
    assert all(float(timing[a]["ms_per_decision"]) > 0 for a in timing)
    # a search costs more per decision than a random choice, by far
    assert float(timing["ismcts:3"]["ms_per_decision"]) > 5 * float(
        timing["random"]["ms_per_decision"]
    )


def test_resume_after_a_limit_and_a_torn_line_equals_one_run(tmp_path):
    whole = run_tournament(CONFIG, tmp_path / "whole", workers=1)
    part = tmp_path / "part"
    first = run_tournament(CONFIG, part, workers=1, max_games=17)
    assert not first["complete"] and first["games_played"] == 17
    with (part / LOG).open("a") as log:
        log.write('{"key": "3.1", "deal": 3, "rot')  # a write cut short by a kill
    again = run_tournament(CONFIG, part, workers=2)
    assert seeded(again) == seeded(whole)
    assert results(part) == results(tmp_path / "whole")
    assert len((part / LOG).read_text().splitlines()) == 48


def test_resume_after_killing_a_run(tmp_path):
    config = TournamentConfig(agents=("random", "greedy", "dumper"), deals=150, seed=9)
    folder = tmp_path / "killed"
    code = (
        "from koira_agents.schedule import TournamentConfig\n"
        "from koira_agents.tournament import run_tournament\n"
        f"run_tournament(TournamentConfig(agents={config.agents!r}, deals=150, seed=9), "
        f"{str(folder)!r}, workers=2)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    log = folder / LOG
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.stat().st_size > 2000:
            break
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, mid-game
    proc.wait()
    played = len(read_log(log))
    assert 0 < played < 600, "the run should have been killed midway"
    resumed = run_tournament(config, folder, workers=2)
    assert seeded(resumed) == seeded(run_tournament(config, tmp_path / "whole", workers=2))
    assert results(folder) == results(tmp_path / "whole")


def test_a_different_config_in_the_same_folder_is_refused(tmp_path):
    run_tournament(CONFIG, tmp_path, workers=1, max_games=4)
    changed = TournamentConfig(agents=CONFIG.agents, deals=12, seed=6)
    with pytest.raises(ValueError, match=r"different tournament.*seed"):
        run_tournament(changed, tmp_path, workers=1)


def test_saved_records_replay_to_the_logged_result(tmp_path):
    run_tournament(CONFIG, tmp_path, workers=1, save_records=3)
    rows = read_log(tmp_path / LOG)
    records = sorted((tmp_path / "records").glob("*.json"))
    assert [p.name for p in records] == ["game-0.0.json", "game-0.1.json", "game-0.2.json"]
    for path in records:
        key = path.stem.removeprefix("game-")
        assert list(replay(load_record(path)).outcome().places) == rows[key]["places"]
        assert load_record(path)["players"] == rows[key]["seats"]  # who sat where


def test_identical_agents_get_equal_loss_rates_within_the_ci(tmp_path):
    """Copies of one bot: the rotations of a deal make their results exactly equal; single
    games (rotation 0 only) differ by luck, and the intervals cover the truth, 1 in 4."""
    config = TournamentConfig(agents=("a=random", "b=random", "c=random"), deals=90, seed=2)
    summary = run_tournament(config, tmp_path, workers=2)
    for a in summary["agents"]:
        assert a["loss_rate"] == 0.25 and a["mean_place"] == 2.5
        assert a["loss_ci"][0] <= 0.25 <= a["loss_ci"][1]
    single = [r for r in read_log(tmp_path / LOG).values() if r["rotation"] == 0]
    agents = summarize(config, single, total=len(single))["agents"]
    assert len({a["loss_rate"] for a in agents}) == 3
    for a in agents:
        assert a["loss_ci"][0] < 0.25 < a["loss_ci"][1]
        assert a["place_ci"][0] < 2.5 < a["place_ci"][1]
        for b in agents:
            assert a["loss_ci"][0] < b["loss_ci"][1]  # the intervals overlap


# ------------------------------------------------------------------ statistics
def test_wilson_matches_the_textbook_interval():
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0.0, 10)
    assert low == pytest.approx(0.0, abs=1e-12) and high == pytest.approx(0.2775, abs=1e-4)


def test_t_quantile_against_tables():
    for df, expected in [(1, 12.706), (2, 4.303), (3, 3.182), (9, 2.262), (60, 2.000)]:
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=0.004)


def test_cluster_mean_by_hand():
    # deal totals 5, 4, 9 over 2, 2, 3 values: mean 18/7
    est = cluster_mean([[2, 3], [1, 3], [4, 4, 1]], (1, 4))
    mean = 18 / 7
    resid = (5 - 2 * mean) ** 2 + (4 - 2 * mean) ** 2 + (9 - 3 * mean) ** 2
    se = math.sqrt(3 / 2 * resid / 49)
    assert est.value == pytest.approx(mean)
    assert est.high - est.value == pytest.approx(4.303 * se, rel=1e-3)
    assert (est.n, est.clusters) == (7, 3)
    assert cluster_mean([[2, 3]], (1, 4)).low == 1  # one deal: nothing known about the spread


def test_cluster_rate_uses_the_design_effect():
    # deals whose rotations agree carry as much information as one game each
    agree = cluster_rate([[1, 1, 1, 1], [0, 0, 0, 0]] * 10)
    independent = cluster_rate([[1], [0]] * 40)
    assert agree.value == independent.value == 0.5
    assert agree.high - agree.low > 1.8 * (independent.high - independent.low)
    # perfectly balanced deals (one loss in four, every time): no uncertainty left
    balanced = cluster_rate([[1, 0, 0, 0]] * 5)
    assert (balanced.low, balanced.value, balanced.high) == (0.25, 0.25, 0.25)
    assert cluster_rate([[0, 0], [0]]).high == pytest.approx(wilson(0.0, 2)[1])


def test_head_to_head_counts_pairs_of_seats():
    games = [(["a", "b", "c"], [1, 2, 3]), (["b", "a", "a"], [1, 2, 3])]
    ahead, met = head_to_head(games, ["a", "b", "c"])
    assert ahead == [[0, 1, 1], [2, 0, 1], [0, 0, 0]]  # a vs a is not counted
    assert met == [[0, 3, 1], [3, 0, 1], [1, 1, 0]]


def test_head_to_head_counts_ties_half():
    """Partners and equal scores share a place: half a game ahead to each."""
    ahead, met = head_to_head([(["a", "b", "c", "d"], [1, 3, 1, 3])], ["a", "b", "c", "d"])
    assert ahead[0] == [0, 1, 0.5, 1] and ahead[1] == [0, 0, 0, 0.5]
    assert met[0] == [0, 1, 1, 1]


def test_plackett_luce_ranks_the_usual_winner_first():
    orders = [["a", "b", "c"], ["a", "c", "b"], ["b", "a", "c"], ["a", "b", "c"]] * 5
    r = plackett_luce([(order, [1, 2, 3]) for order in orders], ["a", "b", "c"])
    assert r["a"].mu > r["b"].mu > r["c"].mu
    assert r["a"].ordinal == pytest.approx(r["a"].mu - 3 * r["a"].sigma)
    assert plackett_luce([], ["x"])["x"].mu == pytest.approx(25.0)
    twice = plackett_luce([(["a", "b", "a"], [1, 2, 3])], ["a", "b"])
    assert twice["a"].sigma < 25 / 3 and twice["b"].sigma < 25 / 3  # one rating per agent


def test_summary_on_a_synthetic_log():
    config = TournamentConfig(agents=("x=random", "y=random"), players=2, deals=2)
    rows = [
        {
            "key": f"{deal}.{rotation}",
            "deal": deal,
            "rotation": rotation,
            "seats": seats,
            "places": places,
            "truncated": truncated,
        }
        for deal, rotation, seats, places, truncated in (
            (0, 0, ["x", "y"], [1, 2], False),
            (0, 1, ["y", "x"], [2, 1], False),
            (1, 0, ["x", "y"], [2, 1], False),
            (1, 1, ["y", "x"], [1, 2], True),
        )
    ]
    s = summarize(config, rows, total=4)
    by = {a["agent"]: a for a in s["agents"]}
    assert by["x"]["loss_rate"] == pytest.approx(1 / 3) and by["y"]["loss_rate"] == pytest.approx(
        2 / 3
    )
    assert by["x"]["mean_place"] == pytest.approx(4 / 3) and by["x"]["deals"] == 2
    assert [a["agent"] for a in s["agents"]] == ["x", "y"]
    assert s["games_truncated"] == 1 and s["complete"]
    assert s["head_to_head"]["fraction_ahead"] == [[None, 2 / 3], [1 / 3, None]]
    json.dumps(s, allow_nan=False)


def test_aliases_stand_for_an_agent_spec_and_results_record_what_they_meant(monkeypatch):
    aliases = {"champ": "ismcts:3", "steady": "dumper"}
    declared = koira_package.SPEC
    choices = dataclasses.replace(declared.choices, aliases=aliases)
    monkeypatch.setattr(koira_package, "SPEC", dataclasses.replace(declared, choices=choices))
    champ = make_agent("champ")
    assert isinstance(champ, ISMCTSAgent) and champ.iterations == 3
    assert {"steady", "champ"} <= set(default_agents())  # aliases name affordable agents
    with pytest.raises(ValueError, match=r"known agents: .*'champ'"):
        make_agent("champion")
    config = TournamentConfig(agents=("champ", "s=steady", "random"), deals=1, seed=1)
    assert config.to_json()["aliases"] == {"champ": "ismcts:3", "s": "dumper"}
    assert "aliases" not in TournamentConfig(agents=("random",), deals=1).to_json()


def test_each_entrant_is_built_once_per_tournament(tmp_path, monkeypatch):
    """Validation, the alias record, the players and the saved records share one build."""
    built = Counter()

    def counted(name: str = "") -> Any:
        built[name] += 1
        return make_agent("random")

    monkeypatch.setitem(registry._STUDY_AGENTS, "koira", {"counted": counted})
    agents = ("counted:a", "counted:b", "champion", "greedy")
    config = TournamentConfig(agents=agents, deals=2, seed=3)
    summary = run_tournament(config, tmp_path, workers=1, save_records=3)
    assert summary["complete"] and dict(built) == {"a": 1, "b": 1}
    assert [row["agent"] for row in summary["timing"]] == list(agents)
    on_disk = {r["agent"]: r["decisions"] for r in csv.DictReader((tmp_path / TIMING).open())}
    assert on_disk == {row["agent"]: str(row["decisions"]) for row in summary["timing"]}
    assert "timing" not in json.loads((tmp_path / "results.json").read_text())
