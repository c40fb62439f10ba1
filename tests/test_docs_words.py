"""The documentation says what the program does: names, defaults and lists that the code
decides are checked against the code, so a change to one fails here until the other follows."""

from __future__ import annotations

import re
from pathlib import Path

from koira_agents.registry import default_opponent
from koira_env.registry import games, spec
from koira_experiments.cli import build_parser

ROOT = Path(__file__).parent.parent


def read(path: str) -> str:
    return " ".join((ROOT / path).read_text().split())  # line breaks are spaces


def test_the_web_page_doc_names_the_real_default_opponent():
    text = read("docs/web.md")
    assert f"Koira's `{default_opponent('koira')}`" in text
    assert "`expert`, else the game's first bot" not in text


def test_training_doc_names_the_shipped_model_as_the_leaderboard_does():
    """The default tournament seats the shipped PPO model under its alias (champion-net)."""
    alias = next(
        a for a, meant in spec("koira").choices.aliases.items() if meant == "ppo:koira4-ppo"
    )
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
    files = {path.name for path in (ROOT / "tests").rglob("test_*.py")}
    missing = sorted((page, name) for page, name in named if name not in files)
    assert not missing, missing


def _tournaments() -> str:
    return read("docs/tournaments.md")


def test_tournaments_doc_lists_every_game_for_game():
    found = re.search(r"`--game` \(one of `koira_env.games\(\)`: (.*?); default", _tournaments())
    assert found, "the --game sentence moved"
    assert re.findall(r"`(\w+)`", found.group(1)) == games()
    assert "(coming)" not in _tournaments()


def test_tournaments_doc_ranks_every_game_by_its_spec():
    text = _tournaments()
    for game in games():
        assert f"| `{game}` | `{spec(game).choices.rank_by}` |" in text, game
    rows = re.findall(
        r"^\| `(\w+)` \| `(\w+_rate|mean_place)` \|",
        (ROOT / "docs/tournaments.md").read_text(),
        flags=re.M,
    )
    assert [g for g, _ in rows] == games()


def test_tournaments_doc_lists_every_games_own_bots():
    found = re.search(r"`bots.BOTS`: (.*?)\)\.", _tournaments())
    assert found, "the bot list moved"
    listed = {}
    for part in found.group(1).split(";"):
        title = part.split("`")[0].strip()
        listed[title] = set(re.findall(r"`(\w+)`", part))
    assert listed == {spec(g).title: set(spec(g).load("bots")) for g in games()}


def test_the_docs_say_which_subcommands_take_game():
    """Not every subcommand takes --game: serve chooses in its lobby, replay reads the record."""
    import argparse

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    taking = sorted(
        name
        for name, sub in commands.choices.items()
        if any("--game" in action.option_strings for action in sub._actions)
    )
    found = re.search(r"The subcommands (.*?) take `--game`", _tournaments())
    assert found and sorted(re.findall(r"`(\w+)`", found.group(1))) == taking
    for path in ("README.md", "docs/tournaments.md"):
        assert "very subcommand takes `--game`" not in read(path)
        assert "very command takes `--game`" not in read(path)


def test_training_doc_and_help_make_minutes_the_budget_of_one_invocation():
    """--minutes once counted from the run's first start, so a resume with the same budget
    trained one more round; the help and the doc say what it is now."""
    from koira_training.args import _field_docs
    from koira_training.train import Args  # torch only when training

    assert "budget of this invocation" in " ".join(_field_docs(Args)["minutes"].split())
    text = read("docs/training.md")
    assert "It is the budget of this invocation: `--resume` with `--minutes 30`" in text
    assert "--minutes 60 --resume" not in text


def test_every_test_rules_md_names_exists():
    """RULES.md pins each rule to a test (``X::test`` is ``test_X.py::test``, in the game's
    folder ``tests/games/<id>/`` or in ``tests/``); folding tests must not orphan one."""
    files = {path.stem: path for path in (ROOT / "tests").rglob("test_*.py")}
    refs = set(re.findall(r"`([a-z0-9_]+)::(test_[a-z0-9_]+)`", read("RULES.md")))
    assert len(refs) > 200
    missing = []
    for module, name in sorted(refs):
        path = files.get(f"test_{module}")
        if path is None or not re.search(rf"^def {name}\(", path.read_text(), re.M):
            missing.append(f"{module}::{name}")
    assert missing == []
