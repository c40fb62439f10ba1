"""What a wheel carries: the version from one place, the shipped models as package data found
by name, and no paths of the machine that trained them. CI builds and installs the wheel itself
(``.ci/wheel_smoke.sh``); these checks are the fast part that runs everywhere."""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import koira_env
from koira_agents.ppo import MODELS, model_path, read_metadata, shipped_models
from koira_agents.registry import make_agent
from koira_experiments.cli import main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# Where a training machine's paths show up: temp and home folders, a run folder's contents.
MACHINE_PATHS = re.compile(r"/tmp|/root|/home|/Users|/work|[A-Za-z]:\\|runs/|snapshots/")


def test_the_version_is_written_once_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    dynamic = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "koira_env.__version__"}
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"koira-rl {koira_env.__version__}"


def test_the_changelog_starts_at_the_current_version() -> None:
    versions = re.findall(r"^## \[?(\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert versions[0] == koira_env.__version__
    assert "0.1.0" in versions


def test_every_shipped_model_is_package_data() -> None:
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["koira_agents"]
    assert MODELS == ROOT / "agents" / "models"
    assert shipped_models(), "no shipped model"
    for path in shipped_models():
        relative = path.relative_to(ROOT / "agents").as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative


@pytest.mark.parametrize("path", shipped_models(), ids=lambda p: p.name)
def test_shipped_models_hold_no_machine_paths(path: Path) -> None:
    """Every text entry of the zip (SB3's ``data``, ``koira.json``, ...) is free of the
    training machine's folders; ``python -m koira_training.export`` leaves them out."""
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            try:
                text = archive.read(name).decode()
            except UnicodeDecodeError:
                continue  # torch's weights
            found = sorted(set(MACHINE_PATHS.findall(text)))
            assert not found, f"{path.name}:{name} holds {found}"
    meta = read_metadata(path)
    assert "snapshots" not in meta and "run_dir" not in meta.get("args", {})
    with zipfile.ZipFile(path) as archive:
        assert json.loads(archive.read("data"))["tensorboard_log"] is None


def test_a_shipped_model_is_found_by_name_and_a_path_still_works(tmp_path: Path) -> None:
    shipped = MODELS / "koira4-ppo.zip"
    assert model_path("koira4-ppo") == shipped
    assert make_agent("ppo:koira4-ppo").path == shipped
    copy = tmp_path / "mine.zip"
    copy.write_bytes(shipped.read_bytes())
    assert make_agent(f"ppo:{copy}").path == copy
    with pytest.raises(ValueError, match=r"no model file at nothing-such \(shipped models, by "):
        make_agent("ppo:nothing-such")


def test_the_wheel_installs_only_names_that_start_with_koira(tmp_path: Path) -> None:
    """A user's own ``agents/`` or ``training/`` folder, or another distribution's ``agents``
    package, cannot shadow the suite: every top-level name of the built wheel is the suite's."""
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run(
        [*pip, "--wheel-dir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("koira_rl-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"koira_env", "koira_agents", "koira_training", "koira_experiments"}
    assert "koira_agents/models/koira4-ppo.zip" in names
    assert "koira_experiments/web/static/index.html" in names
    assert any(
        n.startswith("koira_env/games/koira/_compiled.") and n.endswith(".so") for n in names
    )
