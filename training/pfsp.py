"""The league: search distillation against opponents chosen to hurt the learner
(``koira train --algo league``).

Read top to bottom. It runs distillation's rounds (``koira_training.distill``: the teacher
labels, the network plays from round 1 on, DAgger), with two changes:

1. **The pool.** Each round's games draw the recorded seat's opponents from a pool:
   - the game's bots (``--field``, by default the game's recipe);
   - the learner's last ``--snapshots`` networks (``snapshots/round-R.npz``);
   - an exploiter of the latest network: ``br:ITERATIONS:net:snapshots/round-R.npz``, the
     search best response of ``koira exploit`` (``koira_agents.ismcts.BestResponseAgent``),
     which models every other seat as that network (or as ``--exploiter-model``, a cheaper
     stand-in, as ``koira exploit --model``).
2. **Prioritized fictitious self-play.** Each round ends with a duplicate tournament of the
   latest network and the whole pool (``pfsp/round-R``). A member the network finished behind
   more often is drawn more often next round: its weight is ``(1 - p) ** --pfsp-power``, with
   ``p`` the share of their shared games in which the network finished ahead (ties count
   half). A member not yet measured counts as even (``p = 0.5``).

After the first round and every ``--exploit-every`` rounds, the network's exploitability is
measured by ``koira exploit`` (``exploit/round-R``; ``--exploit-deals``,
``--exploit-iterations``): most of a round's time otherwise. ``league.csv`` holds
the curve: the network's headline measure against the evaluation table (``eval.csv``, as
distillation writes it) and its exploitability gain, both with 95% intervals, against
minutes, with the pool and its weights. ``league.png`` draws it.

Every step is resumable: distillation's checkpoint, the tournaments' and measurements' logs,
and the snapshots are written atomically, so ``--resume`` continues after a kill.

The learner is distillation of search targets rather than PPO. Self-play PPO stays at
heuristic level in every game measured (docs/training.md), while distillation gives the
shipped ``champion-net`` of six games.
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from koira_agents.exploit import ExploitConfig, run_exploit
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.core.files import pyplot, save_figure, write_json
from koira_env.core.jobs import Backend

from . import distill
from .args import dataclass_flags

LEAGUE_CSV, LEAGUE_PNG, SNAPSHOTS = "league.csv", "league.png", "snapshots"
COLUMNS = ["round", "minutes", "gain", "gain_low", "gain_high", "measure", "pool", "weights"]
LEARNER = "learner"


@dataclass
class Args(distill.Args):
    snapshots: int = 3
    """the learner's past networks kept in the pool"""
    exploiter_iterations: int = 16
    """search iterations a decision of the pool's exploiter of the latest network"""
    exploiter_model: str = ""
    """the agent both exploiters (the pool's and the measuring one) take the network's seats
    for in their search, as koira exploit --model: empty, the network itself; a cheaper
    stand-in (Koira: dumper) where rollouts through the network cost too much"""
    pfsp_power: float = 2.0
    """a member's weight is (1 - p) to this power, p the share of games the network was ahead"""
    pfsp_deals: int = 30
    """deals of each round's tournament of the network against the pool"""
    exploit_deals: int = 40
    """deals of each koira exploit of the network (0: not measured)"""
    exploit_every: int = 4
    """measure the network's exploitability after every this many rounds (and the first)"""
    exploit_iterations: int = 32
    """the measuring exploiter's search iterations a decision"""

    def folder(self) -> Path:
        return Path(self.run_dir or f"runs/{self.game}{self.players}-league")


def pfsp_weights(ahead: dict[str, float | None], power: float) -> dict[str, float]:
    """Each member's draw weight from the share of games the learner finished ahead of it
    (``None``: not measured, counted as even); a member it always beats keeps a small weight,
    so that it is still met now and then."""
    weights = {}
    for member, p in ahead.items():
        share = 0.5 if p is None else p
        weights[member] = max((1.0 - share) ** power, 0.01)
    total = sum(weights.values())
    return {m: w / total for m, w in weights.items()}


