"""Search distillation: a network that plays what the search would (``koira train --algo distill``).

Read top to bottom: the arguments, then rounds of *play and label / aggregate / fit /
evaluate / checkpoint* (expert iteration in its DAgger form, without a network inside the
search):

1. **Play and label.** Games against the field (``--field``; by default the game's recipe,
   its ``SPEC.recipe``: Koira's dumpers, Kop's counter). At each real decision of the
   recorded seat the teacher (``--teacher``: any agent spec or alias of the game, such as
   ``champion``) labels the turn (``teacher_label``): ISMCTS with its root visit counts,
   normalised, a soft target that says how close the runner-up moves were, which a chosen move
   alone does not (ISMCTS agrees with itself on only 57% of Koira's phase-two moves at 50
   iterations); flat Monte Carlo and PIMC with their best moves, shared on a tie; any other
   agent with its move. In round 0 the teacher's move is played; later the network's
   (DAgger), so the data covers the positions the network itself gets into. Games run on
   ``--workers`` processes; every game is a pure function of (seed, round, index), so the data
   does not depend on the workers.
2. **Aggregate.** Each chunk of games is an ``.npz`` shard in ``data/round-R/``, written
   atomically; observations are stored as the encoder's small integers (uint8) where the game
   allows, so a million decisions take about a gigabyte. Training reads the last ``--window``
   decisions.
3. **Fit.** A small MLP with a policy head (cross-entropy to the visit distribution over the
   legal moves) and a value head (mean squared error to the seat's final return), Adam, fixed
   seeds.
4. **Evaluate.** A duplicate-deal tournament of the network and the game's evaluation table
   (``--eval-opponents``; Koira: three dumpers, Kop: counter and random), every seat rotation,
   judged by the game's ranking measure (its ``SPEC.choices.rank_by``; Koira: loss rate)
   with its 95% interval, the best bot's beside it, as PPO's ``eval.csv`` has them
   (``koira_training.evaluation.eval_columns``); TensorBoard. The run draws ``eval.png`` when it
   ends.
5. **Checkpoint** (network, optimizer, round, minutes) atomically: ``--resume`` (the same
   command plus ``--resume``) continues after a kill or in a later sitting, regenerating only
   the shards that are missing.

Run folder: ``config.json``, ``data/``, ``checkpoint.pt``, ``latest.npz`` (the network for
``net:``: numpy weights and metadata, no torch needed to play), ``eval.csv``, ``eval.png``,
``eval/``, ``tb/``.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from koira_agents.base import play_out
from koira_agents.cardnet import ARCH as CARDS
from koira_agents.flat import FlatAgent
from koira_agents.ismcts import ISMCTSAgent
from koira_agents.net import (
    MLP,
    NetPolicy,
    Policy,
    load_bytes,
    net_path,
    policy_move,
    save_arrays,
)
from koira_agents.pimc import PIMCAgent
from koira_agents.registry import default_agents, make_agent
from koira_agents.schedule import TournamentConfig
from koira_agents.solver import SolverAgent
from koira_agents.tournament import run_tournament
from koira_agents.turnnet import ARCH as TURNS
from koira_env.core.agent import Turn
from koira_env.core.files import write_json
from koira_env.core.game import Game
from koira_env.core.jobs import PROCESS, Backend, chunked, map_chunks
from koira_env.registry import make_game, spec

from .args import dataclass_flags
from .device import choose_device
from .evaluation import eval_columns, round_fits, scores
from .plot import plot_curve

CHECKPOINT, LATEST, EVAL_CSV, CONFIG = "checkpoint.pt", "latest.npz", "eval.csv", "config.json"
ARCHS = (MLP, CARDS, TURNS)
EVAL_PNG = "eval.png"
# eval.csv: PPO's evaluation columns (``round`` where PPO has ``timesteps``), then the fit's
FIT_COLUMNS = [
    "decisions",
    "agreement",
    "decisive",
    "decisive_agreement",
    "policy_loss",
    "value_loss",
]
# Arguments that only say how long or where to run: a resumed run may change them.
RUN_LENGTH = frozenset(
    {"rounds", "minutes", "resume", "workers", "backend", "address", "progress", "export", "device"}
)


@dataclass
class Args:
    game: str = "koira"
    """the game of the registry to train for"""
    rules: str = ""
    """the game's preset (Koira: koira, koira-b, mattis); empty: the game's default"""
    players: int = 4
    """table size"""
    seed: int = 1
    """seeds the games, the network and the shuffles: the same seed gives the same curve"""
    run_dir: str = ""
    """the run folder; empty: runs/<game><players>-distill"""
    teacher: str = ""
    """the agent that labels; empty: the game's recipe (Koira flat:2:2, the others champion).
    Any spec or alias of the game (champion): ISMCTS's root visit
    counts (iterations per phase; in a phase given 0 iterations the label is the game's rollout
    move: Koira's dumper), flat Monte Carlo's (flat:PLAYOUTS) or PIMC's best moves (its
    fallback's move where it does not solve), any other agent's move"""
    field: tuple[str, ...] = ()
    """the bots in the other seats, drawn per seat per game; empty: the game's recipe
    (its SPEC.recipe: Koira dumper, Kop counter), else its bots but random"""
    field_weights: tuple[float, ...] = ()
    """how often each of --field is drawn, relative to the others; empty: all alike (the
    league sets them each round by prioritized fictitious self-play)"""
    eval_opponents: tuple[str, ...] = ()
    """the agents beside the network at the evaluation tournament; empty: the game's recipe
    (Koira: three dumpers, Kop: counter and random), else the field and random"""
    rounds: int = 1
    """rounds of play / fit / evaluate (later rounds play the network's moves: DAgger)"""
    games_per_round: int = 960_000
    """games per round; the recorded seat rotates"""
    temperature: float = 0.0
    """flat Monte Carlo's and PIMC's labels: 0, their best moves (shared on a tie); above 0, a
    softmax of their mean values at this temperature (in units of the game's return), a soft
    target that keeps how close the runner-up moves were where the best move is noise"""
    decisive_only: bool = True
    """record only the decisions whose label prefers some legal moves to others (one that
    weighs them all the same teaches the policy nothing: most of flat Monte Carlo's labels in
    Koira's phase two)"""
    rollout_share: float = 0.125
    """the share of the decisions labelled by the teacher's rollout move (a phase it does not
    search: Koira's phase one under ismcts:0/N or flat:N:2) that are recorded; below 1, more
    games buy more searched labels without the window filling with cheap ones"""
    window: int = 8_000_000
    """the network is fitted to the last this many labelled decisions"""
    arch: str = "mlp"
    """the network: "mlp" (the flat observation through the --hidden layers), "cards" (Koira:
    one token per card through --hidden per-card layers, agents/cardnet.py) or "turns" (Red7:
    a shared scorer of each legal turn's features, towers of --hidden, agents/turnnet.py)"""
    hidden: tuple[int, ...] = (1024, 512)
    """hidden layer sizes of the MLP (per-card layer sizes of the card network)"""
    init: str = ""
    """start the network from this one's weights (net:NAME or a path, e.g. net:koira4-net: an
    MLP of the same game, rules and --hidden); empty: from random weights"""
    epochs: int = 3
    """passes over the window per round"""
    batch_size: int = 512
    learning_rate: float = 1e-3
    value_weight: float = 0.5
    """weight of the value head's loss beside the policy's"""
    eval_deals: int = 250
    """deals of the evaluation tournament (Koira: against three dumpers, 4 games each)"""
    workers: int = 2
    """processes playing and labelling games (with --backend ray: Ray tasks at once; 0: every
    core of the cluster)"""
    backend: str = "process"
    """where the games are played and labelled: "process" (a pool here) or "ray" (a Ray
    cluster, docs/ray.md); the shards are the same either way"""
    address: str = ""
    """with --backend ray: the cluster (head host:port, ray://host:port or auto); empty: the
    job's cluster, else a Ray started for the run"""
    minutes: float = 110.0
    """the time budget, counted across sittings: a round starts only while one as long as this
    sitting's last still fits (0: no limit; as koira train's rounds)"""
    torch_threads: int = 2
    device: str = "auto"
    """where the network trains: auto (a CUDA GPU if torch finds one, else the CPU; the choice
    is printed), cpu or cuda. Labelling and evaluation play on the CPU"""
    export: str = ""
    """also write the final network here for shipping (float16 weights, compressed), e.g.
    agents/models/kop4-net.npz, Kop's shipped champion-net"""
    resume: bool = False
    """continue the run in run_dir (same arguments, or only run-length ones changed)"""

    def __post_init__(self) -> None:
        if self.arch not in ARCHS:
            raise ValueError(f"--arch must be one of {', '.join(ARCHS)}, got {self.arch!r}")
        if self.arch == TURNS and not self.make_game().turn_feature_size:
            raise ValueError(f"--arch turns needs per-turn features; {self.game} has none")
        # the game's defaults, resolved here so that config.json names the bots played
        own = spec(self.game).recipe
        self.teacher = self.teacher or own.teacher
        if not self.field:
            bots = [
                b for b in default_agents(self.game) if b not in spec(self.game).choices.aliases
            ]
            self.field = own.field or tuple(b for b in bots if b != "random")
        if not self.eval_opponents:
            self.eval_opponents = own.eval_opponents or (*self.field, "random")
        if self.field_weights and (
            len(self.field_weights) != len(self.field) or min(self.field_weights) < 0
        ):
            raise ValueError("--field-weights needs one weight of 0 or more for each --field bot")

    def make_game(self) -> Game:
        preset = {"rules": self.rules} if self.rules else {}
        return make_game(self.game, self.players, **preset)

    def folder(self) -> Path:
        return Path(self.run_dir or f"runs/{self.game}{self.players}-distill")


# ------------------------------------------------------------------ play and label
def _teacher(args: Args) -> Any:
    """The teacher agent (an unknown spec is an error here, before any work or file)."""
    return make_agent(args.teacher, args.game)


def teacher_label(
    teacher: Any, turn: Turn, temperature: float = 0.0
) -> tuple[dict[int, float], bool]:
    """The teacher's weights over the legal moves, and whether its search made them (else the
    move of a phase it does not search, which ``--rollout-share`` thins out).

    ISMCTS: its root visits (its rollout move where its phase budget is 0). Flat Monte Carlo
    and PIMC: their best moves by value, shared equally on a tie, or with ``temperature`` above
    0 a softmax of their values (Red7's flat:48 picks a different best move from itself on
    four decisions in ten, nearly equal values; the softmax keeps them nearly equal) (flat's
    rollout move outside its phase; PIMC's fallback where the game's solver does not reach,
    such as Kop's declarations). The endgame solver (Koira's ``champion``): every move that
    escapes in the most deals, else its fallback search's visits (``SolverAgent.label``). Any
    other agent: its move, the whole label (a bot that does not search makes every label alike,
    so all count as searched)."""
    values: dict[int, float] | None = None
    if isinstance(teacher, ISMCTSAgent):
        if teacher.budget(turn):
            return teacher.search(turn), True
    elif isinstance(teacher, FlatAgent):
        if teacher.searches(turn):
            values = dict(teacher.values(turn))
    elif isinstance(teacher, SolverAgent):
        return teacher.label(turn)
    elif isinstance(teacher, PIMCAgent):
        values = teacher.values(turn)
        if values is None:
            return {teacher.fallback(turn): 1.0}, False
    else:
        return {teacher.act(turn): 1.0}, True
    if values is None:
        return {teacher.act(turn): 1.0}, False  # a phase it does not search: its rollout move
    best = max(values.values())
    if temperature > 0:
        return {a: float(np.exp((v - best) / temperature)) for a, v in values.items()}, True
    return {a: 1.0 for a, v in values.items() if v >= best - 1e-9}, True


class Recorder:
    """The recorded seat: the teacher labels the turn, the teacher or the student plays it."""

    name = "recorder"

    def __init__(
        self,
        game: Game,
        teacher: Any,
        student: Policy | None,
        decisive_only: bool = False,
        rollout_share: float = 1.0,
        rng: random.Random | None = None,
        temperature: float = 0.0,
        turns: bool = False,
    ) -> None:
        self.game, self.teacher, self.student = game, teacher, student
        self.turns = turns  # also record each legal turn's features (--arch turns)
        self.temperature = temperature
        self.decisive_only = decisive_only
        self.rollout_share, self.rng = rollout_share, rng or random.Random(0)
        self.scale = game.observation_scale
        self.rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]] = []

    def act(self, turn: Turn) -> int:
        visits, searched = teacher_label(self.teacher, turn, self.temperature)
        keep = self.rollout_share >= 1.0 or searched
        if not keep:
            keep = self.rng.random() < self.rollout_share
        game, seat, legal = self.game, turn.view.seat, sorted(turn.view.legal)
        # drawn even for a row not kept (a determinized deal takes random numbers), so
        # --rollout-share leaves the games, and every searched label, unchanged
        state = turn.sample_state()
        observation = game.observation(state, seat)
        mask = np.zeros(game.num_actions, bool)
        mask[legal] = True
        target = np.zeros(game.num_actions, np.float32)
        for action, count in visits.items():
            target[action] = count
        target /= target.sum()
        weights = target[mask]
        if keep and (not self.decisive_only or weights.min() < weights.max()):
            codes = observation if self.scale is None else np.rint(observation / self.scale)
            rows = game.turn_features(state, seat, legal) if self.turns else None
            self.rows.append((codes, mask, target, rows))
        if self.student is None:
            return max(turn.view.legal, key=lambda a: visits.get(a, -1))
        return policy_move(self.student, game, state, seat, legal)


