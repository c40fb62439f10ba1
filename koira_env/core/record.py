"""Game records of every game: the rules, the deal, every action and the events, as JSON.

A game is a function of (game, rules, deck order, actions): the decks a game dealt are all in
``state.deck``, so a record replays exactly, and ``replay_record`` checks that the same events
come out. The record names its game; finding a ``Game`` by id is the registry's work, so
``koira_env.registry.replay(record)`` replays a record of any game. Records written before
the suite had other games (format ``koira-record/1``) are Koira records and still load.
"""

from __future__ import annotations

import importlib
import json
import operator
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .events import upgrade
from .game import Game, State

# Public names that moved out of this module: name -> (where it lives now, the release that
# drops the alias here); docs/api/index.md lists them.
MOVED = {"replay": ("koira_env.registry", "0.5.0")}

FORMAT = "koira-record/2"
KOIRA_ONLY_FORMAT = "koira-record/1"  # no "game" field: always Koira


def game_record(state: State, players: Sequence[str] | None = None) -> dict[str, Any]:
    """A JSON-serializable record of ``state``'s game so far (events are regenerated);
    ``players`` names who sat in each seat (agent specs, "you"), for viewers and readers."""
    game = state.game
    deck = [game.card_name(c) for c in state.deck]
    replayed = _run(game, deck, state.history)
    outcome = state.outcome()
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": game.id,
        "rules": game.rules.to_dict(),
        "deck": deck,
        "actions": list(state.history),
        "action_names": [game.action_name(a) for a in state.history],
        "events": replayed.log,
        "result": {
            "finished": state.is_terminal and not state.truncated,
            "truncated": state.truncated,
            "returns": state.returns(),
            **(outcome.to_json() if outcome is not None else {}),
        },
    }
    if players is not None:
        record["players"] = _checked_players(players, game.num_players)
    if isinstance(state.seed, int | str):
        record["seed"] = state.seed  # shuffles the decks a continued game would still need
    return record


def _checked_players(players: Any, n: int) -> list[str]:
    if not (isinstance(players, list | tuple) and all(isinstance(p, str) for p in players)):
        raise ValueError(f"game record's 'players' must be a list of names, got {players!r}")
    if len(players) != n:
        raise ValueError(f"game record names {len(players)} players for a {n}-player game")
    return list(players)


def _run(game: Game, deck: Any, actions: Any, seed: Any = None) -> State:
    if not isinstance(deck, list) or not isinstance(actions, list):
        raise ValueError("game record's 'deck' and 'actions' must be lists")
    state = game.new_state(deck=deck, seed=seed, log=True)
    for i, action in enumerate(actions):
        try:
            state.apply(operator.index(action))
        except (TypeError, ValueError) as err:
            raise ValueError(f"record action {i} cannot be replayed: {err}") from None
    return state


def checked_record(record: Any) -> dict[str, Any]:
    """``record`` if it looks like a game record, else a ``ValueError`` naming what is wrong."""
    if not isinstance(record, dict) or record.get("format") not in (FORMAT, KOIRA_ONLY_FORMAT):
        raise ValueError(f"not a game record (expected format {FORMAT!r})")
    for key in ("rules", "deck", "actions"):
        if key not in record:
            raise ValueError(f"game record is missing {key!r}")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
        raise ValueError(f"game record's 'seed' must be an integer or a string, got {seed!r}")
    return record


def replay_record(record: dict[str, Any], game: Game, check_events: bool = True) -> State:
    """Rebuild the final state of a record played under ``game`` (the registry's
    ``record_game`` finds it from the record); ``ValueError`` if it is corrupt or does not
    match."""
    r = checked_record(record)
    if "players" in r:
        _checked_players(r["players"], game.num_players)
    state = _run(game, r["deck"], r["actions"], r.get("seed"))
    # records of an earlier release name some events by their old kinds (events.RENAMED)
    if check_events and "events" in r and upgrade(_checked_events(r["events"])) != state.log:
        raise ValueError("game record's events differ from what replaying its actions produces")
    return state


def _checked_events(events: Any) -> list[dict[str, Any]]:
    if not isinstance(events, list):
        raise ValueError(f"game record's 'events' must be a list, got {type(events).__name__}")
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise ValueError(f"game record's event {i} is not an event with a 'type': {event!r}")
    return events


def states_of_record(record: dict[str, Any], game: Game) -> list[State]:
    """Every intermediate state of a record played under ``game``, for stepping through it."""
    final = replay_record(record, game)
    state = final.game.new_state(deck=record["deck"], seed=record.get("seed"), log=True)
    states = [state.clone()]
    for action in record["actions"]:
        state.apply(int(action))
        states.append(state.clone())
    return states


def save_record(record: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1))


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path} is not a JSON game record: {err}") from None


def describe_event(game: Game, event: dict[str, Any]) -> str:
    """One human-readable line per event (``Game.describe_event``, raw JSON if it has none)."""
    try:
        return game.describe_event(event)
    except (KeyError, NotImplementedError):
        return json.dumps(event)


def __getattr__(name: str) -> Any:
    """A moved public name (``MOVED``) still works for one release, with a warning."""
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    where, removed = MOVED[name]
    warnings.warn(
        f"{__name__}.{name} moved to {where}.{name}; the old name goes in {removed}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(where), name)
