"""Every ``koira`` command given a bad file or a bad argument value prints one line to stderr
and exits non-zero: no Python traceback, no usage block. ``koira replay`` and ``koira
analyze`` are fed corrupt records of every game."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import koira_env
from koira_env.core.record import game_record
from koira_experiments.cli import main

GAMES = koira_env.games()


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and lines[0].startswith("koira"), err
    return lines[0]


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``koira argv`` in this process; it must fail with one line on stderr."""
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's usage errors
        code = stop.code
    assert code not in (0, None)
    return one_line_error(capsys.readouterr().err)


def played_record(game_id: str, actions: int = 12) -> dict[str, Any]:
    game = koira_env.make_game(game_id)
    state = game.new_state(seed=2, log=True)
    rng = random.Random(2)
    while not state.is_terminal and len(state.history) < actions:
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(game_record(state)))


CORRUPTIONS = {
    "illegal action": lambda r: r["actions"].append(10**6),
    "action type": lambda r: r["actions"].__setitem__(0, {"a": 1}),
    "deck entry list": lambda r: r["deck"].__setitem__(0, [1]),
    "deck entry dict": lambda r: r["deck"].__setitem__(0, {"card": 1}),
    "short deck": lambda r: r.__setitem__("deck", r["deck"][:5]),
    "events": lambda r: r.__setitem__("events", "x"),
    "event": lambda r: r["events"].__setitem__(0, None),
    "rules": lambda r: r.__setitem__("rules", {"num_players": 99}),
    "rules type": lambda r: r.__setitem__("rules", [4]),
    "game": lambda r: r.__setitem__("game", "nope"),
    "format": lambda r: r.__setitem__("format", "koira-record/9"),
    "no actions": lambda r: r.pop("actions"),
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
@pytest.mark.parametrize("game_id", GAMES)
def test_replay_of_a_corrupt_record_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game_id: str, how: str
) -> None:
    record = played_record(game_id)
    CORRUPTIONS[how](record)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert "koira: error:" in refused(capsys, ["replay", str(path)])
    assert "koira: error:" in refused(capsys, ["replay", str(path), "--gif", str(tmp_path / "g")])


@pytest.mark.parametrize("game_id", GAMES)
def test_analyze_of_a_corrupt_record_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game_id: str
) -> None:
    record = played_record(game_id)
    record["deck"][3] = [1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert "deck[3]" in refused(capsys, ["analyze", str(path)])


BAD_FILES = {
    "missing.json": None,
    "not_json.json": "{not json",
    "empty.json": "",
    "a_list.json": "[1, 2]",
    "no_format.json": '{"game": "koira"}',
    "binary.json": b"\xff\xfe\x00\x01",
    "a_folder": "folder",
}


def bad_file(tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    content = BAD_FILES[name]
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    return str(path)


@pytest.mark.parametrize("command", ["replay", "analyze"])
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, name: str
) -> None:
    refused(capsys, [command, bad_file(tmp_path, name)])


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["demo", "--players", "99"], "num_players=99"),
        (["demo", "--players", "x"], "--players"),
        (["demo", "--game", "nogame"], "--game"),
        (["demo", "--option", "colour=blue"], "colour"),
        (["demo", "--option", "noequals"], "name=value"),
        (["demo", "--option", "war_trigger=sometimes"], "war_trigger"),
        (["demo", "--option", "max_actions=99999999999999"], "max_actions"),
        (["demo", "--option", "num_players=3"], "--players"),  # was TypeError
        (["demo", "--option", "game=kop"], "--game"),
        (["demo", "--rules", "nope"], "nope"),
        (["demo", "--game", "dois", "--rules", "koira"], "presets"),
        (["demo", "--game", "red7", "--single-hand"], "one-hand"),
        (["demo", "--seed", "x"], "--seed"),
        (["tournament", "--agents", "nosuch,random", "--games", "1"], "nosuch"),
        (["tournament", "--games", "0"], "--games"),
        (["tournament", "--workers", "0"], "--workers"),
        (["play", "--opponents", "nosuch", "--seed", "1"], "nosuch"),
        (["play", "--game", "kop", "--players", "3"], "players"),
        (["play", "--seat", "9", "--seed", "1"], "seat"),
        (["play", "--seat", "-1", "--seed", "1"], "seat"),
        (["tournament", "--rules", "nope", "--games", "1"], "nope"),
        (["tournament", "--option", "colour=blue", "--games", "1"], "colour"),
        (["tournament", "--backend", "carrier-pigeon"], "--backend"),
        (["exploit", "--agent", "nosuch", "--games", "1"], "nosuch"),
        (["exploit", "--games", "1"], "--agent"),
        (["exploit", "--agent", "random", "--iterations", "0"], "--iterations"),
        (["exploit", "--agent", "random", "--field", "nosuch", "--games", "1"], "nosuch"),
        (["exploit", "--agent", "random", "--rules", "mini", "--players", "4"], "players"),
        (["analyze", "x.json", "--deals", "0"], "--deals"),
        (["serve", "--port", "0"], "--port"),
        (["serve", "--port", "http"], "--port"),
        (["experiment", "nosuch"], "nosuch"),
        (["experiment", "risk", "--workers", "0"], "--workers"),
        (["nosuch"], "nosuch"),
        ([], "command"),
    ],
)
def test_a_bad_argument_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    assert word in refused(capsys, argv)


def test_serve_with_a_missing_records_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert "does not exist" in refused(capsys, ["serve", "--records", str(tmp_path / "none")])


def test_replay_gif_for_a_seat_off_the_table_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(played_record("red7")))
    assert "--seat" in refused(capsys, ["replay", str(path), "--gif", "x.gif", "--seat", "9"])


def test_analyze_with_an_unknown_agent_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(played_record("koira")))
    assert "nosuch" in refused(capsys, ["analyze", str(path), "--agent", "nosuch"])


def test_train_with_a_bad_flag_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--nosuch" in refused(capsys, ["train", "--nosuch"])
    assert "nogame" in refused(capsys, ["train", "--game", "nogame"])


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "missing.json"],
        ["replay", "not_json.json"],
        ["analyze", "a_list.json"],
        ["demo", "--players", "x"],
        ["demo", "--option", "colour=blue"],
    ],
)
def test_the_installed_command_prints_one_line(tmp_path: Path, argv: list[str]) -> None:
    for name in ("not_json.json", "a_list.json"):
        bad_file(tmp_path, name)
    proc = subprocess.run(
        [sys.executable, "-m", "koira_experiments.cli", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode != 0
    one_line_error(proc.stderr)
