"""A person plays any game of the suite against bots in the terminal.

The person sees only what their seat may know (``Game.render`` of their seat) and the public
events of the game as they happen; bots get the same ``Turn`` as in ``koira_agents.base.play_out``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TextIO

from koira_agents.base import Agent, Turn
from koira_env.core.game import Game, State
from koira_env.core.record import game_record, save_record


class GameAbandoned(Exception):
    """The person quit or their input ended before the game did."""


def parse_move(text: str, legal: Sequence[int], game: Game) -> int:
    """A move from its name as the game writes it (Koira: "QS", "10h", "QS-KS-AS", "risk",
    "take"; ``Game.action_id`` decides) or a 1-based move number."""
    word = text.strip()
    if not word:
        raise ValueError("type a move's name, or its number from the list")
    if word.isdigit():
        number = int(word)
        if not 1 <= number <= len(legal):
            raise ValueError(f"move number {number} is out of range: choose 1-{len(legal)}")
        return legal[number - 1]
    action = game.action_id(word)
    if action not in legal:
        raise ValueError(f"{game.action_name(action)} is not a legal move now")
    return action


def ordered_moves(game: Game, state: State, seat: int) -> list[int]:
    """The legal moves in the order the person reads them: a move of one card of the hand (or
    a run from it) where that card is in the hand as shown (``Game.table``'s hand), the other
    moves (risk, take, bids) after them in the game's order. The move numbers count these."""
    hand = {
        name.upper(): i for i, name in enumerate(game.table(state, seat)["seats"][seat]["hand"])
    }
    legal = state.legal_actions()

    def place(index: int) -> tuple[int, int]:
        first = game.action_name(legal[index]).split("-")[0].upper()
        return (hand[first], index) if first in hand else (len(hand), index)

    return [legal[i] for i in sorted(range(len(legal)), key=place)]


def describe_turn(game: Game, state: State, seat: int) -> str:
    """The table as the seat sees it and its numbered legal moves (``ordered_moves``)."""
    lines = [f"--- your turn (player_{seat}) ---", game.render(state, seat)]
    moves = "  ".join(
        f"[{i}] {game.action_name(a)}" for i, a in enumerate(ordered_moves(game, state, seat), 1)
    )
    lines.append(f"moves: {moves}")
    return "\n".join(lines)


def play_human(
    game: Game,
    opponents: Sequence[Agent],
    seat: int,
    seed: int,
    ask: Callable[[str], str],
    out: TextIO,
    record_path: str | None = None,
    labels: Sequence[str] | None = None,
) -> list[int]:
    """Play one game with the person in ``seat``; returns the places (1 = best) per seat.

    ``labels`` name the opponents as the person asked for them (``"champion"``, not the
    ``ismcts`` it stands for); default: each agent's ``name``.

    ``ask`` reads a line (``input``); it raising ``EOFError`` or the person typing ``quit``
    abandons the game (``GameAbandoned``). The record is saved either way when asked for.
    """
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
    if len(opponents) != n - 1:
        raise ValueError(f"{len(opponents)} opponents for a {n}-player table")
    if labels is not None and len(labels) != n - 1:
        raise ValueError(f"{len(labels)} labels for {n - 1} opponents")
    named = list(labels) if labels is not None else [b.name for b in opponents]
    bots: list[Agent | None] = [*opponents[:seat], None, *opponents[seat:]]
    names = [*named[:seat], "you", *named[seat:]]
    state = game.new_state(seed=seed, log=True)
    rngs = [random.Random(f"{seed}/{p}") for p in range(n)]
    shown = 0
    print(
        f"{game.title}: you are player_{seat}. Players: "
        + ", ".join(f"player_{p} {m}" for p, m in enumerate(names)),
        file=out,
    )
    try:
        while not state.is_terminal:
            p = state.current
            bot = bots[p]
            if bot is None:
                shown = _print_events(game, state, seat, shown, out)
                print(describe_turn(game, state, p), file=out)
                action = _ask_move(game, ordered_moves(game, state, p), ask, out)
            else:
                action = bot.act(Turn(state.view(p), game, rngs[p], state))
            state.apply(action)
    except GameAbandoned:
        _save(state, names, record_path, out)
        raise
    _print_events(game, state, seat, shown, out)
    outcome = state.outcome()
    _save(state, names, record_path, out)
    if outcome is None:
        print("the game hit the action limit and was stopped", file=out)
        return []
    ranked = sorted(range(n), key=lambda p: (outcome.places[p], p))
    order = ", ".join(f"{outcome.places[p]}. player_{p} ({names[p]})" for p in ranked)
    print(f"final places: {order}", file=out)
    print(f"you finished in place {outcome.places[seat]} of {n}", file=out)
    return list(outcome.places)


def _print_events(game: Game, state: State, seat: int, shown: int, out: TextIO) -> int:
    """Print the events after the first ``shown`` as the person's seat saw them (the table's
    log: another seat's dealt hand or secret choice never reaches the screen)."""
    lines = game.table(state, seat)["log"]
    for line in lines[shown:]:
        print(line, file=out)
    return len(lines)


def _save(state: State, names: list[str], path: str | None, out: TextIO) -> None:
    if path:
        save_record(game_record(state, names), path)
        print(f"game record saved to {path}", file=out)


def _ask_move(game: Game, legal: list[int], ask: Callable[[str], str], out: TextIO) -> int:
    while True:
        try:
            text = ask("your move> ")
        except EOFError:
            raise GameAbandoned("input ended") from None
        if text.strip().lower() in ("q", "quit", "exit"):
            raise GameAbandoned("you quit")
        try:
            return parse_move(text, legal, game)
        except ValueError as err:
            names = ", ".join(game.action_name(a) for a in legal)
            print(f"  ! {err}. Legal moves: {names}", file=out)
