"""Self-play training of a MaskablePPO agent for any game: ``koira train [--game G] [--options]``.

Read top to bottom: the arguments, the seeding, the envs (one learner seat, the league in the
other seats), then a loop of learn / publish to the league / evaluate / checkpoint. Every
``eval_every`` steps the run folder gets a checkpoint written atomically, so ``--resume``
(the same command plus ``--resume``) loses at most one interval after a kill.

Run folder: ``config.json`` (the arguments), ``checkpoint.zip`` (model + optimizer + league
and clock, for resuming), ``latest.zip`` and ``snapshots/`` (the league's policies; any of them
is a model for ``ppo:``), ``eval.csv`` (the evaluation curve) and ``eval.png`` (its plot, drawn
when the run ends), ``eval/`` (tournaments), ``tb/`` (TensorBoard).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from koira_agents.ppo import check_compatible, model_metadata, read_metadata
from koira_agents.registry import default_agents
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.core.game import Game
from koira_env.core.jobs import Backend
from koira_env.core.parts import check_split
from koira_env.core.single_agent import SingleAgentEnv
from koira_env.registry import make_game, spec

from .args import dataclass_flags
from .device import choose_device
from .evaluation import eval_columns, round_fits, scores
from .export import export, save_model
from .league import League, LeagueMix, write_manifest
from .plot import plot_curve
from .warmstart import Demonstrations, collect, fit, shard_bounds

CHECKPOINT, LATEST, EVAL_CSV, CONFIG = "checkpoint.zip", "latest.zip", "eval.csv", "config.json"
EVAL_PNG = "eval.png"
# Arguments that only say how long, how visibly or where to run: a resumed run may change them.
RUN_LENGTH = frozenset(
    {
        "total_timesteps",
        "minutes",
        "progress",
        "resume",
        "vec_env",
        "workers",
        "backend",
        "address",
        "export",
        "device",
    }
)


@dataclass
class Args:
    run_dir: str = ""
    """folder for checkpoints, league policies, evaluation and TensorBoard logs; empty:
    runs/<game><players> (runs/koira4)"""
    game: str = "koira"
    """the game the agent learns (koira_env.games())"""
    rules: str = ""
    """the game's rules preset (Koira: koira, koira-b, mattis); empty: the game's default"""
    players: int = 4
    """table size"""
    seed: int = 1
    """seeds python, numpy, torch and the envs"""
    total_timesteps: int = 20_000_000
    """learner decisions to train for (the minutes limit may stop earlier)"""
    minutes: float = 30.0
    """wall-clock budget of this invocation in minutes (a resumed run gets it afresh), warm
    start and evaluations included: a round of learning + evaluation starts only if one as long
    as the last still fits (0 = no limit)"""
    num_envs: int = 32
    """envs stepped together; the policy acts for all of them in one batched forward pass"""
    vec_env: str = "dummy"
    """"dummy": all envs in this process (fastest on 2 cores: a step costs less than sending
    its observation to another process); "subproc": one process per env; "batched": all
    tables as one batched env (training/vec_env.py)"""
    n_steps: int = 64
    """steps per env per rollout"""
    batch_size: int = 512
    """minibatch size of the PPO update"""
    n_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 1e-4
    """Adam step size (small: PPO fine-tunes the warm-started network instead of relearning)"""
    gamma: float = 1.0
    """discount; 1: episodic, the only reward is the game's terminal reward"""
    gae_lambda: float = 0.8
    """GAE bias/variance trade-off; below the usual 0.95 because the final result is mostly
    noise from one decision's point of view, so advantages lean more on the value network"""
    clip_range: float = 0.2
    """PPO ratio clip"""
    ent_coef: float = 0.001
    """entropy bonus; small, so it does not wash out the warm start"""
    net_arch: tuple[int, ...] = (256, 256)
    """hidden layers of the policy and value networks (separate)"""
    bc_decisions: int = 300_000
    """warm start: decisions of the bc_bots to imitate before PPO (0 = start from scratch)"""
    bc_bots: tuple[str, ...] = ()
    """warm start: the bots imitated (their tables are drawn from ``bots``); empty: the
    game's choice (Koira: greedy), else every league bot"""
    bc_epochs: int = 6
    """warm start: passes over the demonstrations"""
    bc_lr: float = 1e-3
    """warm start: Adam step size of the behaviour cloning"""
    bc_shards: int = 1
    """warm start: streams of bot games the decisions are split into, each seeded on its own,
    played in parallel on ``workers`` (1: one stream in this process)"""
    workers: int = 0
    """warm start: processes, or Ray tasks at once, playing the shards; 0: every core of this
    machine, or of the Ray cluster"""
    backend: str = "process"
    """warm start: where the shards run, "process" (local processes) or "ray" (a Ray cluster,
    docs/ray.md); the demonstrations are the same either way"""
    address: str = ""
    """warm start with backend "ray": the cluster's address (host:port of its head, or
    auto); empty: the Ray job's cluster, else a Ray started on this machine"""
    p_latest: float = 0.1
    """probability that an opponent seat is the latest policy"""
    p_snapshot: float = 0.1
    """probability that an opponent seat is an earlier snapshot (else a heuristic bot)"""
    bots: tuple[str, ...] = ()
    """heuristic bots in the league and in the evaluation; empty: the game's choice (Koira: its
    six heuristics), else every bot of the game that needs no argument, except random"""
    snapshot_every: int = 400_000
    """steps between league snapshots"""
    eval_every: int = 100_000
    """steps between evaluations, league refreshes and checkpoints"""
    eval_deals: int = 70
    """deals of each evaluation tournament (every table is played in all seat rotations)"""
    progress: bool = True
    """show progress bars (the warm start's bot games and fitting, then PPO's steps)"""
    resume: bool = False
    """continue the run in run_dir (give the same arguments as the first time)"""
    export: str = ""
    """also write the final model here for shipping (python -m koira_training.export: no optimizer
    state, no run paths), e.g. agents/models/koira4-ppo.zip, the shipped champion-net"""
    torch_threads: int = 2
    """torch threads of the learner (env processes of "subproc" use one each)"""
    device: str = "auto"
    """where the learner's network trains: auto (a CUDA GPU if torch finds one, else the CPU;
    the choice is printed), cpu or cuda. The league's opponents play on the CPU in the env
    processes"""
    extra: dict[str, Any] = field(default_factory=dict)
    """rule option overrides, e.g. {"reward": "placement"} (JSON on the command line)"""
    split_actions: bool = False
    """learn each action as two decisions where the game's actions are pairs (Red7's turn: 50
    palette slots, then 50 canvas slots, instead of 2,500 turns; docs/environment.md); the
    model plays whole turns in tournaments, a part at a time"""

    def __post_init__(self) -> None:
        if not self.run_dir:
            self.run_dir = f"runs/{self.game}{self.players}"

    def make_game(self) -> Game:
        preset = {"rules": self.rules} if self.rules else {}
        return make_game(self.game, self.players, **preset, **self.extra)

    def league_bots(self) -> tuple[str, ...]:
        """``bots``, or the game's default league."""
        if self.bots:
            return self.bots
        chosen = spec(self.game).recipe.bots
        if chosen:
            return chosen
        return tuple(b for b in default_agents(self.game) if b != "random")

    def imitated_bots(self) -> tuple[str, ...]:
        """``bc_bots``, or the game's choice, or the whole league."""
        return self.bc_bots or spec(self.game).recipe.bc_bots or self.league_bots()


