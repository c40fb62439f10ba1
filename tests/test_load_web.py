"""The web load script (benchmarks/load_web.py) plays whole games through a real server."""

from __future__ import annotations

import json
import socket

from bench_scripts import load_benchmark


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_load_script_plays_games_through_the_server_without_errors(tmp_path, capsys):
    load = load_benchmark("load_web")
    out = tmp_path / "load.json"
    code = load.main(
        ["--games", "3", "--rounds", "2", "--port", str(free_port()), "--json", str(out)]
    )
    report = json.loads(out.read_text())
    assert code == 0 and report["errors"] == 0 and report["games"] == 6
    assert report["requests"] > 6 * 3  # a table, moves or steps, and a record per game
    assert report["p50_ms"] <= report["p99_ms"] and len(report["server_rss_mb"]) == 3
    assert "6 games (3 at once)" in capsys.readouterr().out
