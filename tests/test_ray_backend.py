"""The Ray backend (``koira_env.core.jobs.Backend``): the same files as the process pool, resuming
across backends, clear errors, and a node killed mid-run, against a real Ray cluster of two
nodes on this machine started here (``ray start --head`` on 127.0.0.1, a second ``ray start``
joining it). Those tests carry the ``ray`` marker and run with ``pytest -m ray -n 0``; the
checks that need no Ray run in the default run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
from bench_scripts import load_benchmark
from helpers import seeded

from koira_agents.exploit import ExploitConfig, run_exploit
from koira_agents.report import TIMING
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import LOG, run_tournament
from koira_env import make_game
from koira_env.core.jobs import Backend
from koira_experiments.cli import main
from koira_training import warmstart
from koira_training.train import demonstrations, parse_args, train
from koira_training.train import main as train_main

CONFIG = TournamentConfig(agents=("random", "dumper"), deals=40, seed=3)  # 42 deals, 168 games
SUMMARIES = ("results.json", "leaderboard.csv", "head_to_head.csv", "head_to_head.png")
bench = load_benchmark("bench_backends")  # LocalCluster: Ray nodes on this machine


def summaries(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in SUMMARIES}


def outputs(folder: Path) -> dict[str, bytes]:
    """Every file of a results folder but the logs (the same rows in completion order) and
    the decision times (CPU seconds: they differ from run to run)."""
    files = [
        p for p in folder.rglob("*") if p.is_file() and p.suffix != ".jsonl" and p.name != TIMING
    ]
    return {str(p.relative_to(folder)): p.read_bytes() for p in files}


def untimed_rows(folder: Path) -> list[str]:
    """The log's rows without their CPU seconds (which differ from run to run)."""
    rows = [json.loads(line) for line in (folder / LOG).read_text().splitlines()]
    return [json.dumps({k: v for k, v in r.items() if k != "cpu_seconds"}) for r in rows]


def logged_keys(folder: Path) -> list[str]:
    return [line.split('"key":"')[1].split('"')[0] for line in (folder / LOG).open()]


