"""The stable API (docs/api/index.md, "The public names"): every listed name imports, a moved
name keeps a warning alias for one release, and each env's version goes up whenever its
observation or rules change."""

from __future__ import annotations

import hashlib
import importlib
import random
import re
from pathlib import Path

import numpy as np
import pytest

import koira_env
from koira_env import registry
from koira_env.core import record

API = (Path(__file__).parent.parent / "docs" / "api").resolve()
INDEX = (API / "index.md").read_text()


def _table(heading: str) -> list[list[str]]:
    """The rows of the first table after ``heading`` in docs/api/index.md, as cells."""
    section = INDEX.split(heading, 1)[1]
    rows = re.findall(r"^\| (`.*) \|$", section.split("\n\n|", 1)[1].split("\n\n", 1)[0], re.M)
    return [[cell.strip() for cell in row.split(" | ")] for row in rows]


PUBLIC = {
    cells[0].strip("`"): re.findall(r"`(\w+)`", cells[1]) for cells in _table("## The public names")
}
ALIASES = {cells[0].strip("`"): cells for cells in _table("Deprecated aliases")}


def test_the_public_names_are_listed_for_every_documented_module():
    documented = {
        line.removeprefix("::: ").strip()
        for page in API.glob("*.md")
        for line in page.read_text().splitlines()
        if line.startswith("::: ")
    }
    assert len(PUBLIC) >= 25 and documented <= set(PUBLIC), documented - set(PUBLIC)
    assert (
        "make_game" in PUBLIC["koira_env.registry"]
        and "run_tournament" in PUBLIC["koira_agents.tournament"]
    )


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_name_imports(module):
    loaded = importlib.import_module(module)
    missing = [name for name in PUBLIC[module] if not hasattr(loaded, name)]
    assert not missing, f"{module} lost its public names {missing}: add a deprecated alias"


def test_a_moved_name_still_works_for_one_release_with_a_warning():
    assert set(ALIASES) == {f"koira_env.core.record.{name}" for name in record.MOVED}
    for name, (where, removed) in record.MOVED.items():
        assert ALIASES[f"koira_env.core.record.{name}"][2] == removed
        with pytest.warns(DeprecationWarning, match=rf"moved to {where}\.{name}; .* {removed}"):
            moved = getattr(record, name)
        assert moved is getattr(importlib.import_module(where), name)
    with pytest.warns(DeprecationWarning):
        from koira_env.core.record import replay  # the documented form of the last release
    state = koira_env.make_game("kop").new_state(seed=3)
    state.apply(state.legal_actions()[0])
    assert replay(record.game_record(state)).history == state.history
    with pytest.raises(AttributeError, match="has no attribute 'nothing_such'"):
        record.nothing_such  # noqa: B018


def fingerprint(game_id: str, **options: object) -> str:
    """A digest of everything a policy depends on: the observation layout at every table size,
    the action count, and the observations, masks and rewards of seeded random games."""
    digest = hashlib.sha256()
    low, high = registry.spec(game_id).players
    for players in range(low, high + 1):
        try:
            game = koira_env.make_game(game_id, players, **options)
        except ValueError:  # a table size this preset is not played at (koira-b: 3-8)
            continue
        layout = sorted((k, s.start, s.stop) for k, s in game.observation_layout.items())
        digest.update(repr((players, game.num_actions, layout)).encode())
    for seed in range(6):
        env = koira_env.make(game_id, **options)
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            digest.update(np.float64(reward).tobytes())
            done = terminated or truncated
            env.step(None if done else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return digest.hexdigest()[:16]


# (env name, fingerprint) of each env: a change of observation or rules changes the fingerprint,
# and must raise the game's SPEC.version, name the change in CHANGELOG.md, and update this row
VERSIONS = {
    "koira": ("koira_v0", {}, "a92e501eac6a791b"),
    "koira-b": ("koira_b_v0", {"rules": "koira-b"}, "d1d99473ebfa631f"),
    "mattis": ("mattis_v0", {"rules": "mattis"}, "73808330fc629332"),
    "mini": ("mini_v0", {"rules": "mini"}, "2a3bdde0b0a72158"),
    "matapesa": ("matapesa_v0", {}, "06282a9b5afe446b"),
    "whist22": ("whist22_v0", {}, "d977bf159c09ca82"),
    "kop": ("kop_v0", {}, "14759b445b6877dc"),
    "dois": ("dois_v2", {}, "20a32375c41eed73"),
    "teka": ("teka_v1", {}, "203ad0271668d965"),
    "red7": ("red7_v0", {}, "6ef7c0183e5dea7e"),
}


@pytest.mark.parametrize("variant", sorted(VERSIONS))
def test_an_env_changes_only_with_its_version(variant):
    name, options, pinned = VERSIONS[variant]
    game_id = "koira" if variant in ("koira-b", "mattis", "mini") else variant
    assert koira_env.make(game_id, **options).metadata["name"] == name
    found = fingerprint(game_id, **options)
    assert found == pinned, (
        f"{name}'s observation or rules changed (fingerprint {found}): raise "
        f"koira_env/games/{game_id} SPEC.version, name the change in CHANGELOG.md, and pin the "
        "new env name and fingerprint here"
    )