class PFSPLeague:
    """The pool and its weights, round by round, for ``distill.train``."""

    def __init__(self, args: Args) -> None:
        self.args = args
        self.folder = args.folder()

    def snapshot(self, round_no: int) -> Path:
        return (self.folder / SNAPSHOTS / f"round-{round_no:03d}.npz").resolve()

    def pool(self, round_no: int) -> list[str]:
        """The opponents of round ``round_no``: the bots, the last snapshots and an exploiter
        of the latest one."""
        members = list(self.args.field)
        rounds = range(max(0, round_no - self.args.snapshots), round_no)
        snapshots = [self.snapshot(r) for r in rounds if self.snapshot(r).exists()]
        members += [f"net:{path}" for path in snapshots]
        if snapshots:
            model = self.args.exploiter_model or f"net:{snapshots[-1]}"
            members.append(f"br:{self.args.exploiter_iterations}:{model}")
        return members

    def ahead(self, round_no: int) -> dict[str, float | None]:
        """The learner's share ahead of each member of round ``round_no``'s pool, from the
        tournament after the round before (``None`` where they have not met)."""
        members = self.pool(round_no)
        path = self.folder / "pfsp" / f"round-{round_no - 1:03d}" / "results.json"
        measured: dict[str, float | None] = {}
        if round_no > 0 and path.exists():
            h2h = json.loads(path.read_text())["head_to_head"]
            names = h2h["agents"]
            row = h2h["fraction_ahead"][names.index(LEARNER)]
            specs = json.loads(path.with_name("config.json").read_text())["agents"]
            for label, spec in (entry.partition("=")[::2] for entry in specs):
                if label != LEARNER:
                    measured[spec] = row[names.index(label)]
        return {m: measured.get(m) for m in members}

    def round_args(self, args: distill.Args, round_no: int) -> distill.Args:
        weights = pfsp_weights(self.ahead(round_no), self.args.pfsp_power)
        return replace(args, field=tuple(weights), field_weights=tuple(weights.values()))

    def after_round(self, args: distill.Args, round_no: int, model: Path, minutes: float) -> None:
        """Snapshot the network, play it against the next round's pool, measure its
        exploitability and add the round to ``league.csv``."""
        snapshot = self.snapshot(round_no)
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(model, snapshot.with_suffix(".tmp"))
        snapshot.with_suffix(".tmp").replace(snapshot)
        pool = self.pool(round_no + 1)
        entrants = [f"{LEARNER}=net:{snapshot}"]
        entrants += [f"m{k}={member}" for k, member in enumerate(pool)]
        tournament = TournamentConfig(
            agents=tuple(entrants),
            game=args.game,
            rules=args.rules or None,
            players=args.players,
            deals=self.args.pfsp_deals,
            seed=20_000 + args.seed + round_no,
        )
        backend = Backend(args.backend, args.address or None)
        out = self.folder / "pfsp" / f"round-{round_no:03d}"
        run_tournament(tournament, out, args.workers, backend=backend)
        gain: dict[str, Any] = {"value": None, "ci": [None, None]}
        measure = None
        if self.args.exploit_deals and round_no % max(1, self.args.exploit_every) == 0:
            config = ExploitConfig(
                agent=f"net:{snapshot}",
                model=self.args.exploiter_model,
                game=args.game,
                rules=args.rules or None,
                players=args.players,
                iterations=self.args.exploit_iterations,
                deals=self.args.exploit_deals,
                seed=30_000 + args.seed,
            )
            out = self.folder / "exploit" / f"round-{round_no:03d}"
            result = run_exploit(config, out, args.workers, backend=backend)
            gain, measure = result["gain"], result["measure"]
        weights = pfsp_weights(self.ahead(round_no + 1), self.args.pfsp_power)
        row = {
            "round": round_no,
            "minutes": round(minutes, 2),
            "gain": gain["value"],
            "gain_low": gain["ci"][0],
            "gain_high": gain["ci"][1],
            "measure": measure,
            "pool": json.dumps(list(weights)),
            "weights": json.dumps([round(w, 4) for w in weights.values()]),
        }
        distill.append_round(self.folder / LEAGUE_CSV, row, COLUMNS)
        write_json(self.folder / "pool.json", {"round": round_no + 1, "weights": weights})
        plot_league(self.folder)


def read_rows(folder: Path) -> list[dict[str, str]]:
    path = folder / LEAGUE_CSV
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def plot_league(folder: Path) -> None:
    """``league.png``: the network's headline measure against the evaluation table (from
    ``eval.csv``) and its exploitability gain, each with its interval, against minutes."""
    rows = [r for r in read_rows(folder) if r["gain"]]
    evals = []
    if (folder / distill.EVAL_CSV).exists():
        with (folder / distill.EVAL_CSV).open() as f:
            reader = csv.DictReader(f)
            evals = list(reader)
            measure, low, high = (reader.fieldnames or [])[2:5]
    if not rows or not evals:
        return
    plt = pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    minutes = [float(r["minutes"]) for r in evals]
    top.plot(minutes, [float(r[measure]) for r in evals], "o-", label="network")
    top.fill_between(
        minutes, [float(r[low]) for r in evals], [float(r[high]) for r in evals], alpha=0.2
    )
    top.plot(minutes, [float(r[f"best_bot_{low.split('_')[0]}"]) for r in evals], "s--")
    top.set_ylabel(f"{measure.replace('_', ' ')} (95% CI)")
    top.legend(["network", "95% interval", "best bot"])
    at = [float(r["minutes"]) for r in rows]
    bottom.plot(at, [float(r["gain"]) for r in rows], "o-", color="C3")
    bottom.fill_between(
        at,
        [float(r["gain_low"]) for r in rows],
        [float(r["gain_high"]) for r in rows],
        color="C3",
        alpha=0.2,
    )
    bottom.axhline(0.0, color="grey", linewidth=0.8)
    bottom.set_ylabel("exploitability gain (95% CI)")
    bottom.set_xlabel("training time (minutes, evaluations included)")
    fig.tight_layout()
    save_figure(fig, folder / LEAGUE_PNG, dpi=100)


def main(argv: list[str] | None = None) -> int:
    args = dataclass_flags(Args, argv, "koira train --algo league", __doc__.split("\n")[0])
    latest = distill.train(args, PFSPLeague(args))
    plot_league(args.folder())  # again: each round's drawing precedes its row of eval.csv
    print(f"model: {latest} (play it with 'net:{latest}'); curve: {args.folder() / LEAGUE_CSV}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