# ------------------------------------------------------------------ envs
def make_env(args: Args, rank: int) -> SingleAgentEnv:
    import torch

    torch.set_num_threads(1)  # a "subproc" child only loads league models; train() resets it
    game = args.make_game()
    mix = LeagueMix(args.p_latest, args.p_snapshot, args.league_bots())
    league = League(args.run_dir, game, mix)
    return SingleAgentEnv(game, opponent_sampler=league, split_actions=args.split_actions)


VEC_ENVS = ("dummy", "subproc", "batched")


def vec_envs(args: Args) -> Any:
    """The ``num_envs`` learner envs under SB3's ``VecMonitor``, in this process ("dummy") or
    one process each ("subproc"; ``fork`` where available: the children inherit the imports
    instead of redoing them, seconds per env, and use one torch thread each), or all tables
    as one batched env ("batched": ``koira_training.vec_env``, the batched env's loop in C on
    Koira's compiled core)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if args.vec_env == "batched":
        from .vec_env import BatchedLearnerEnv

        game = args.make_game()
        league = League(
            args.run_dir, game, LeagueMix(args.p_latest, args.p_snapshot, args.league_bots())
        )
        return VecMonitor(
            BatchedLearnerEnv(game, args.num_envs, league, split_actions=args.split_actions)
        )
    fns = [partial(make_env, args, i) for i in range(args.num_envs)]
    if args.vec_env == "dummy":
        return VecMonitor(DummyVecEnv(fns))
    if "fork" in multiprocessing.get_all_start_methods():
        return VecMonitor(SubprocVecEnv(fns, start_method="fork"))
    return VecMonitor(SubprocVecEnv(fns))


def new_model(
    args: Args, envs: Any, seed: int, tensorboard_log: str | None = None, device: str = "cpu"
) -> Any:
    """A fresh MaskablePPO of the arguments' settings on ``device`` (the trainer and the
    benchmark)."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": list(args.net_arch)},
        tensorboard_log=tensorboard_log,
        seed=seed,
        device=device,
    )


