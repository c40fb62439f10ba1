"""benchmarks/bench_search.py: the same positions on both engines, rows per game."""

from __future__ import annotations

import json
from pathlib import Path

from bench_scripts import load_benchmark

bench = load_benchmark("bench_search")


def test_both_engines_time_the_same_positions() -> None:
    python, compiled = (bench.positions("teka", engine, 5) for engine in ("python", "compiled"))
    assert [s.view(s.current) for s in python] == [s.view(s.current) for s in compiled]
    assert all(len(s.legal_actions()) > 1 for s in python)


def test_rows_per_game_with_the_speed_up_against_the_reference(tmp_path: Path) -> None:
    out = tmp_path / "search.json"
    argv = ["--games", "kop,matapesa", "--positions", "2", "--reps", "1", "--iterations", "5"]
    rows = bench.main([*argv, "--json", str(out)])
    assert json.loads(out.read_text())["results"] == rows
    assert [(r["game"], r["agent"].split(",")[1].strip()) for r in rows] == [
        (game, part)
        for game in ("kop", "matapesa")
        for part in ("python loop", "python loop", "compiled")
    ]
    for game in ("kop", "matapesa"):
        first, *rest = [r for r in rows if r["game"] == game]
        assert first["speedup"] == 1.0
        assert all(r["speedup"] == first["ms_per_decision"] / r["ms_per_decision"] for r in rest)
