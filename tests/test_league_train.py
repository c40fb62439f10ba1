"""``koira train --algo league`` (``koira_training.pfsp``): the pool, prioritized fictitious
self-play, the per-round exploitability curve, resuming; and the CSV files it writes."""

from __future__ import annotations

import csv
import json

import pytest

from koira_env.core.files import write_csv
from koira_experiments.cli import main as koira
from koira_training import pfsp
from koira_training.train import main as train_main

TINY = [
    "--game", "red7", "--teacher", "champion", "--games-per-round", "40", "--hidden", "16",
    "--eval-deals", "4", "--pfsp-deals", "2", "--exploit-deals", "2",
    "--exploit-iterations", "4", "--exploiter-iterations", "4", "--workers", "1",
    "--minutes", "0", "--seed", "3", "--exploit-every", "1",
]  # fmt: skip


def test_members_it_loses_to_are_drawn_most():
    weights = pfsp.pfsp_weights({"weak": 0.9, "even": None, "strong": 0.2, "never": 1.0}, 2.0)
    assert weights["strong"] > weights["even"] > weights["weak"] > 0
    assert weights["never"] > 0  # still met now and then
    assert sum(weights.values()) == pytest.approx(1.0)


def test_a_league_grows_its_pool_and_measures_its_exploitability(tmp_path):
    run = tmp_path / "run"
    assert train_main(["--algo", "league", *TINY, "--rounds", "2", "--run-dir", str(run)]) == 0
    rows = list(csv.DictReader((run / pfsp.LEAGUE_CSV).open()))
    assert [r["round"] for r in rows] == ["0", "1"]
    assert all(r["measure"] == "win_rate" and r["gain"] != "" for r in rows)
    pools = [json.loads(r["pool"]) for r in rows]
    first, latest = ((run / "snapshots" / f"round-00{r}.npz").resolve() for r in (0, 1))
    assert pools[0] == ["thrifty", f"net:{first}", f"br:4:net:{first}"]  # the next round's
    assert pools[1] == ["thrifty", f"net:{first}", f"net:{latest}", f"br:4:net:{latest}"]
    weights = json.loads((run / "pool.json").read_text())["weights"]
    assert list(weights) == pools[1] and sum(weights.values()) == pytest.approx(1.0)
    assert (run / pfsp.LEAGUE_PNG).exists()
    assert (run / "exploit" / "round-001" / "exploit.json").exists()

    again = tmp_path / "again"  # one round, then the same command resumed for the second
    assert train_main(["--algo", "league", *TINY, "--rounds", "1", "--run-dir", str(again)]) == 0
    more = ["--rounds", "2", "--run-dir", str(again), "--resume"]
    assert train_main(["--algo", "league", *TINY, *more]) == 0
    resumed = list(csv.DictReader((again / pfsp.LEAGUE_CSV).open()))
    keep = ("round", "gain", "gain_low", "gain_high", "weights")
    assert [{k: r[k] for k in keep} for r in resumed] == [{k: r[k] for k in keep} for r in rows]


def test_an_exploiter_model_stands_in_for_the_network_in_both_exploiters(tmp_path):
    run = tmp_path / "run"
    flags = ["--rounds", "1", "--run-dir", str(run), "--exploiter-model", "random"]
    assert train_main(["--algo", "league", *TINY, *flags]) == 0
    (row,) = csv.DictReader((run / pfsp.LEAGUE_CSV).open())
    first = (run / "snapshots" / "round-000.npz").resolve()
    assert json.loads(row["pool"]) == ["thrifty", f"net:{first}", "br:4:random"]
    measured = json.loads((run / "exploit" / "round-000" / "exploit.json").read_text())
    assert measured["agent"] == f"net:{first}" and measured["model"] == "random"


def test_bad_league_flags_are_one_line_errors(capsys):
    flags = ["--field-weights", "1", "--field", "a", "b"]
    assert koira(["train", "--algo", "league", *flags]) == 2
    assert "--field-weights" in capsys.readouterr().err
    assert koira(["train", "--algo", "league", "--field-weights", "0.5", "-1"]) == 2
    assert "--field-weights" in capsys.readouterr().err


def test_csv_cells_with_commas_quotes_and_line_breaks_read_back(tmp_path):
    rows = [{"a": 'say "hi", twice', "b": '["x", "y"]'}, {"a": "two\nlines", "b": None}]
    write_csv(tmp_path / "t.csv", ["a", "b"], rows)
    back = list(csv.DictReader((tmp_path / "t.csv").open(newline="")))
    assert back == [{"a": 'say "hi", twice', "b": '["x", "y"]'}, {"a": "two\nlines", "b": ""}]


def test_the_league_help_documents_distillations_flags_too(capsys):
    with pytest.raises(SystemExit):
        train_main(["--algo", "league", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "where the network trains" in text  # --device, a field of distillation's Args
    assert "the learner's past networks kept in the pool" in text


def test_field_weights_are_numbers():
    args = pfsp.Args(field=("dumper", "greedy"), field_weights=(0.25, 0.75))
    parsed = pfsp.dataclass_flags(
        pfsp.Args, ["--field", "dumper", "greedy", "--field-weights", "0.25", "0.75"], "x", ""
    )
    assert parsed.field_weights == args.field_weights
