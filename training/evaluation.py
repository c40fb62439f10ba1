"""What both trainers (PPO in ``train.py``, distillation in ``distill.py``) write after each
evaluation and how they budget their rounds: one place, imported by both."""

from __future__ import annotations

from typing import Any

# eval.csv follows the game's ranking measure (``AgentChoices.rank_by``): the measure's short name
# in the column names, the key of its 95% interval in a tournament summary, whether more is better.
MEASURES = {
    "loss_rate": ("loss", "loss_ci", False),
    "win_rate": ("win", "win_ci", True),
    "mean_place": ("place", "place_ci", False),
}


def eval_columns(measure: str) -> list[str]:
    """The columns of eval.csv for a game ranked by ``measure`` (Koira: loss_rate, loss_low,
    ...); the last is the bots' interval bound farthest from good play."""
    short, _, higher = MEASURES[measure]
    return [
        "timesteps",
        "minutes",
        measure,
        f"{short}_low",
        f"{short}_high",
        "best_bot",
        f"best_bot_{short}",
        "best_bot_low",
        "best_bot_high",
        "worst_bot_low" if higher else "worst_bot_high",
    ]


def scores(summary: dict[str, Any], policy: str, measure: str) -> list[Any]:
    """eval.csv's values after the clock (``eval_columns``) from a tournament summary: the
    ``policy`` agent's ``measure`` and 95% interval, the best other agent's, and the others'
    interval bound farthest from good play. PPO and distillation both write them."""
    _, ci, higher = MEASURES[measure]
    by_name = {a["agent"]: a for a in summary["agents"]}
    trained = by_name.pop(policy)
    bots = list(by_name.values())
    best = (max if higher else min)(bots, key=lambda a: a[measure])
    worst = min(a[ci][0] for a in bots) if higher else max(a[ci][1] for a in bots)
    return [trained[measure], *trained[ci], best["agent"], best[measure], *best[ci], worst]


def round_fits(budget: float, spent: float, last_round: float) -> bool:
    """Whether a learn + evaluate round as long as ``last_round`` still fits in ``budget``
    minutes (0: no limit) after ``spent``. Both count this invocation only: a resumed run
    with the same ``--minutes`` trains as long again, instead of one more round."""
    return not budget or spent + last_round < budget
