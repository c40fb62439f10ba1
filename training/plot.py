"""The evaluation curve of a run as a PNG: ``python -m training.plot RUN_DIR OUT.png``.

Loss rate of the policy against wall-clock training time, with its 95% interval, next to the
best heuristic bot of the same evaluation tournaments (the bar to get under).
"""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path


def plot_curve(run_dir: str | Path, out: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with (Path(run_dir) / "eval.csv").open() as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{run_dir}/eval.csv has no evaluations yet")

    def col(name: str) -> list[float]:
        return [float(r[name]) for r in rows]

    minutes = col("minutes")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(minutes, col("loss_rate"), "o-", color="C0", label="PPO agent")
    ax.fill_between(minutes, col("loss_low"), col("loss_high"), color="C0", alpha=0.2)
    ax.plot(minutes, col("best_bot_loss"), "s--", color="C3", label="best heuristic bot")
    ax.fill_between(minutes, col("best_bot_low"), col("best_bot_high"), color="C3", alpha=0.15)
    ax.set_xlabel("training time (minutes, 2-core CPU, evaluations included)")
    ax.set_ylabel("loss rate (95% CI)")
    ax.set_title("Loss rate in tournaments against the heuristic bots")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    out = Path(out)
    tmp = out.with_name(out.stem + ".tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, out)


if __name__ == "__main__":
    plot_curve(sys.argv[1], sys.argv[2])
