"""A tournament's results from its log rows: per-agent loss rate, win rate and mean place with
95% intervals clustered by deal, head-to-head, ratings and decision times, written as
``results.json``, ``leaderboard.csv``, ``head_to_head.csv``, ``head_to_head.png`` and
``timing.csv``."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from koira_env.core.files import pyplot, save_figure, write_csv, write_json
from koira_env.registry import spec

from .ratings import Estimate, cluster_mean, cluster_rate, head_to_head, plackett_luce
from .registry import resolve
from .schedule import TournamentConfig

TIMING = "timing.csv"
TIMING_COLUMNS = ["agent", "decisions", "cpu_seconds", "ms_per_decision"]


def decision_times(config: TournamentConfig, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per agent: the decisions it was asked for (forced moves are not) and their mean process
    CPU time. Machine-dependent, so kept out of results.json, which depends on the seed alone."""
    decisions = dict.fromkeys(config.entrants, 0)
    seconds = dict.fromkeys(config.entrants, 0.0)
    for row in rows:
        for label, count, cpu in zip(
            row["seats"], row.get("decisions", ()), row.get("cpu_seconds", ()), strict=False
        ):
            decisions[label] += count
            seconds[label] += cpu
    return [
        {
            "agent": label,
            "decisions": decisions[label],
            "cpu_seconds": round(seconds[label], 3),
            "ms_per_decision": round(1000 * seconds[label] / decisions[label], 4)
            if decisions[label]
            else None,
        }
        for label in config.entrants
    ]


def seat_measure(measure: str, places: Sequence[int], seat: int) -> float:
    """One seat's result in a leaderboard measure (``RANK_BY``): a loss is the game's worst
    place when not everyone tied, a win the first place (with ties, several seats win)."""
    place = places[seat]
    if measure == "loss_rate":
        return float(place == max(places) > 1)
    if measure == "win_rate":
        return float(place == 1)
    return float(place)


def measured_gains(config: TournamentConfig, paths: Sequence[Path]) -> dict[str, dict[str, Any]]:
    """Label -> the exploitability measured for that agent (``koira exploit``'s
    ``exploit.json``, found in ``paths`` or any folder below them) at this tournament's game,
    rules, table and options, without a field: ``{"measure", "gain", "ci", "deals", "path"}``.
    Where several measured one agent, the one of most deals counts."""
    found: dict[str, dict[str, Any]] = {}
    wanted = {label: resolve(text, config.game) for label, text in config.entrants.items()}
    for path in paths:
        path = Path(path)
        if not path.exists():
            raise ValueError(f"{path}: no such exploitability measurement or folder")
        files = [path] if path.is_file() else sorted(path.rglob("exploit.json"))
        for file in files:
            try:
                s = json.loads(file.read_text())
                key = (s["game"], s["rules"], s["players"], s["options"], s["field"])
                resolved, gain, deals = s["resolved"], s["gain"], s["deals"]
            except (ValueError, KeyError, TypeError):
                raise ValueError(f"{file} is no exploit.json of koira exploit") from None
            same = (config.game, config.rules, config.players, dict(config.options), [])
            if key != same or gain["value"] is None:
                continue
            for label, text in wanted.items():
                if text == resolved and deals > found.get(label, {}).get("deals", 0):
                    found[label] = {
                        "measure": s["measure"],
                        "gain": gain["value"],
                        "ci": gain["ci"],
                        "deals": deals,
                        "path": str(file),
                    }
    return found


