"""Every notebook runs top to bottom on the quick setting (results made in a temp folder)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    assert {p.stem for p in NOTEBOOKS} >= {"quickstart", "risk_it", "wars"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("KOIRA_RESULTS", str(tmp_path))
    book = nbformat.read(path, as_version=4)
    NotebookClient(
        book, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    outputs = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    if path.stem == "quickstart":  # the env's own rewards are empty once the game is over
        text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
        found = re.search(r"final rewards: (\{.*?\});", text)
        assert found, text
        rewards = ast.literal_eval(found.group(1))
        assert sorted(rewards) == [f"player_{p}" for p in range(4)], rewards
        assert -1.0 in rewards.values()  # Koira's loser
    if path.stem != "quickstart":
        assert any("image/png" in o.get("data", {}) for o in outputs), "no figure drawn"
        assert list(tmp_path.glob("*-quick/config.json")), "the quick setting did not run"
