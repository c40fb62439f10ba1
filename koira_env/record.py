"""Game records: the deal, the rules, every action and the events, as plain JSON.

The game is a function of (rules, deck order, actions), so a record replays exactly;
``replay`` re-runs it and checks that the same events come out.
"""

from __future__ import annotations

import json
import operator
from pathlib import Path
from typing import Any

from .cards import card_name
from .engine import State, action_name, new_game
from .rules import make_rules

FORMAT = "koira-record/1"


def game_record(state: State) -> dict[str, Any]:
    """A JSON-serializable record of ``state``'s game so far (events are regenerated)."""
    replayed = _run(state.rules.to_dict(), list(state.deck), state.history)
    return {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "deck": [card_name(c) for c in state.deck],
        "actions": list(state.history),
        "action_names": [action_name(a) for a in state.history],
        "events": replayed.log,
        "result": {
            "finished": state.is_terminal and not state.truncated,
            "truncated": state.truncated,
            "placements": list(state.placements),
            "returns": state.returns(),
        },
    }


def _run(rules: dict[str, Any], deck: list[Any], actions: list[int]) -> State:
    if not isinstance(rules, dict) or "num_players" not in rules:
        raise ValueError("game record's 'rules' must be a dict like Rules.to_dict()")
    if not isinstance(deck, list) or not isinstance(actions, list):
        raise ValueError("game record's 'deck' and 'actions' must be lists")
    # Unknown option names reach make_rules, which rejects them rather than replaying wrongly.
    options = {k: v for k, v in rules.items() if k not in ("num_players", "preset")}
    r = make_rules(rules["num_players"], rules.get("preset", "koira"), **options)
    state = new_game(rules=r, deck=deck, log=True)
    for i, action in enumerate(actions):
        try:
            state.apply(operator.index(action))
        except (TypeError, ValueError) as err:
            raise ValueError(f"record action {i} cannot be replayed: {err}") from None
    return state


def replay(record: dict[str, Any], check_events: bool = True) -> State:
    """Rebuild the final state of a record; ``ValueError`` if it is corrupt or does not match."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a Koira game record (expected format {FORMAT!r})")
    for key in ("rules", "deck", "actions"):
        if key not in record:
            raise ValueError(f"game record is missing {key!r}")
    state = _run(record["rules"], record["deck"], record["actions"])
    if check_events and "events" in record and record["events"] != state.log:
        raise ValueError("game record's events differ from what replaying its actions produces")
    return state


def replay_states(record: dict[str, Any]) -> list[State]:
    """Every intermediate state of a record, for stepping through a game."""
    final = replay(record)
    r = final.rules
    state = new_game(rules=r, deck=list(final.deck), log=True)
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


def describe_event(event: dict[str, Any]) -> str:
    """One human-readable line per event, for demos and ``koira replay``."""
    kind = event["type"]
    who = f"player_{event['player']}" if "player" in event else ""
    if kind == "play":
        if "card" in event:
            return f"{who} plays {event['card']}" + (
                " (risked from the stock)" if event["risked"] else ""
            )
        return f"{who} plays {'-'.join(event['cards'])}"
    if kind == "war":
        players = ", ".join(f"player_{p}" for p in event["players"])
        return f"WAR on {event['rank']}s (depth {event['depth']}): {players}"
    if kind == "trick_won":
        return f"{who} wins the trick: {' '.join(event['cards'])}"
    if kind == "draw":
        return f"{who} draws {event['count']}"
    if kind == "trump_card":
        shown = event["card"] if event["revealed"] else "a hidden card"
        return f"{who} takes the last stock card as the trump card: {shown}"
    if kind == "phase_two":
        return (
            f"--- phase two: trump card {event['trump_card']}"
            f" (held by player_{event['trump_holder']}), player_{event['leader']} leads;"
            f" hand sizes {event['hand_sizes']}"
        )
    if kind == "take":
        return f"{who} takes {' '.join(event['cards'])}"
    if kind == "trick_discarded":
        return f"player_{event['winner']} completes the trick; discarded {' '.join(event['cards'])}"
    if kind == "trick_emptied":
        return f"the trick is empty; player_{event['next_leader']} leads"
    if kind == "out":
        return f"{who} is out in place {event['place']}"
    if kind == "game_over":
        return f"GAME OVER: player_{event['loser']} loses; order out: {event['placements']}"
    if kind in ("split", "stalemate", "trick_returned"):
        parts = "; ".join(f"player_{s['player']}: {' '.join(s['cards'])}" for s in event["shares"])
        return f"{kind.replace('_', ' ')}: {parts}"
    if kind == "war_dropout":
        return f"{who} cannot play and drops out of the war"
    return json.dumps(event)