# ------------------------------------------------------------------ no Ray needed
def test_bad_backend_choices_are_clear_errors(monkeypatch, capsys, tmp_path):
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        Backend("spark")
    with pytest.raises(ValueError, match="add --backend ray"):
        Backend("process", "127.0.0.1:6379")
    with pytest.raises(ValueError, match="workers must be at least 1"):
        Backend().parallelism(-2)
    argv = ["tournament", "--agents", "random", "--games", "2", "--out", str(tmp_path / "t")]
    assert main([*argv, "--address", "127.0.0.1:6379", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "koira: error: --address is the address of a Ray cluster: add --backend ray\n"
    )
    assert not (tmp_path / "t").exists()
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the ray extra were not installed
    with pytest.raises(ValueError, match=r"pip install 'koira-rl\[ray\]'"):
        run_tournament(CONFIG, tmp_path / "r", backend=Backend("ray"))


def same_demonstrations(a: warmstart.Demonstrations, b: warmstart.Demonstrations) -> bool:
    return all(
        (getattr(a, f) == getattr(b, f)).all() for f in ("obs", "masks", "actions", "returns")
    )


def test_warm_start_shards_do_not_depend_on_the_workers(tmp_path):
    """The bot games of ``koira train``'s warm start, in shards: the same on 1 or 2 processes;
    one shard is the single stream from the seed."""
    game, field, imitate = make_game("koira", 4), ("greedy", "dumper"), ("greedy",)
    one = warmstart.collect(game, field, imitate, 1000, seed=7, shards=4)
    two = warmstart.collect(game, field, imitate, 1000, seed=7, shards=4, workers=2)
    assert same_demonstrations(one, two)
    assert one.masks[range(1000), one.actions].all()  # every shard filled its rows
    single = warmstart.collect(game, field, imitate, 1000, seed=7)
    assert same_demonstrations(single, warmstart._play(game, field, imitate, 1000, Random(7)))
    assert not same_demonstrations(one, single)
    with pytest.raises(ValueError, match="at least one shard"):
        warmstart.collect(game, field, imitate, 1000, seed=7, shards=0)
    for bad, error in (["--backend", "spark"], "unknown backend"), (["--bc-shards", "0"], "shard"):
        with pytest.raises(ValueError, match=error):  # before the run folder is made
            train(parse_args([*bad, "--run-dir", str(tmp_path / "run")]))
        assert not (tmp_path / "run").exists()


# ------------------------------------------------------------------ a local Ray cluster
def _workers(node: subprocess.Popen, title: bytes) -> int:
    """How many Ray workers of ``node`` have this process title (``ray::IDLE``, or
    ``ray::_ray_chunk`` while they run one of our chunks)."""
    count = 0
    for pid in bench.descendants(node.pid):
        try:
            count += Path(f"/proc/{pid}/cmdline").read_bytes().startswith(title)
        except OSError:
            continue
    return count


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """``bench_backends.LocalCluster``: two nodes of one CPU each; this process, connected to
    it, is the driver."""
    root = Path(tempfile.mkdtemp(prefix="kray", dir="/tmp"))  # Ray's socket paths must be short
    local = bench.LocalCluster(root)
    with pytest.MonkeyPatch.context() as patch:
        for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH", "RAY_USAGE_STATS_ENABLED"):
            patch.setenv(key, local.env[key])
        patch.delenv("RAY_ADDRESS", raising=False)
        try:
            local.start()
            local.start()
            assert Backend("ray", local.address).parallelism(None) == 2
            yield local
        finally:
            import ray

            ray.shutdown()
            local.stop()
            shutil.rmtree(root, ignore_errors=True)


@pytest.mark.ray
def test_summaries_are_byte_identical_on_ray_and_the_process_pool(cluster, tmp_path):
    on_pool = run_tournament(CONFIG, tmp_path / "pool", workers=2)
    on_ray = run_tournament(CONFIG, tmp_path / "ray", backend=Backend("ray", cluster.address))
    assert seeded(on_ray) == seeded(on_pool) and on_ray["games_played"] == 168
    assert summaries(tmp_path / "ray") == summaries(tmp_path / "pool")
    pool_log, ray_log = (untimed_rows(tmp_path / name) for name in ("pool", "ray"))
    assert sorted(ray_log) == sorted(pool_log)  # the same rows, in completion order


@pytest.mark.ray
def test_a_folder_started_on_one_backend_finishes_on_the_other(cluster, tmp_path):
    ray = Backend("ray", cluster.address)
    whole = run_tournament(CONFIG, tmp_path / "whole", workers=2)
    first = run_tournament(CONFIG, tmp_path / "a", workers=2, max_games=50)
    assert not first["complete"] and first["games_played"] == 50
    assert seeded(run_tournament(CONFIG, tmp_path / "a", backend=ray)) == seeded(whole)
    first = run_tournament(CONFIG, tmp_path / "b", max_games=70, backend=ray)
    assert not first["complete"] and first["games_played"] == 70
    assert seeded(run_tournament(CONFIG, tmp_path / "b", workers=2)) == seeded(whole)
    for folder in ("a", "b"):
        assert summaries(tmp_path / folder) == summaries(tmp_path / "whole")
        assert sorted(logged_keys(tmp_path / folder)) == sorted(logged_keys(tmp_path / "whole"))


@pytest.mark.ray
def test_koira_exploit_writes_the_same_files_on_ray(cluster, tmp_path):
    """Half the games on the pool, the rest on Ray: the summaries of one uninterrupted run."""
    config = ExploitConfig(agent="greedy", rules="mini", deals=12, iterations=16, seed=5)
    whole = run_exploit(config, tmp_path / "whole", workers=2)
    run_exploit(config, tmp_path / "mixed", workers=2, max_games=18)
    mixed = run_exploit(config, tmp_path / "mixed", backend=Backend("ray", cluster.address))
    assert {**mixed, "cost": None} == {**whole, "cost": None} and mixed["complete"]
    for name in ("exploit.json", "deals.csv"):
        assert (tmp_path / "mixed" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()


@pytest.mark.ray
def test_the_league_plays_the_same_rounds_on_ray(cluster, tmp_path):
    """The league's games, its tournaments against the pool (the exploiter among them) and its
    exploitability measurements run on the cluster: the same curve as on the process pool."""
    import csv

    from koira_training import pfsp

    tiny = ["--algo", "league", "--game", "red7", "--teacher", "champion", "--hidden", "16"]
    tiny += ["--games-per-round", "40", "--rounds", "2", "--eval-deals", "4", "--pfsp-deals", "2"]
    tiny += ["--exploit-deals", "2", "--exploit-iterations", "4", "--exploiter-iterations", "4"]
    tiny += ["--exploit-every", "1", "--minutes", "0", "--seed", "3"]
    ray = ["--backend", "ray", "--address", cluster.address, "--workers", "2"]
    assert train_main([*tiny, "--workers", "2", "--run-dir", str(tmp_path / "pool")]) == 0
    assert train_main([*tiny, *ray, "--run-dir", str(tmp_path / "ray")]) == 0
    keep = ("round", "gain", "gain_low", "gain_high", "weights")
    curves = [
        [{k: r[k] for k in keep} for r in csv.DictReader((tmp_path / d / pfsp.LEAGUE_CSV).open())]
        for d in ("pool", "ray")
    ]
    assert curves[0] == curves[1] and len(curves[0]) == 2


@pytest.mark.ray
def test_experiments_write_the_same_files_on_ray(cluster, tmp_path):
    """Through the CLI: a probe whose tasks (``run_tasks``) play a study agent (``risk:...``)
    and risk, whose tournaments seat it: the Ray workers learn of it from the driver
    (``agent_modules``; the probe runs first, while no worker has imported the study); wars."""
    for name, extra in (("probe", ["--policy", "risk:below=4"]), ("risk", []), ("wars", [])):
        argv = ["experiment", name, "--quick", "--quiet", "--seed", "4", *extra]
        assert main([*argv, "--out", str(tmp_path / name / "pool"), "--workers", "2"]) == 0
        ray = ["--backend", "ray", "--address", cluster.address]
        assert main([*argv, "--out", str(tmp_path / name / "ray"), *ray]) == 0
        assert outputs(tmp_path / name / "ray") == outputs(tmp_path / name / "pool")


@pytest.mark.ray
def test_an_unreachable_address_is_a_one_line_error_within_seconds(tmp_path):
    argv = [sys.executable, "-m", "koira_experiments.cli", "tournament", "--agents", "random"]
    argv += ["--games", "2", "--out", str(tmp_path / "t"), "--quiet", "--backend", "ray"]
    port = bench.free_port()  # nothing listens there
    start = time.monotonic()
    run = subprocess.run([*argv, "--address", f"127.0.0.1:{port}"], capture_output=True, text=True)
    assert time.monotonic() - start < 20
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"koira: error: no Ray cluster at 127.0.0.1:{port}: Connection refused\n"
    bad = subprocess.run([*argv, "--address", "head-node"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.endswith("expected host:port, ray://host:port or auto\n")


@pytest.mark.ray
def test_koira_tournament_backend_ray_starts_a_local_ray(tmp_path):
    """What a newcomer types after the README's set-up: no address, a Ray of its own."""
    argv = [
        "-m",
        "koira_experiments.cli",
        "tournament",
        "--agents",
        "random,dumper",
        "--games",
        "40",
    ]
    argv += ["--seed", "3", "--quiet"]
    env = bench.ray_env(tmp_path)
    env["RAY_DEFAULT_OBJECT_STORE_MEMORY_PROPORTION"] = "0.01"  # ~240 MB here
    env["RAY_TMPDIR"] = ray_tmp = tempfile.mkdtemp(prefix="kray", dir="/tmp")  # short paths
    try:
        run = subprocess.run(
            [sys.executable, *argv, "--backend", "ray", "--out", str(tmp_path / "ray")],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert run.returncode == 0, run.stderr
    assert "168 games" in run.stdout
    run_tournament(CONFIG, tmp_path / "pool", workers=2)
    assert summaries(tmp_path / "ray") == summaries(tmp_path / "pool")


@pytest.mark.ray
def test_a_node_killed_mid_run_loses_and_duplicates_no_game(cluster, tmp_path):
    """A third node joins, runs chunks, and is SIGKILLed while it runs one; Ray reruns its
    chunks elsewhere and the finished folder equals an uninterrupted run's. The node has 2 of
    the 4 CPUs, and small tournaments have started its workers, so it gets chunks at once; the
    search bot (the reference loop: the compiled one is too quick) makes a chunk last about a
    second (at 8 iterations, half a second, an idle machine once finished before the node was
    seen busy)."""
    config = TournamentConfig(agents=("ismcts:16::python", "dumper"), deals=60, seed=8)
    doomed = cluster.start(cpus=2)
    ray = Backend("ray", cluster.address)
    assert ray.parallelism(None) == 4
    deadline = time.monotonic() + 120
    while _workers(doomed, b"ray::IDLE") < 2:  # Ray starts them on the first lease requests
        run_tournament(CONFIG, tmp_path / f"warm-{time.monotonic()}", backend=ray)
        assert time.monotonic() < deadline, "the new node never started workers"
    folder = tmp_path / "ray"
    killed_at: list[int] = []  # games in the log when the node died
    finished = threading.Event()

    def kill_when_busy() -> None:
        while not finished.is_set():
            if _workers(doomed, b"ray::_ray_chunk"):
                log = folder / LOG
                killed_at.append(len(log.read_text().splitlines()) if log.exists() else 0)
                cluster.kill(doomed)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    try:
        summary = run_tournament(config, folder, backend=ray)
    finally:
        finished.set()
        killer.join()
    assert killed_at and killed_at[0] < 240, "the node should have died mid-run"
    assert doomed.poll() is not None
    keys = logged_keys(folder)
    assert len(keys) == len(set(keys)) == 240  # no game lost, none twice
    assert seeded(summary) == seeded(run_tournament(config, tmp_path / "pool", workers=2))
    assert summaries(folder) == summaries(tmp_path / "pool")


@pytest.mark.ray
def test_koira_train_plays_its_warm_start_on_ray(cluster):
    flags = ["--bc-decisions", "1000", "--bc-shards", "4", "--bots", "greedy", "dumper"]
    flags += ["--bc-bots", "greedy", "--seed", "7"]
    args = parse_args([*flags, "--backend", "ray", "--address", cluster.address])
    on_ray = demonstrations(args, args.make_game())
    field, imitate = ("greedy", "dumper"), ("greedy",)
    here = warmstart.collect(args.make_game(), field, imitate, 1000, seed=7, shards=4)
    assert same_demonstrations(on_ray, here)


@pytest.mark.ray
def test_distillation_labels_the_same_games_on_ray(cluster, tmp_path):
    """``koira train --algo distill --backend ray``: the same shards, network and curve as the
    process pool, the second round's student sent to the workers as bytes."""
    from koira_training import distill

    tiny = ["--teacher", "champion", "--arch", "cards", "--hidden", "8", "--rounds", "2"]
    tiny += ["--games-per-round", "40", "--eval-deals", "1", "--batch-size", "64"]
    distill.main([*tiny, "--workers", "2", "--run-dir", str(tmp_path / "pool")])
    ray = ["--backend", "ray", "--address", cluster.address]
    distill.main([*tiny, *ray, "--run-dir", str(tmp_path / "ray")])
    files = {}
    for name in ("pool", "ray"):
        folder = tmp_path / name
        files[name] = {
            str(p.relative_to(folder)): p.read_bytes()
            for p in sorted((folder / "data").rglob("*.npz"))
        }
        files[name]["latest.npz"] = (folder / "latest.npz").read_bytes()
    assert len(files["ray"]) == 5 and files["ray"] == files["pool"]  # 2 rounds of 2 shards


@pytest.mark.ray
def test_the_league_benchmark_plays_the_same_round_on_one_node_and_on_two(tmp_path):
    """``benchmarks/bench_league.py``: a league round's games on a cluster of one node, then
    of two; the same shards both times, and the games per second of each."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_league.py"
    out = tmp_path / "league.json"
    command = [sys.executable, str(script), "--games", "40", "--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    numbers = json.loads(out.read_text())
    assert numbers["same_shards"] and set(numbers["games_per_s"]) == {"1 node", "2 nodes"}
    assert numbers["pool"][0] == "dumper" and numbers["pool"][-1] == "br:8:dumper"
