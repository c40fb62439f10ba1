"""Ship a trained model small: ``python -m koira_training.export runs/koira4/latest.zip out.zip``.

A run's model files carry Adam's moment estimates (two more copies of every weight) so
that a resumed run continues smoothly. A model that is only played needs none of that, so
the export replaces the optimizer by a fresh one (SB3 still expects one when loading) and
keeps the weights and the ``koira.json`` metadata; the result loads with ``ppo:`` as before.
Paths of the training machine (the run folder, its snapshots, the TensorBoard folder) mean
nothing where the model is shipped to, so the export leaves them out.
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

from koira_agents.ppo import META_NAME, read_metadata


def save_model(model: Any, path: Path, meta: dict[str, Any]) -> None:
    """The MaskablePPO zip plus ``koira.json``, written to a temp file then renamed."""
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(tmp)
    with zipfile.ZipFile(tmp, "a") as archive:
        archive.writestr(META_NAME, json.dumps(meta, indent=1))
    os.replace(tmp, path)


def shipping_metadata(meta: dict[str, Any]) -> dict[str, Any]:
    """``koira.json`` without the run's paths: the run folder and its league snapshots."""
    shipped = {key: value for key, value in meta.items() if key != "snapshots"}
    if isinstance(meta.get("args"), dict):
        shipped["args"] = {k: v for k, v in meta["args"].items() if k != "run_dir"}
    return shipped


def export(src: str | Path, dst: str | Path) -> Path:
    """Write ``src`` without its optimizer state or machine paths to ``dst`` (atomically)."""
    from sb3_contrib import MaskablePPO

    meta = read_metadata(src)
    model = MaskablePPO.load(src, device="cpu")
    model.tensorboard_log = None  # SB3 saves it in the "data" entry
    policy = model.policy
    policy.optimizer = type(policy.optimizer)(policy.parameters(), **policy.optimizer.defaults)
    save_model(model, Path(dst), shipping_metadata(meta))
    return Path(dst)


def main(argv: list[str] | None = None) -> int:
    src, dst = argv if argv is not None else sys.argv[1:]
    out = export(src, dst)
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
