"""Counterfactual probe: at a phase-one decision, is risking the top stock card better than
playing the best card in hand? (``--choice tie``: is a card that ties, starting a war, better
than the best card that does not?)

``probe(state, rollouts, seed)`` compares every legal action of the acting seat under common
random numbers: rollout ``i`` deals the cards hidden from the seat once (``determinize`` with a
seeded generator) and continues every candidate action from that same deal with the same
continuation policy and seeds. Differences between actions are then free of deal luck, so a few
hundred rollouts separate them. The experiment (``run``) probes decision points sampled from
games between fixed bots and tabulates risk minus best card by context (stock size, best rank
in hand, whether the hand can still lead or tie the round, its position in the trick). Writes
the overall difference with its 95% interval (``probe.json``), one row per point
(``points.csv``), the table by context (``table.csv``) and its heatmaps (``probe_heatmap.png``).
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from koira_agents.base import play_out
from koira_agents.registry import make_agent
from koira_agents.tournament import deal_key, deal_seed
from koira_env.cards import RANK_OF
from koira_env.core.files import pyplot, save_figure, write_csv, write_json
from koira_env.core.jobs import PROCESS, Backend
from koira_env.games.koira.engine import PHASE_ONE, RISK, State, new_game
from koira_env.games.koira.heuristics import WAR, WIN, card_outcome, round_summary
from koira_env.games.koira.rules import make_rules

from .common import WORKERS, interval, run_tasks

FORMAT = "koira-probe/2"  # 2: each point records its position in the round
CHOICES = ("risk", "tie")  # the probed choice: risk the stock card, or play a card that ties
STOCK_BINS = ((2, 9), (10, 19), (20, 29), (30, 40))


@dataclass(frozen=True)
class ActionValue:
    action: int
    mean_return: float
    loss_rate: float
    returns: tuple[float, ...]  # per rollout, in rollout order (paired across actions)


def probe(
    state: State, rollouts: int, seed: int = 0, policy: str = "greedy"
) -> dict[int, ActionValue]:
    """Value of each legal action for the acting seat, estimated with common random numbers.

    Works on any state, hand-built ones too; only what the acting seat knows is used.
    """
    seat = state.current
    legal = state.legal_actions()
    agents = [make_agent(policy) for _ in range(state.n)]
    per_action: dict[int, list[float]] = {a: [] for a in legal}
    losses = dict.fromkeys(legal, 0)
    for i in range(rollouts):
        world = state.determinize(seat, random.Random(f"{seed}/deal/{i}"))
        cont = random.Random(f"{seed}/cont/{i}").getrandbits(31)
        for a in legal:
            s = world.clone()
            s.apply(a)
            end = play_out(s, agents, cont)
            per_action[a].append(end.returns()[seat])
            losses[a] += end.loser == seat
    return {
        a: ActionValue(a, sum(v) / rollouts, losses[a] / rollouts, tuple(v))
        for a, v in per_action.items()
    }


def risk_minus_best(values: dict[int, ActionValue]) -> dict[str, float]:
    """Risk minus the best hand card (by mean return), with a paired 95% interval."""
    return option_minus_best(values, {RISK}, "risk")


def option_minus_best(values: dict[int, ActionValue], options: set[int], name: str) -> dict:
    """The best of ``options`` minus the best other action (by mean return), with a paired
    95% interval; keys ``{name}_card``, ``{name}_return``, ``{name}_loss``, ``best_card``,
    ``best_return``, ``best_loss`` and ``diff``."""

    def best_of(actions: list[ActionValue]) -> ActionValue:
        return max(actions, key=lambda v: (v.mean_return, -v.action))

    chosen = best_of([v for a, v in values.items() if a in options])
    best = best_of([v for a, v in values.items() if a not in options])
    diffs = [r - b for r, b in zip(chosen.returns, best.returns, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.inf
    half = 1.96 * sd / math.sqrt(n)
    return {
        f"{name}_card": chosen.action,
        "best_card": best.action,
        f"{name}_return": chosen.mean_return,
        "best_return": best.mean_return,
        "diff": mean,
        "diff_low": mean - half,
        "diff_high": mean + half,
        f"{name}_loss": chosen.loss_rate,
        "best_loss": best.loss_rate,
    }


def tying_cards(state: State) -> set[int]:
    """The acting seat's legal cards that tie the round's highest card so far (a war, unless a
    later player changes it), by the engine's war trigger."""
    mask, top, tie = round_summary(state.round_cards)
    any_tie = state.rules.war_trigger == "any_tie"
    legal = [a for a in state.legal_actions() if a < RISK]
    return {a for a in legal if card_outcome(RANK_OF[a], mask, top, tie, any_tie) == WAR}


def options(state: State, choice: str) -> set[int]:
    """The actions of the probed choice at ``state`` (empty: no such choice there)."""
    legal = state.legal_actions()
    if state.phase != PHASE_ONE or len(legal) < 2:
        return set()
    found = {RISK} & set(legal) if choice == "risk" else tying_cards(state)
    return found if len(found) < len(legal) else set()


