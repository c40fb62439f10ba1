"""``koira analyze RECORD``: a Koira game record's phase-two decisions, annotated exactly.

For every phase-two decision with a choice and at most ``max_cards`` cards in hands, each
legal move gets two values: ``escape``, the share of ``deals`` deals of the cards the mover
could not see in which the move lets the mover make sure it does not lose (what the mover
could know; one deal when nothing was hidden), and ``exact``, the solver's verdict on the
true state. A decision is a *mistake* when the true state had an escaping move and the move
played was proven caught: it turned an escape into a loss (against a perfect team of
opponents). ``--agent`` adds the move that agent would have played. JSON for programs, text
for people.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.games.koira import solve_moves
from koira_env.games.koira.engine import PHASE_TWO, UNKNOWN
from koira_env.registry import replay_states

FORMAT = "koira-analysis/1"


def analyze(
    record: dict[str, Any],
    agent: str | None = None,
    deals: int = 8,
    max_cards: int = 26,
    max_nodes: int = 20_000,
    seed: int = 0,
) -> dict[str, Any]:
    """The annotated decisions of a Koira ``record`` (``ValueError`` for another game's)."""
    if record.get("game", "koira") != "koira":
        raise ValueError(
            f"analyze needs a Koira record (the endgame solver is Koira's), got {record['game']!r}"
        )
    states = replay_states(record)
    game = states[0].game
    player = make_agent(agent) if agent else None
    rng = random.Random(seed)
    decisions = []
    for index, (before, after) in enumerate(itertools.pairwise(states)):
        legal = before.legal_actions()
        cards = sum(map(len, before.hands))
        if before.phase != PHASE_TWO or len(legal) < 2 or cards > max_cards:
            continue
        seat, played = before.current, after.history[-1]
        exact = solve_moves(before, max_nodes)
        escapes: dict[int, list[bool | None]] = {a: [] for a in legal}
        view = before.view(seat)
        for _ in range(deals if UNKNOWN in view.where else 1):
            for action, verdict in solve_moves(before.determinize(seat, rng), max_nodes).items():
                escapes[action].append(verdict)
        moves = []
        for action in legal:
            known = [v for v in escapes[action] if v is not None]
            moves.append(
                {
                    "action": action,
                    "move": game.action_name(action),
                    "escape": sum(known) / len(known) if known else None,
                    "exact": exact[action],
                }
            )
        row = {
            "index": index,
            "seat": seat,
            "cards": cards,
            "played": game.action_name(played),
            "moves": moves,
            "mistake": True in exact.values() and exact[played] is False,
        }
        if player is not None:
            turn = Turn(view, game, random.Random(seed * 7919 + index), before)
            row["agent"] = game.action_name(player.act(turn))
        decisions.append(row)
    return {
        "format": FORMAT,
        "players": game.num_players,
        "rules": game.rules.preset,
        "agent": agent,
        "deals": deals,
        "max_cards": max_cards,
        "decisions": decisions,
        "mistakes": [d["index"] for d in decisions if d["mistake"]],
    }


def render(analysis: dict[str, Any]) -> str:
    """One block per decision: the move played, every move's values, mistakes marked."""
    lines = [
        f"{len(analysis['decisions'])} phase-two decisions analysed (at most "
        f"{analysis['max_cards']} cards in hands); {len(analysis['mistakes'])} mistakes"
    ]
    for d in analysis["decisions"]:
        mark = "  MISTAKE: an escape was thrown away" if d["mistake"] else ""
        suggestion = f"; {analysis['agent']} plays {d['agent']}" if "agent" in d else ""
        lines.append(
            f"action {d['index']}: player_{d['seat']} with {d['cards']} cards in hands played "
            f"{d['played']}{suggestion}{mark}"
        )
        for m in d["moves"]:
            share = "undecided" if m["escape"] is None else f"escapes {m['escape']:.2f}"
            exact = {True: "escape", False: "caught", None: "undecided"}[m["exact"]]
            lines.append(f"    {m['move']:>4}  {share:<14} exact: {exact}")
    return "\n".join(lines)
