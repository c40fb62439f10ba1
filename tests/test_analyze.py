"""``koira analyze``: a Koira record's phase-two decisions annotated with exact values."""

from __future__ import annotations

import json

from agents.base import play_game
from agents.registry import make_agent
from experiments.analyze import analyze, render
from experiments.cli import main
from koira_env.core.record import game_record
from koira_env.games.koira import solve_moves
from koira_env.games.koira.game import make_game
from koira_env.registry import replay_states


def koira_record(seed: int) -> dict:
    """A record of a game between dumpers (they throw escapes away now and then)."""
    game = make_game(4, "koira")
    result = play_game([make_agent("dumper")] * 4, game, None, seed, deal_seed=seed)
    state = game.new_state(deck=list(result.deck), log=True)
    for action in result.actions:
        state.apply(action)
    return game_record(state)


def test_every_decision_gets_the_exact_verdicts_and_mistakes_are_the_thrown_escapes():
    decisions = mistakes = 0
    for seed in range(1, 7):
        result = check_analysis(koira_record(seed))
        decisions += len(result["decisions"])
        mistakes += len(result["mistakes"])
    assert decisions > 10 and mistakes > 0  # dumpers throw escapes away now and then


def check_analysis(record: dict) -> dict:
    result = analyze(record, max_cards=16, deals=2)
    states = replay_states(record)
    for d in result["decisions"]:
        before = states[d["index"]]
        exact = solve_moves(before, 20_000)
        assert {m["action"]: m["exact"] for m in d["moves"]} == exact
        played = states[d["index"] + 1].history[-1]
        assert d["mistake"] == (True in exact.values() and exact[played] is False)
        for m in d["moves"]:  # nothing is hidden this late: the shares are the verdicts
            assert m["escape"] == (None if m["exact"] is None else float(m["exact"]))
    assert result["mistakes"] == [d["index"] for d in result["decisions"] if d["mistake"]]
    text = render(result)
    assert text.count("MISTAKE") == len(result["mistakes"])
    return result


def test_analyze_command_writes_json_and_refuses_other_games(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(koira_record(4)))
    out = tmp_path / "analysis.json"
    assert main(["analyze", str(path), "--agent", "champion", "--json", str(out)]) == 0
    shown = capsys.readouterr().out
    analysis = json.loads(out.read_text())
    assert analysis["format"] == "koira-analysis/1" and analysis["agent"] == "champion"
    assert all("agent" in d for d in analysis["decisions"])
    assert f"{len(analysis['decisions'])} phase-two decisions analysed" in shown
    other = tmp_path / "kop.json"
    other.write_text(json.dumps({"game": "kop", "rules": {}, "deck": [], "actions": []}))
    assert main(["analyze", str(other)]) == 2
    assert "analyze needs a Koira record" in capsys.readouterr().err
