"""Game records of every game: the rules, the deal, every action and the events, as JSON.

A game is a function of (game, rules, deck order, actions): the decks a game dealt are all in
``state.deck``, so a record replays exactly, and ``replay`` checks that the same events come
out. Records written before the suite had other games (format ``koira-record/1``) are Koira
records and still load.
"""

from __future__ import annotations

import json
import operator
from pathlib import Path
from typing import Any

from .game import Game, State

FORMAT = "koira-record/2"
KOIRA_ONLY_FORMAT = "koira-record/1"  # no "game" field: always Koira


def game_record(state: State) -> dict[str, Any]:
    """A JSON-serializable record of ``state``'s game so far (events are regenerated)."""
    game = state.game
    rules = game.rules.to_dict()
    replayed = _run(game.id, rules, [game.card_name(c) for c in state.deck], state.history)
    outcome = state.outcome()
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": game.id,
        "rules": rules,
        "deck": [game.card_name(c) for c in state.deck],
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
    if isinstance(state.seed, int | str):
        record["seed"] = state.seed  # shuffles the decks a continued game would still need
    return record


def record_game(record: dict[str, Any]) -> Game:
    """The ``Game`` a record was played under; ``ValueError`` if its rules are not valid."""
    from ..registry import spec

    rules = record.get("rules")
    if not isinstance(rules, dict) or "num_players" not in rules:
        raise ValueError("game record's 'rules' must be a dict with num_players")
    return spec(record.get("game", "koira")).make_game(**rules)


def _run(game_id: str, rules: dict[str, Any], deck: Any, actions: Any, seed: Any = None) -> State:
    game = record_game({"game": game_id, "rules": rules})
    if not isinstance(deck, list) or not isinstance(actions, list):
        raise ValueError("game record's 'deck' and 'actions' must be lists")
    state = game.new_state(deck=deck, seed=seed, log=True)
    for i, action in enumerate(actions):
        try:
            state.apply(operator.index(action))
        except (TypeError, ValueError) as err:
            raise ValueError(f"record action {i} cannot be replayed: {err}") from None
    return state


def _checked(record: Any) -> dict[str, Any]:
    if not isinstance(record, dict) or record.get("format") not in (FORMAT, KOIRA_ONLY_FORMAT):
        raise ValueError(f"not a game record (expected format {FORMAT!r})")
    for key in ("rules", "deck", "actions"):
        if key not in record:
            raise ValueError(f"game record is missing {key!r}")
    return record


def replay(record: dict[str, Any], check_events: bool = True) -> State:
    """Rebuild the final state of a record; ``ValueError`` if it is corrupt or does not match."""
    r = _checked(record)
    state = _run(r.get("game", "koira"), r["rules"], r["deck"], r["actions"], r.get("seed"))
    if check_events and "events" in r and r["events"] != state.log:
        raise ValueError("game record's events differ from what replaying its actions produces")
    return state


def replay_states(record: dict[str, Any]) -> list[State]:
    """Every intermediate state of a record, for stepping through a game."""
    final = replay(record)
    r = _checked(record)
    state = final.game.new_state(deck=r["deck"], seed=r.get("seed"), log=True)
    states = [state.clone()]
    for action in r["actions"]:
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
