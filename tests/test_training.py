"""Training end to end (tiny), resuming, the league, and loading policies as agents.

Skipped only when the train extra (torch, sb3-contrib) is not installed; CI installs it.
"""

from __future__ import annotations

import csv
import json
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from bench_scripts import load_benchmark

from koira_agents.base import play_game
from koira_agents.entrants import default_entrants
from koira_agents.ppo import META_NAME, load_policy, model_path, read_metadata
from koira_agents.registry import make_agent, resolve
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.games.koira.engine import new_game
from koira_env.games.koira.game import make_game as make_rules  # a KoiraGame
from koira_training.evaluation import round_fits
from koira_training.league import League, LeagueMix, write_manifest
from koira_training.train import Args, parse_args, train
from koira_training.warmstart import collect, fit

BOTS = ("greedy", "dumper", "cautious")  # with the policy: one 4-player table per deal


def tiny(run_dir: Path, **changes) -> Args:
    """A run of a few hundred steps: small rollouts, one-deal evaluations."""
    values = {
        "run_dir": str(run_dir),
        "total_timesteps": 256,
        "minutes": 0,
        "num_envs": 2,
        "vec_env": "dummy",
        "n_steps": 64,
        "batch_size": 64,
        "n_epochs": 1,
        "net_arch": (16,),
        "eval_every": 128,
        "snapshot_every": 128,
        "eval_deals": 1,
        "bots": BOTS,
        "bc_decisions": 0,
        "bc_epochs": 1,
        "progress": False,
    }
    return Args(**{**values, **changes})


def eval_steps(run_dir: Path) -> list[int]:
    with (run_dir / "eval.csv").open() as f:
        return [int(row["timesteps"]) for row in csv.DictReader(f)]


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tiny run through the real SubprocVecEnv path; its folder is shared by the tests."""
    run_dir = tmp_path_factory.mktemp("run")
    latest = train(
        tiny(
            run_dir,
            vec_env="subproc",
            bc_decisions=300,
        )
    )
    assert latest == run_dir / "latest.zip"
    return run_dir


def test_tiny_run_writes_loadable_checkpoint_curve_and_league(trained: Path) -> None:
    meta = read_metadata(trained / "checkpoint.zip")
    assert meta["timesteps"] == 256
    assert meta["snapshots"] == ["snapshots/000000128.zip", "snapshots/000000256.zip"]
    assert eval_steps(trained) == [0, 128, 256]  # 0: right after the warm start
    assert json.loads((trained / "league.json").read_text())["latest"] == "latest.zip"
    assert list((trained / "tb").rglob("events.out.tfevents*"))
    assert (trained / "eval.png").read_bytes().startswith(b"\x89PNG")  # the curve, drawn at the end
    rules = make_rules(4, "koira")
    policy = load_policy(trained / "latest.zip", rules)
    agent = make_agent(f"ppo:{trained / 'latest.zip'}")
    result = play_game([agent, *(make_agent(b) for b in BOTS)], rules, list(range(52)), seed=3)
    assert sorted(result.places) == [1, 2, 3, 4]
    assert policy.meta["obs_size"] == meta["obs_size"]


def test_policy_plays_in_a_tournament(trained: Path, tmp_path: Path) -> None:
    config = TournamentConfig(agents=(f"ppo=ppo:{trained / 'latest.zip'}", *BOTS), deals=2)
    summary = run_tournament(config, tmp_path / "t", workers=1)
    ppo = next(a for a in summary["agents"] if a["agent"] == "ppo")
    assert ppo["games"] == 8


def test_policy_agent_is_deterministic_and_legal(trained: Path) -> None:
    rules = make_rules(4, "koira")
    deck = list(range(52))
    random.Random(5).shuffle(deck)
    runs = [
        play_game(
            [make_agent(f"ppo:{trained / 'latest.zip'}") for _ in range(4)],
            rules,
            deck,
            9,
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_resume_after_a_kill_continues_without_repeating(trained: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    train(tiny(run_dir, total_timesteps=128))
    # A kill after an evaluation but before its checkpoint leaves a row and a temp file behind.
    with (run_dir / "eval.csv").open("a") as f:
        f.write("999,1,0.5,0.4,0.6,greedy,0.2,0.1,0.3,0.5\n")
    (run_dir / "checkpoint.tmp.zip").write_bytes(b"half a zip")
    train(tiny(run_dir, total_timesteps=256, resume=True))
    assert eval_steps(run_dir) == [128, 256]
    meta = read_metadata(run_dir / "checkpoint.zip")
    assert meta["timesteps"] == 256
    assert meta["snapshots"] == ["snapshots/000000128.zip", "snapshots/000000256.zip"]


def test_minutes_is_the_budget_of_this_invocation(tmp_path: Path) -> None:
    """A resumed run with the same --minutes trains as long again. The budget once counted
    from the first start, so resuming a run that had used it up trained one round at most."""
    run_dir = tmp_path / "run"
    train(tiny(run_dir, total_timesteps=128))
    ckpt = run_dir / "checkpoint.zip"
    spent = ckpt.with_name("spent.zip")  # as if that sitting had used up its 60 minutes
    with zipfile.ZipFile(ckpt) as src, zipfile.ZipFile(spent, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == META_NAME:
                data = json.dumps({**json.loads(data), "minutes": 60.0}).encode()
            dst.writestr(item, data)
    spent.replace(ckpt)
    train(tiny(run_dir, total_timesteps=384, minutes=60, resume=True))
    assert eval_steps(run_dir) == [128, 256, 384]  # two more rounds (the budget allowed none)
    with (run_dir / "eval.csv").open() as f:
        clock = [float(row["minutes"]) for row in csv.DictReader(f)]
    # eval.csv's clock still counts the run's whole time (to the hundredth of a minute)
    assert clock[0] < 60 <= clock[1]


def test_a_round_starts_only_if_one_as_long_as_the_last_fits_this_invocation() -> None:
    assert round_fits(30, spent=0.0, last_round=0.0)
    assert round_fits(30, spent=28.0, last_round=1.5)
    assert not round_fits(30, spent=28.0, last_round=2.5)
    assert round_fits(0, spent=1e9, last_round=1e9)  # 0: no limit


def test_the_warm_start_shows_progress_as_ppo_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its bot games and its fit advance progress bars, as PPO's steps do (on a terminal,
    unless --no-progress); they once ran for minutes without a sign."""
    from koira_training import train as trainer

    bars: dict[str, list[int]] = {}

    class Bar:
        callback = None

        def __init__(self, label: str, total: int, done: int) -> None:
            bars[label] = self.counts = [done, total]

        def advance(self, k: int) -> None:
            self.counts[0] += k

        def close(self) -> None:
            pass

    monkeypatch.setattr(trainer, "_Bar", Bar)
    monkeypatch.setattr(trainer.sys.stderr, "isatty", lambda: True)
    args = tiny(tmp_path, bc_decisions=200, progress=True)
    game = args.make_game()
    demos = trainer.demonstrations(args, game)
    trainer.warm_start(args, trainer.new_model(args, trainer.vec_envs(args), 1), game, demos)
    assert bars == {
        "warm start: bot decisions": [200, 200],
        "warm start: fitting": [180, 180],  # one epoch of the nine tenths not held out
    }
    bars.clear()
    trainer.demonstrations(tiny(tmp_path, bc_decisions=200), game)  # --no-progress
    assert bars == {}


