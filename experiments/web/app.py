"""``koira serve``: a local web app to play any game of the suite against its bots and to step
through game records, on Starlette and uvicorn, with a plain HTML/CSS/JavaScript page.

The page (``static/``) is served from here and fetches nothing else: no build step, no CDN,
and a Content-Security-Policy that lets it load only from this server. Everything it shows
is ``Game.table`` of the person's seat (docs/web.md: the safety model):

* binds 127.0.0.1 unless told otherwise, and answers only requests addressed to the host it
  was bound to (a web page elsewhere cannot reach it through a rebound domain name);
* games live in memory per browser session (an unguessable cookie), bounded and expiring;
  a game id of another session is unknown here;
* records are read only from the folders given with ``--records`` (each path resolved and
  checked to stay inside its folder, symlinks included);
* every request is validated: bad input gets a 4xx with a message and changes nothing, and
  no exception stops the server.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import random
import socket
import sys
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from koira_agents.ppo import PPOAgent, load_policy, read_metadata, shipped_models
from koira_agents.registry import default_agents, default_opponent, make_agent
from koira_env.core.game import Game
from koira_env.core.options import option_descriptions
from koira_env.core.record import game_record
from koira_env.registry import games, make_game, replay_states, spec

from .store import MAX_REPLAYS, MAX_TABLES, PlayTable, Replay, Session, Store, WebError

STATIC = Path(__file__).parent / "static"
COOKIE = "koira_session"
MAX_BODY = 16 * 2**20  # bytes: a JSON request, an uploaded record included
MAX_RECORD_FILE = 16 * 2**20
MAX_LISTED = 2000  # records listed per folder
RECORD_MARK = b'"format": "koira-record/'  # how save_record starts every record file
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


# ------------------------------------------------------------------ validation
def _body_fields(body: Any, allowed: dict[str, tuple[type, ...]]) -> dict[str, Any]:
    """``body`` as a dict whose keys are all ``allowed`` with values of the allowed types
    (``None`` is allowed for every key: it means the default)."""
    if not isinstance(body, dict):
        raise WebError(400, "the request body must be a JSON object")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise WebError(400, f"unknown field(s) {unknown}; valid fields: {sorted(allowed)}")
    for key, value in body.items():
        types = allowed[key]
        if value is not None and (not isinstance(value, types) or _is_bool_for_int(value, types)):
            names = "/".join(t.__name__ for t in types)
            raise WebError(400, f"field {key!r} must be {names}, got {value!r}")
    return body


def _is_bool_for_int(value: Any, types: tuple[type, ...]) -> bool:
    return isinstance(value, bool) and bool not in types


def _game_of(body: dict[str, Any]) -> Game:
    """The game a lobby request describes; ``ValueError`` (a 400) names any bad part."""
    game_id = body.get("game")
    if game_id not in games():
        raise WebError(400, f"unknown game {game_id!r}; valid games: {games()}")
    options = body.get("options") or {}
    for name, field in (("game", "game"), ("num_players", "players")):  # make_game's own
        if name in options:
            raise WebError(400, f"{name!r} is not a rule option: send it as the field {field!r}")
    for name, value in options.items():
        if not isinstance(value, bool | int | str):
            raise WebError(400, f"option {name!r} must be a string, integer or boolean")
    return make_game(game_id, body.get("players"), **options)


def _agent_spec(text: str, game: Game) -> Any:
    """A bot from a registry spec. No file paths: a page must not make the server load
    an arbitrary file (``ppo:`` takes shipped model names only)."""
    if any(mark in text for mark in ("/", "\\")) or ".." in text:
        raise WebError(400, f"agent {text!r}: file paths are not accepted here, only names")
    agent = make_agent(text, game.id)
    if isinstance(agent, PPOAgent):
        load_policy(agent.path, game)  # a model for another table is refused now, not mid-game
    return agent


def option_fields(game: Game) -> list[dict[str, Any]]:
    """The rule options of a game for the lobby's form: name, default, kind, choices and a
    one-line description. Choices come from the options' declarations (``field(metadata=
    {"choices": ...})``, or a rules module's ``CHOICES`` and ``PRESETS`` tables); the
    description is the comment above the option in its rules dataclass."""
    rules = game.rules
    module = sys.modules[type(rules).__module__]
    declared = dict(getattr(module, "CHOICES", {}))
    if hasattr(module, "PRESETS"):
        declared["preset"] = tuple(module.PRESETS)
    described = option_descriptions(type(rules))
    result = []
    for f in dataclasses.fields(rules):
        if f.name == "num_players":
            continue
        value = getattr(rules, f.name)
        choices = f.metadata.get("choices") or declared.get(f.name)
        kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "text"
        entry: dict[str, Any] = {"name": f.name, "default": value, "kind": kind}
        entry["description"] = described.get(f.name, "")
        if choices:
            entry.update(kind="choice", choices=list(choices))
        for bound in ("min", "max"):
            if bound in f.metadata:
                entry[bound] = f.metadata[bound]
        result.append(entry)
    return result


def _agents(game_id: str) -> list[str]:
    """Names the lobby suggests: the game's bots, search, its aliases (Koira's
    ``champion``) and its shipped policies."""
    names = [*default_agents(game_id), "ismcts"]
    names += [a for a in spec(game_id).choices.aliases if a not in names]
    for model in shipped_models():
        try:
            if read_metadata(model).get("game", "koira") == game_id:
                names.append(f"ppo:{model.stem}")
        except ValueError:
            continue
    return names


def lobby() -> dict[str, Any]:
    """Every game of the registry for the lobby; a game that cannot be set up (a package
    still being written) is listed with its error rather than hiding the others."""
    return {"games": [_lobby_entry(game_id) for game_id in games()]}


def _lobby_entry(game_id: str) -> dict[str, Any]:
    entry = spec(game_id)
    try:
        return {
            "id": game_id,
            "title": entry.title,
            "players": list(entry.players),
            "default_players": entry.default_players,
            "default_opponent": default_opponent(game_id),
            "agents": _agents(game_id),
            "options": option_fields(make_game(game_id)),
        }
    except Exception as err:  # reported to the page; the other games still play
        return {"id": game_id, "title": entry.title, "error": f"{type(err).__name__}: {err}"}


# ------------------------------------------------------------------ records
class Records:
    """The folders whose records may be opened; nothing outside them is ever read."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = [Path(root).resolve() for root in roots]

    def listing(self) -> dict[str, Any]:
        found = []
        for index, root in enumerate(self.roots):
            count = 0
            for path in sorted(root.rglob("*.json")):
                if count >= MAX_LISTED:
                    break
                try:
                    inside = path.resolve().is_relative_to(root)
                    with path.open("rb") as file:
                        head = file.read(64)
                except OSError:
                    continue
                if inside and RECORD_MARK in head:
                    found.append({"root": index, "path": path.relative_to(root).as_posix()})
                    count += 1
        folders = [{"root": i, "folder": str(root)} for i, root in enumerate(self.roots)]
        return {"folders": folders, "records": found}

    def path(self, root: Any, relative: Any) -> Path:
        """The file ``relative`` names inside folder ``root``; a 4xx for anything else."""
        if type(root) is not int or not 0 <= root < len(self.roots):
            raise WebError(400, f"root must be a folder index in 0..{len(self.roots) - 1}")
        if not isinstance(relative, str) or not relative or "\x00" in relative:
            raise WebError(400, "path must be a non-empty string")
        base = self.roots[root]
        target = (base / relative).resolve()
        if not target.is_relative_to(base):
            raise WebError(403, f"{relative!r} is outside the served records folder")
        if target.suffix != ".json" or not target.is_file():
            raise WebError(404, f"no record {relative!r} in the served records folder")
        if target.stat().st_size > MAX_RECORD_FILE:
            raise WebError(413, f"{relative!r} is larger than {MAX_RECORD_FILE} bytes")
        return target


