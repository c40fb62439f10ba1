"""The training recipes in ``examples/`` run from a fresh clone at a tiny budget: each writes
its curve and a network the suite plays (their real-budget curves are in docs/training.md)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from bench_scripts import load_benchmark

from koira_agents.base import play_game
from koira_agents.registry import make_agent
from koira_env import make_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("game_id, best", [("koira", "dumper"), ("red7", "thrifty")])
def test_the_single_file_ppo_self_play_writes_a_curve_and_a_playable_network(
    game_id, best, tmp_path
):
    out = tmp_path / "run"
    command = [sys.executable, str(EXAMPLES / "ppo_selfplay.py"), "--game", game_id]
    command += ["--minutes", "0.05", "--num-envs", "8", "--steps", "8", "--hidden", "32"]
    command += ["--eval-deals", "2", "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True, text=True, cwd=tmp_path)
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert len(rows) >= 2 and rows[0]["steps"] == "0" and int(rows[-1]["steps"]) > 0
    columns = {"net_vs_random", "rival_vs_random", f"net_vs_{best}", f"rival_vs_{best}"}
    assert {"minutes", "steps"} | columns <= set(rows[-1])
    value, interval = rows[-1]["net_vs_random"].split(" ", 1)
    low, high = (float(x) for x in interval.strip("[]").split(", "))
    assert 0 <= low <= float(value) <= high <= 1
    game = make_game(game_id)
    agent = make_agent(f"net:{out / 'latest.npz'}", game_id)
    others = [make_agent("random", game_id) for _ in range(game.num_players - 1)]
    assert not play_game([agent, *others], game, None, seed=3).truncated


RECIPES = {  # script: its model file and the kind of agent that plays it
    "torchrl_ppo.py": ("latest.npz", "net", ["--num-envs", "8", "--steps", "8"]),
    "sb3_maskable_ppo.py": ("model.zip", "ppo", ["--num-envs", "2", "--steps", "32"]),
    "tianshou_ppo.py": ("latest.npz", "net", ["--num-envs", "4", "--steps", "8"]),
}


@pytest.mark.parametrize("script", list(RECIPES))
@pytest.mark.parametrize("game_id, best", [("koira", "dumper"), ("red7", "thrifty")])
def test_each_library_recipe_writes_a_curve_and_a_model_the_suite_plays(
    script, game_id, best, tmp_path
):
    model, kind, flags = RECIPES[script]
    out = tmp_path / "run"
    command = [sys.executable, str(EXAMPLES / script), "--game", game_id, *flags]
    command += ["--minutes", "0.03", "--hidden", "32", "--eval-deals", "2", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert len(rows) >= 2 and rows[0]["steps"] == "0" and int(rows[-1]["steps"]) > 0
    columns = {"net_vs_random", "rival_vs_random", f"net_vs_{best}", f"rival_vs_{best}"}
    assert {"minutes", "steps"} | columns <= set(rows[-1])
    game = make_game(game_id)
    agent = make_agent(f"{kind}:{out / model}", game_id)
    others = [make_agent("random", game_id) for _ in range(game.num_players - 1)]
    assert not play_game([agent, *others], game, None, seed=3).truncated


@pytest.mark.ray  # starts a local Ray: with the Ray tests (pytest -m ray -n 0)
@pytest.mark.parametrize("game_id", ["koira", "red7"])
def test_the_rllib_recipe_trains_main_beside_its_frozen_past_and_saves_a_playable_network(
    game_id, tmp_path
):
    pytest.importorskip("ray.rllib")
    out = tmp_path / "run"
    command = [sys.executable, str(EXAMPLES / "rllib_ppo.py"), "--game", game_id]
    command += ["--num-envs", "2", "--steps", "16", "--snapshot-every", "1", "--minutes", "0.05"]
    command += ["--hidden", "32", "--eval-deals", "2", "--out", str(out)]
    env = load_benchmark("bench_backends").ray_env(tmp_path)  # its own token, not in ~/.ray
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Illegal move" not in done.stdout + done.stderr  # the mask held on every sample
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert len(rows) >= 2 and rows[0]["steps"] == "0" and int(rows[-1]["steps"]) > 0
    game = make_game(game_id)
    agent = make_agent(f"net:{out / 'latest.npz'}", game_id)
    others = [make_agent("random", game_id) for _ in range(game.num_players - 1)]
    assert not play_game([agent, *others], game, None, seed=3).truncated
