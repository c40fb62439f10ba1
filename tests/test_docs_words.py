"""The documentation says what the program does: names, defaults and lists that the code
decides are checked against the code, so a change to one fails here until the other follows."""

from __future__ import annotations

import re
from pathlib import Path

from agents.registry import default_opponent
from koira_env.registry import spec

ROOT = Path(__file__).parent.parent


def read(path: str) -> str:
    return " ".join((ROOT / path).read_text().split())  # line breaks are spaces


def test_the_web_page_doc_names_the_real_default_opponent():
    text = read("docs/web.md")
    assert f"Koira's `{default_opponent('koira')}`" in text
    assert "`expert`, else the game's first bot" not in text


def test_training_doc_names_the_shipped_model_as_the_leaderboard_does():
    """The default tournament seats the shipped PPO model under its alias (champion-net)."""
    alias = next(a for a, meant in spec("koira").aliases.items() if meant == "ppo:koira4-ppo")
    text = read("docs/training.md")
    assert f"includes the shipped model as {alias}" in text
    assert 'shipped model as "ppo"' not in text


def test_every_test_file_the_docs_name_exists():
    """The README once said test_games.py executes the notebooks (test_notebooks.py does)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    named = {
        (page.name, name)
        for page in pages
        for name in re.findall(r"\b(test_\w+\.py)\b", page.read_text())
    }
    assert ("README.md", "test_notebooks.py") in named
    assert "`test_notebooks.py` executes the notebooks" in read("README.md")
    missing = sorted((page, name) for page, name in named if not (ROOT / "tests" / name).exists())
    assert not missing, missing
