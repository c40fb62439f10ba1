"""The web app's state: per-browser sessions holding the games people play and the records
they replay, in memory, bounded and expiring.

A session is found only by its unguessable token (the browser's cookie), and a game or a
replay only inside its session, so two browsers never see each other's games. Each game
holds the true state, but everything the page gets goes through ``Game.table`` for the
person's seat (``PlayTable.payload``): the other hands never leave the server.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from koira_agents.analyst import Analyst
from koira_agents.base import Agent, Turn
from koira_env.core.game import Game, State, as_action
from koira_experiments.analyze import analyze, decision

T = TypeVar("T")

SESSION_TTL = 4 * 3600.0  # seconds a session lives after its last request
MAX_SESSIONS = 200
MAX_TABLES = 8  # games per session; the least recently used goes first
MAX_REPLAYS = 8


class WebError(Exception):
    """A request the server refuses: answered with ``status`` and ``message``; nothing changes."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def new_token() -> str:
    return secrets.token_urlsafe(24)


@cache
def analyst(game_id: str) -> Analyst:
    """The game's analyst (``koira_agents.analyst``), made once per game: it holds no game state."""
    return Analyst(game_id)


class PlayTable:
    """One game a person plays at ``seat`` against bots in the other seats."""

    def __init__(self, game: Game, seat: int, bots: list[Agent | None], seed: int) -> None:
        self.id = new_token()
        self.game = game
        self.seat = seat
        self.bots = bots
        self.seed = seed
        self.names = ["you" if bot is None else bot.name for bot in bots]
        self.state: State = game.new_state(seed=seed, log=True)
        self.rngs = [random.Random(f"{seed}/{p}") for p in range(game.num_players)]
        self.lock = threading.Lock()
        self.moved_at: list[int] = []  # the history's length before each of the person's moves

    def bot_to_act(self) -> bool:
        return not self.state.is_terminal and self.state.current != self.seat

    def move(self, action: Any) -> None:
        """The person's move: their turn, and a legal action (``IllegalActionError`` else)."""
        with self.lock:
            if self.state.is_terminal:
                raise WebError(409, "the game is over")
            if self.state.current != self.seat:
                raise WebError(409, f"it is player_{self.state.current}'s turn, not yours")
            try:
                self.state.apply(as_action(action))
            except ValueError as err:  # IllegalActionError is a ValueError
                raise WebError(400, str(err)) from None
            self.moved_at.append(len(self.state.history) - 1)

    def undo(self) -> None:
        """Take back the person's last move and the bots' moves since: the game is replayed
        from its seed up to that move, so it is the person's turn again (the bots may then
        answer differently: they draw from their own generators as they go)."""
        with self.lock:
            if not self.moved_at:
                raise WebError(409, "nothing to undo: you have not moved yet")
            before = self.state.history[: self.moved_at.pop()]
            state = self.game.new_state(seed=self.seed, log=True)
            for action in before:
                state.apply(action)
            self.state = state

    def step(self) -> None:
        """One bot move (a bot with a single legal move is not asked, as in tournaments)."""
        with self.lock:
            if not self.bot_to_act():
                raise WebError(409, "no bot is to move: " + self._whose_turn())
            state = self.state
            p = state.current
            legal = state.legal_actions()
            bot = self.bots[p]
            assert bot is not None
            if len(legal) == 1:
                state.apply(legal[0])
            else:
                state.apply(bot.act(Turn(state.view(p), self.game, self.rngs[p], state)))

    def hint(self) -> dict[str, Any]:
        """The person's decision valued by the game's analyst, from what their seat sees (the
        solver's verdicts on the true state are left out: ``decision(truth=False)``)."""
        with self.lock:
            if self.state.is_terminal or self.state.current != self.seat:
                now = "the game is over" if self.state.is_terminal else "a bot is to move"
                raise WebError(409, f"a hint is for your turn: {now}")
            state = self.state.clone()
        rng = random.Random(f"{self.seed}/hint/{len(state.history)}")
        return decision(state, analyst(self.game.id), rng, truth=False)

    def _whose_turn(self) -> str:
        return "the game is over" if self.state.is_terminal else "it is your turn"

    def payload(self) -> dict[str, Any]:
        """What the page gets: the table as the person's seat sees it, and who sits where."""
        with self.lock:
            return {
                "id": self.id,
                "seat": self.seat,
                "seed": self.seed,
                "names": self.names,
                "waiting": self.bot_to_act(),
                "undo": bool(self.moved_at),  # a move of the person's to take back
                "table": self.game.table(self.state, self.seat),
            }


class Replay:
    """The states of a game record, stepped through by the replay viewer."""

    def __init__(
        self,
        states: list[State],
        source: str,
        names: list[str] | None = None,
        record: dict[str, Any] | None = None,
    ) -> None:
        self.id = new_token()
        self.states = states
        self.source = source
        self.game = states[0].game
        self.names = names  # who sat where, when the record says (checked by the replay)
        self.record = record
        self._analysis: dict[str, Any] | None = None
        self.lock = threading.Lock()

    def analysis(self) -> dict[str, Any]:
        """The record's decisions valued and its mistakes (``koira analyze``), computed once."""
        if self.record is None:
            raise WebError(409, "this replay has no record to analyse")
        with self.lock:
            if self._analysis is None:
                self._analysis = analyze(self.record, max_cards=20, deals=4)
            return self._analysis

    def payload(self, step: Any, seat: Any) -> dict[str, Any]:
        steps = len(self.states) - 1
        if type(step) is not int or not 0 <= step <= steps:
            raise WebError(400, f"step must be an integer in 0..{steps}, got {step!r}")
        n = self.game.num_players
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise WebError(400, f"seat must be 'all' or an integer in 0..{n - 1}, got {seat!r}")
        state = self.states[step]
        previous = self.states[step - 1] if step else None
        return {
            "id": self.id,
            "source": self.source,
            "step": step,
            "steps": steps,
            "new_events": len(state.log) - (len(previous.log) if previous else 0),
            "names": self.names,
            "table": self.game.table(state, seat),
        }


@dataclass
class Session:
    token: str
    touched: float = field(default_factory=time.monotonic)
    tables: OrderedDict[str, PlayTable] = field(default_factory=OrderedDict)
    replays: OrderedDict[str, Replay] = field(default_factory=OrderedDict)

    def add(self, item: T, box: OrderedDict[str, T], limit: int) -> T:
        box[item.id] = item  # type: ignore[attr-defined]
        while len(box) > limit:
            box.popitem(last=False)
        return item

    def find(self, box: OrderedDict[str, T], key: str, what: str) -> T:
        if key not in box:
            raise WebError(
                404, f"no {what} {key!r} in this browser session (expired or never made)"
            )
        box.move_to_end(key)
        return box[key]


class Store:
    """Every session, bounded in number and expiring after ``ttl`` seconds unused."""

    def __init__(
        self,
        ttl: float = SESSION_TTL,
        max_sessions: int = MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl
        self.max_sessions = max_sessions
        self.clock = clock
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()

    def session(self, token: str | None) -> Session:
        """The session of ``token``, or a new one (a missing, unknown or expired token)."""
        now = self.clock()
        with self.lock:
            for key, old in list(self.sessions.items()):
                if now - old.touched > self.ttl:
                    del self.sessions[key]
            found = self.sessions.get(token) if token else None
            if found is None:
                found = Session(new_token(), now)
                self.sessions[found.token] = found
                while len(self.sessions) > self.max_sessions:
                    self.sessions.popitem(last=False)
            found.touched = now
            self.sessions.move_to_end(found.token)
            return found
