"""Risk it: when should a player play the top stock card blind instead of a card from hand?

A family of risk policies (``RiskAgent``, registered as ``risk:below=9,beaten=1,min_stock=10``)
plays the cards of a base agent (``greedy`` unless named: any agent, a search or a network too)
and risks by rule. Each policy sits at a table with three copies of a fixed field agent in a
duplicate-deal tournament (``koira_agents.tournament``); every policy uses the same deals, so
differences between policies are not deal luck. Writes each policy's loss rate with its 95% CI
(``risk.csv``; ``risk.json`` also names the best policy per field), the loss rate against the
threshold (``risk_threshold.png``) and by the part of phase one risked in (``risk_stock.png``).
"""

from __future__ import annotations

import argparse
import itertools
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from koira_agents.base import Turn
from koira_agents.registry import make_agent, register
from koira_agents.tournament import LOG, TournamentConfig, read_log, run_tournament
from koira_env.cards import RANK_OF
from koira_env.core.files import claim_folder, pyplot, save_figure, write_csv, write_json
from koira_env.core.jobs import PROCESS, Backend
from koira_env.games.koira.engine import PHASE_ONE, RISK
from koira_env.games.koira.heuristics import WAR, WIN, card_outcome, round_summary

from .common import TASKS, WORKERS, interval

FORMAT = "koira-risk/1"
BASES = ("greedy", "dumper")  # the default study's card players (both never risk on their own)
STOCK_WINDOWS = {"early": (25, 99), "middle": (12, 24), "late": (2, 11)}  # 4 players: 40 at start


class RiskAgent:
    """The base agent's cards (``base``: greedy by default; any agent spec), and the top stock
    card exactly when the rule says so: the base chooses among the other legal moves, so a
    base that would risk on its own (a search, a network) does not.

    ``below``: risk when the best card in hand ranks below this (0 = never for this reason,
    13 = whenever risking is legal). ``beaten``: risk when no card in hand can lead or tie the
    round so far. ``min_stock``/``max_stock``: only while the stock size is in that window
    (phase-one progress: the stock shrinks as the phase goes on).
    """

    def __init__(
        self,
        below: int = 0,
        beaten: bool = False,
        min_stock: int = 0,
        max_stock: int = 99,
        base: str = "greedy",
    ) -> None:
        if not 0 <= below <= 13:
            raise ValueError(f"risk: below must be 0..13, got {below}")
        if base.partition(":")[0] == "risk":
            raise ValueError(
                f"risk: the base plays the cards, it cannot be a risk policy: {base!r}"
            )
        self.below, self.beaten = below, beaten
        self.min_stock, self.max_stock = min_stock, max_stock
        self.base = base
        self.cards = make_agent(base)
        self.name = spec_of(below, beaten, min_stock, max_stock, base)

    def wants_risk(
        self, hand: tuple[int, ...], round_cards: Any, stock: int, any_tie: bool
    ) -> bool:
        if not self.min_stock <= stock <= self.max_stock:
            return False
        if max(RANK_OF[c] for c in hand) < self.below:
            return True
        if not self.beaten:
            return False
        mask, top, tie = round_summary(round_cards)
        return all(
            card_outcome(RANK_OF[c], mask, top, tie, any_tie) not in (WIN, WAR) for c in hand
        )

    def act(self, turn: Turn) -> int:
        view = turn.view
        if (
            view.phase == PHASE_ONE
            and view.legal[-1] == RISK
            and view.hand
            and self.wants_risk(
                view.hand,
                view.round_cards,
                view.stock_size,
                turn.rules.war_trigger == "any_tie",
            )
        ):
            return RISK
        if view.legal[-1] == RISK:  # the rule said no: the base picks among the cards
            turn = replace(turn, view=view._replace(legal=view.legal[:-1]))
        return self.cards.act(turn)