def summarize(
    config: TournamentConfig,
    rows: list[dict[str, Any]],
    total: int,
    exploits: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Per-agent loss rate, win rate and mean place (95% CIs clustered by deal), head-to-head
    and ratings (a loss and a win as ``seat_measure`` says), and each agent's exploitability
    where ``exploits`` has it (``measured_gains``; ``None`` elsewhere)."""
    labels = list(config.entrants)
    finished = [r for r in rows if not r["truncated"]]
    losses: dict[str, dict[int, list[int]]] = {a: {} for a in labels}
    wins: dict[str, dict[int, list[int]]] = {a: {} for a in labels}
    places: dict[str, dict[int, list[int]]] = {a: {} for a in labels}
    games = []
    for row in finished:
        seats, placed = row["seats"], row["places"]
        for seat, place in enumerate(placed):
            label = seats[seat]
            places[label].setdefault(row["deal"], []).append(place)
            losses[label].setdefault(row["deal"], []).append(
                int(seat_measure("loss_rate", placed, seat))
            )
            wins[label].setdefault(row["deal"], []).append(
                int(seat_measure("win_rate", placed, seat))
            )
        games.append((seats, placed))
    ahead, met = head_to_head(games, labels)
    ratings = plackett_luce(games, labels)
    agents = []
    for label in labels:
        loss: Estimate = cluster_rate(losses[label].values())
        win: Estimate = cluster_rate(wins[label].values())
        place: Estimate = cluster_mean(places[label].values(), (1.0, float(config.players)))
        rating = ratings[label]
        agents.append(
            {
                "agent": label,
                "spec": config.entrants[label],
                "games": loss.n,
                "deals": loss.clusters,
                "loss_rate": _finite(loss.value),
                "loss_ci": [_finite(loss.low), _finite(loss.high)],
                "win_rate": _finite(win.value),
                "win_ci": [_finite(win.low), _finite(win.high)],
                "mean_place": _finite(place.value),
                "place_ci": [_finite(place.low), _finite(place.high)],
                "rating_mu": rating.mu,
                "rating_sigma": rating.sigma,
                "rating": rating.ordinal,
                "exploit": (exploits or {}).get(label),
            }
        )
    rank_by = spec(config.game).choices.rank_by
    agents.sort(key=lambda a: _rank_key(a, rank_by))
    return {
        "config": config.to_json(),
        "rank_by": rank_by,
        "complete": len(rows) == total,
        "games_total": total,
        "games_played": len(rows),
        "games_truncated": len(rows) - len(finished),
        "intervals": "95%: loss and win rates Wilson score on the deal-clustered effective "
        "sample size; mean place t over deals with cluster-robust standard error",
        "rating": "openskill PlackettLuce on places (ties share a rank), games in schedule "
        "order; rating = mu - 3 sigma",
        "agents": agents,
        "head_to_head": {
            "agents": labels,
            "ahead": ahead,
            "met": met,
            "fraction_ahead": [
                [ahead[i][j] / met[i][j] if met[i][j] else None for j in range(len(labels))]
                for i in range(len(labels))
            ],
        },
    }


def _rank_key(agent: dict[str, Any], rank_by: str) -> tuple[float, ...]:
    """Leaderboard order: the game's headline measure first (``AgentChoices.rank_by``)."""
    loss, place = _or_inf(agent["loss_rate"]), _or_inf(agent["mean_place"])
    win = -agent["win_rate"] if agent["win_rate"] is not None else math.inf
    first = {"loss_rate": loss, "win_rate": win, "mean_place": place}[rank_by]
    return (first, place, loss, win)


def _finite(x: float) -> float | None:
    """JSON has no NaN: an estimate without data is None."""
    return None if math.isnan(x) else x


def _or_inf(x: float | None) -> float:
    return math.inf if x is None else x


def write_summaries(out: Path, summary: dict[str, Any]) -> None:
    """results.json, leaderboard.csv, head_to_head.csv and head_to_head.png, each atomically."""
    write_json(out / "results.json", summary)
    columns = ["agent", "spec", "games", "deals", "loss_rate", "loss_low", "loss_high"]
    columns += ["win_rate", "win_low", "win_high"]
    columns += ["mean_place", "place_low", "place_high", "rating", "rating_mu", "rating_sigma"]
    columns += ["exploit_gain", "exploit_low", "exploit_high"]
    rows = [
        {
            **a,
            "exploit_gain": (a["exploit"] or {}).get("gain"),
            "exploit_low": (a["exploit"] or {}).get("ci", [None, None])[0],
            "exploit_high": (a["exploit"] or {}).get("ci", [None, None])[1],
            "loss_low": a["loss_ci"][0],
            "loss_high": a["loss_ci"][1],
            "win_low": a["win_ci"][0],
            "win_high": a["win_ci"][1],
            "place_low": a["place_ci"][0],
            "place_high": a["place_ci"][1],
        }
        for a in summary["agents"]
    ]
    write_csv(out / "leaderboard.csv", columns, rows)
    h2h = summary["head_to_head"]
    names = h2h["agents"]
    columns = ["agent", "opponent", "ahead", "met", "fraction_ahead"]
    rows = [
        {
            "agent": a,
            "opponent": b,
            "ahead": h2h["ahead"][i][j],
            "met": h2h["met"][i][j],
            "fraction_ahead": h2h["fraction_ahead"][i][j],
        }
        for i, a in enumerate(names)
        for j, b in enumerate(names)
        if h2h["met"][i][j]
    ]
    write_csv(out / "head_to_head.csv", columns, rows)
    write_heatmap(out / "head_to_head.png", names, h2h["fraction_ahead"])


def write_heatmap(path: Path, names: list[str], fraction: list[list[float | None]]) -> None:
    """The head-to-head matrix as a PNG: row agent finished ahead of column agent."""
    plt = pyplot()
    k = len(names)
    grid = [[math.nan if v is None else v for v in row] for row in fraction]
    size = max(4.0, 0.7 * k + 2)
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if fraction[i][j] is not None:
                ax.text(j, i, f"{fraction[i][j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title("fraction of shared games where agent finished ahead (ties count half)")
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    save_figure(fig, path, dpi=100)