def context(state: State) -> dict[str, Any]:
    """What the acting seat sees that might matter: stock, best rank, can it still lead or tie,
    how many cards the round already holds (its position in the trick)."""
    hand = state.hands[state.current]
    mask, top, tie = round_summary(state.round_cards)
    any_tie = state.rules.war_trigger == "any_tie"
    return {
        "stock": len(state.stock),
        "max_rank": max(RANK_OF[c] for c in hand),
        "hand_size": len(hand),
        "leading": int(not state.round_cards),
        "played": len(state.round_cards),
        "in_war": int(state.in_war),
        "beatable": int(
            any(card_outcome(RANK_OF[c], mask, top, tie, any_tie) in (WIN, WAR) for c in hand)
        ),
    }


# ------------------------------------------------------------------ sampled decision points
@dataclass(frozen=True)
class Point:
    """Decision ``index`` of deal ``deal``: reached by replaying the deal with the field."""

    rules: str
    players: int
    seed: int
    deal: int
    index: int
    rollouts: int
    policy: str
    choice: str = "risk"


def _game(point: Point) -> State:
    """The whole game of ``point.policy`` bots on the point's deal."""
    state = new_game(
        rules=make_rules(point.players, point.rules), seed=deal_key(point.seed, point.deal)
    )
    agents = [make_agent(point.policy) for _ in range(point.players)]
    return play_out(state, agents, deal_seed(point.seed, point.deal))


def decision_points(point: Point) -> list[int]:
    """Indices (in the action history) of the game's phase-one decisions offering the point's
    choice beside another move: risking while the seat holds a card, or a tying card beside one
    that does not tie."""
    game = _game(point)
    state = new_game(rules=game.rules, deck=list(game.deck))
    found = []
    for i, action in enumerate(game.history):
        if options(state, point.choice):
            found.append(i)
        state.apply(action)
    return found


def position(point: Point) -> State:
    """The state before decision ``point.index`` of the point's game."""
    game = _game(point)
    state = new_game(rules=game.rules, deck=list(game.deck))
    for action in game.history[: point.index]:
        state.apply(action)
    return state


def probe_point(point: Point) -> dict[str, Any]:
    state = position(point)
    values = probe(
        state,
        point.rollouts,
        seed=point.seed * 7919 + point.deal * 131 + point.index,
        policy=point.policy,
    )
    compared = option_minus_best(values, options(state, point.choice), point.choice)
    return {"deal": point.deal, "index": point.index, **context(state), **compared}


def sample_points(
    rules: str,
    players: int,
    seed: int,
    deals: int,
    per_deal: int,
    rollouts: int,
    policy: str,
    choice: str = "risk",
) -> list[Point]:
    """``per_deal`` decision points drawn at random (seeded) from each deal's game."""
    points = []
    for deal in range(deals):
        game = Point(rules, players, seed, deal, 0, rollouts, policy, choice)
        found = decision_points(game)
        rng = random.Random(f"{seed}/points/{deal}")
        for index in sorted(rng.sample(found, min(per_deal, len(found)))):
            points.append(replace(game, index=index))
    return points


def run(
    out: str | Path,
    quick: bool = False,
    deals: int | None = None,
    rollouts: int | None = None,
    seed: int = 0,
    rules: str = "koira",
    policy: str = "greedy",
    choice: str = "risk",
    workers: int | None = WORKERS,
    max_tasks: int | None = None,
    progress: bool = False,
    backend: Backend = PROCESS,
) -> dict[str, Any]:
    """Probe sampled decision points and write ``points.csv``, ``table.csv`` and heatmaps."""
    if choice not in CHOICES:
        raise ValueError(f"--choice must be one of {', '.join(CHOICES)}, got {choice!r}")
    out = Path(out)
    deals = deals or (4 if quick else 160)
    rollouts = rollouts or (12 if quick else 80)
    per_deal = 2 if quick else 3
    config = {"format": FORMAT, "rules": rules, "players": 4, "seed": seed, "deals": deals}
    config.update(per_deal=per_deal, rollouts=rollouts, policy=policy)
    if choice != "risk":  # risk runs keep the config (and the resumable results) they had
        config["choice"] = choice
    points = sample_points(rules, 4, seed, deals, per_deal, rollouts, policy, choice)
    tasks = [(f"{p.deal}.{p.index}", p) for p in points]
    rows = run_tasks(
        out, config, tasks, probe_point, workers, max_tasks, progress, "probe points", backend
    )
    table = tabulate(rows)
    result = {"config": config, "complete": len(rows) == len(tasks), "points": len(rows)}
    result["overall"] = _mean_ci([r["diff"] for r in rows])
    result["overall_loss"] = _mean_ci([r[f"{choice}_loss"] - r["best_loss"] for r in rows])
    result["better_share"] = sum(r["diff"] > 0 for r in rows) / len(rows) if rows else None
    result["table"] = table
    write_json(out / "probe.json", result)
    columns = ["key", "deal", "index", "stock", "max_rank", "hand_size", "leading", "played"]
    columns += ["in_war", "beatable"]
    columns += [] if choice == "risk" else [f"{choice}_card"]  # risk_card: always RISK
    columns += ["best_card", f"{choice}_return", "best_return", "diff", "diff_low"]
    columns += ["diff_high", f"{choice}_loss", "best_loss"]
    write_csv(out / "points.csv", columns, rows)
    write_csv(out / "table.csv", ["by", "stock_bin", "group", "n", "diff", "low", "high"], table)
    plot(table, out, choice)
    return result


