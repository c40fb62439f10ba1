"""Wars: how often ties start them, how deep they chain, who wins them, and what seeking or
avoiding ties does to the final result, under both war triggers.

The triggers are source A's any tie (``koira``) and source B's highest tie only (``koira-b``);
``warrior`` seeks ties, ``dumper`` avoids them. Each task is one deal, played with event logs by
every lineup in every seat rotation (one rotation for tables of a single bot, where rotations
are the same game). The focal seat of a mixed lineup is its first entry; its loss rate gets a
deal-clustered 95% CI. Writes per rule set and lineup the wars per game and per trick, their
depth, pile and stalemates and the focal loss rate (``wars.json``, ``wars.csv``), who wins
two-player wars by tied rank and by best rank left in hand (``duels.csv``), and ``wars.png``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from koira_agents.base import play_out
from koira_agents.ratings import Estimate, cluster_mean, cluster_rate
from koira_agents.registry import make_agent
from koira_agents.tournament import deal_key, deal_seed
from koira_env.cards import RANK_OF, RANKS
from koira_env.core.files import pyplot, save_figure, write_csv, write_json
from koira_env.core.jobs import PROCESS, Backend
from koira_env.games.koira.engine import State, new_game
from koira_env.games.koira.rules import make_rules

from .common import WORKERS, interval, run_tasks

FORMAT = "koira-wars/1"
RULES = ("koira", "koira-b")
FIELD = "greedy"


def lineups(field: str = FIELD) -> tuple[tuple[str, ...], ...]:
    """The tables played on every deal: ``field``, ``warrior`` and ``dumper`` alone, then the
    tie seeker and the tie avoider each against three of ``field`` (the focal seat)."""
    return (
        (field,) * 4,
        ("warrior",) * 4,
        ("dumper",) * 4,
        ("warrior", field, field, field),
        ("dumper", field, field, field),
    )


ENDS = ("trick_won", "stalemate", "split", "trick_returned")
TRICK_ENDS = ("trick_won", "stalemate", "split")


class WarWatcher:
    """Turns a logged game's events into per-war records while the game is played.

    A war record is opened by the first ``war`` event of a trick (the tied players' best
    remaining rank is read from the true state after the action that started it; when every
    tied player but one drops out at once, the refill after the trick has already happened) and
    closed by the event that ends the trick.
    """

    def __init__(self) -> None:
        self.seen = 0
        self.tricks = 0
        self.wars: list[dict[str, Any]] = []
        self.open: dict[str, Any] | None = None

    def __call__(self, state: State) -> None:
        log = state.log
        assert log is not None
        for event in log[self.seen :]:
            kind = event["type"]
            if kind == "war":
                if self.open is None:
                    self.open = {
                        "rank": RANKS.index(event["rank"]),
                        "players": list(event["players"]),
                        "best": [_best(state, p) for p in event["players"]],
                        "depth": 0,
                    }
                self.open["depth"] = event["depth"]
            elif kind in ENDS:
                if kind in TRICK_ENDS:
                    self.tricks += 1
                if self.open is not None:
                    self.open["end"] = kind
                    self.open["winner"] = event.get("player", -1)
                    self.open["pile"] = _pile_size(event)
                    self.wars.append(self.open)
                    self.open = None
        self.seen = len(log)


def _best(state: State, p: int) -> int:
    """Best rank left in ``p``'s hand, or -1 (the pile's cards are already on the table)."""
    return max((RANK_OF[c] for c in state.hands[p]), default=-1)


def _pile_size(event: dict[str, Any]) -> int:
    if "cards" in event:
        return len(event["cards"])
    return sum(len(s["cards"]) for s in event.get("shares", []))


def play_deal(task: tuple[int, int, str, str]) -> dict[str, Any]:
    """Every lineup and rotation of one deal under one rule set, as compact rows."""
    seed, deal, rules_name, field = task
    rules = make_rules(4, rules_name)
    games = []
    wars = []
    for li, lineup in enumerate(lineups(field)):
        for rotation in range(1 if len(set(lineup)) == 1 else 4):
            seats = [lineup[(s + rotation) % 4] for s in range(4)]
            watcher = WarWatcher()
            state = new_game(rules=rules, seed=deal_key(seed, deal), log=True)
            play_out(state, [make_agent(x) for x in seats], deal_seed(seed, deal), watcher)
            focal = (-rotation) % 4  # the seat holding lineup[0]
            games.append(
                [
                    li,
                    rotation,
                    state.loser,
                    focal,
                    len(watcher.wars),
                    watcher.tricks,
                    state.truncated,
                ]
            )
            wars.extend([li, rotation, *(w[k] for k in WAR_COLS[2:])] for w in watcher.wars)
    return {"games": games, "wars": wars}


GAME_COLS = ("lineup", "rotation", "loser", "focal", "wars", "tricks", "truncated")
WAR_COLS = ("lineup", "rotation", "rank", "depth", "pile", "end", "players", "best", "winner")


def run(
    out: str | Path,
    quick: bool = False,
    deals: int | None = None,
    seed: int = 0,
    field: str = FIELD,
    workers: int | None = WORKERS,
    max_tasks: int | None = None,
    progress: bool = False,
    backend: Backend = PROCESS,
) -> dict[str, Any]:
    """Play every deal (resumably) and write ``wars.json``, CSV tables and figures."""
    out = Path(out)
    deals = deals or (5 if quick else 1200)
    make_agent(field)  # an unknown bot fails here, before any deal is played
    table = lineups(field)
    config = {"format": FORMAT, "seed": seed, "deals": deals, "rules": list(RULES)}
    config["lineups"] = [list(x) for x in table]
    tasks = [(f"{r}/{d}", (seed, d, r, field)) for r in RULES for d in range(deals)]
    rows = run_tasks(
        out, config, tasks, play_deal, workers, max_tasks, progress, "war deals", backend
    )
    result = {"config": config, "complete": len(rows) == len(tasks)}
    result["rules"] = {
        r: summarize([x for x in rows if x["key"].startswith(r + "/")], table) for r in RULES
    }
    write_json(out / "wars.json", result)
    _tables(result, out)
    plot(result, out)
    return result


def summarize(
    rows: list[dict[str, Any]], table: tuple[tuple[str, ...], ...] = lineups()
) -> dict[str, Any]:
    """Per lineup: wars per game and per trick, depth, pile, stalemates, focal loss rate; and,
    for wars between two players, who wins by tied rank and by best rank left in hand."""
    by_lineup = []
    for li, lineup in enumerate(table):
        per_deal_wars: list[list[float]] = []
        per_deal_loss: list[list[int]] = []
        tricks = wars_n = 0
        for row in rows:
            games = [dict(zip(GAME_COLS, g, strict=True)) for g in row["games"] if g[0] == li]
            per_deal_wars.append([g["wars"] for g in games])
            per_deal_loss.append(
                [int(g["loser"] == g["focal"]) for g in games if not g["truncated"]]
            )
            tricks += sum(g["tricks"] for g in games)
            wars_n += sum(g["wars"] for g in games)
        wars = [
            dict(zip(WAR_COLS, w, strict=True)) for row in rows for w in row["wars"] if w[0] == li
        ]
        per_game = _finite(cluster_mean(per_deal_wars, (0.0, 1e9)))
        loss = _finite(cluster_rate(per_deal_loss)) if len(set(lineup)) > 1 else None
        depth_hist: dict[int, int] = {}
        for w in wars:
            depth_hist[w["depth"]] = depth_hist.get(w["depth"], 0) + 1
        by_lineup.append(
            {
                "lineup": "+".join(lineup),
                "games": per_game.n,
                "wars_per_game": per_game.value,
                "wars_per_game_ci": [per_game.low, per_game.high],
                "wars_per_trick": wars_n / tricks if tricks else None,
                "depth_hist": {str(k): v for k, v in sorted(depth_hist.items())},
                "mean_depth": _mean([w["depth"] for w in wars]),
                "mean_pile": _mean([w["pile"] for w in wars]),
                "stalemate_share": _mean([w["end"] == "stalemate" for w in wars]),
                "stalemates_per_game": sum(w["end"] == "stalemate" for w in wars)
                / max(per_game.n, 1),
                "focal": lineup[0],
                "focal_loss_rate": loss.value if loss else None,
                "focal_loss_ci": [loss.low, loss.high] if loss else [None, None],
            }
        )
    duels = [
        dict(zip(WAR_COLS, w, strict=True))
        for row in rows
        for w in row["wars"]
        if len(w[6]) == 2 and w[5] == "trick_won"
    ]
    return {"lineups": by_lineup, "duels": _duel_tables(duels)}


def _finite(est: Estimate) -> Estimate:
    """JSON has no NaN: an estimate without data becomes None values."""
    return Estimate(
        *(None if isinstance(v, float) and math.isnan(v) else v for v in vars(est).values())
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _duel_tables(duels: list[dict[str, Any]]) -> dict[str, Any]:
    """Two-player wars won outright: the first tied player's win rate by tied rank, and a tied
    player's win rate by their best rank left (and by being better-stocked than the rival)."""
    by_rank: dict[int, list[int]] = {}
    by_best: dict[int, list[int]] = {}
    edge = {"higher": [0, 0], "equal": [0, 0], "lower": [0, 0]}
    for w in duels:
        a, b = w["players"]
        by_rank.setdefault(w["rank"], []).append(int(w["winner"] == a))
        for me, mine, theirs in ((a, w["best"][0], w["best"][1]), (b, w["best"][1], w["best"][0])):
            won = int(w["winner"] == me)
            by_best.setdefault(mine, []).append(won)
            key = "higher" if mine > theirs else "lower" if mine < theirs else "equal"
            edge[key][0] += won
            edge[key][1] += 1
    return {
        "n": len(duels),
        "first_player_win": _rate([v for vs in by_rank.values() for v in vs]),
        "first_player_win_by_rank": {str(r): _rate(v) for r, v in sorted(by_rank.items())},
        "win_by_best_rank": {str(r): _rate(v) for r, v in sorted(by_best.items())},
        "win_by_edge": {
            k: {"n": n, "rate": won / n if n else None} for k, (won, n) in edge.items()
        },
    }


