"""The ``koira`` command: tournament, play (driven through stdin), replay, demo, errors."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from koira_agents.entrants import default_entrants
from koira_agents.registry import default_opponent, make_agent
from koira_agents.report import TIMING
from koira_agents.tournament import run_tournament
from koira_env import games, make_game
from koira_env.cards import card_name
from koira_env.core.record import load_record
from koira_env.games.koira.engine import RISK, RUN_ACTION, TAKE, new_game
from koira_env.registry import replay
from koira_experiments.cli import main, parse_option
from koira_experiments.human_play import ordered_moves, parse_move, play_human


def test_tournament_on_a_tiny_config(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "random,greedy,x=dumper", "--players", "3", "--games", "4"]
    argv += ["--rules", "koira-b", "--option", "war_trigger=any_tie", "--out", str(out)]
    assert main([*argv, "--workers", "1", "--save-records", "2", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "koira (koira-b), 3 players: 12 games" in printed
    for name in ("random", "greedy", "x"):
        assert name in printed
    summary = json.loads((out / "results.json").read_text())
    assert summary["config"]["options"] == {"war_trigger": "any_tie"}
    assert summary["complete"] and summary["games_played"] == 12
    assert (out / "leaderboard.csv").read_text().startswith("agent,spec,games")
    assert len(list((out / "records").glob("*.json"))) == 2
    assert main([*argv, "--seed", "1", "--quiet"]) == 2
    assert "different tournament" in capsys.readouterr().err


def test_the_tournament_command_prints_what_the_run_returned(tmp_path, capsys, monkeypatch):
    """The leaderboard's times come from the run itself, not from re-reading timing.csv."""
    import koira_experiments.cli as cli

    def run_then_lose_the_file(config, out, **kwargs):
        summary = run_tournament(config, out, **kwargs)
        (Path(out) / TIMING).unlink()
        return summary

    monkeypatch.setattr(cli, "run_tournament", run_then_lose_the_file)
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "random,greedy", "--games", "2", "--out", str(out)]
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "greedy" in line]
    assert rows and re.search(r"\d+\.\d{3} *[│|]?$", rows[0].rstrip()), rows


@pytest.mark.parametrize("game", ["matapesa", "whist22", "kop"])
def test_every_command_takes_the_game(game, tmp_path, capsys, monkeypatch):
    """tournament, demo, play (through stdin, always the first move) and replay of its record."""
    out = tmp_path / "t"
    argv = ["tournament", "--game", game, "--games", "2", "--out", str(out), "--quiet"]
    assert main([*argv, "--workers", "1", "--max-games", "8"]) == 0
    printed = capsys.readouterr().out
    assert f"{game}, 4 players: 8 games" in printed and "random" in printed
    assert main(["demo", "--game", game, "--seed", "3"]) == 0
    assert capsys.readouterr().out.strip()
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    record = tmp_path / "game.json"
    assert main(["play", "--game", game, "--seed", "5", "--save-record", str(record)]) == 0
    played = capsys.readouterr().out
    assert "you finished in place" in played and "moves: [1]" in played
    state = replay(load_record(record))
    assert state.is_terminal and state.game.id == game
    assert main(["replay", str(record)]) == 0
    assert f"{len(state.history)} actions" in capsys.readouterr().out


def test_single_hand_plays_one_hand_of_the_long_games(tmp_path, capsys):
    for game in ("whist22", "kop"):
        out = tmp_path / game
        argv = ["tournament", "--game", game, "--single-hand", "--games", "2", "--quiet"]
        assert main([*argv, "--out", str(out), "--workers", "1", "--save-records", "4"]) == 0
        paths = list((out / "records").glob("*.json"))
        assert len(paths) == 4
        for path in paths:
            events = [e["type"] for e in load_record(path)["events"]]
            assert events.count("deal") == 1, game
    assert main(["demo", "--game", "matapesa", "--single-hand"]) == 2
    assert "one hand already" in capsys.readouterr().err