def test_sharded_demonstrations_report_each_finished_shard() -> None:
    counts: list[int] = []
    collect(make_rules(4, "koira"), BOTS, ("greedy",), 90, 1, shards=3, progress=counts.append)
    assert counts == [30, 30, 30]


def test_run_folder_guards(trained: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="already holds a run"):
        train(tiny(trained))
    with pytest.raises(ValueError, match=r"other arguments: .*gamma"):
        train(tiny(trained, gamma=0.9, resume=True))
    with pytest.raises(ValueError, match=r"no checkpoint\.zip"):
        train(tiny(tmp_path / "empty", resume=True))


def test_mismatched_checkpoint_is_a_clear_error(trained: Path, tmp_path: Path) -> None:
    model = trained / "latest.zip"
    with pytest.raises(ValueError, match=r"num_players: model 4, game 3.*obs_size"):
        load_policy(model, make_rules(3, "koira"))
    with pytest.raises(ValueError, match="rule war_trigger: model 'any_tie'"):
        load_policy(model, make_rules(4, "koira", war_trigger="highest_tie"))
    with pytest.raises(ValueError, match=r"other arguments: .*players=4 \(now 3\)"):
        train(tiny(trained, players=3, resume=True))


def test_corrupt_model_files_are_clear_errors(trained: Path, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"not a zip at all")
    with pytest.raises(ValueError, match="not a koira PPO model"):
        make_agent(f"ppo:{garbage}")
    with pytest.raises(ValueError, match="no model file"):
        make_agent(f"ppo:{tmp_path / 'missing.zip'}")
    # intact metadata, broken weights
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(trained / "latest.zip") as src, zipfile.ZipFile(broken, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            dst.writestr(item, data if item.filename == META_NAME else data[: len(data) // 2])
    with pytest.raises(ValueError, match="could not be loaded as a MaskablePPO model"):
        load_policy(broken, make_rules(4, "koira"))
    # a model zip from something else entirely (no koira.json)
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as dst:
        dst.writestr("data", "{}")
    with pytest.raises(ValueError, match="not a koira PPO model"):
        read_metadata(foreign)


def test_league_mixes_opponent_kinds(trained: Path) -> None:
    league = League(trained, make_rules(4, "koira"), LeagueMix(0.5, 0.3, BOTS))
    league._refresh()
    rng = random.Random(0)
    kinds = [league.kind(rng) for _ in range(4000)]
    for kind, share in (("latest", 0.5), ("snapshot", 0.3), ("bot", 0.2)):
        assert abs(kinds.count(kind) / len(kinds) - share) < 0.03
    state_rng = random.Random(1)
    for _ in range(20):  # every kind builds a working opponent
        opponent = league(state_rng)
        state = new_game(4, "koira", seed=state_rng.randrange(100))
        assert opponent(state, state.current) in state.legal_actions()


def test_league_without_policies_plays_bots(tmp_path: Path) -> None:
    write_manifest(tmp_path, None, [])
    league = League(tmp_path, make_rules(4, "koira"), LeagueMix(0.5, 0.3, BOTS))
    league._refresh()
    rng = random.Random(0)
    assert {league.kind(rng) for _ in range(100)} == {"bot"}
    with pytest.raises(ValueError, match="sum to at most 1"):
        LeagueMix(0.8, 0.3)


def test_command_line_flags_fill_args() -> None:
    args = parse_args(["--run-dir", "x", "--net-arch", "32", "32", "--no-progress", "--resume"])
    assert (args.run_dir, args.net_arch, args.progress, args.resume) == ("x", (32, 32), False, True)
    assert (
        parse_args(["--extra", '{"reward": "placement"}']).make_game().rules.reward == "placement"
    )


def test_curve_plot_is_written(trained: Path, tmp_path: Path) -> None:
    from koira_training.plot import plot_curve

    plot_curve(trained, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")


def test_demonstrations_are_the_bots_legal_moves_and_cloning_learns_them() -> None:
    from sb3_contrib import MaskablePPO

    from koira_env.core.single_agent import SingleAgentEnv

    rules = make_rules(4, "koira")
    demos = collect(rules, BOTS, ("greedy",), 2000, seed=4)
    assert demos.masks[np.arange(2000), demos.actions].all()
    assert demos.returns.min() == -1.0 and demos.returns.max() > 0  # losers and the rest
    assert (demos.masks.sum(axis=1) > 1).all()  # forced moves are nobody's decision
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(rules), policy_kwargs={"net_arch": [64]})
    scale = rules.observation_scale
    before = fit(model.policy, demos, scale, epochs=0, lr=1e-3, batch_size=256, seed=0)
    after = fit(model.policy, demos, scale, epochs=15, lr=1e-3, batch_size=256, seed=0)
    assert after["bc_accuracy"] > before["bc_accuracy"] + 0.2


def test_ppo_without_a_path_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"ppo needs an argument.*ppo:path/to/model\.zip"):
        make_agent("ppo")


def test_default_tournament_includes_the_shipped_policy_only_where_it_fits() -> None:
    koira4 = default_entrants(make_rules(4, "koira"))
    # the shipped PPO model plays once, by its alias (a name: the same in a clone and a wheel)
    assert "champion-net" in koira4 and resolve("champion-net") == "ppo:koira4-ppo"
    assert not any(entry.endswith("=ppo:koira4-ppo") for entry in koira4)
    assert "greedy" in koira4
    for rules in (make_rules(3, "koira"), make_rules(4, "koira-b"), make_rules(4, "mattis")):
        assert not any("ppo" in entry for entry in default_entrants(rules))
        assert "champion-net" not in default_entrants(rules)  # a 4-player koira model
        assert "champion" in default_entrants(rules)
    TournamentConfig(agents=tuple(koira4), deals=1)


def test_export_drops_the_optimizer_state_and_the_run_paths_and_keeps_the_policy(
    trained: Path, tmp_path: Path
) -> None:
    from koira_training.export import export

    rules = make_rules(4, "koira")
    src = trained / "latest.zip"
    dst = export(src, tmp_path / "small.zip")
    assert dst.stat().st_size < src.stat().st_size
    assert read_metadata(dst)["timesteps"] == read_metadata(src)["timesteps"]
    assert read_metadata(src)["snapshots"] and "snapshots" not in read_metadata(dst)
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(dst) as after:
        assert str(trained) in before.read("data").decode()  # SB3's tensorboard_log
        assert after.read("policy.pth") == before.read("policy.pth")
        for name in ("data", META_NAME):
            assert str(trained) not in after.read(name).decode()
    state = new_game(4, "koira", seed=3)
    encoder = rules.encoder
    obs = encoder.observation(state, state.current)
    mask = encoder.action_mask(state.legal_actions()).astype(bool)
    probs = [load_policy(path, rules).probabilities(obs, mask) for path in (src, dst)]
    np.testing.assert_allclose(probs[0], probs[1])


def test_the_export_flag_ships_the_finished_run(trained: Path, tmp_path: Path) -> None:
    dst = tmp_path / "shipped.zip"
    args = tiny(trained, vec_env="subproc", bc_decisions=300, resume=True, export=str(dst))
    assert train(args) == trained / "latest.zip"  # nothing left to train: only the export
    assert read_metadata(dst)["timesteps"] == 256 and "snapshots" not in read_metadata(dst)


@pytest.mark.parametrize("which", ["tiny run", "shipped"])
def test_numpy_actor_matches_sb3s_masked_distribution(trained: Path, which: str) -> None:
    """Policy.probabilities runs the actor in numpy; it must be SB3's policy, move for move."""
    import torch
    from sb3_contrib import MaskablePPO

    path = trained / "latest.zip" if which == "tiny run" else model_path("koira4-ppo")
    rules = make_rules(4, "koira")
    encoder = rules.encoder
    ours = load_policy(path, rules)
    sb3 = MaskablePPO.load(path, device="cpu").policy
    rng = random.Random(11)
    checked = 0
    for game in range(20):
        state = new_game(4, "koira", seed=game)
        while not state.is_terminal:
            legal = state.legal_actions()
            obs = encoder.observation(state, state.current)
            mask = encoder.action_mask(legal).astype(bool)
            with torch.no_grad():
                dist = sb3.get_distribution(torch.from_numpy(obs[None]), action_masks=mask[None])
            expected = dist.distribution.probs[0].numpy()
            np.testing.assert_allclose(ours.probabilities(obs, mask), expected, atol=1e-5)
            checked += 1
            state.apply(rng.choice(legal))
    assert checked > 1000


def test_actor_the_numpy_path_cannot_run_is_a_clear_error(tmp_path: Path) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    from koira_agents.ppo import Policy, model_metadata
    from koira_env.core.single_agent import SingleAgentEnv

    rules = make_rules(4, "koira")
    relu = MaskablePPO(
        "MlpPolicy",
        SingleAgentEnv(make_rules(4, "koira")),
        policy_kwargs={"activation_fn": torch.nn.ReLU},
        n_steps=64,
    )
    relu.save(tmp_path / "relu.zip")
    with pytest.raises(ValueError, match="unsupported layer in the actor network: ReLU"):
        Policy(tmp_path / "relu.zip", model_metadata(rules))


def test_training_benchmark_measures_each_setup_against_the_first(tmp_path: Path) -> None:
    bench = load_benchmark("bench_training")
    out = tmp_path / "train.json"
    rows = bench.main(["--steps", "2048", "--setups", "2xdummy:1", "4xdummy:1", "--json", str(out)])
    assert [row["setup"] for row in rows] == ["2xdummy:1", "4xdummy:1"]
    assert all(row["decisions"] == 2048 and row["update_s"] > 0 for row in rows)
    assert rows[0]["ratio"] == 1.0
    assert json.loads(out.read_text())["results"] == rows
    with pytest.raises(ValueError, match="envs must divide 2048"):
        bench.parse_setup("3xdummy:1")
    with pytest.raises(ValueError, match="is not <envs>x"):
        bench.parse_setup("fast")


def test_tournament_folder_will_not_mix_results_of_a_replaced_model(
    trained: Path, tmp_path: Path
) -> None:
    model = tmp_path / "model.zip"
    model.write_bytes((trained / "latest.zip").read_bytes())
    config = TournamentConfig(agents=(f"ppo=ppo:{model}", *BOTS), deals=1)
    run_tournament(config, tmp_path / "t", workers=1)
    run_tournament(config, tmp_path / "t", workers=1)  # same file: resumes (nothing to do)
    model.write_bytes((trained / "snapshots" / "000000128.zip").read_bytes())
    with pytest.raises(ValueError, match="differs in: models"):
        run_tournament(config, tmp_path / "t", workers=1)
