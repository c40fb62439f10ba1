"""Result files written atomically: a reader (or a resumed run) sees the old file or the new
one, never half of one. Shared by tournaments, experiments and training."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def write_arrays(path: Path, arrays: dict[str, Any], compressed: bool = False) -> None:
    """Named numpy arrays as one ``.npz`` (``np.savez``, or ``savez_compressed``)."""
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    (np.savez_compressed if compressed else np.savez)(tmp, **arrays)
    os.replace(tmp, path)


def write_json(path: Path, data: Any) -> None:
    """JSON without NaN (an estimate without data is written as null)."""
    write_atomic(path, json.dumps(data, indent=1, allow_nan=False) + "\n")


def claim_folder(out: Path, config: dict[str, Any], log: str, what: str = "run") -> None:
    """Make ``out`` belong to ``config`` (saved as config.json); a folder holding another
    configuration, or a ``log`` of results without one, is an error rather than a mix."""
    path = out / "config.json"
    if path.exists():
        try:
            found = json.loads(path.read_text())
        except json.JSONDecodeError:
            found = None
        if found != config:
            differ = sorted(
                k for k in config if not isinstance(found, dict) or found.get(k) != config[k]
            )
            raise ValueError(
                f"{out} holds a different {what} (differs in: {', '.join(differ) or 'format'});"
                " use another --out folder or delete this one"
            )
        return
    if (out / log).exists():
        raise ValueError(f"{out / log} exists without config.json; use another --out or delete it")
    write_json(path, config)


def csv_cell(value: Any) -> str:
    """A CSV field: empty for ``None``, six significant digits for a float, and quoted (its
    quotes doubled, as RFC 4180 and Python's ``csv`` read it) where it holds a comma, a quote
    or a line break."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    text = str(value)
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(path: Path, columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    lines = [",".join(columns)] + [",".join(csv_cell(r.get(c)) for c in columns) for r in rows]
    write_atomic(path, "\n".join(lines) + "\n")


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display on servers and in tests)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path, dpi: int = 80) -> None:
    """Save a matplotlib figure atomically, then close it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.png")
    fig.savefig(tmp, dpi=dpi)
    pyplot().close(fig)
    os.replace(tmp, path)
