"""The web app's API (``koira serve``) through Starlette's TestClient: the lobby, a whole game
of every game of the registry, bad requests, session isolation, the records folders (path
traversal) and the hidden-card guarantee on everything the page receives."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from koira_agents.registry import default_opponent
from koira_env import games, make_game
from koira_env.core.record import game_record, load_record, save_record
from koira_env.registry import spec
from koira_experiments import cli
from koira_experiments.web import app as web
from koira_experiments.web.store import Store

BASE = "http://127.0.0.1"


def client(records: list[Path] | None = None, **kwargs: Any) -> TestClient:
    return TestClient(web.create_app(records or []), base_url=BASE, **kwargs)


def hidden_cards(state: Any, seat: int, tries: int = 6) -> set[str]:
    """Cards of other hands that ``seat`` cannot know: those that some deal consistent with
    its knowledge (``determinize``) puts elsewhere. Independent of ``Game.table``'s choices."""
    game = state.game
    full = game.table(state, None)
    rng = random.Random(0)
    others = [game.table(state.determinize(seat, rng), None) for _ in range(tries)]
    hidden = set()
    for entry in full["seats"]:
        q = entry["seat"]
        if q == seat:
            continue
        for name in entry["hand"]:
            if any(name not in other["seats"][q]["hand"] for other in others):
                hidden.add(name)
    return hidden


def shown_cards(table: dict[str, Any]) -> set[str]:
    """Every card name in the card-bearing parts of a table dict."""
    names = set()
    zones = list(table["zones"])
    for entry in table["seats"]:
        names.update(entry["hand"])
        zones += entry["piles"]
    for zone in zones:
        names.update(zone.get("cards", []))
        for play in zone.get("plays", []):
            names.update(play["cards"])
    for move in table["moves"]:
        names.update(move["cards"])
    return names


