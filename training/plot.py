"""The evaluation curve of a run as a PNG: ``python -m koira_training.plot RUN_DIR OUT.png``; a
training run draws it as ``eval.png`` next to its ``eval.csv`` when it ends.

The policy's score by the game's ranking measure (Koira: loss rate; eval.csv's columns are
named after it, see ``koira_training.evaluation.eval_columns``; a distillation run's ``round``
stands where PPO's ``timesteps`` does) against wall-clock training time, with its
95% interval, next to the best heuristic bot of the same evaluation tournaments (the bar).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from koira_env.core.files import pyplot, save_figure


def plot_curve(run_dir: str | Path, out: str | Path, policy: str = "PPO agent") -> None:
    """Draw ``run_dir/eval.csv`` to ``out``; ``policy`` names the trained policy's line."""
    plt = pyplot()
    with (Path(run_dir) / "eval.csv").open() as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    if not rows:
        raise ValueError(f"{run_dir}/eval.csv has no evaluations yet")

    def col(name: str) -> list[float]:
        return [float(r[name]) for r in rows]

    measure, low, high, _, best, best_low, best_high = (reader.fieldnames or [])[2:9]
    label = measure.replace("_", " ")
    minutes = col("minutes")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(minutes, col(measure), "o-", color="C0", label=policy)
    ax.fill_between(minutes, col(low), col(high), color="C0", alpha=0.2)
    ax.plot(minutes, col(best), "s--", color="C3", label="best heuristic bot")
    ax.fill_between(minutes, col(best_low), col(best_high), color="C3", alpha=0.15)
    ax.set_xlabel("training time (minutes, 2-core CPU, evaluations included)")
    ax.set_ylabel(f"{label} (95% CI)")
    ax.set_title(f"{label.capitalize()} in tournaments against the heuristic bots")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, Path(out), dpi=100)


if __name__ == "__main__":
    plot_curve(sys.argv[1], sys.argv[2])
