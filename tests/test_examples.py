"""Every Python example in the README, RULES.md and the docs runs against today's API.

Each page's fenced ``python`` blocks run in order in one namespace (a later block may use what
an earlier one made), in a temporary working directory, so a renamed function or option cannot
leave a broken example behind. Shell sessions and sketches belong in ``bash`` / ``text``
fences: a ``python`` block is a promise that it runs.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "RULES.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "games").glob("*.md")),
]
PYTHON = {"python", "py", "python3"}  # fence languages that promise runnable Python
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`{]*)")


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, first code line (1-based) and dedented source."""

    lang: str
    line: int
    source: str


def fenced_blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown page, in order (fences may be indented, as in lists)."""
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence) and not lines[j].strip().strip(fence[0])
        ):
            line = lines[j]
            body.append(line[indent:] if not line[:indent].strip() else line.lstrip())
            j += 1
        blocks.append(Block(opening["lang"].lower(), i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def python_blocks(path: Path) -> list[Block]:
    return [block for block in fenced_blocks(path) if block.lang in PYTHON]


EXAMPLE_PAGES = [page for page in PAGES if python_blocks(page)]


def test_the_examples_are_found():
    """The collector sees the pages and blocks it should (a broken parser passes vacuously)."""
    names = {page.relative_to(ROOT).as_posix() for page in EXAMPLE_PAGES}
    assert {"README.md", "RULES.md", "docs/environment.md"} <= names
    assert sum(len(python_blocks(page)) for page in EXAMPLE_PAGES) >= 10
    readme = fenced_blocks(ROOT / "README.md")
    assert all(block.source.strip() for block in readme)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "page", EXAMPLE_PAGES, ids=[page.relative_to(ROOT).as_posix() for page in EXAMPLE_PAGES]
)
def test_page_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("KOIRA_RESULTS", str(tmp_path / "results"))
    name = page.relative_to(ROOT).as_posix()
    namespace: dict = {"__name__": "__main__"}
    for number, block in enumerate(python_blocks(page), 1):
        where = f"{name}, line {block.line} (python block {number})"
        # Pad so that line numbers in a traceback are the page's own line numbers.
        source = "\n" * (block.line - 1) + block.source
        try:
            exec(compile(source, str(page), "exec"), namespace)
        except Exception as error:
            failure = f"the example at {where} fails: {type(error).__name__}: {error}\n\n"
            failure += "".join(traceback.format_exception(error))
        else:
            continue
        pytest.fail(failure, pytrace=False)