# ------------------------------------------------------------------ checkpoints
def read_eval(path: Path, upto: int) -> list[dict[str, str]]:
    """The evaluation rows up to a checkpoint (later ones were lost with the kill)."""
    if not path.exists():
        return []
    with path.open() as f:
        return [row for row in csv.DictReader(f) if int(row["timesteps"]) <= upto]


def write_eval(path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, columns)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def claim_run_dir(args: Args) -> None:
    """A new run needs an empty folder; a resumed one the same arguments as before."""
    run_dir = Path(args.run_dir)
    config = run_dir / CONFIG
    mine = {k: v for k, v in _jsonable(args).items() if k not in RUN_LENGTH}
    if args.resume:
        if not (run_dir / CHECKPOINT).exists():
            raise ValueError(f"--resume: no {CHECKPOINT} in {run_dir}")
        stored = json.loads(config.read_text())
        differ = sorted(k for k in mine if stored.get(k) != mine[k])
        if differ:
            raise ValueError(
                f"--resume: {run_dir} was started with other arguments: "
                + ", ".join(f"{k}={stored.get(k)!r} (now {mine[k]!r})" for k in differ)
            )
        return
    if config.exists():
        raise ValueError(f"{run_dir} already holds a run: add --resume or pick another run_dir")
    run_dir.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(mine, indent=1) + "\n")


def _jsonable(args: Args) -> dict[str, Any]:
    return json.loads(json.dumps(dataclasses.asdict(args)))


# ------------------------------------------------------------------ evaluation
def evaluate(args: Args, model_path: Path, timesteps: int, minutes: float) -> dict[str, Any]:
    """A duplicate-deal tournament of the policy against the bots, judged by the game's
    ranking measure; one row of eval.csv."""
    measure = spec(args.game).choices.rank_by
    config = TournamentConfig(
        agents=(f"ppo=ppo:{model_path.resolve()}", *args.league_bots()),
        game=args.game,
        rules=args.rules or None,
        players=args.players,
        deals=args.eval_deals,
        seed=args.seed,  # the same deals at every evaluation: a paired curve
        options=tuple(sorted(args.extra.items())),
    )
    out = Path(args.run_dir) / "eval" / f"{timesteps:09d}"
    summary = run_tournament(config, out, workers=1)
    values = [timesteps, round(minutes, 2), *scores(summary, "ppo", measure)]
    return dict(zip(eval_columns(measure), values, strict=True))


# ------------------------------------------------------------------ training
def demonstrations(args: Args, game: Game) -> Demonstrations:
    """The warm start's bot games (``koira_training.warmstart.collect``), in ``bc_shards`` on
    ``workers`` processes or on Ray. They are played before the envs and the network exist,
    so the pool forks a process without torch threads; a Ray connection is closed afterwards
    (PPO runs here)."""
    started = time.monotonic()
    backend = Backend(args.backend, args.address or None)
    imitated = args.imitated_bots()
    bar = _progress_bar(args, "warm start: bot decisions", args.bc_decisions)
    try:
        demos = collect(
            game,
            args.league_bots(),
            imitated,
            args.bc_decisions,
            args.seed,
            args.bc_shards,
            args.workers,
            backend,
            bar.advance if bar else None,
            args.split_actions,
        )
    finally:
        backend.release()
        if bar:
            bar.close()
    print(
        f"warm start: {args.bc_decisions} decisions of {','.join(imitated)} collected in "
        f"{time.monotonic() - started:.0f} s ({args.bc_shards} shards, {args.backend})",
        flush=True,
    )
    return demos