def headline(result: dict[str, Any]) -> str:
    """The mean return of the probed choice minus the best other move over every point."""
    diff, loss = result["overall"], result["overall_loss"]
    if not diff["n"]:
        return "no decision points probed yet"
    what = TITLES[result["config"].get("choice", "risk")]
    return (
        f"{what} over {diff['n']} decision points: return "
        f"{interval(diff['mean'], diff['low'], diff['high'])}, loss rate "
        f"{interval(loss['mean'], loss['low'], loss['high'])}; the choice better at "
        f"{result['better_share']:.0%}"
    )


TITLES = {
    "risk": "risking minus the best card in hand",
    "tie": "the best tying card minus the best card that does not tie",
}


def _stock_bin(stock: int) -> str:
    return next(f"{lo}-{hi}" for lo, hi in STOCK_BINS if stock <= hi)


def _mean_ci(values: list[float]) -> dict[str, Any]:
    n = len(values)
    if n < 2:
        return {"n": n, "mean": values[0] if values else None, "low": None, "high": None}
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half}


def tabulate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean risk-minus-best per stock bin and each of: max rank, beatable, cards already played
    in the round."""
    table = []
    for by in ("max_rank", "beatable", "played"):
        cells: dict[tuple[str, int], list[float]] = {}
        for r in rows:
            cells.setdefault((_stock_bin(r["stock"]), r[by]), []).append(r["diff"])
        for (stock_bin, group), diffs in sorted(cells.items()):
            est = _mean_ci(diffs)
            table.append(
                {
                    "by": by,
                    "stock_bin": stock_bin,
                    "group": group,
                    "n": est["n"],
                    "diff": est["mean"],
                }
                | {"low": est["low"], "high": est["high"]}
            )
    return table


def plot(table: list[dict[str, Any]], out: Path, choice: str = "risk") -> None:
    """Heatmaps of the choice minus the best other move (seat return) by stock and max rank /
    beatable / position in the trick."""
    plt = pyplot()
    bins = [f"{lo}-{hi}" for lo, hi in STOCK_BINS]
    ranks = "23456789TJQKA"
    played = sorted({r["group"] for r in table if r["by"] == "played"}) or [0]
    fig, axes = plt.subplots(
        1, 3, figsize=(14, 4), gridspec_kw={"width_ratios": [3, 1.3, 1.3 + 0.3 * len(played)]}
    )
    labels = {
        "max_rank": "best rank in hand",
        "beatable": "hand can lead or tie",
        "played": "cards already in the round",
    }
    for ax, by, groups, names in (
        (axes[0], "max_rank", list(range(13)), list(ranks)),
        (axes[1], "beatable", [0, 1], ["no", "yes"]),
        (axes[2], "played", played, [str(p) for p in played]),
    ):
        grid = [[math.nan] * len(bins) for _ in groups]
        counts = [[0] * len(bins) for _ in groups]
        for r in table:
            if r["by"] == by and r["diff"] is not None:
                i, j = groups.index(r["group"]), bins.index(r["stock_bin"])
                grid[i][j], counts[i][j] = r["diff"], r["n"]
        image = ax.imshow(grid, cmap="RdBu", vmin=-0.2, vmax=0.2, aspect="auto", origin="lower")
        for i in range(len(groups)):
            for j in range(len(bins)):
                if counts[i][j]:
                    ax.text(
                        j,
                        i,
                        f"{grid[i][j]:+.2f}\n{counts[i][j]}",
                        ha="center",
                        va="center",
                        fontsize=6,
                    )
        ax.set_xticks(range(len(bins)), bins)
        ax.set_yticks(range(len(groups)), names)
        ax.set_xlabel("stock size")
        ax.set_ylabel(labels[by])
    axes[0].set_title(f"return: {TITLES[choice]} (n points)")
    fig.colorbar(image, ax=axes[2])
    fig.tight_layout()
    save_figure(fig, out / "probe_heatmap.png")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deals", type=int, default=None, help="deals to sample from (default 160)")
    p.add_argument("--rollouts", type=int, default=None, help="rollouts per point (default 80)")
    p.add_argument("--rules", default="koira")
    p.add_argument("--policy", default="greedy", help="bot for every seat (sampling and rollouts)")
    p.add_argument(
        "--choice",
        default="risk",
        choices=CHOICES,
        help="the choice probed: risking the stock card, or a card that ties (a war)",
    )
