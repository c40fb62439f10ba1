"""Teka's deciding games in a tournament: who declared their hands, and how much the seating
alone decided them.

    python -m koira_experiments.teka_seating FOLDER [--agent c1] [--rival counter]

``FOLDER`` is a Teka tournament's results folder with its games' records
(``koira tournament --game teka --agents c1=counter,counter,r1=random,r2=random --games 300
--seed 2027 --save-records 1200 --out FOLDER``). A deciding game is one in which ``--agent``
and ``--rival`` sit on opposite sides, each partnered by a seat of neither: docs/games/teka.md
("champion") explains why, with ``random`` partners, only those games tell the two apart.
Counted from the records' ``hand_end`` events: the hands the partners declared (and made,
and how many were double thirteens or bids of 12 or 13), the hands the two agents declared
and the games in which they declared any (a bound: the agent's win rate had it won every such
game and kept the others). The seating: the two partners sit next to each other, so one of
them speaks right after the other, later from three of the four first speakers; the agent's
wins are split by whether that later one is the rival's partner (``lucky``) or its own.
Prints the counts and returns them; it reads the folder and writes nothing.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from koira_env.games.teka.engine import PLAYERS


def deciding_seats(players: list[str], agent: str, rival: str) -> tuple[int, int] | None:
    """The agent's and the rival's seats if the game is a deciding one, else ``None``."""
    if players.count(agent) != 1 or players.count(rival) != 1:
        return None
    a, b = players.index(agent), players.index(rival)
    partners = players[(a + 2) % PLAYERS], players[(b + 2) % PLAYERS]
    if a % 2 == b % 2 or any(p in (agent, rival) for p in partners):
        return None
    return a, b


def lucky(agent_seat: int, rival_seat: int) -> bool:
    """Whether the rival's partner is the one of the two partners who speaks right after the
    other (so later from three of the four first speakers, and usually outbids it)."""
    return ((rival_seat + 2) - (agent_seat + 2)) % PLAYERS == 1


def summarize(records: list[dict[str, Any]], agent: str, rival: str) -> dict[str, Any]:
    """The counts of the module docstring over ``records`` (game records as saved)."""
    count: Counter[str] = Counter()
    for record in records:
        players, places = record["players"], record["result"]["places"]
        seats = deciding_seats(players, agent, rival)
        if seats is None or places is None:
            continue
        a, b = seats
        won = places[a] < places[b]
        order = "lucky" if lucky(a, b) else "unlucky"
        count["games"] += 1
        count["won"] += won
        count[f"{order} games"] += 1
        count[f"{order} won"] += won
        declared = False
        for event in record["events"]:
            if event["type"] != "hand_end":
                continue
            who = "agents" if event["declarer"] in seats else "partners"
            declared |= who == "agents"
            count["hands"] += 1
            count[f"{who} declared"] += 1
            count[f"{who} made"] += event["made"]
            if who == "partners":
                count["partners' double thirteens"] += event["double"]
                count["partners' bids of 12 or 13"] += (not event["double"]) and event[
                    "contract"
                ] >= 12
        count["games the agents declared in"] += declared
        count["won, other games"] += won and not declared
    games = count["games"]
    bound = (count["won, other games"] + count["games the agents declared in"]) / max(1, games)
    return {**count, "win rate": count["won"] / max(1, games), "bound": bound}


def load_records(folder: Path) -> list[dict[str, Any]]:
    """The records a tournament saved with ``--save-records``, in file-name order."""
    paths = sorted((folder / "records").glob("*.json"))
    if not paths:
        raise ValueError(f"{folder} has no records/: run the tournament with --save-records N")
    return [json.loads(path.read_text()) for path in paths]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--agent", default="c1")
    parser.add_argument("--rival", default="counter")
    args = parser.parse_args(argv)
    result = summarize(load_records(args.folder), args.agent, args.rival)
    for key, value in result.items():
        print(f"{key}: {round(value, 3) if isinstance(value, float) else value}")
    return result


if __name__ == "__main__":
    main()