def spec_of(
    below: int, beaten: bool, min_stock: int = 0, max_stock: int = 99, base: str = "greedy"
) -> str:
    """The registry spec of a policy, naming only the knobs that differ from the defaults."""
    parts = [f"below={below}"]
    if beaten:
        parts.append("beaten=1")
    if min_stock:
        parts.append(f"min_stock={min_stock}")
    if max_stock != 99:
        parts.append(f"max_stock={max_stock}")
    if base != "greedy":
        parts.append(f"base={base}")
    return "risk:" + ",".join(parts)


def risk_agent(arg: str) -> RiskAgent:
    """``risk:below=9,beaten=1,min_stock=10,max_stock=30,base=dumper``; knobs left out take
    their defaults. The argument is required (``risk:below=0`` never risks) so that default
    tournaments, which take every bot buildable without one, do not pick up a greedy clone."""
    knobs: dict[str, Any] = {}
    for part in filter(None, arg.split(",")):
        name, sep, value = part.partition("=")
        if not sep or name not in ("below", "beaten", "min_stock", "max_stock", "base"):
            raise ValueError(
                f"risk: bad knob {part!r}; use below=, beaten=, min_stock=, max_stock=, base="
            )
        if name == "base":
            knobs[name] = value
            continue
        try:
            knobs[name] = bool(int(value)) if name == "beaten" else int(value)
        except ValueError:
            raise ValueError(f"risk: {name} needs an integer, got {value!r}") from None
    return RiskAgent(**knobs)


register("koira", "risk", risk_agent)


# ------------------------------------------------------------------ the experiment
@dataclass(frozen=True)
class Setting:
    deals: int
    fields: tuple[str, ...]
    policies: tuple[str, ...]