def play_games(args: Args, round_no: int, indices: list[int], student: Policy | None) -> dict:
    """Games ``indices`` of round ``round_no``: every labelled decision of the recorded seat,
    with the seat's final return (for --arch turns also ``turns``: the legal turns' feature
    rows, decision after decision, each decision's in its legal actions' order, as float16:
    half the memory, a rounding far below what the scorer resolves). A pure function of its
    arguments."""
    game = args.make_game()
    n = game.num_players
    teacher = _teacher(args)
    obs, masks, targets, returns, turns = [], [], [], [], []
    for g in indices:
        rng = random.Random(f"distill/{args.seed}/{round_no}/{g}")
        keep_rng = random.Random(f"distill/{args.seed}/{round_no}/{g}/keep")
        recorder = Recorder(
            game,
            teacher,
            student,
            args.decisive_only,
            args.rollout_share,
            keep_rng,
            args.temperature,
            args.arch == TURNS,
        )
        seat = g % n
        agents = [
            recorder if s == seat else make_agent(_opponent(args, rng), game.id) for s in range(n)
        ]
        state = play_out(game.new_state(seed=rng.getrandbits(64)), agents, rng.getrandbits(32))
        result = state.returns()[seat]
        for codes, mask, target, rows in recorder.rows:
            obs.append(codes)
            masks.append(mask)
            targets.append(target)
            returns.append(result)
            if rows is not None:
                turns.append(rows.astype(np.float16))
    dtype = np.float32 if game.observation_scale is None else np.uint8
    arrays = {
        "obs": np.asarray(obs, dtype).reshape(len(obs), game.observation_size),
        "masks": np.asarray(masks, bool).reshape(len(obs), game.num_actions),
        "targets": np.asarray(targets, np.float32).reshape(len(obs), game.num_actions),
        "returns": np.asarray(returns, np.float32),
    }
    if args.arch == TURNS:
        width = game.turn_feature_size
        arrays["turns"] = np.concatenate([*turns, np.zeros((0, width), np.float16)])
    return arrays


