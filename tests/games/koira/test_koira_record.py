"""Game records: plain JSON that replays exactly, and clear errors for a damaged record."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_koira_invariants import snapshot

from koira_env.core.record import FORMAT, describe_event, game_record, load_record, save_record
from koira_env.games.koira.engine import RISK, TAKE, State, action_name, new_game
from koira_env.registry import record_game, replay, replay_states

TABLES = [
    ("koira", 2, {}),
    ("koira", 4, {}),
    ("koira-b", 5, {"sequences": 2, "take_one_card": True}),
    ("mattis", 6, {"war_mode": "split", "reward": "placement"}),
]


def _played(preset: str, n: int, seed: int, stop: int = 10**9, **options: Any) -> State:
    rng = random.Random(seed)
    state = new_game(n, preset, seed=seed, log=True, **options)
    while not state.is_terminal and state.actions_taken < stop:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return game_record(_played("koira", 4, seed=21))


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}")
def test_a_record_is_plain_json_and_replays_the_game(table: tuple) -> None:  # type: ignore[type-arg]
    preset, n, options = table
    for seed in range(5):
        state = _played(preset, n, seed, **options)
        rec = game_record(state)
        text = json.dumps(rec)
        assert json.loads(text) == rec  # nothing but JSON types inside
        assert rec["format"] == FORMAT and rec["actions"] == state.history
        assert rec["action_names"] == [action_name(a) for a in state.history]
        assert rec["events"] == state.log and rec["events"][-1]["type"] == "game_over"
        places = [state.placements.index(p) + 1 for p in range(n)]
        assert rec["result"] == {
            "finished": True,
            "truncated": False,
            "placements": state.placements,
            "places": places,
            "returns": state.returns(),
            "scores": state.returns(),
        }
        assert rec["game"] == "koira"
        again = replay(json.loads(text))
        assert again.placements == state.placements and again.log == state.log
        assert snapshot(again) == snapshot(state)


def test_an_unfinished_game_records_and_replays_too() -> None:
    state = _played("koira", 3, seed=4, stop=40)
    rec = json.loads(json.dumps(game_record(state)))
    assert rec["result"]["finished"] is False and "places" not in rec["result"]
    again = replay(rec)
    assert snapshot(again) == snapshot(state) and len(rec["actions"]) == 40


def test_a_truncated_game_says_so() -> None:
    state = _played("mattis", 8, seed=1, max_actions=100)
    rec = game_record(state)
    assert rec["result"]["truncated"] is True and rec["result"]["finished"] is False
    assert rec["events"][-1]["type"] == "truncated"
    assert replay(rec).truncated


def test_a_record_is_made_from_any_state_even_without_a_log() -> None:
    rng = random.Random(8)
    state = new_game(4, seed=8)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    logged = _played("koira", 4, seed=8)
    assert game_record(state) == game_record(logged)


def test_replay_states_steps_through_the_game(record: dict[str, Any]) -> None:
    states = replay_states(record)
    assert len(states) == len(record["actions"]) + 1
    assert states[0].actions_taken == 0 and states[-1].is_terminal
    assert snapshot(states[-1]) == snapshot(replay(record))
    for before, action, after in zip(states, record["actions"], states[1:], strict=False):
        assert action in before.legal_actions() and after.history[-1] == action


def test_a_record_may_name_its_players_and_bad_names_are_refused() -> None:
    state = _played("koira", 4, seed=3)
    record = game_record(state, ["champion", "dumper", "you", "random"])
    assert record["players"] == ["champion", "dumper", "you", "random"]
    assert replay(record).history == state.history
    for bad, message in (
        (["a", "b"], "names 2 players for a 4-player game"),
        (["a", "b", "c", 4], "must be a list of names"),
        ("abcd", "must be a list of names"),
    ):
        with pytest.raises(ValueError, match=message):
            replay({**record, "players": bad})
        with pytest.raises(ValueError, match=message):
            game_record(state, bad)


def test_save_and_load_round_trip(record: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(record, path)
    assert load_record(path) == record
    assert replay(load_record(str(path))).placements == record["result"]["placements"]


def test_records_from_before_the_suite_had_other_games_still_replay(
    record: dict[str, Any],
) -> None:
    """Format koira-record/1 had no "game" field: such a record is a Koira record."""
    old = {k: v for k, v in record.items() if k != "game"}
    old["format"] = "koira-record/1"
    assert replay(old).log == record["events"]


def test_loading_a_file_that_is_not_json_is_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "koira-record/1", "deck": [')
    with pytest.raises(ValueError, match="not a JSON game record"):
        load_record(path)


def test_every_event_has_a_readable_line(record: dict[str, Any]) -> None:
    lines = [describe_event(record_game(record), e) for e in record["events"]]
    assert all(line and not line.startswith("{") for line in lines)
    assert lines[-1].startswith("GAME OVER")


# ------------------------------------------------------------------ tampering
def _tampered(record: dict[str, Any], change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    change(bad)
    return bad


def _other_legal_action(record: dict[str, Any]) -> tuple[int, int]:
    """The last index where a different action was legal, and that action."""
    for i, state in reversed(list(enumerate(replay_states(record)[:-1]))):
        others = [a for a in state.legal_actions() if a != record["actions"][i]]
        if others:
            return i, others[0]
    raise AssertionError("no choice anywhere in the game")


def test_a_changed_but_legal_action_is_caught_by_the_events(record: dict[str, Any]) -> None:
    i, action = _other_legal_action(record)
    bad = _tampered(record, lambda r: r["actions"].__setitem__(i, action))
    with pytest.raises(ValueError, match="events differ"):
        replay(bad)
    assert replay(bad, check_events=False).history[i] == action


@pytest.mark.parametrize("action", [TAKE, 99, -1, "x", 2.0, None])
def test_an_impossible_action_names_its_index(record: dict[str, Any], action: Any) -> None:
    bad = _tampered(record, lambda r: r["actions"].__setitem__(0, action))
    with pytest.raises(ValueError, match="record action 0 cannot be replayed"):
        replay(bad)


def test_an_action_after_the_end_is_caught(record: dict[str, Any]) -> None:
    bad = _tampered(record, lambda r: r["actions"].append(RISK))
    with pytest.raises(ValueError, match=f"record action {len(record['actions'])} .*game is over"):
        replay(bad)


def test_a_changed_deck_is_caught(record: dict[str, Any]) -> None:
    shuffled = record["deck"][:]
    random.Random(0).shuffle(shuffled)
    for deck in (shuffled, [*record["deck"][1:], record["deck"][0]]):
        with pytest.raises(ValueError, match=r"cannot be replayed|events differ"):
            replay(_tampered(record, lambda r, d=deck: r.__setitem__("deck", d)))


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (lambda d: d[:51], "all 52 cards"),
        (lambda d: [*d[:51], d[0]], "repeats"),
        (lambda d: ["XX", *d[1:]], r"deck\[0\]: unknown card 'XX'"),
    ],
)
def test_a_broken_deck_names_the_problem(record: dict[str, Any], deck: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replay(_tampered(record, lambda r: r.__setitem__("deck", deck(r["deck"]))))


@pytest.mark.parametrize("key", ["rules", "deck", "actions"])
def test_a_missing_key_is_named(record: dict[str, Any], key: str) -> None:
    with pytest.raises(ValueError, match=f"missing '{key}'"):
        replay(_tampered(record, lambda r: r.pop(key)))


@pytest.mark.parametrize("fmt", [None, "koira-record/0", "koira-record/3", 1])
def test_a_wrong_format_is_refused(record: dict[str, Any], fmt: Any) -> None:
    with pytest.raises(ValueError, match="not a game record"):
        replay(_tampered(record, lambda r: r.__setitem__("format", fmt)))
    with pytest.raises(ValueError, match="not a game record"):
        replay(_tampered(record, lambda r: r.pop("format")))


@pytest.mark.parametrize("thing", [[], "record", None, 3])
def test_something_that_is_not_a_record_is_refused(thing: Any) -> None:
    with pytest.raises(ValueError, match="not a game record"):
        replay(thing)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rules: rules.__setitem__("war_mode", "war"), "war_mode='war' is not valid"),
        (
            lambda rules: rules.__setitem__("colour", "red"),
            r"unknown rule option\(s\) \['colour'\]",
        ),
        (lambda rules: rules.__setitem__("num_players", 9), "played by 2-8 players"),
        (lambda rules: rules.__setitem__("preset", "bridge"), "unknown rules preset 'bridge'"),
        (lambda rules: rules.__setitem__("num_players", 5), "cannot be replayed|events differ"),
        (lambda rules: rules.__setitem__("war_trigger", "highest_tie"), "events differ|replayed"),
    ],
)
def test_tampered_rules_give_a_value_error(
    record: dict[str, Any], change: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        replay(_tampered(record, lambda r: change(r["rules"])))


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["rules"].pop("num_players"),
        lambda r: r.__setitem__("rules", "koira"),
        lambda r: r.__setitem__("actions", 5),
        lambda r: r["actions"].__setitem__(3, None),
        lambda r: r.__setitem__("deck", None),
    ],
    ids=[
        "rules-without-players",
        "rules-not-a-dict",
        "actions-not-a-list",
        "null-action",
        "null-deck",
    ],
)
def test_a_malformed_record_gives_a_value_error_not_a_crash(
    record: dict[str, Any], change: Any
) -> None:
    with pytest.raises(ValueError, match=r"game record's|record action 3"):
        replay(_tampered(record, change))