def policies(quick: bool, bases: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Threshold sweep, the beaten rule, and thresholds limited to one part of phase one; with
    ``bases`` (a strong field: a search, a network), a shorter sweep for each base instead."""
    if bases:
        return tuple(
            spec
            for base in bases
            for spec in (
                *(spec_of(b, False, base=base) for b in (0, 4, 7, 10, 13)),
                spec_of(0, True, base=base),
            )
        )
    if quick:
        return (
            spec_of(0, False),
            spec_of(6, False),
            spec_of(13, False),
            spec_of(0, True),
            spec_of(13, False, 25),
            spec_of(13, False, base="dumper"),
        )
    specs = [spec_of(b, False) for b in range(14)]
    specs += [spec_of(b, True) for b in (0, 4, 7, 10)]
    specs += [spec_of(b, False, lo, hi) for b in (7, 10) for lo, hi in STOCK_WINDOWS.values()]
    specs += [spec_of(b, False, base="dumper") for b in (0, 4, 7, 10, 13)]
    specs.append(spec_of(0, True, base="dumper"))
    return tuple(specs)


def setting(
    quick: bool,
    deals: int | None = None,
    fields: tuple[str, ...] | None = None,
    bases: tuple[str, ...] | None = None,
) -> Setting:
    """The default study (1000 deals against dumper and greedy fields), its quick version, or
    the chosen ``fields`` and card-playing ``bases``."""
    default_fields = ("dumper",) if quick else ("dumper", "greedy")
    return Setting(
        deals or (8 if quick else 1000), fields or default_fields, policies(quick, bases)
    )


def _folder_name(field: str, spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9=_-]+", "_", f"{field}-{spec}")


def run(
    out: str | Path,
    quick: bool = False,
    deals: int | None = None,
    seed: int = 0,
    rules: str = "koira",
    workers: int | None = WORKERS,
    max_tasks: int | None = None,
    progress: bool = False,
    backend: Backend = PROCESS,
    fields: tuple[str, ...] | None = None,
    bases: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """Play (or finish) every policy's tournament and write the tables and figures."""
    out = Path(out)
    s = setting(quick, deals, fields, bases)
    config = {"format": FORMAT, "rules": rules, "seed": seed, "deals": s.deals}
    config.update(fields=list(s.fields), policies=list(s.policies))
    out.mkdir(parents=True, exist_ok=True)
    claim_folder(out, config, TASKS, "experiment")
    budget = max_tasks
    rows: list[dict[str, Any]] = []
    complete = True
    jobs = [(f, p) for f in s.fields for p in s.policies]
    for i, (field, spec) in enumerate(jobs, 1):
        tour = TournamentConfig(
            agents=("policy=" + spec, f"a={field}", f"b={field}", f"c={field}"),
            rules=rules,
            deals=s.deals,
            seed=seed,
        )
        folder = out / "tournaments" / _folder_name(field, spec)
        before = len(read_log(folder / LOG))
        if progress:
            print(f"[risk {i}/{len(jobs)}] {spec} vs 3 {field}", flush=True)
        summary = run_tournament(
            tour, folder, workers=workers, max_games=budget, progress=progress, backend=backend
        )
        if budget is not None:
            budget = max(0, budget - (summary["games_played"] - before))
        complete = complete and summary["complete"]
        me = next(a for a in summary["agents"] if a["agent"] == "policy")
        rows.append(
            {
                "field": field,
                "policy": spec,
                **_knobs(spec),
                "games": me["games"],
                "loss_rate": me["loss_rate"],
                "loss_low": me["loss_ci"][0],
                "loss_high": me["loss_ci"][1],
                "mean_place": me["mean_place"],
            }
        )
    result = {"config": config, "complete": complete, "policies": rows, "best": _best(rows)}
    write_json(out / "risk.json", result)
    columns = ["field", "policy", "base", "below", "beaten", "min_stock", "max_stock", "games"]
    write_csv(
        out / "risk.csv", [*columns, "loss_rate", "loss_low", "loss_high", "mean_place"], rows
    )
    plot(result, out)
    return result


def _knobs(spec: str) -> dict[str, Any]:
    agent = risk_agent(spec.partition(":")[2])
    return {
        "below": agent.below,
        "beaten": int(agent.beaten),
        "min_stock": agent.min_stock,
        "max_stock": agent.max_stock,
        "base": agent.base,
    }


def _best(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per field: the policy with the lowest loss rate, and never risking (per base bot)."""
    best: dict[str, Any] = {}
    for field in dict.fromkeys(r["field"] for r in rows):
        mine = [r for r in rows if r["field"] == field and r["loss_rate"] is not None]
        if mine:
            never = {b: spec_of(0, False, base=b) for b in dict.fromkeys(r["base"] for r in mine)}
            best[field] = {
                "best": min(mine, key=lambda r: r["loss_rate"]),
                "never": {b: r for r in mine for b, spec in never.items() if r["policy"] == spec},
            }
    return best


def headline(result: dict[str, Any]) -> str:
    """Per field, the policy that lost least next to never risking: the study's answer."""
    lines = []
    for field, found in result["best"].items():
        best = found["best"]
        never = "; ".join(
            f"never risking ({base} cards) {_loss(row)}" for base, row in found["never"].items()
        )
        lines.append(
            f"vs 3 {field}: {best['policy']} loses least, {_loss(best)} of {best['games']} games"
            + (f"; {never}" if never else "")
        )
    return "\n".join(lines) or "no games played yet"


def _loss(row: dict[str, Any]) -> str:
    return interval(row["loss_rate"], row["loss_low"], row["loss_high"])


def plot(result: dict[str, Any], out: Path) -> None:
    """Loss rate against the threshold (with and without ``beaten``), and by stock window."""
    plt = pyplot()
    rows = [r for r in result["policies"] if r["loss_rate"] is not None]
    fields = list(dict.fromkeys(r["field"] for r in rows))
    fig, axes = plt.subplots(1, max(1, len(fields)), figsize=(5 * max(1, len(fields)), 3.6))
    axes = [axes] if len(fields) <= 1 else list(axes)
    lines = [(b, beaten) for b in dict.fromkeys(r["base"] for r in rows) for beaten in (0, 1)]
    for ax, field in zip(axes, fields, strict=False):
        for (base, beaten), style in zip(
            lines, itertools.cycle(("o-", "s--", "^-", "v--")), strict=False
        ):
            pts = [
                r
                for r in rows
                if r["field"] == field
                and r["base"] == base
                and r["beaten"] == beaten
                and r["min_stock"] == 0
                and r["max_stock"] == 99
            ]
            if len(pts) > 1:  # a line: the threshold sweep (a lone point is in the table)
                ax.errorbar(
                    [r["below"] for r in pts],
                    [r["loss_rate"] for r in pts],
                    yerr=_yerr(pts),
                    fmt=style,
                    capsize=2,
                    label=f"{base} cards" + (", also risk when beaten" if beaten else ""),
                )
        ax.axhline(0.25, color="grey", lw=0.8, ls=":")
        ax.set_xlabel("risk when best card in hand ranks below (0=2 ... 12=A)")
        ax.set_ylabel("loss rate (95% CI)")
        ax.set_title(f"one risk policy vs three {field}")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, out / "risk_threshold.png")
    windowed = [r for r in rows if r["min_stock"] or r["max_stock"] != 99]
    if windowed:
        _plot_windows(plt, rows, fields, out / "risk_stock.png")


def _plot_windows(plt: Any, rows: list[dict[str, Any]], fields: list[str], path: Path) -> None:
    """Per field and threshold: loss rate when risking early, mid or late in phase one only,
    next to risking throughout (greedy cards)."""
    windows = {"all": (0, 99), **STOCK_WINDOWS}
    fig, axes = plt.subplots(1, len(fields), figsize=(4.5 * len(fields), 3.4), squeeze=False)
    for ax, field in zip(axes[0], fields, strict=True):
        thresholds = sorted(
            {r["below"] for r in rows if r["field"] == field and r["max_stock"] != 99}
        )
        for k, below in enumerate(thresholds):
            pts = []
            for i, (lo, hi) in enumerate(windows.values()):
                pts += [
                    (i + 0.1 * k, r)
                    for r in rows
                    if r["field"] == field
                    and r["base"] == "greedy"
                    and not r["beaten"]
                    and r["below"] == below
                    and (r["min_stock"], r["max_stock"]) == (lo, hi)
                ]
            ax.errorbar(
                [x for x, _ in pts],
                [r["loss_rate"] for _, r in pts],
                yerr=_yerr([r for _, r in pts]),
                fmt="o",
                capsize=2,
                label=f"below {below}",
            )
        names = [f"{n}\n{lo}-{min(hi, 40)}" for n, (lo, hi) in windows.items()]
        ax.set_xticks(range(len(windows)), names, fontsize=8)
        never = [r for r in rows if r["field"] == field and r["policy"] == spec_of(0, False)]
        for r in never:
            ax.axhline(r["loss_rate"], color="grey", lw=0.8, ls=":", label="never risk")
        ax.set_xlabel("risk only while the stock size is in")
        ax.set_ylabel("loss rate (95% CI)")
        ax.set_title(f"greedy cards vs three {field}")
        ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, path)


def _yerr(rows: list[dict[str, Any]]) -> list[list[float]]:
    return [
        [r["loss_rate"] - r["loss_low"] for r in rows],
        [r["loss_high"] - r["loss_rate"] for r in rows],
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--deals", type=int, default=None, help="deals per policy (default 1000; quick 8)"
    )
    p.add_argument("--rules", default="koira")
    p.add_argument(
        "--fields",
        type=_agents,
        default=None,
        help="the field agents, comma-separated (default dumper,greedy; quick dumper)",
    )
    p.add_argument(
        "--bases",
        type=_agents,
        default=None,
        help="card players of the policies, comma-separated (any agent, e.g. champion-net): a "
        "short threshold sweep for each; default the study's greedy and dumper families",
    )


def _agents(text: str) -> tuple[str, ...]:
    names = tuple(filter(None, (a.strip() for a in text.split(","))))
    try:
        for name in names:
            make_agent(name)  # an unknown agent is an error before anything runs
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return names