def _opponent(args: Args, rng: random.Random) -> str:
    """One seat's bot from the field, by ``field_weights`` where given."""
    if not args.field_weights:
        return rng.choice(args.field)
    return rng.choices(args.field, weights=args.field_weights)[0]


_STUDENT: Policy | None = None  # in a worker: the round's student


def _receive_student(data: bytes | None, args: Args) -> None:
    """The round's student network, from its file's bytes: once per worker and round (the
    map's initializer), not with every chunk; on Ray it travels once through the object store,
    since a worker may not see the driver's disk."""
    global _STUDENT
    _STUDENT = load_bytes(data, args.make_game()) if data else None


def _play_chunk(task: tuple[Args, int, list[int]]) -> tuple[list[int], dict]:
    args, round_no, indices = task
    return indices, play_games(args, round_no, indices, _STUDENT)


def _save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def generate(
    args: Args, folder: Path, round_no: int, student: bytes | None, backend: Backend = PROCESS
) -> None:
    """The round's shards (chunks of 20 games), skipping those already on disk, played by
    ``student`` (a network file's bytes) in the recorded seat after round 0."""
    out = folder / "data" / f"round-{round_no:03d}"
    out.mkdir(parents=True, exist_ok=True)
    chunks = list(chunked(list(range(args.games_per_round)), 20))
    todo = [c for c in chunks if not (out / f"games-{c[0]:05d}.npz").exists()]
    tasks = [(args, round_no, c) for c in todo]
    start = (student, args)
    if backend.local and (args.workers <= 1 or len(tasks) <= 1):
        _receive_student(*start)
        results = map(_play_chunk, tasks)
    else:
        workers = backend.parallelism(args.workers)
        results = map_chunks(_play_chunk, tasks, workers, _receive_student, start, backend)
    for indices, arrays in results:
        _save_npz(out / f"games-{indices[0]:05d}.npz", arrays)