def test_an_unknown_game_is_a_clean_error(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--game", "poker"])
    assert "invalid choice: 'poker'" in capsys.readouterr().err


def test_tournament_stops_and_resumes(tmp_path, capsys):
    argv = ["tournament", "--agents", "random,greedy", "--games", "3", "--out", str(tmp_path)]
    assert main([*argv, "--workers", "1", "--max-games", "5", "--quiet"]) == 0
    # two agents at four seats: tables AAAB, AABB, ABBB, one deal each, four rotations
    assert "stopped after 5 of 12 games" in capsys.readouterr().out
    assert main([*argv, "--quiet"]) == 0
    assert "12 games" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--agents", "nobody"], "unknown agent"),
        (["tournament", "--option", "war_trigger"], "name=value"),
        (["tournament", "--option", "war_trigger=sometimes"], "war_trigger='sometimes'"),
        (["play", "--rules", "nope"], "unknown rules preset"),
        (["replay", "no-such-file.json"], "no-such-file.json"),
        (
            ["tournament", "--game", "whist22", "--rules", "koira-b"],
            "whist22 has no rule presets; --rules applies to koira",
        ),
        (["demo", "--game", "kop", "--rules", "mattis"], "kop has no rule presets"),
        (
            ["tournament", "--game", "red7", "--agents", "random", "--rules", "x"],
            "red7 has no rule presets",
        ),
    ],
)
def test_bad_input_is_a_clean_error(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("koira: error:") and message in err


def test_console_script_exit_code_and_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "koira_experiments.cli", "play", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "num_players=9" in proc.stderr


def test_parse_option_types():
    assert parse_option("voluntary_take=true") == ("voluntary_take", True)
    assert parse_option("sequences=2") == ("sequences", 2)
    assert parse_option(" war_mode = split ") == ("war_mode", "split")


def test_parse_move_accepts_names_numbers_and_words():
    game = make_game("koira", 4, sequences=2)
    legal = [10, 24, RISK]  # QC, KD
    assert parse_move("qc", legal, game) == 10
    assert parse_move(" KD ", legal, game) == 24
    assert parse_move("3", legal, game) == RISK
    assert parse_move("Risk", legal, game) == RISK
    run = RUN_ACTION[(7, 8, 9)]  # 9C-10C-JC
    assert parse_move("jc-9c-10c", [run, TAKE], game) == run
    assert parse_move("take", [run, TAKE], game) == TAKE
    for bad, message in [
        ("4", "out of range"),
        ("take", "take is not a legal move"),
        ("AS", "AS is not a legal move"),
        ("zz", "unknown card"),
        ("2C-5C", "not a card, a run"),
        ("", "type a move"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_move(bad, legal, game)


def test_play_through_stdin_with_bad_input_then_replay(tmp_path, capsys, monkeypatch):
    first_card = card_name(sorted(new_game(4, seed=3).hands[0])[0])
    moves = ["zz", "99", "", first_card.lower()] + ["1"] * 400
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(moves) + "\n"))
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "3", "--opponents", "greedy,dumper", "--save-record", str(record)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "unknown card 'zz'" in out and "move number 99 is out of range" in out
    assert "type a move" in out
    assert out.count("player_0 to act, holding:") > 5 and "moves: [1]" in out
    assert f"player_0 plays {first_card}" in out
    assert "player_1 greedy" in out and "player_2 dumper" in out and "player_3 greedy" in out
    assert load_record(record)["players"] == ["you", "greedy", "dumper", "greedy"]
    state = replay(load_record(record))
    assert state.is_terminal and f"order out: {state.placements}" in out
    assert f"final places: 1. player_{state.placements[0]}" in out

    assert main(["replay", str(record)]) == 0
    shown = capsys.readouterr().out
    assert f"{len(state.history)} actions" in shown
    assert "players: player_0 you, player_1 greedy, player_2 dumper, player_3 greedy" in shown
    assert shown.count("player_0 plays") == sum(
        1 for e in state.log if e["type"] == "play" and e["player"] == 0
    )
    assert "GAME OVER" in shown and "phase 2" in shown


def test_play_abandoned_when_input_ends(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    record = tmp_path / "partial.json"
    assert main(["play", "--seed", "4", "--opponents", "random", "--save-record", str(record)]) == 1
    assert "game abandoned: input ended" in capsys.readouterr().out
    assert not replay(load_record(record)).is_terminal


def test_demo_still_runs(capsys):
    assert main(["demo", "--seed", "2"]) == 0
    assert "GAME OVER" in capsys.readouterr().out


def test_play_shows_the_person_only_what_their_seat_saw():
    """Kop's deal event names every hand and a silent holder's choice; at the terminal the
    person sees the deal with the other hands hidden, as the web table's log shows it."""
    game = make_game("kop", 4, single_hand=True)
    out = io.StringIO()
    moves = iter(["1"] * 100)
    opponents = [make_agent("random", game="kop") for _ in range(3)]
    play_human(game, opponents, seat=0, seed=5, ask=lambda _: next(moves), out=out)
    state = game.new_state(seed=5, log=True)
    deal = state.log[0]
    assert deal["type"] == "deal"
    text = out.getvalue()
    mine = " ".join(deal["hands"][0])
    assert f"player_0: {mine}" in text
    for p in (1, 2, 3):
        assert f"player_{p}: {' '.join(deal['hands'][p])}" not in text
        assert f"player_{p}: ? ? ?" in text


def test_play_help_names_each_games_real_default_opponent(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the help
    for game in games():
        assert f"{game} {default_opponent(game)}" in shown
    assert "koira champion (solver:" in shown and "Koira's expert" not in shown


def test_play_shows_the_opponents_as_asked(capsys, monkeypatch):
    """The default opponent is Koira's alias ``champion``: shown as such, not as ismcts."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert "player_0 you, player_1 champion, player_2 champion, player_3 champion" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "1", "--seat", "1", "--opponents", "ismcts:5,random"]) == 1
    out = capsys.readouterr().out
    assert "player_0 ismcts:5, player_1 you, player_2 random, player_3 ismcts:5" in out


def test_tournament_help_names_the_shipped_policy_as_the_leaderboard_does(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "ppo:koira4-ppo as champion-net" in shown
    assert "koira4-ppo as 'ppo'" not in shown
    game = make_game("koira", 4)
    assert "champion-net" in default_entrants(game)  # what the leaderboard shows


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--max-games", "-1"], "argument --max-games: must be at least 0, got -1"),
        (["tournament", "--save-records", "-1"], "--save-records: must be at least 0, got -1"),
        (["tournament", "--games", "0"], "--games: must be at least 1, got 0"),
        (["tournament", "--workers", "0"], "--workers: must be at least 1, got 0"),
        (["tournament", "--max-games", "two"], "--max-games: 'two' is not an integer"),
        (["experiment", "risk", "--max-tasks", "-3"], "--max-tasks: must be at least 0, got -3"),
    ],
)
def test_negative_counts_are_refused_before_anything_runs(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_move_numbers_follow_the_hand_as_shown(capsys, monkeypatch):
    """ "holding: KC 4D 8D" lists its moves as [1] KC [2] 4D [3] 8D, then risk or take."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--seed", "3", "--opponents", "random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    checked = 0
    for holding, moves in itertools.pairwise(lines):
        if "to act, holding:" not in holding or not moves.startswith("moves:"):
            continue
        hand = holding.split("holding:")[1].split()
        names = [m.split("] ")[1] for m in moves.removeprefix("moves: ").split("  ")]
        singles = [n for n in names if n in hand]
        assert singles == [c for c in hand if c in singles], (holding, moves)
        assert names[: len(singles)] == singles  # the other moves come after the cards
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("game_id", games())
def test_ordered_moves_are_the_legal_moves_in_hand_order(game_id):
    game = make_game(game_id)
    state = game.new_state(seed=4, log=True)
    rng = random.Random(4)
    for _ in range(60):
        if state.is_terminal:
            break
        p = state.current
        moves = ordered_moves(game, state, p)
        assert sorted(moves) == sorted(state.legal_actions())
        hand = [n.upper() for n in game.table(state, p)["seats"][p]["hand"]]
        firsts = [game.action_name(a).split("-")[0].upper() for a in moves]
        at = [hand.index(f) for f in firsts if f in hand]
        assert at == sorted(at)
        state.apply(rng.choice(moves))
