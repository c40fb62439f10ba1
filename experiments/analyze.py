"""``koira analyze RECORD``: every decision of a game record, each legal move valued.

Koira's phase-two decisions with at most ``max_cards`` cards in hands are valued exactly:
each legal move gets ``escape``, the share of ``deals`` deals of the cards the mover could
not see in which the move lets the mover make sure it does not lose (what the mover could
know; one deal when nothing was hidden), and ``exact``, the solver's verdict on the true
state. Such a decision is a *mistake* when the true state had an escaping move and the move
played was proven caught: it turned an escape into a loss (against a perfect team of
opponents).

Every other decision, in every game, is valued by the game's analyst (``koira_agents.analyst``: its
``champion``'s search where that values moves, flat Monte Carlo elsewhere), from what the
mover could see: each move gets ``value`` (``kind`` says what the numbers are), and the
decision is a mistake when the move played was nearer the worst move than the best.
``--agent`` adds the move that agent would have played. JSON for programs, text for people;
the web table's analysis board and hint show the same rows (``decision``).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from koira_agents.analyst import Analyst
from koira_agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.core.game import State
from koira_env.registry import replay_states

FORMAT = "koira-analysis/2"  # /1: Koira's phase-two decisions only, without "by" and "best"
EXACT = "exact endgame solver"


def analyze(
    record: dict[str, Any],
    agent: str | None = None,
    deals: int = 8,
    max_cards: int = 26,
    max_nodes: int = 20_000,
    seed: int = 0,
) -> dict[str, Any]:
    """The valued decisions of a ``record`` of any game."""
    states = replay_states(record)
    game = states[0].game
    analyst = Analyst(game.id)
    player = make_agent(agent, game.id) if agent else None
    decisions = []
    for index, (before, after) in enumerate(itertools.pairwise(states)):
        if len(before.legal_actions()) < 2:
            continue
        rng = random.Random(seed * 7919 + index)
        row = decision(before, analyst, rng, after.history[-1], deals, max_cards, max_nodes)
        row["index"] = index
        if player is not None:
            turn = Turn(
                before.view(before.current), game, random.Random(seed * 7919 + index), before
            )
            row["agent"] = game.action_name(player.act(turn))
        decisions.append(row)
    return {
        "format": FORMAT,
        "game": game.id,
        "players": game.num_players,
        "rules": game.variant,
        "agent": agent,
        "analyst": analyst.spec,
        "deals": deals,
        "max_cards": max_cards,
        "decisions": decisions,
        "mistakes": [d["index"] for d in decisions if d["mistake"]],
    }


def decision(
    state: State,
    analyst: Analyst,
    rng: random.Random,
    played: int | None = None,
    deals: int = 8,
    max_cards: int = 26,
    max_nodes: int = 20_000,
    truth: bool = True,
) -> dict[str, Any]:
    """One decision of ``state.current``: every legal move's values, the best, and (when
    ``played`` is given, as in a record) the move played and whether it was a mistake.
    ``truth=False`` (a hint in a game still being played) leaves out the solver's verdicts on
    the true state, so nothing the mover cannot see shapes the answer."""
    game, seat = state.game, state.current
    row: dict[str, Any] = {"seat": seat}
    exact = exact_moves(state, rng, deals, max_cards, max_nodes, truth)
    if exact is not None:
        moves, verdicts = exact
        escapes = [m for m in moves if m.get("exact")]
        best = escapes[0] if escapes else max(moves, key=lambda m: m["escape"] or 0.0)
        row.update(by=EXACT, kind="escape share", moves=moves, best=best["move"])
        row["cards"] = sum(map(len, state.hands))
        mistake = played is not None and True in verdicts.values() and verdicts[played] is False
    else:
        valued = analyst.value(Turn(state.view(seat), game, rng, state))
        row.update(by=valued.by, kind=valued.kind, best=game.action_name(valued.best()))
        row["moves"] = [
            {"action": a, "move": game.action_name(a), "value": round(v, 4)}
            for a, v in valued.values.items()
        ]
        mistake = played is not None and valued.mistake(played)
    if played is not None:
        row["played"] = game.action_name(played)
    row["mistake"] = mistake
    return row


def exact_moves(
    state: Any, rng: random.Random, deals: int, max_cards: int, max_nodes: int, truth: bool
) -> tuple[list[dict[str, Any]], dict[int, bool | None]] | None:
    """Koira's phase-two moves valued by the solver (see the module docstring) and the true
    state's verdicts (none without ``truth``), or ``None`` for any other game or decision out
    of its reach."""
    if state.game.id != "koira":
        return None
    from koira_env.games.koira import solve_moves
    from koira_env.games.koira.engine import PHASE_TWO, UNKNOWN

    if state.phase != PHASE_TWO or sum(map(len, state.hands)) > max_cards:
        return None
    seat = state.current
    verdicts = solve_moves(state, max_nodes) if truth else {}
    escapes: dict[int, list[bool | None]] = {a: [] for a in state.legal_actions()}
    for _ in range(deals if UNKNOWN in state.view(seat).where else 1):
        for action, verdict in solve_moves(state.determinize(seat, rng), max_nodes).items():
            escapes[action].append(verdict)
    moves = []
    for action in state.legal_actions():
        known = [v for v in escapes[action] if v is not None]
        move = {
            "action": action,
            "move": state.game.action_name(action),
            "escape": sum(known) / len(known) if known else None,
        }
        if truth:
            move["exact"] = verdicts[action]
        moves.append(move)
    return moves, verdicts


def render(analysis: dict[str, Any]) -> str:
    """One block per decision: the move played, every move's values, mistakes marked."""
    exact = sum(d["by"] == EXACT for d in analysis["decisions"])
    lines = [
        f"{len(analysis['decisions'])} decisions analysed ({exact} exactly, within "
        f"{analysis['max_cards']} cards in Koira's phase two; the others by "
        f"{analysis['analyst']}); {len(analysis['mistakes'])} mistakes"
    ]
    for d in analysis["decisions"]:
        mark = ""
        if d["mistake"]:
            mark = "  MISTAKE: " + (
                "an escape was thrown away" if d["by"] == EXACT else f"{d['best']} was better"
            )
        suggestion = f"; {analysis['agent']} plays {d['agent']}" if "agent" in d else ""
        cards = f" with {d['cards']} cards in hands" if "cards" in d else ""
        lines.append(
            f"action {d['index']}: player_{d['seat']}{cards} played {d['played']}{suggestion}{mark}"
        )
        for m in d["moves"]:
            if d["by"] == EXACT:
                share = "undecided" if m["escape"] is None else f"escapes {m['escape']:.2f}"
                verdict = {True: "escape", False: "caught", None: "undecided"}[m["exact"]]
                lines.append(f"    {m['move']:>6}  {share:<14} exact: {verdict}")
            else:
                lines.append(f"    {m['move']:>6}  {d['kind']} {m['value']:+.3f}")
    return "\n".join(lines)