def warm_start(args: Args, model: Any, game: Game, demos: Demonstrations) -> None:
    """Behaviour cloning of the demonstrations into the fresh network
    (``koira_training.warmstart``), on every core: the envs are idle until PPO starts."""
    import torch

    started = time.monotonic()
    torch.set_num_threads(os.cpu_count() or 1)
    fitted = len(demos.actions) - len(demos.actions) // 10  # fit holds a tenth out
    bar = _progress_bar(args, "warm start: fitting", args.bc_epochs * fitted)
    try:
        stats = fit(
            model.policy,
            demos,
            game.observation_scale,
            args.bc_epochs,
            args.bc_lr,
            512,
            args.seed,
            bar.advance if bar else None,
        )
    finally:
        if bar:
            bar.close()
    torch.set_num_threads(args.torch_threads)
    print(
        f"warm start: fitted in {time.monotonic() - started:.0f} s: "
        + ", ".join(f"{k} {v:.3f}" for k, v in stats.items()),
        flush=True,
    )


def train(args: Args) -> Path:
    """Train (or resume) a run; returns the path of the final ``latest.zip``."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed

    game = args.make_game()
    LeagueMix(args.p_latest, args.p_snapshot, args.league_bots())  # validate before any work
    if args.vec_env not in VEC_ENVS:
        raise ValueError(f"vec_env must be one of {sorted(VEC_ENVS)}, got {args.vec_env!r}")
    check_split(game, args.split_actions)
    Backend(args.backend, args.address or None)
    shard_bounds(args.bc_decisions, args.bc_shards)
    device = choose_device(args.device)
    run_dir = Path(args.run_dir)
    claim_run_dir(args)
    started = time.monotonic()
    demos = demonstrations(args, game) if not args.resume and args.bc_decisions else None
    ckpt = run_dir / CHECKPOINT
    if args.resume:
        meta = read_metadata(ckpt)
        check_compatible(meta, game, ckpt)
        timesteps, minutes_before = meta["timesteps"], meta["minutes"]
        snapshots: list[str] = meta["snapshots"]
    else:
        timesteps, minutes_before, snapshots = 0, 0.0, []

    # --- seeding: one place; a resumed run continues from a seed derived from its progress
    seed = args.seed + timesteps
    set_random_seed(seed)
    envs = vec_envs(args)
    envs.seed(seed)
    torch.set_num_threads(args.torch_threads)  # after make_env, which sets one for its children
    tb = str(run_dir / "tb")
    if args.resume:
        model = MaskablePPO.load(ckpt, env=envs, device=device, tensorboard_log=tb)
    else:
        model = new_model(args, envs, seed, tensorboard_log=tb, device=device)
    meta_base = model_metadata(game, args.split_actions, seed=args.seed, args=_jsonable(args))
    latest = run_dir / LATEST
    columns = eval_columns(spec(args.game).choices.rank_by)
    measure, low, high, _, best = columns[2:7]
    rows = read_eval(run_dir / EVAL_CSV, timesteps)
    write_eval(run_dir / EVAL_CSV, rows, columns)

    def publish(now: int, minutes: float) -> None:
        meta = {**meta_base, "timesteps": now, "minutes": minutes, "snapshots": snapshots}
        save_model(model, latest, meta)
        write_manifest(run_dir, LATEST, snapshots)

    def minutes_now() -> float:
        """Training time across every invocation of the run: eval.csv's clock."""
        return minutes_before + (time.monotonic() - started) / 60

    if not args.resume:
        if demos is not None:
            warm_start(args, model, game, demos)
            demos = None  # hundreds of MB: not kept through PPO
        publish(0, minutes_now())
        if args.bc_decisions:
            rows.append(evaluate(args, latest, 0, minutes_now()))
            write_eval(run_dir / EVAL_CSV, rows, columns)
    rollout = args.n_steps * args.num_envs
    chunk = max(rollout, args.eval_every // rollout * rollout)
    bar = _progress_bar(args, "steps", args.total_timesteps, timesteps)
    interval = 0.0  # minutes of the last learn + evaluate round: the next one must fit too
    try:
        while timesteps < args.total_timesteps and round_fits(
            args.minutes, minutes_now() - minutes_before, interval
        ):
            round_start = minutes_now()
            model.learn(
                chunk,
                reset_num_timesteps=False,
                tb_log_name="ppo",
                callback=bar.callback if bar else None,
            )
            timesteps = model.num_timesteps
            minutes = minutes_now()
            if timesteps // args.snapshot_every > (timesteps - chunk) // args.snapshot_every:
                snap = f"snapshots/{timesteps:09d}.zip"
                (run_dir / "snapshots").mkdir(exist_ok=True)
                save_model(model, run_dir / snap, {**meta_base, "timesteps": timesteps})
                snapshots.append(snap)
            publish(timesteps, minutes)
            row = evaluate(args, latest, timesteps, minutes)
            rows.append(row)
            write_eval(run_dir / EVAL_CSV, rows, columns)
            for key in (measure, low, high, best):
                model.logger.record(f"eval/{key}", row[key])
            model.logger.dump(timesteps)
            meta = {**meta_base, "timesteps": timesteps, "minutes": minutes}
            save_model(model, ckpt, {**meta, "snapshots": snapshots})
            interval = minutes_now() - round_start
            print(
                f"[{minutes:6.1f} min] {timesteps:>9} steps: {measure.replace('_', ' ')} "
                f"{row[measure]:.3f} [{row[low]:.3f}, {row[high]:.3f}]; best bot {row['best_bot']} "
                f"{row[best]:.3f} [{row['best_bot_low']:.3f}, "
                f"{row['best_bot_high']:.3f}]",
                flush=True,
            )
    finally:
        if bar:
            bar.close()
        envs.close()
    if rows:
        plot_curve(run_dir, run_dir / EVAL_PNG)
        print(f"curve: {run_dir / EVAL_PNG}")
    if args.export:
        shipped = export(latest, args.export)
        print(f"exported {shipped} ({shipped.stat().st_size / 1e6:.1f} MB)")
    return latest


class _Bar:
    """A rich progress bar: over the learner's timesteps, advanced from an SB3 callback, or
    over the warm start's decisions collected and fitted, advanced by ``advance``."""

    def __init__(self, label: str, total: int, done: int) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
        from stable_baselines3.common.callbacks import BaseCallback

        self.progress = Progress(
            label, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
        )
        self.task = self.progress.add_task(label, total=total, completed=done)
        self.progress.start()
        progress, task = self.progress, self.task

        class Advance(BaseCallback):
            def _on_step(self) -> bool:
                progress.update(task, completed=self.num_timesteps)
                return True

        self.callback = Advance()

    def advance(self, k: int) -> None:
        self.progress.advance(self.task, k)

    def close(self) -> None:
        self.progress.stop()


def _progress_bar(args: Args, label: str, total: int, done: int = 0) -> _Bar | None:
    """A bar unless ``--no-progress`` or stderr is not a terminal (logs get the round lines)."""
    return _Bar(label, total, done) if args.progress and sys.stderr.isatty() else None


# ------------------------------------------------------------------ command line
def parse_args(argv: list[str] | None = None) -> Args:
    """Command-line flags generated from ``Args`` (each field's docstring is its help)."""
    about = (
        f"{__doc__.split(chr(10))[0]} This is --algo ppo, the default; --algo distill trains a "
        "network on a search's moves instead (koira train --algo distill --help), and --algo "
        "league does so against a pool chosen to hurt it (koira train --algo league --help)."
    )
    return dataclass_flags(Args, argv, "koira train", about)


ALGOS = ("ppo", "distill", "league")


def main(argv: list[str] | None = None) -> int:
    """``koira train [--algo ppo|distill|league] [flags]``: MaskablePPO (this module, the
    default), search distillation (``training/distill.py``) or the league on top of it
    (``training/pfsp.py``); ``--help`` after the algorithm lists its flags."""
    argv = list(sys.argv[1:] if argv is None else argv)
    algo = "ppo"
    for k, word in enumerate(argv):
        if word == "--algo" or word.startswith("--algo="):
            algo = word.partition("=")[2] or (argv[k + 1] if k + 1 < len(argv) else "")
            del argv[k : k + (1 if "=" in word else 2)]
            break
    if algo not in ALGOS:
        print(
            f"koira train: error: --algo must be one of {list(ALGOS)}, got {algo!r}",
            file=sys.stderr,
        )
        return 2
    if algo == "distill":
        from .distill import main as distill_main

        return distill_main(argv)
    if algo == "league":
        from .pfsp import main as league_main

        return league_main(argv)
    args = parse_args(argv)
    latest = train(args)
    print(f"model: {latest} (play it with 'ppo:{latest}')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
