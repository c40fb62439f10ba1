"""The self-play league: who sits in the learner's opponent seats, drawn per seat per episode.

Each opponent seat independently gets, with the probabilities of ``LeagueMix``:
the latest policy (self-play proper), one of the earlier snapshots (so the learner keeps
beating its old selves instead of cycling), or one of the heuristic bots (so it learns to
exploit the kind of play it will be judged against). Policies sample their moves, which keeps
the opponents varied. The trainer publishes policies by writing ``league.json`` in the run
folder; each env process re-reads it when it changes, so no messages cross processes.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koira_agents.base import Turn
from koira_agents.ppo import PolicyPlayer, load_policy
from koira_agents.registry import make_agent
from koira_env.core.game import Game
from koira_env.core.single_agent import Opponent

MANIFEST = "league.json"


@dataclass(frozen=True)
class LeagueMix:
    """Probabilities of each opponent kind; a kind with nothing in it yet gives way to bots."""

    latest: float = 0.3
    snapshots: float = 0.2
    bots: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if min(self.latest, self.snapshots) < 0 or self.latest + self.snapshots > 1:
            raise ValueError("league probabilities must be >= 0 and sum to at most 1")
        if self.latest + self.snapshots < 1 and not self.bots:
            raise ValueError("the league needs bots when latest + snapshots < 1")


def bot_opponent(spec: str, game: Game, rng: random.Random) -> Opponent:
    """A registered bot as an opponent callable: it sees only its seat's view."""
    agent = make_agent(spec, game.id)
    return lambda state, seat: agent.act(Turn(state.view(seat), game, rng, state))


def policy_opponent(player: PolicyPlayer, rng: random.Random) -> Opponent:
    """A loaded policy as an opponent callable, sampling its moves with ``rng``."""
    return lambda state, seat: player.act(state, seat, rng)


def write_manifest(run_dir: Path, latest: str | None, snapshots: list[str]) -> None:
    """Publish the league (paths relative to ``run_dir``) atomically."""
    tmp = run_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps({"latest": latest, "snapshots": snapshots}))
    os.replace(tmp, run_dir / MANIFEST)


def read_manifest(run_dir: Path) -> dict[str, Any]:
    path = run_dir / MANIFEST
    if not path.exists():
        return {"latest": None, "snapshots": []}
    return json.loads(path.read_text())


class League:
    """An ``OpponentSampler`` for ``SingleAgentEnv`` reading the run folder's manifest."""

    def __init__(self, run_dir: str | Path, game: Game, mix: LeagueMix) -> None:
        self.run_dir = Path(run_dir)
        self.game = game
        self.mix = mix
        self._stamp: int | None = None
        self._players: dict[Path, PolicyPlayer] = {}
        self.latest: Path | None = None
        self.snapshots: list[Path] = []

    def _refresh(self) -> None:
        try:
            stamp = (self.run_dir / MANIFEST).stat().st_mtime_ns
        except FileNotFoundError:
            return
        if stamp != self._stamp:
            data = read_manifest(self.run_dir)
            self.latest = self.run_dir / data["latest"] if data["latest"] else None
            self.snapshots = [self.run_dir / p for p in data["snapshots"]]
            self._stamp = stamp
            self._players = {}  # the latest policy is rewritten before each manifest

    def _player(self, path: Path) -> PolicyPlayer:
        if path not in self._players:
            policy = load_policy(path, self.game)
            self._players[path] = PolicyPlayer(policy, self.game, deterministic=False)
        return self._players[path]

    def kind(self, rng: random.Random) -> str:
        """Which kind of opponent the next draw gives: "latest", "snapshot" or "bot"."""
        u = rng.random()
        if u < self.mix.latest and self.latest is not None:
            return "latest"
        if self.mix.latest <= u < self.mix.latest + self.mix.snapshots and self.snapshots:
            return "snapshot"
        return "bot"

    def __call__(self, rng: random.Random) -> Opponent:
        self._refresh()
        kind = self.kind(rng)
        if kind == "latest":
            return policy_opponent(self._player(self.latest), rng)
        if kind == "snapshot":
            return policy_opponent(self._player(rng.choice(self.snapshots)), rng)
        return bot_opponent(rng.choice(self.mix.bots), self.game, rng)
