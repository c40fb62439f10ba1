"""benchmarks/bench_champion.py: the same positions on both engines, and a row per game."""

from __future__ import annotations

import json
from pathlib import Path

from bench_scripts import load_benchmark

bench = load_benchmark("bench_champion")


def test_both_engines_time_the_same_positions() -> None:
    python, compiled = (bench.positions("kop", engine, 6) for engine in ("python", "compiled"))
    assert [s.view(s.current) for s in python] == [s.view(s.current) for s in compiled]
    assert all(len(s.legal_actions()) > 1 for s in python)


def test_a_row_per_game_with_the_ratio(tmp_path: Path) -> None:
    out = tmp_path / "champion.json"
    bench.main(["--games", "red7", "--positions", "2", "--reps", "1", "--json", str(out)])
    (row,) = json.loads(out.read_text())
    assert row["game"] == "red7" and row["champion"] == "flat:48"
    assert row["python_ms"] > 0 and row["compiled_ms"] > 0
    assert row["ratio"] == row["python_ms"] / row["compiled_ms"]
