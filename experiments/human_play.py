"""A person plays Koira against bots in the terminal.

The person sees only what their seat may know (``koira_env.info.seat_view``) and the public
events of the game as they happen; bots get the same ``Turn`` as in ``agents.base.play_game``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import TextIO

from agents.base import Agent, Turn
from koira_env.cards import card_id
from koira_env.engine import (
    PHASE_ONE,
    RISK,
    RUN_ACTION,
    TAKE,
    State,
    action_name,
    new_game,
)
from koira_env.info import SeatView, seat_view
from koira_env.record import describe_event, game_record, save_record
from koira_env.render import cards_text, view_lines
from koira_env.rules import Rules


class GameAbandoned(Exception):
    """The person quit or their input ended before the game did."""


def parse_move(text: str, legal: Sequence[int]) -> int:
    """A move from "QS", "10h", "QS-KS-AS" (a run), "risk", "take" or a 1-based move number."""
    word = text.strip().lower()
    if not word:
        raise ValueError(
            "type a card such as QS or 10h, a run such as 5H-6H, 'risk', 'take', or a number"
        )
    if word.isdigit():
        number = int(word)
        if not 1 <= number <= len(legal):
            raise ValueError(f"move number {number} is out of range: choose 1-{len(legal)}")
        return legal[number - 1]
    if word in ("risk", "take"):
        action = RISK if word == "risk" else TAKE
        if action not in legal:
            raise ValueError(f"you cannot {word} now")
        return action
    cards = tuple(sorted(card_id(part) for part in re.split(r"[-\s,]+", word) if part))
    if len(cards) == 1:
        action = cards[0]
    elif cards in RUN_ACTION:
        action = RUN_ACTION[cards]
    else:
        raise ValueError(f"{text.strip()!r} is not a run of consecutive cards in one suit")
    if action not in legal:
        raise ValueError(f"{action_name(action)} is not a legal move now")
    return action


def describe_view(view: SeatView, names: Sequence[str]) -> str:
    """The seat's hand, the trick and the public state, as a few lines of text."""
    phase = "one" if view.phase == PHASE_ONE else "two"
    labels = ["you" if p == view.seat else name for p, name in enumerate(names)]
    lines = [f"--- your turn (player_{view.seat}), phase {phase} ---"]
    lines += view_lines(view, labels)
    lines.append(f"your hand: {cards_text(sorted(view.hand))}")
    lines.append(
        "moves: " + "  ".join(f"[{i}] {action_name(a)}" for i, a in enumerate(view.legal, 1))
    )
    return "\n".join(lines)


def play_human(
    rules: Rules,
    opponents: Sequence[Agent],
    seat: int,
    seed: int,
    ask: Callable[[str], str],
    out: TextIO,
    record_path: str | None = None,
) -> list[int]:
    """Play one game with the person in ``seat``; returns the placements (loser last).

    ``ask`` reads a line (``input``); it raising ``EOFError`` or the person typing ``quit``
    abandons the game (``GameAbandoned``). The record is saved either way when asked for.
    """
    n = rules.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
    if len(opponents) != n - 1:
        raise ValueError(f"{len(opponents)} opponents for a {n}-player table")
    bots: list[Agent | None] = [*opponents[:seat], None, *opponents[seat:]]
    names = [b.name if b else "you" for b in bots]
    state = new_game(rules=rules, seed=seed, log=True)
    rngs = [random.Random(f"{seed}/{p}") for p in range(n)]
    shown = 0
    print(
        f"You are player_{seat}. Players: "
        + ", ".join(f"player_{p} {m}" for p, m in enumerate(names)),
        file=out,
    )
    try:
        while not state.is_terminal:
            p = state.current
            view = seat_view(state, p)
            bot = bots[p]
            if bot is None:
                for event in state.log[shown:]:
                    print(describe_event(event), file=out)
                shown = len(state.log)
                print(describe_view(view, names), file=out)
                action = _ask_move(view, ask, out)
            else:
                action = bot.act(Turn(view, rules, rngs[p], state))
            state.apply(action)
    except GameAbandoned:
        _save(state, record_path, out)
        raise
    for event in state.log[shown:]:
        print(describe_event(event), file=out)
    order = ", ".join(f"{i}. player_{p} ({names[p]})" for i, p in enumerate(state.placements, 1))
    print(f"final order: {order}", file=out)
    if state.truncated:
        print("the game hit the action limit and was stopped", file=out)
    elif state.loser == seat:
        print("You lose: you are the dog!", file=out)
    else:
        print("You escaped: someone else is the dog.", file=out)
    _save(state, record_path, out)
    return list(state.placements)


def _save(state: State, path: str | None, out: TextIO) -> None:
    if path:
        save_record(game_record(state), path)
        print(f"game record saved to {path}", file=out)


def _ask_move(view: SeatView, ask: Callable[[str], str], out: TextIO) -> int:
    while True:
        try:
            text = ask("your move> ")
        except EOFError:
            raise GameAbandoned("input ended") from None
        if text.strip().lower() in ("q", "quit", "exit"):
            raise GameAbandoned("you quit")
        try:
            return parse_move(text, view.legal)
        except ValueError as err:
            legal = ", ".join(action_name(a) for a in view.legal)
            print(f"  ! {err}. Legal moves: {legal}", file=out)