def _replay(record: Any, source: str) -> Replay:
    try:
        states = replay_states(record)
    except (ValueError, TypeError, KeyError) as err:
        raise WebError(400, f"{source}: not a valid game record: {err}") from None
    return Replay(states, source, record.get("players"), record)


# ------------------------------------------------------------------ the app
class _Headers:
    """Security headers on every response (the page may load only from this server)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers.extend((k.lower().encode(), v.encode()) for k, v in HEADERS.items())
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _json(request: Request) -> Any:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError(415, "send the request body as application/json")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise WebError(413, f"request body larger than {MAX_BODY} bytes")
    try:
        return json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise WebError(400, f"malformed JSON: {err}") from None


def create_app(
    records: list[Path] | None = None,
    hosts: list[str] | None = None,
    store: Store | None = None,
) -> Starlette:
    """The ASGI app; ``hosts`` are the Host headers it answers (default: loopback names)."""
    store = store or Store()
    served = Records(records or [])

    def reply(request: Request, session: Session, data: Any, status: int = 200) -> Response:
        response = JSONResponse(data, status)
        if request.cookies.get(COOKIE) != session.token:
            response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict")
        return response

    def session_of(request: Request) -> Session:
        return store.session(request.cookies.get(COOKIE))

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def list_games(request: Request) -> Response:
        return reply(request, session_of(request), await run_in_threadpool(lobby))

    async def rules(request: Request) -> Response:
        body = _body_fields(
            await _json(request), {"game": (str,), "players": (int,), "options": (dict,)}
        )
        game = _game_of(body)
        return reply(request, session_of(request), {"rules": game.rules.to_dict()})

    async def new_table(request: Request) -> Response:
        body = _body_fields(
            await _json(request),
            {
                "game": (str,),
                "players": (int,),
                "options": (dict,),
                "opponents": (list,),
                "seat": (int,),
                "seed": (int,),
            },
        )
        session = session_of(request)

        def build() -> PlayTable:
            game = _game_of(body)
            n = game.num_players
            seat = body.get("seat") or 0
            if not 0 <= seat < n:
                raise WebError(400, f"seat must be in 0..{n - 1}, got {seat}")
            specs = [s for s in body.get("opponents") or [] if s != ""]
            if not all(isinstance(s, str) for s in specs):
                raise WebError(400, "opponents must be a list of agent specs (strings)")
            if specs and len(specs) != n - 1:
                raise WebError(400, f"{len(specs)} opponents for a {n}-player table: give {n - 1}")
            specs = specs or [default_opponent(game.id)] * (n - 1)
            opponents = [_agent_spec(text, game) for text in specs]
            bots = [*opponents[:seat], None, *opponents[seat:]]
            names = [*specs[:seat], "you", *specs[seat:]]  # as asked: "champion", not ismcts
            seed = body.get("seed")
            seed = random.randrange(1_000_000) if seed is None else seed  # as koira play
            table = PlayTable(game, seat, bots, seed)
            table.names = names
            return table

        table = await run_in_threadpool(build)
        session.add(table, session.tables, MAX_TABLES)
        return reply(request, session, table.payload(), 201)

    def table_of(request: Request) -> tuple[Session, PlayTable]:
        """The request's session and the table of the path it names (``WebError`` if none)."""
        session = session_of(request)
        return session, session.find(session.tables, request.path_params["table"], "game")

    async def get_table(request: Request) -> Response:
        session, table = table_of(request)
        return reply(request, session, await run_in_threadpool(table.payload))

    async def move(request: Request) -> Response:
        session, table = table_of(request)
        body = _body_fields(await _json(request), {"action": (int,)})
        if body.get("action") is None:
            raise WebError(400, "field 'action' (an integer) is required")
        await run_in_threadpool(table.move, body["action"])  # waits while a bot thinks
        return reply(request, session, await run_in_threadpool(table.payload))

    async def step(request: Request) -> Response:
        session, table = table_of(request)
        await run_in_threadpool(table.step)
        return reply(request, session, await run_in_threadpool(table.payload))

    async def undo(request: Request) -> Response:
        session, table = table_of(request)
        await run_in_threadpool(table.undo)
        return reply(request, session, await run_in_threadpool(table.payload))

    async def hint(request: Request) -> Response:
        session, table = table_of(request)
        return reply(request, session, await run_in_threadpool(table.hint))

    async def table_record(request: Request) -> Response:
        session, table = table_of(request)
        if not table.state.is_terminal:
            raise WebError(409, "the record is available once the game is over")
        return reply(request, session, game_record(table.state, table.names))

    async def list_records(request: Request) -> Response:
        return reply(request, session_of(request), await run_in_threadpool(served.listing))

    async def open_replay(request: Request) -> Response:
        body = _body_fields(
            await _json(request), {"root": (int,), "path": (str,), "record": (dict,)}
        )
        session = session_of(request)

        def build() -> Replay:
            if body.get("record") is not None:
                return _replay(body["record"], "uploaded record")
            path = served.path(body.get("root"), body.get("path"))
            try:
                record = json.loads(path.read_text())
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
                raise WebError(400, f"{body['path']}: not a JSON game record ({err})") from None
            return _replay(record, body["path"])

        replay = await run_in_threadpool(build)
        session.add(replay, session.replays, MAX_REPLAYS)
        return reply(request, session, replay.payload(0, None), 201)

    async def replay_step(request: Request) -> Response:
        session = session_of(request)
        replay = session.find(session.replays, request.path_params["replay"], "replay")
        query = request.query_params
        step_text, seat_text = query.get("step", "0"), query.get("seat", "all")
        step_value: Any = int(step_text) if step_text.isdigit() else step_text
        seat_value: Any = (
            None if seat_text == "all" else int(seat_text) if seat_text.isdigit() else seat_text
        )
        data = await run_in_threadpool(replay.payload, step_value, seat_value)
        return reply(request, session, data)

    async def replay_analysis(request: Request) -> Response:
        session = session_of(request)
        replay = session.find(session.replays, request.path_params["replay"], "replay")
        return reply(request, session, await run_in_threadpool(replay.analysis))

    async def refused(request: Request, err: Exception) -> Response:
        assert isinstance(err, WebError)
        return JSONResponse({"error": err.message}, err.status)

    async def bad_value(request: Request, err: Exception) -> Response:
        return JSONResponse({"error": str(err)}, 400)  # the suite's ValueErrors name the fault

    async def crashed(request: Request, err: Exception) -> Response:
        return JSONResponse({"error": f"internal error ({type(err).__name__}): {err}"}, 500)

    allowed = hosts or [*LOOPBACK]
    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", list_games),
            Route("/api/rules", rules, methods=["POST"]),
            Route("/api/tables", new_table, methods=["POST"]),
            Route("/api/tables/{table}", get_table),
            Route("/api/tables/{table}/move", move, methods=["POST"]),
            Route("/api/tables/{table}/step", step, methods=["POST"]),
            Route("/api/tables/{table}/hint", hint),
            Route("/api/tables/{table}/undo", undo, methods=["POST"]),
            Route("/api/tables/{table}/record", table_record),
            Route("/api/records", list_records),
            Route("/api/replays", open_replay, methods=["POST"]),
            Route("/api/replays/{replay}", replay_step),
            Route("/api/replays/{replay}/analysis", replay_analysis),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed), Middleware(_Headers)],
        exception_handlers={WebError: refused, ValueError: bad_value, Exception: crashed},
    )


