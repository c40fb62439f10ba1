"""Ship a trained model small: ``python -m training.export runs/koira4/latest.zip out.zip``.

A run's model files carry Adam's moment estimates (two more copies of every weight) so
that a resumed run continues smoothly. A model that is only played needs none of that, so
the export replaces the optimizer by a fresh one (SB3 still expects one when loading) and
keeps the weights and the ``koira.json`` metadata; the result loads with ``ppo:`` as before.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agents.ppo import read_metadata

from .train import save_model


def export(src: str | Path, dst: str | Path) -> Path:
    """Write ``src`` without its optimizer state to ``dst`` (atomically)."""
    from sb3_contrib import MaskablePPO

    meta = read_metadata(src)
    model = MaskablePPO.load(src, device="cpu")
    policy = model.policy
    policy.optimizer = type(policy.optimizer)(policy.parameters(), **policy.optimizer.defaults)
    save_model(model, Path(dst), meta)
    return Path(dst)


def main(argv: list[str] | None = None) -> int:
    src, dst = argv if argv is not None else sys.argv[1:]
    out = export(src, dst)
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