def load_window(folder: Path, window: int) -> dict[str, np.ndarray]:
    """The last ``window`` labelled decisions, in round and game order."""
    shards = sorted((folder / "data").glob("round-*/games-*.npz"))
    parts: list[dict[str, np.ndarray]] = []
    total = 0
    for path in reversed(shards):
        with np.load(path) as data:
            parts.append({k: data[k] for k in data.files})
        total += len(parts[-1]["returns"])
        if total >= window:
            break
    parts.reverse()
    merged = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    turns = merged.pop("turns", None)
    kept = {k: v[-window:] for k, v in merged.items()}
    if turns is not None:  # one row per legal turn: the kept decisions' rows are the last
        rows = int(kept["masks"].sum())
        kept["turns"] = turns[len(turns) - rows :]
    return kept


# ------------------------------------------------------------------ the network
def build_network(game: Game, hidden: tuple[int, ...], arch: str = MLP) -> Any:
    """The torch network of ``arch``, with ``arrays()``: its numpy weights and metadata."""
    import torch
    from torch import nn

    if arch == CARDS:
        from .cardnet import CardNet

        return CardNet(game, hidden)
    if arch == TURNS:
        from .turnnet import TurnNet

        return TurnNet(game, hidden)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = []
            size = game.observation_size
            for width in hidden:
                layers += [nn.Linear(size, width), nn.ReLU()]
                size = width
            self.body = nn.Sequential(*layers)
            self.policy = nn.Linear(size, game.num_actions)
            self.value = nn.Linear(size, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.body(x)
            return self.policy(h), self.value(h).squeeze(-1)

        def arrays(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
            linear = [m for m in self.body if hasattr(m, "weight")]
            out: dict[str, np.ndarray] = {}
            for k, m in enumerate([*linear, self.policy, self.value]):
                weight, bias = m.weight.detach().cpu().numpy(), m.bias.detach().cpu().numpy()
                out[f"w{k}"], out[f"b{k}"] = weight, bias
            return out, {"arch": MLP, "layers": len(linear)}

    return Net()


def load_weights(net: Any, game: Game, args: Args) -> None:
    """``--init``: a saved network's weights into the new one (a network trained further, as a
    league started from a shipped ``champion-net``); ``ValueError`` where the shapes differ."""
    import torch

    source = net_path(args.init.removeprefix("net:"))
    policy = NetPolicy.load(source, game)  # a corrupt file or another game: its error
    if args.arch != MLP or not isinstance(policy, NetPolicy):
        raise ValueError(f"--init takes an mlp network into --arch mlp; {source} or the run is not")
    widths = tuple(w.shape[1] for w, _ in policy.layers)
    if widths != tuple(args.hidden):
        raise ValueError(f"{source} has hidden layers {widths}; --hidden makes {args.hidden}")
    saved = [*policy.layers, policy.policy, policy.value_head]
    linear = [m for m in net.body if hasattr(m, "weight")] + [net.policy, net.value]
    with torch.no_grad():
        for m, (w, b) in zip(linear, saved, strict=True):
            m.weight.copy_(torch.from_numpy(w.T))
            m.bias.copy_(torch.from_numpy(b))


def fit(
    args: Args, net: Any, optimizer: Any, data: dict[str, np.ndarray], round_no: int, scale: Any
) -> dict[str, float]:
    """``args.epochs`` passes over ``data``; the last tenth (by position) is held out to
    measure agreement: the network's move is one the label weighs most (the teacher's most
    visited move, or one of flat Monte Carlo's best), over all held-out decisions and over the
    decisive ones, where the label prefers some legal moves to others (where a move matters)."""
    import torch

    count = len(data["returns"])
    held = max(1, count // 10)
    rng = np.random.default_rng([args.seed, round_no])
    obs = torch.from_numpy(data["obs"])
    scale_t = None if scale is None else torch.from_numpy(np.asarray(scale, np.float32))
    masks = torch.from_numpy(data["masks"])
    targets = torch.from_numpy(data["targets"])
    returns = torch.from_numpy(data["returns"])

    device = next(net.parameters()).device  # the data stay on the CPU; each batch moves over

    def features(rows: Any) -> torch.Tensor:
        x = obs[rows].float()
        return (x if scale_t is None else x * scale_t).to(device)

    turn_rows = data.get("turns")
    if turn_rows is not None:  # --arch turns: the rows of decision i start at starts[i]
        counts = masks.sum(1)
        starts = torch.cumsum(counts, 0) - counts
        padded = torch.from_numpy(
            np.concatenate([turn_rows, np.zeros((1, turn_rows.shape[1]), turn_rows.dtype)])
        )

    def batch(rows: Any) -> tuple[tuple[torch.Tensor, ...], torch.Tensor, torch.Tensor]:
        """The network's inputs for decisions ``rows``, which outputs are legal, and the label
        over the outputs: the actions, or for a turn scorer the legal turns in action order."""
        if turn_rows is None:
            return (features(rows),), masks[rows].to(device), targets[rows].to(device)
        slots = torch.arange(int(counts[rows].max()))
        valid = slots < counts[rows][:, None]
        index = torch.where(valid, starts[rows][:, None] + slots, len(padded) - 1)
        actions = torch.argsort((~masks[rows]).to(torch.int8), dim=1, stable=True)
        label = targets[rows].gather(1, actions[:, : len(slots)]) * valid
        turns = padded[index].float().to(device)
        return (features(rows), turns), valid.to(device), label.to(device)

    policy_losses, value_losses = [], []
    net.train()
    for _ in range(args.epochs):
        order = torch.from_numpy(rng.permutation(count - held))
        for start in range(0, len(order), args.batch_size):
            rows = order[start : start + args.batch_size]
            inputs, legal, label = batch(rows)
            logits, value = net(*inputs)
            logits = logits.masked_fill(~legal, -1e9)
            policy_loss = -(label * torch.log_softmax(logits, -1)).sum(-1).mean()
            value_loss = ((value - returns[rows].to(device)) ** 2).mean()
            loss = policy_loss + args.value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            policy_losses.append(policy_loss.item())
            value_losses.append(value_loss.item())
    net.eval()
    hits, decisives = [], []
    with torch.no_grad():
        for start in range(count - held, count, 4096):
            inputs, legal, label = batch(torch.arange(start, min(start + 4096, count)))
            chosen = net(*inputs)[0].masked_fill(~legal, -1e9).argmax(-1)
            top = label.max(-1).values
            hits.append(label.gather(1, chosen[:, None])[:, 0] >= top - 1e-6)  # one it likes most
            low = label.masked_fill(~legal, 2.0).min(-1).values
            decisives.append(low < top - 1e-6)  # the label prefers some legal moves to others
    hit, decisive = torch.cat(hits).cpu(), torch.cat(decisives).cpu()
    return {
        "policy_loss": float(np.mean(policy_losses)) if policy_losses else float("nan"),
        "value_loss": float(np.mean(value_losses)) if value_losses else float("nan"),
        "agreement": float(hit.float().mean()),
        "decisive": float(decisive.float().mean()),
        "decisive_agreement": float(hit[decisive].float().mean()) if decisive.any() else 1.0,
    }


def export(net: Any, game: Game, args: Args, path: Path, half: bool = False, **extra: Any) -> None:
    """The network as numpy weights (``koira_agents.net``): plays without torch."""
    arrays, meta = net.arrays()
    save_arrays(path, game, arrays, half, teacher=args.teacher, **meta, **extra)


# ------------------------------------------------------------------ evaluation
def evaluate(args: Args, folder: Path, round_no: int, model: Path) -> list[Any]:
    """The network and ``eval_opponents`` (every table of them, every seat rotation, the same
    deals each round: a paired curve), by the game's ranking measure: eval.csv's values after
    the clock (``koira_training.evaluation.scores``)."""
    opponents = [
        spec if args.eval_opponents.count(spec) == 1 else f"{spec}-{k + 1}={spec}"
        for k, spec in enumerate(args.eval_opponents)
    ]  # labels: a bot at the table twice (Koira's three dumpers) is numbered
    config = TournamentConfig(
        agents=(f"net=net:{model.resolve()}", *opponents),
        game=args.game,
        rules=args.rules or None,
        players=args.players,
        deals=args.eval_deals,
        seed=10_000 + args.seed,
    )
    out = folder / "eval" / f"round-{round_no:03d}"
    summary = run_tournament(config, out, workers=args.workers)
    return scores(summary, "net", spec(args.game).choices.rank_by)


# ------------------------------------------------------------------ the loop
def _config(args: Args) -> dict[str, Any]:
    """The arguments that decide the run, as config.json holds them (JSON types)."""
    decisive = {k: v for k, v in dataclasses.asdict(args).items() if k not in RUN_LENGTH}
    return json.loads(json.dumps(decisive))


class Rounds(Protocol):
    """What a trainer built on this loop changes round by round (``koira_training.pfsp``, the
    league): the arguments the round's games are played with, and work after the round's
    evaluation, before its checkpoint (so a kill there replays the round, which regenerates
    nothing and fits the same network again)."""

    def round_args(self, args: Args, round_no: int) -> Args: ...

    def after_round(self, args: Args, round_no: int, model: Path, minutes: float) -> None: ...


def train(args: Args, rounds: Rounds | None = None) -> Path:
    """Train (or resume) a run; returns the path of ``latest.npz``. ``rounds`` changes the
    games each round is played with and adds work after it (the league)."""
    import torch

    _teacher(args)  # a bad teacher is an error before any work or file
    if not 0.0 < args.rollout_share <= 1.0:
        raise ValueError(f"--rollout-share must be in (0, 1], got {args.rollout_share}")
    if args.temperature < 0:
        raise ValueError(f"--temperature must be 0 or more, got {args.temperature}")
    backend = Backend(args.backend, args.address or None)  # a bad one: an error before any file
    device = choose_device(args.device)
    folder = args.folder()
    config = _config(args)
    checkpoint = folder / CHECKPOINT
    if args.resume:
        # a flag added after the run was started reads as its default
        saved = {**_config(Args(game=args.game)), **json.loads((folder / CONFIG).read_text())}
        if saved != config:
            changed = sorted(k for k in config if saved.get(k) != config[k])
            raise ValueError(f"--resume with other arguments than the run's: {changed}")
    elif folder.exists() and any(folder.iterdir()):
        raise ValueError(
            f"{folder} is not empty: add --resume to continue that run, or choose another --run-dir"
        )
    game = args.make_game()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    net = build_network(game, args.hidden, args.arch)
    if args.init and not checkpoint.exists():
        load_weights(net, game, args)  # a bad --init: an error before any file
    net = net.to(device)
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / CONFIG, config)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    start_round, minutes = 0, 0.0
    if checkpoint.exists():
        try:
            state = torch.load(checkpoint, weights_only=False, map_location=device)
            net.load_state_dict(state["net"])
            optimizer.load_state_dict(state["optimizer"])
        except Exception as err:  # a torn or foreign file: say which, change nothing
            raise ValueError(f"{checkpoint} is not a usable checkpoint ({err})") from None
        start_round, minutes = state["round"], state["minutes"]
        torch.set_rng_state(state["torch_rng"])
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(folder / "tb"))
    measure = spec(args.game).choices.rank_by
    evaluated = ["round", *eval_columns(measure)[1:]]
    columns = [*evaluated, *FIT_COLUMNS]
    latest = folder / LATEST
    done = start_round  # rounds in the checkpoint
    last_round = 0.0  # minutes of this sitting's last round: the next one must fit too
    for round_no in range(start_round, args.rounds):
        if not round_fits(args.minutes, minutes, last_round):
            break
        began = time.perf_counter()
        student = latest.read_bytes() if round_no > 0 and latest.exists() else None
        played = rounds.round_args(args, round_no) if rounds is not None else args
        generate(played, folder, round_no, student, backend)
        data = load_window(folder, args.window)
        stats = fit(args, net, optimizer, data, round_no, game.observation_scale)
        export(net, game, args, latest, round=round_no)
        result = evaluate(args, folder, round_no, latest)
        if rounds is not None:  # the clock at the round's evaluation
            rounds.after_round(args, round_no, latest, minutes + (time.perf_counter() - began) / 60)
        last_round = (time.perf_counter() - began) / 60
        minutes += last_round
        row = dict(zip(evaluated, [round_no, round(minutes, 2), *result], strict=True))
        row["decisions"] = _count_decisions(folder)
        row.update({k: round(v, 5) for k, v in stats.items()})
        append_round(folder / EVAL_CSV, row, columns)
        for key in (measure, "agreement", "decisive_agreement", "policy_loss", "value_loss"):
            writer.add_scalar(f"distill/{key}", row[key], round_no)
        tmp = checkpoint.with_name(CHECKPOINT + ".tmp")
        torch.save(
            {
                "net": net.state_dict(),
                "optimizer": optimizer.state_dict(),
                "round": round_no + 1,
                "minutes": minutes,
                "torch_rng": torch.get_rng_state(),
            },
            tmp,
        )
        os.replace(tmp, checkpoint)
        done = round_no + 1
        low, high, best_bot, best = columns[3:7]
        print(
            f"round {round_no}: {row['decisions']:,} decisions, {measure.replace('_', ' ')} "
            f"{row[measure]:.3f} [{row[low]:.3f}, {row[high]:.3f}] (best bot {row[best_bot]} "
            f"{row[best]:.3f}), teacher agreement {row['agreement']:.3f} "
            f"({row['decisive_agreement']:.3f} on the {row['decisive']:.0%} decisive labels), "
            f"{row['minutes']:.1f} min",
            flush=True,
        )
    backend.release()
    writer.close()
    if (folder / EVAL_CSV).exists():
        plot_curve(folder, folder / EVAL_PNG, policy="distilled network")
        print(f"curve: {folder / EVAL_PNG}")
    if args.export and done:
        export(net, game, args, Path(args.export), round=done - 1, half=True)
        print(f"exported {args.export} ({Path(args.export).stat().st_size / 1e6:.1f} MB)")
    return latest


def _count_decisions(folder: Path) -> int:
    total = 0
    for path in (folder / "data").glob("round-*/games-*.npz"):
        with np.load(path) as data:
            total += len(data["returns"])
    return total


def append_round(path: Path, row: dict[str, Any], columns: list[str]) -> None:
    """One row of the curve; a resumed run rewrites the rows of rounds it replays."""
    rows = []
    if path.exists():
        with path.open() as f:
            rows = [r for r in csv.DictReader(f) if int(r["round"]) < row["round"]]
    rows.append(row)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.DictWriter(f, columns)
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    args = dataclass_flags(Args, argv, "koira train --algo distill", __doc__.split("\n")[0])
    latest = train(args)
    print(f"model: {latest} (play it with 'net:{latest}')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