def _rate(values: list[int]) -> dict[str, Any]:
    """A plain (unclustered) Wilson interval; each duel is one observation."""
    est = _finite(cluster_rate([[v] for v in values]))
    return {"n": len(values), "rate": est.value, "low": est.low, "high": est.high}


def _tables(result: dict[str, Any], out: Path) -> None:
    rows = []
    for rules, s in result["rules"].items():
        for x in s["lineups"]:
            rows.append(
                {
                    "rules": rules,
                    **{k: v for k, v in x.items() if not isinstance(v, list | dict)},
                    "wars_low": x["wars_per_game_ci"][0],
                    "wars_high": x["wars_per_game_ci"][1],
                    "focal_loss_low": x["focal_loss_ci"][0],
                    "focal_loss_high": x["focal_loss_ci"][1],
                }
            )
    columns = ["rules", "lineup", "games", "wars_per_game", "wars_low", "wars_high"]
    columns += ["wars_per_trick", "mean_depth", "mean_pile", "stalemate_share"]
    columns += ["stalemates_per_game", "focal", "focal_loss_rate", "focal_loss_low"]
    write_csv(out / "wars.csv", [*columns, "focal_loss_high"], rows)
    duel_rows = []
    for rules, s in result["rules"].items():
        for by in ("first_player_win_by_rank", "win_by_best_rank"):
            for rank, r in s["duels"][by].items():
                duel_rows.append({"rules": rules, "by": by, "rank": int(rank), **r})
    write_csv(out / "duels.csv", ["rules", "by", "rank", "n", "rate", "low", "high"], duel_rows)