def strings(data: Any) -> list[str]:
    """Every string value in a JSON document."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        data = list(data.values())
    return [s for item in data for s in strings(item)] if isinstance(data, list) else []


def assert_no_leak(response_text: str, state: Any, seat: int) -> None:
    """The payload's table is the same on every deal consistent with what the seat knows
    (``determinize``; the log aside, which determinized states do not keep). Where every
    card has a name of its own, no hidden card is shown or named as a value, and, where
    those names are words (not plain numbers), none is named outside the table dict either
    (inside it, public words may name one: "player_1 called JC")."""
    payload = json.loads(response_text)
    assert set(payload) == {"id", "seat", "seed", "names", "waiting", "undo", "table"}
    from_log = ("log", "scores")  # the score sheet is read from the log's hand_end events
    table = {key: value for key, value in payload["table"].items() if key not in from_log}
    rng = random.Random(1)
    for _ in range(2):
        other = state.game.table(state.determinize(seat, rng), seat)
        assert table == {key: value for key, value in other.items() if key not in from_log}
    names = [state.game.card_name(c) for c in range(state.game.deck_size)]
    if len(set(names)) < len(names):
        return  # identical copies (Dois): the names alone cannot tell where a card is
    hidden = hidden_cards(state, seat)
    assert not hidden & shown_cards(payload["table"])
    assert not hidden & set(strings(payload))  # no card name as a value anywhere
    if all(re.search("[A-Za-z]", name) for name in names):
        rest = json.dumps({key: value for key, value in payload.items() if key != "table"})
        tokens = set(re.findall(r"[A-Za-z0-9]+", rest))
        assert not hidden & tokens, hidden & tokens


def play_through(c: TestClient, body: dict[str, Any], store_of: Any, seed: int) -> dict[str, Any]:
    """Create a table and play it to the end, the person choosing random legal moves; the
    leak check runs on every response."""
    created = c.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    data = created.json()
    table_id = data["id"]
    live = store_of(table_id)
    rng = random.Random(seed)
    response = created
    for _ in range(5000):
        assert_no_leak(response.text, live.state, data["seat"])
        table = data["table"]
        if table["result"] is not None:
            return data
        if data["waiting"]:
            response = c.post(f"/api/tables/{table_id}/step")
        else:
            assert table["current"] == data["seat"] and table["moves"]
            move = rng.choice(table["moves"])
            response = c.post(f"/api/tables/{table_id}/move", json={"action": move["action"]})
        assert response.status_code == 200, response.text
        data = response.json()
    raise AssertionError("the game did not end")


@pytest.fixture
def app_and_store():
    store = Store()
    return TestClient(web.create_app([], store=store), base_url=BASE), store


def find_table(store: Store, table_id: str) -> Any:
    return next(s.tables[table_id] for s in store.sessions.values() if table_id in s.tables)


def test_the_lobby_lists_every_game_with_its_options_bots_and_default_opponent():
    c = client()
    response = c.get("/api/games")
    assert response.status_code == 200
    listed = {g["id"]: g for g in response.json()["games"]}
    assert list(listed) == games()
    for game_id, entry in listed.items():
        assert "error" not in entry, entry
        assert entry["players"] == list(spec(game_id).players)
        assert entry["default_opponent"] == default_opponent(game_id)
        assert entry["default_opponent"] in entry["agents"]
        rules = make_game(game_id).rules.to_dict()
        assert {o["name"]: o["default"] for o in entry["options"]} == {
            k: v for k, v in rules.items() if k != "num_players"
        }
    koira = {o["name"]: o for o in listed["koira"]["options"]}
    assert koira["preset"]["choices"] == ["koira", "koira-b", "mattis", "mini"]
    assert koira["risk_in_war"]["kind"] == "bool"
    assert "ppo:koira4-ppo" in listed["koira"]["agents"]
    # the rules a preset implies, for the lobby's form
    rules = c.post("/api/rules", json={"game": "koira", "options": {"preset": "mattis"}})
    assert rules.status_code == 200 and rules.json()["rules"]["war_trigger"] == "highest_tie"


def test_every_option_comes_with_a_one_line_description_from_its_rules():
    # issue 29 item 4: option names were raw, with no description
    listed = {g["id"]: g for g in client().get("/api/games").json()["games"]}
    for game_id, entry in listed.items():
        for option in entry["options"]:
            text = option["description"]
            assert text and "\n" not in text and not text.startswith("#"), (game_id, option)
    kop = {o["name"]: o["description"] for o in listed["kop"]["options"]}
    assert kop["victory_cards"].startswith("Victory cards each player starts with; the game")
    koira = {o["name"]: o["description"] for o in listed["koira"]["options"]}
    assert "void" in koira["trump_only_when_void"] and "proven bound" in koira["max_actions"]


@pytest.mark.parametrize("game_id", ["kop", "whist22", "dois", "teka"])
def test_the_games_of_many_hands_keep_a_running_score_per_hand(game_id):
    # issue 29 item 4: the hand results were only in the log
    game = make_game(game_id)
    state = game.new_state(seed=4, log=True)
    rng = random.Random(4)
    hands: list[dict[str, Any]] = []
    while not state.is_terminal and len(hands) < 3:
        state.apply(rng.choice(state.legal_actions()))
        hands = [e for e in state.log if e["type"] == "hand_end"]
    assert len(hands) >= 2
    for seat in (None, 0, 1):
        sheet = game.table(state, seat)["scores"]
        assert [row["hand"] for row in sheet["rows"]] == [e["hand"] + 1 for e in hands]
        assert sheet["caption"] and all(
            len(row["values"]) == len(sheet["columns"]) for row in sheet["rows"]
        )
        last = [value.split(" ")[0] for value in sheet["rows"][-1]["values"]]
        totals = hands[-1].get("scores") or hands[-1].get("victory_cards")
        assert last == [str(v) for v in totals]
    assert make_game("koira").table(make_game("koira").new_state(seed=1), 0)["scores"] is None


def test_red7_moves_say_where_each_card_goes_and_pass_is_going_out():
    # issue 29 item 2: "pass" did not say it means going out
    game = make_game("red7")
    state = game.new_state(seed=3)
    moves = game.table(state, state.current)["moves"]
    by_name = {m["name"]: m for m in moves}
    assert by_name["pass"]["label"].startswith("go out") and by_name["pass"]["to"] == []
    both = next(m for m in moves if m["name"].startswith("palette") and "canvas" in m["name"])
    assert both["to"] == ["palette", "canvas"] and len(both["cards"]) == 2
    assert both["label"] == f"{both['cards'][0]} to your palette, {both['cards'][1]} to the canvas"


@pytest.mark.parametrize("game_id", games())
def test_a_whole_game_of_every_game_through_the_api_without_leaks(game_id, app_and_store):
    c, store = app_and_store
    entry = spec(game_id)
    seat = entry.default_players - 1
    body = {"game": game_id, "seat": seat, "seed": 5, "options": dict(entry.single_hand)}
    data = play_through(c, body, lambda table_id: find_table(store, table_id), seed=1)
    table = data["table"]
    assert data["names"][seat] == "you" and data["names"].count("you") == 1
    # the seats are named as asked: Koira's "champion", not the ismcts it stands for
    assert set(data["names"]) - {"you"} == {default_opponent(game_id)}
    assert sorted(table["result"]["places"])[0] == 1 and not data["waiting"]
    record = c.get(f"/api/tables/{data['id']}/record")
    assert record.status_code == 200 and record.json()["game"] == game_id
    assert record.json()["players"] == data["names"]  # who sat where, for the viewer


def test_named_opponents_are_shown_as_asked(app_and_store):
    c, _ = app_and_store
    body = {"game": "koira", "seed": 2, "opponents": ["champion", "random", "ismcts:5"]}
    table = c.post("/api/tables", json=body)
    assert table.status_code == 201
    assert table.json()["names"] == ["you", "champion", "random", "ismcts:5"]
    body = {"game": "koira", "seat": 1, "seed": 2, "opponents": ["greedy", "champion", "x"]}
    assert c.post("/api/tables", json=body).status_code == 400  # "x" is no agent
    body["opponents"][2] = "random"
    assert c.post("/api/tables", json=body).json()["names"] == [
        "greedy", "you", "champion", "random"
    ]  # fmt: skip


def test_the_web_app_does_not_import_the_command():
    """default_opponent lives in koira_agents.registry: app and cli do not import each other."""
    code = "import sys, koira_experiments.web.app; print('koira_experiments.cli' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_bad_requests_get_a_4xx_with_a_message_and_change_nothing(app_and_store):
    c, store = app_and_store
    table = c.post("/api/tables", json={"game": "koira", "seed": 1, "opponents": ["random"] * 3})
    assert table.status_code == 201
    table_id = table.json()["id"]
    before = list(find_table(store, table_id).state.history)
    bad = [
        (
            "post",
            "/api/tables",
            {"content": b"{not json", "headers": {"content-type": "application/json"}},
            400,
            "malformed JSON",
        ),
        (
            "post",
            "/api/tables",
            {
                "content": b"game=koira",
                "headers": {"content-type": "application/x-www-form-urlencoded"},
            },
            415,
            "application/json",
        ),
        ("post", "/api/tables", {"json": ["koira"]}, 400, "JSON object"),
        ("post", "/api/tables", {"json": {"game": "poker"}}, 400, "unknown game 'poker'"),
        ("post", "/api/tables", {"json": {"game": "koira", "colour": "red"}}, 400, "unknown field"),
        ("post", "/api/tables", {"json": {"game": "koira", "players": 9}}, 400, "num_players=9"),
        ("post", "/api/tables", {"json": {"game": "koira", "players": True}}, 400, "must be int"),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "options": {"war_mode": "x"}}},
            400,
            "war_mode",
        ),
        ("post", "/api/tables", {"json": {"game": "kop", "options": {"nope": 1}}}, 400, "nope"),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "options": {"sequences": [2]}}},
            400,
            "sequences",
        ),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "seat": 4}},
            400,
            "seat must be in 0..3",
        ),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "opponents": ["nobody"] * 3}},
            400,
            "unknown agent",
        ),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "opponents": ["random"]}},
            400,
            "give 3",
        ),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "opponents": ["ppo:/etc/passwd"] * 3}},
            400,
            "file paths",
        ),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "opponents": ["ppo:../x"] * 3}},
            400,
            "file paths",
        ),
        (
            "post",
            "/api/tables",
            {"json": {"game": "koira", "players": 5, "opponents": ["ppo:koira4-ppo"] * 4}},
            400,
            "trained for another game",
        ),
        ("post", f"/api/tables/{table_id}/move", {"json": {"action": 53}}, 400, "illegal action"),
        ("post", f"/api/tables/{table_id}/move", {"json": {"action": 12.0}}, 400, "must be int"),
        ("post", f"/api/tables/{table_id}/move", {"json": {"action": True}}, 400, "must be int"),
        ("post", f"/api/tables/{table_id}/move", {"json": {"action": "QS"}}, 400, "must be int"),
        ("post", f"/api/tables/{table_id}/move", {"json": {}}, 400, "required"),
        ("post", f"/api/tables/{table_id}/step", {}, 409, "your turn"),
        ("get", "/api/tables/no-such-table", {}, 404, "no game"),
        (
            "post",
            "/api/replays",
            {"json": {"record": {"format": "x"}}},
            400,
            "not a valid game record",
        ),
        ("get", "/api/replays/nope?step=0", {}, 404, "no replay"),
    ]
    for method, path, kwargs, status, message in bad:
        response = getattr(c, method)(path, **kwargs)
        assert response.status_code == status, (path, kwargs, response.text)
        assert message in response.json()["error"], (path, kwargs, response.text)
    assert find_table(store, table_id).state.history == before
    too_big = c.post(
        "/api/replays",
        content=b" " * (web.MAX_BODY + 1),
        headers={"content-type": "application/json"},
    )
    assert too_big.status_code == 413
    assert c.get("/api/games", headers={"host": "evil.example"}).status_code == 400  # rebinding
    assert (
        c.get("/api/tables/x/nope").status_code == 404 and c.get("/api/tables").status_code == 405
    )
    assert c.get(f"/api/tables/{table_id}/record").status_code == 409  # not over yet


def test_an_exception_in_a_bot_is_a_500_and_the_server_goes_on(app_and_store):
    _, store = app_and_store
    c = TestClient(web.create_app([], store=store), base_url=BASE, raise_server_exceptions=False)
    created = c.post("/api/tables", json={"game": "matapesa", "seat": 3, "seed": 2})
    table = find_table(store, created.json()["id"])

    class Broken:
        name = "broken"

        def act(self, turn: Any) -> int:
            raise RuntimeError("the bot fell over")

    table.bots[:3] = [Broken()] * 3
    response = c.post(f"/api/tables/{table.id}/step")
    assert response.status_code == 500 and "the bot fell over" in response.json()["error"]
    assert c.get(f"/api/tables/{table.id}").status_code == 200
    assert c.get("/api/games").status_code == 200


def test_two_browser_sessions_never_see_each_others_games_or_replays(tmp_path):
    app = web.create_app([])
    alice, bob = TestClient(app, base_url=BASE), TestClient(app, base_url=BASE)
    mine = alice.post("/api/tables", json={"game": "kop", "seed": 3})
    assert mine.status_code == 201
    cookie = mine.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    table_id = mine.json()["id"]
    assert alice.get(f"/api/tables/{table_id}").status_code == 200
    for response in (
        bob.get(f"/api/tables/{table_id}"),
        bob.post(f"/api/tables/{table_id}/move", json={"action": 19}),
        bob.post(f"/api/tables/{table_id}/step"),
        bob.get(f"/api/tables/{table_id}/record"),
    ):
        assert response.status_code == 404
    state = make_game("kop").new_state(seed=1, log=True)
    replay = alice.post("/api/replays", json={"record": game_record(state)}).json()["id"]
    assert bob.get(f"/api/replays/{replay}?step=0").status_code == 404
    assert alice.get(f"/api/replays/{replay}?step=0").status_code == 200
    forged = TestClient(app, base_url=BASE, cookies={web.COOKIE: "guessed-token"})
    assert forged.get(f"/api/tables/{table_id}").status_code == 404


def test_sessions_and_their_games_are_bounded_and_expire():
    now = [0.0]
    store = Store(ttl=100.0, max_sessions=3, clock=lambda: now[0])
    first = store.session(None)
    assert store.session(first.token) is first
    now[0] = 150.0
    assert store.session(first.token) is not first  # expired: a new session
    tokens = [store.session(None).token for _ in range(5)]
    assert (
        len(store.sessions) == 3
        and tokens[-1] in store.sessions
        and tokens[0] not in store.sessions
    )
    c, store = TestClient(web.create_app([]), base_url=BASE), None
    ids = [
        c.post("/api/tables", json={"game": "matapesa", "seed": k}).json()["id"] for k in range(10)
    ]
    assert c.get(f"/api/tables/{ids[0]}").status_code == 404  # the oldest went first
    assert c.get(f"/api/tables/{ids[-1]}").status_code == 200


@pytest.fixture
def records(tmp_path):
    """A served folder with records (one in a subfolder, one a symlink to a record outside)
    and a record outside it that must never be served."""
    served = tmp_path / "served"
    (served / "records").mkdir(parents=True)
    state = make_game("koira").new_state(seed=4, log=True)
    rng = random.Random(4)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    save_record(game_record(state), served / "records" / "game-1.json")
    (served / "notes.json").write_text('{"not": "a record"}')
    outside = tmp_path / "secret.json"
    save_record(game_record(state), outside)
    (served / "records" / "link.json").symlink_to(outside)
    (served / "escape").symlink_to(tmp_path)
    return served, outside


def test_records_are_served_only_from_the_given_folders(records):
    served, outside = records
    c = client([served])
    listing = c.get("/api/records").json()
    assert listing["folders"] == [{"root": 0, "folder": str(served.resolve())}]
    assert [r["path"] for r in listing["records"]] == ["records/game-1.json"]
    ok = c.post("/api/replays", json={"root": 0, "path": "records/game-1.json"})
    assert ok.status_code == 201 and ok.json()["steps"] == 40
    attacks = [
        "../secret.json",
        "records/../../secret.json",
        str(outside),
        "/etc/passwd",
        "records/link.json",  # a symlink pointing out of the folder
        "escape/secret.json",  # a folder symlink pointing out
        "..%2Fsecret.json",
        "%2e%2e/secret.json",
        "..\\secret.json",
        "records/missing.json",
        "notes.json",  # inside, but not a record
        "records",
        "",
    ]
    for path in attacks:
        response = c.post("/api/replays", json={"root": 0, "path": path})
        assert 400 <= response.status_code < 500, (path, response.text)
        assert "error" in response.json()
    for root in (1, -1, "0", None):
        response = c.post("/api/replays", json={"root": root, "path": "records/game-1.json"})
        assert 400 <= response.status_code < 500, root
    for url in ("/static/..%2F..%2Fapp.py", "/static/%2e%2e/app.py", "/static/../app.py"):
        response = c.get(url)
        assert response.status_code == 404, url
        assert b"create_app" not in response.content


def test_replays_step_back_and_forth_in_the_full_and_a_seats_view(records):
    served, _ = records
    c = client([served])
    replay = c.post("/api/replays", json={"root": 0, "path": "records/game-1.json"}).json()
    assert replay["step"] == 0 and replay["table"]["seat"] is None
    url = f"/api/replays/{replay['id']}"
    full = c.get(f"{url}?step=20&seat=all").json()
    mine = c.get(f"{url}?step=20&seat=2").json()
    assert full["step"] == mine["step"] == 20
    assert mine["table"]["seat"] == 2 and full["table"]["seat"] is None
    assert all(s["hidden"] == 0 for s in full["table"]["seats"])
    assert any(s["hidden"] for s in mine["table"]["seats"] if s["seat"] != 2)
    assert full["new_events"] >= 1 and len(full["table"]["log"]) == len(mine["table"]["log"])
    back = c.get(f"{url}?step=19&seat=all").json()
    assert back["step"] == 19 and back["table"] != full["table"]
    assert c.get(f"{url}?step=20&seat=all").json() == full  # stepping is repeatable
    assert full["names"] is None  # the record does not say who sat where
    for query in ("step=41", "step=-1", "step=x", "seat=4", "seat=-1", "seat=me"):
        response = c.get(f"{url}?{query}")
        assert response.status_code == 400, query


def test_a_replay_names_the_seats_its_record_names(records):
    # issue 29 item 6: the viewer shows which agent sat where, when the record says
    served, _ = records
    record = load_record(served / "records" / "game-1.json")
    c = client()
    named = c.post("/api/replays", json={"record": {**record, "players": ["a", "b", "c", "d"]}})
    assert named.status_code == 201 and named.json()["names"] == ["a", "b", "c", "d"]
    for bad in (["a", "b"], "abcd", [1, 2, 3, 4]):
        response = c.post("/api/replays", json={"record": {**record, "players": bad}})
        assert response.status_code == 400 and "players" in response.json()["error"], bad


def test_the_page_loads_only_from_this_server():
    c = client()
    index = c.get("/")
    assert index.status_code == 200 and "app.js" in index.text
    assert "default-src 'self'" in index.headers["content-security-policy"]
    static = Path(web.STATIC)
    for path in static.iterdir():
        text = path.read_text().replace('"http://www.w3.org/2000/svg"', "")  # a name, not a URL
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, path
        assert c.get(f"/static/{path.name}").status_code == 200


def test_koira_serve_binds_localhost_and_warns_when_opened_to_the_network(
    monkeypatch, capsys, tmp_path
):
    import uvicorn

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append(kwargs))
    assert cli.main(["serve", "--records", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert calls[-1]["host"] == "127.0.0.1" and calls[-1]["port"] == cli.SERVE_PORT != 8000
    assert f"http://127.0.0.1:{cli.SERVE_PORT}/" in out.out and "warning" not in out.err
    assert (
        cli.main(["serve", "--host", "0.0.0.0", "--port", "8123", "--records", str(tmp_path)]) == 0
    )
    out = capsys.readouterr()
    assert calls[-1]["host"] == "0.0.0.0" and "reachable from the network" in out.err
    assert cli.main(["serve", "--records", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err and len(calls) == 2


def test_koira_serve_on_a_busy_port_is_one_clear_line(monkeypatch, capsys, tmp_path):
    """Checked before the address is printed: no "open http://..." and no uvicorn error."""
    import socket

    import uvicorn

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append(kwargs))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--port", str(port), "--records", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert "http://" not in out.out and not calls
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("koira: error: port")
    assert str(port) in lines[0] and "--port" in lines[0]
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert "not a TCP port" in capsys.readouterr().err and not calls


def test_the_docs_quote_koira_serves_real_port():
    root = Path(__file__).parent.parent
    for path in ("README.md", "docs/web.md"):
        text = (root / path).read_text()
        assert "koira serve" in text and f"127.0.0.1:{cli.SERVE_PORT}" in text, path
        for line in text.splitlines():
            if "koira serve" in line:
                assert "8000" not in line, (path, line)


@pytest.mark.parametrize("game_id", games())
def test_the_hint_values_every_legal_move_of_your_turn_in_every_game(game_id, app_and_store):
    c, _ = app_and_store
    n = spec(game_id).default_players
    body = {"game": game_id, "seat": 0, "seed": 3, "opponents": ["random"] * (n - 1)}
    body["options"] = dict(spec(game_id).single_hand)
    data = c.post("/api/tables", json=body).json()
    url = f"/api/tables/{data['id']}"
    while data["waiting"]:  # to the person's first turn
        data = c.post(f"{url}/step").json()
    hint = c.get(f"{url}/hint")
    assert hint.status_code == 200, hint.text
    row = hint.json()
    moves = {m["action"]: m["name"] for m in data["table"]["moves"]}
    assert {m["action"]: m["move"] for m in row["moves"]} == moves
    assert row["best"] in moves.values() and row["seat"] == 0 and "played" not in row
    assert all("exact" not in m for m in row["moves"])  # never the true state's verdicts
    assert c.get(f"{url}/hint").json() == row  # the same position, the same answer


def test_a_hint_is_refused_out_of_turn_and_after_the_game(app_and_store):
    c, _ = app_and_store
    body = {"game": "kop", "seat": 3, "seed": 2, "opponents": ["random"] * 3}
    data = c.post("/api/tables", json=body).json()
    url = f"/api/tables/{data['id']}"
    assert data["waiting"]  # player_0 leads the first hand
    refused = c.get(f"{url}/hint")
    assert refused.status_code == 409 and "a bot is to move" in refused.json()["error"]
    assert c.get("/api/tables/nosuch/hint").status_code == 404


def test_the_analysis_board_values_a_replays_decisions_once(records):
    served, _ = records
    c = client([served])
    replay = c.post("/api/replays", json={"root": 0, "path": "records/game-1.json"}).json()
    analysis = c.get(f"/api/replays/{replay['id']}/analysis")
    assert analysis.status_code == 200, analysis.text
    data = analysis.json()
    assert data["format"] == "koira-analysis/2" and data["game"] == "koira"
    assert data["decisions"] and all(d["played"] for d in data["decisions"])
    assert data["mistakes"] == [d["index"] for d in data["decisions"] if d["mistake"]]
    assert c.get(f"/api/replays/{replay['id']}/analysis").json() == data
    assert c.get("/api/replays/nosuch/analysis").status_code == 404


def test_undo_takes_back_your_last_move_and_the_bots_answers(app_and_store):
    # issue 29 table point 4: "no hint, no undo"
    c, store = app_and_store
    body = {"game": "kop", "seat": 1, "seed": 4, "opponents": ["random"] * 3}
    data = c.post("/api/tables", json=body).json()
    url = f"/api/tables/{data['id']}"
    assert c.post(f"{url}/undo").status_code == 409  # nothing to undo yet
    histories = []
    for _ in range(2):  # two of your moves, each answered by the bots
        while data["waiting"]:
            data = c.post(f"{url}/step").json()
        table = find_table(store, data["id"])
        histories.append(list(table.state.history))
        action = data["table"]["moves"][0]["action"]
        data = c.post(f"{url}/move", json={"action": action}).json()
    undone = c.post(f"{url}/undo")
    assert undone.status_code == 200, undone.text
    assert table.state.history == histories[1] and not undone.json()["waiting"]
    assert undone.json()["undo"]  # the first move is still to take back
    assert undone.json()["table"]["current"] == 1 and undone.json()["table"]["moves"]
    assert_no_leak(undone.text, table.state, 1)
    assert c.post(f"{url}/undo").json()["table"] == c.get(url).json()["table"]
    assert table.state.history == histories[0]  # the first move taken back too
    assert c.get(url).json()["undo"] is False and c.post(f"{url}/undo").status_code == 409
