"""Where a trainer's network learns: ``--device auto|cpu|cuda``, one choice for every
``koira train`` algorithm. ``auto`` takes a CUDA GPU when torch finds one and the CPU
otherwise, and the choice is printed, so a run's log says where it learned."""

from __future__ import annotations

DEVICES = ("auto", "cpu", "cuda")


def choose_device(choice: str) -> str:
    """The torch device ``--device choice`` names on this machine (``"cpu"`` or ``"cuda"``),
    printed with the reason; ``ValueError`` for an unknown choice or ``cuda`` without a GPU."""
    import torch

    if choice not in DEVICES:
        raise ValueError(f"--device must be one of {list(DEVICES)}, got {choice!r}")
    gpu = torch.cuda.is_available()
    if choice == "cuda" and not gpu:
        raise ValueError("--device cuda: torch finds no CUDA GPU here (use --device auto or cpu)")
    device = "cuda" if gpu and choice != "cpu" else "cpu"
    if device == "cuda":
        why = torch.cuda.get_device_name(0)
    else:
        why = "asked for" if choice == "cpu" else "no CUDA GPU found"
    print(f"device: {device} ({why})", flush=True)
    return device