def plot(result: dict[str, Any], out: Path) -> None:
    """Wars per game by lineup, chain depth, and win rate by best rank left in hand."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    names = [x["lineup"] for x in next(iter(result["rules"].values()))["lineups"]]
    width = 0.8 / len(result["rules"])
    for k, (rules, s) in enumerate(result["rules"].items()):
        if any(x["wars_per_game"] is None for x in s["lineups"]):
            continue  # not played yet (a stopped run)
        xs = [i + k * width for i in range(len(names))]
        vals = [x["wars_per_game"] for x in s["lineups"]]
        err = [
            [v - x["wars_per_game_ci"][0] for v, x in zip(vals, s["lineups"], strict=True)],
            [x["wars_per_game_ci"][1] - v for v, x in zip(vals, s["lineups"], strict=True)],
        ]
        axes[0].bar(xs, vals, width, yerr=err, capsize=2, label=rules)
        hist: dict[str, int] = {}
        for x in s["lineups"]:
            for d, count in x["depth_hist"].items():
                hist[d] = hist.get(d, 0) + count
        total = sum(hist.values()) or 1
        depths = sorted(int(d) for d in hist)
        axes[1].bar(
            [d + k * width for d in depths],
            [hist[str(d)] / total for d in depths],
            width,
            label=rules,
        )
        best = s["duels"]["win_by_best_rank"]
        pts = [(int(r), v) for r, v in best.items() if int(r) >= 0 and v["n"] >= 5]
        if pts:
            axes[2].errorbar(
                [r for r, _ in pts],
                [v["rate"] for _, v in pts],
                yerr=[
                    [v["rate"] - v["low"] for _, v in pts],
                    [v["high"] - v["rate"] for _, v in pts],
                ],
                fmt="o-",
                capsize=2,
                label=rules,
            )
    axes[0].set_xticks(range(len(names)), [_short(x) for x in names], rotation=20, fontsize=7)
    axes[0].set_ylabel("wars per game (95% CI)")
    axes[0].set_title("how often")
    axes[1].set_yscale("log")
    axes[1].set_xlabel("chain depth (wars in one trick), all tables")
    axes[1].set_ylabel("share of wars (log)")
    axes[1].set_title("how deep")
    axes[2].set_xticks(range(13), list(RANKS))
    axes[2].set_xlabel("tied player's best rank left in hand")
    axes[2].set_ylabel("wins the two-player war (95% CI)")
    axes[2].set_title("who wins")
    for ax in axes:
        ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, out / "wars.png")


def headline(result: dict[str, Any]) -> str:
    """Per rule set: wars per game at each single-bot table, and the focal seat's loss rate
    in each mixed lineup (what seeking or avoiding ties does)."""
    lines = []
    for rules, s in result["rules"].items():
        pure = [x for x in s["lineups"] if len(set(x["lineup"].split("+"))) == 1]
        mixed = [x for x in s["lineups"] if x not in pure and x["focal_loss_rate"] is not None]
        wars = ", ".join(
            f"{x['wars_per_game']:.2f} ({_short(x['lineup'])})"
            for x in pure
            if x["wars_per_game"] is not None
        )
        losses = ", ".join(
            f"{_short(x['lineup'])} {interval(x['focal_loss_rate'], *x['focal_loss_ci'])}"
            for x in mixed
        )
        if wars or losses:
            lines.append(f"{rules}: wars a game {wars or '-'}; loss rate {losses or '-'}")
    return "\n".join(lines) or "no deals played yet"


def _short(lineup: str) -> str:
    """``warrior+greedy+greedy+greedy`` -> ``warrior+3 greedy``."""
    names = lineup.split("+")
    if len(set(names)) == 1:
        return f"{len(names)} {names[0]}"
    return f"{names[0]}+{len(names) - 1} {names[1]}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deals", type=int, default=None, help="deals per rule set (default 1200)")
    p.add_argument(
        "--field",
        default=FIELD,
        help="the bot of the single-bot table beside warrior's and dumper's, and the three "
        "opponents of the focal warrior and dumper (default greedy; champion: phase two "
        "searched and solved)",
    )
