"""``--device auto|cpu|cuda`` for every trainer: ``auto`` falls back to the CPU and says so,
``cuda`` without a GPU is a clear error before any file, and a run may move between devices
when it resumes. The GPU test runs only where torch finds one."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from koira_training import distill  # noqa: E402
from koira_training import train as ppo  # noqa: E402
from koira_training.device import choose_device  # noqa: E402
from koira_training.train import main as train_main  # noqa: E402

GPU = torch.cuda.is_available()
TINY = ["--teacher", "ismcts:4/8", "--games-per-round", "6", "--eval-deals", "2"]
TINY += ["--hidden", "24", "--workers", "1", "--window", "4000", "--batch-size", "64"]


def test_auto_takes_the_gpu_if_there_is_one_else_the_cpu_and_says_which(capsys):
    assert choose_device("auto") == ("cuda" if GPU else "cpu")
    printed = capsys.readouterr().out
    assert (
        printed.startswith("device: cuda (")
        if GPU
        else printed == ("device: cpu (no CUDA GPU found)\n")
    )
    assert choose_device("cpu") == "cpu"
    assert capsys.readouterr().out == "device: cpu (asked for)\n"


def test_an_unknown_device_is_a_clear_error():
    with pytest.raises(ValueError, match=r"--device must be one of \['auto', 'cpu', 'cuda'\]"):
        choose_device("tpu")


@pytest.mark.skipif(GPU, reason="checks the refusal on a machine without a CUDA GPU")
@pytest.mark.parametrize("algo", ["ppo", "distill"])
def test_cuda_without_a_gpu_is_refused_before_any_file(algo, tmp_path):
    folder = tmp_path / "run"
    with pytest.raises(ValueError, match="--device cuda: torch finds no CUDA GPU here"):
        train_main(["--algo", algo, "--device", "cuda", "--run-dir", str(folder)])
    assert not folder.exists()


def test_the_device_is_where_to_run_not_what_decides_the_run():
    """A run started on a GPU may resume on a CPU and back: the device is not in config.json's
    comparison, as workers or the backend are not."""
    assert "device" in ppo.RUN_LENGTH and "device" in distill.RUN_LENGTH
    assert ppo.parse_args(["--device", "cpu"]).device == "cpu"
    assert ppo.Args().device == distill.Args().device == "auto"


def test_a_distillation_run_on_the_cpu_resumes_under_auto(tmp_path, capsys):
    folder = tmp_path / "run"
    run = ["--algo", "distill", *TINY, "--run-dir", str(folder)]
    assert train_main([*run, "--rounds", "1", "--device", "cpu"]) == 0
    assert "device: cpu (asked for)" in capsys.readouterr().out
    assert train_main([*run, "--rounds", "2", "--resume", "--device", "auto"]) == 0
    assert (folder / "latest.npz").is_file()


@pytest.mark.gpu
@pytest.mark.skipif(not GPU, reason="no CUDA GPU on this machine: the learner runs on the CPU")
def test_a_distillation_round_trains_on_the_gpu_and_exports_numpy_weights(tmp_path):
    folder = tmp_path / "run"
    run = ["--algo", "distill", *TINY, "--run-dir", str(folder), "--rounds", "1"]
    assert train_main([*run, "--device", "cuda"]) == 0
    state = torch.load(folder / distill.CHECKPOINT, weights_only=False, map_location="cpu")
    assert state["round"] == 1 and (folder / "latest.npz").is_file()
