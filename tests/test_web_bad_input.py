"""Bad request bodies to the web API (``koira serve``): random and garbage JSON, bad field
types, unknown fields and options, corrupt records. Every one gets a 4xx JSON error naming
the problem, never a 500, and leaves the server's tables and replays as they were."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from junk import JUNK, PROFILE, SCALARS
from starlette.testclient import TestClient

import koira_env
from koira_env.core.record import game_record
from koira_experiments.web import app as web

BASE = "http://127.0.0.1"
GAMES = koira_env.games()

FIELDS = ["game", "players", "options", "opponents", "seat", "seed", "action", "root", "path"]
FIELDS += ["record", "num_players", "rules", "preset", "engine", "deck", ""]
OPTION_NAMES = ["num_players", "rules", "preset", "engine", "deck", "hands", "target", "x"]
OPTION_NAMES += ["max_actions", "war_trigger", "sequences", "hook", "max_hands", "seed"]


@st.composite
def bodies(draw: st.DrawFn) -> Any:
    """A request body: any JSON value, or an object of known and unknown fields whose values
    are of any type (a valid game id and an options object of odd values among them)."""
    if draw(st.booleans()):
        return draw(JUNK)
    values = JUNK | st.sampled_from(GAMES) | st.integers(-3, 10)
    body = draw(st.dictionaries(st.sampled_from(FIELDS), values, max_size=4))
    if draw(st.booleans()):
        body["game"] = draw(st.sampled_from(GAMES))
    if draw(st.booleans()):
        body["options"] = draw(
            st.dictionaries(st.sampled_from(OPTION_NAMES), values | SCALARS, max_size=3)
        )
    return body


IDS: dict[str, str] = {}  # the ids of the table and the replay the fixture opens


def url_of(url: str) -> str:
    return url.format(**IDS)


@pytest.fixture(scope="module")
def app_client() -> TestClient:
    with TestClient(web.create_app([]), base_url=BASE) as c:
        game = koira_env.make_game("red7")
        state = game.new_state(seed=0, log=True)
        rng = random.Random(0)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        table = c.post("/api/tables", json={"game": "koira", "seed": 1})
        replay = c.post("/api/replays", json={"record": game_record(state)})
        assert table.status_code == replay.status_code == 201
        IDS.update(table=table.json()["id"], replay=replay.json()["id"])
        yield c


def server_state(c: TestClient) -> tuple:
    """What a bad request must not change: the session's one table and one replay."""
    table = c.get(url_of("/api/tables/{table}"))
    replay = c.get(url_of("/api/replays/{replay}"))
    assert table.status_code == replay.status_code == 200
    return json.dumps(table.json(), sort_keys=True), json.dumps(replay.json(), sort_keys=True)


def check_refused(response: Any) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    error = response.json()["error"]
    assert isinstance(error, str) and error


ENDPOINTS = [
    "/api/rules",
    "/api/tables",
    "/api/tables/{table}/move",
    "/api/replays",
]


@pytest.mark.parametrize("url", ENDPOINTS)
@PROFILE
@given(body=bodies())
def test_a_bad_body_is_a_4xx_and_changes_nothing(
    app_client: TestClient, url: str, body: Any
) -> None:
    before = server_state(app_client)
    response = app_client.post(url_of(url), json=body)
    assert response.status_code != 500, response.text
    if response.status_code >= 400:  # else a valid body: a rules query, a table, a legal move
        check_refused(response)
        assert server_state(app_client) == before


@pytest.mark.parametrize(
    "url", [*ENDPOINTS, "/api/tables/{table}/step", "/api/tables/{table}/undo"]
)
@pytest.mark.parametrize(
    "raw", [b"{", b"\xff\xfe", b"[1, 2", b"nul", b'{"game": "koira",}', b"\x00" * 10]
)
def test_malformed_json_is_a_400(app_client: TestClient, url: str, raw: bytes) -> None:
    before = server_state(app_client)
    response = app_client.post(
        url_of(url), content=raw, headers={"content-type": "application/json"}
    )
    if url.endswith(("step", "undo")):  # these take no body
        assert response.status_code != 500
        return
    check_refused(response)
    assert response.status_code == 400
    assert server_state(app_client) == before


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"game": "koira", "options": {"num_players": 3}}, "num_players"),
        ({"game": "koira", "options": {"rules": 3}}, "rules"),
        ({"game": "koira", "options": {"preset": "nope"}}, "preset"),
        ({"game": "red7", "options": {"engine": "turbo"}}, "engine"),
        ({"game": "koira", "options": {"max_actions": 2**40}}, "max_actions"),
        ({"game": "dois", "options": {"deck": "x"}}, "deck"),
        ({"game": "koira", "options": [1]}, "options"),
        ({"game": "koira", "players": 99}, "players"),
        ({"game": ["koira"]}, "game"),
    ],
)
@pytest.mark.parametrize("url", ["/api/rules", "/api/tables"])
def test_a_bad_option_is_a_400_naming_it(
    app_client: TestClient, url: str, body: dict[str, Any], word: str
) -> None:
    before = server_state(app_client)
    response = app_client.post(url_of(url), json=body)
    check_refused(response)
    assert word in response.json()["error"]
    assert server_state(app_client) == before


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_a_corrupt_uploaded_record_is_a_400(
    app_client: TestClient, game_id: str, data: st.DataObject
) -> None:
    game = koira_env.make_game(game_id)
    state = game.new_state(seed=data.draw(st.integers(0, 99)), log=True)
    for _ in range(data.draw(st.integers(0, 15))):
        if not state.is_terminal:
            state.apply(state.legal_actions()[0])
    record = json.loads(json.dumps(game_record(state)))
    key = data.draw(st.sampled_from(sorted(record)))
    if key in ("deck", "actions", "events") and record[key] and data.draw(st.booleans()):
        record[key][data.draw(st.integers(0, len(record[key]) - 1))] = data.draw(JUNK)
    else:
        record[key] = data.draw(JUNK)
    before = server_state(app_client)
    response = app_client.post("/api/replays", json={"record": record})
    assert response.status_code != 500, response.text
    if response.status_code != 201:
        check_refused(response)
        assert server_state(app_client) == before