def check_port(host: str, port: int) -> None:
    """``ValueError`` naming the port (and ``--port``) when the server could not listen on
    ``host:port``: taken by another server (``mkdocs serve``, a second ``koira serve``), or
    not an address of this machine. Bound as uvicorn binds it (``SO_REUSEADDR``)."""
    if not 0 < port < 65536:
        raise ValueError(f"port {port} is not a TCP port (1-65535)")
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        raise ValueError(f"cannot listen on {host!r}: {err.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise ValueError(
                    f"port {port} on {host} is already in use (by another server?); "
                    "choose another with --port"
                ) from None
            raise ValueError(
                f"cannot listen on {host} port {port}: {err.strerror} (see --host, --port)"
            ) from None


def serve(host: str, port: int, records: list[str] | None) -> int:
    """Run the app until interrupted (``koira serve``)."""
    import uvicorn

    if records is None:
        folders = [Path("results")] if Path("results").is_dir() else []
    else:
        folders = [Path(r) for r in records]
        for folder in folders:
            if not folder.is_dir():
                raise ValueError(f"records folder {folder} does not exist")
    check_port(host, port)  # before the address is printed: a busy port is one clear line
    hosts = ["*"] if host in ("0.0.0.0", "::", "") else [*LOOPBACK, host]
    app = create_app(folders, hosts)
    shown = f"[{host}]" if ":" in host else host
    print(f"Koira RL suite: open http://{shown}:{port}/ (Ctrl+C stops the server)")
    if host not in LOOPBACK:
        print(
            f"warning: bound to {host}: the page is reachable from the network, and anyone "
            "who can reach it can play and open the served records",
            file=sys.stderr,
        )
    for folder in folders:
        print(f"records from {folder.resolve()}")
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
