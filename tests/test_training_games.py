"""``koira train --game G`` for the games after Koira: a test-sized run beats ``random``.

Each game gets one run through the command-line entry point (a warm start from its bots and
two thousand PPO steps, half of them after a ``--resume``); its policy then plays a
duplicate-deal tournament against random: their 95% intervals of the measure ``GAMES`` names
must not overlap. Skipped only when the train extra (torch, sb3-contrib) is not installed.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from koira_agents.ppo import check_compatible, load_policy, read_metadata
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.registry import games, make_game, spec
from koira_training.evaluation import MEASURES, eval_columns
from koira_training.train import main

# game -> (the measure asserted against random, deals of that tournament), with each game's
# default league and imitated bots (``koira_training.recipes``).
GAMES: dict[str, tuple[str, int]] = {
    "matapesa": ("loss_rate", 30),
    "whist22": ("win_rate", 30),
    "kop": ("mean_place", 120),  # partners and luck: the win rate is too noisy this small
    "dois": ("win_rate", 30),
    "teka": ("mean_place", 30),
    "red7": ("win_rate", 60),
}
TINY = (
    "--minutes", "0",
    "--num-envs", "8",
    "--n-steps", "32",
    "--batch-size", "128",
    "--n-epochs", "2",
    "--net-arch", "64",
    "--eval-every", "1024",
    "--snapshot-every", "1024",
    "--eval-deals", "1",
    "--bc-decisions", "2000",
    "--bc-epochs", "4",
    "--torch-threads", "1",  # tiny networks: a second thread costs more than it gives
    "--no-progress",
)  # fmt: skip


@pytest.mark.parametrize(
    ("game", "flags"),
    [
        *((g, ()) for g in GAMES),
        # a part is a smaller decision than a turn: the warm start needs more of them before
        # "no card" after "no card" (pass) stops being the tiny network's habit
        ("red7", ("--split-actions", "--bc-decisions", "30000", "--bc-epochs", "8")),
    ],
)
def test_trained_policy_beats_random_and_only_plays_its_game(
    game: str, flags: tuple[str, ...], tmp_path: Path
) -> None:
    """With ``--split-actions`` (Red7) the learner, its warm start and the model's play in the
    tournament take each turn in two parts."""
    # One test per game: under xdist a shared fixture would train again in every worker.
    measure, deals = GAMES[game]
    run_dir = tmp_path / "run"
    argv = ["--game", game, "--run-dir", str(run_dir), *TINY, *flags]
    assert main([*argv, "--total-timesteps", "1024"]) == 0
    assert main([*argv, "--total-timesteps", "2048", "--resume"]) == 0
    for name in ("checkpoint.zip", "latest.zip", "eval.csv", "config.json", "league.json"):
        assert (run_dir / name).is_file(), name
    assert read_metadata(run_dir / "checkpoint.zip")["timesteps"] == 2048
    with (run_dir / "eval.csv").open() as f:
        reader = csv.DictReader(f)
        steps = [int(row["timesteps"]) for row in reader]
    assert steps == [0, 1024, 2048]  # the warm start, the first run, the resumed one
    assert reader.fieldnames == eval_columns(spec(game).choices.rank_by)

    model = run_dir / "latest.zip"
    config = TournamentConfig(game=game, agents=(f"ppo=ppo:{model}", "random"), deals=deals)
    summary = run_tournament(config, tmp_path / "vs-random", workers=1)
    by_name = {a["agent"]: a for a in summary["agents"]}
    _, ci, higher = MEASURES[measure]
    ppo, rnd = (by_name[name][ci] for name in ("ppo", "random"))
    # the 95% intervals do not overlap, in the right direction
    assert ppo[0] > rnd[1] if higher else ppo[1] < rnd[0], (measure, ppo, rnd)

    meta = read_metadata(model)
    built = make_game(game)
    split = "--split-actions" in flags
    assert meta.get("split_actions", False) == split
    assert (meta["obs_size"], meta["num_actions"]) == (
        (built.observation_size + 50, 50) if split else (built.observation_size, built.num_actions)
    )
    for other in (g for g in games() if g != game):
        with pytest.raises(ValueError, match=f"trained for {game}, not {other}"):
            check_compatible(meta, make_game(other), model)
        with pytest.raises(ValueError, match=f"trained for {game}, not {other}"):
            load_policy(model, make_game(other))


def test_split_actions_are_for_games_whose_actions_are_pairs(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="actions are single"):
        main(["--game", "kop", "--split-actions", "--run-dir", str(tmp_path / "run"), *TINY])
