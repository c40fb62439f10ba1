"""``koira analyze``: every decision of a record valued, Koira's phase two exactly, every other
decision (in every game) by the game's analyst."""

from __future__ import annotations

import json
import random

from koira_agents.analyst import Analyst
from koira_agents.base import play_game
from koira_agents.registry import make_agent
from koira_env.core.record import game_record
from koira_env.games.koira import solve_moves
from koira_env.games.koira.game import make_game
from koira_env.registry import make_game as make_any_game
from koira_env.registry import replay_states, spec
from koira_experiments.analyze import EXACT, analyze, decision, render
from koira_experiments.cli import main


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
        decisions += sum(d["by"] == EXACT for d in result["decisions"])
        mistakes += sum(d["by"] == EXACT and d["mistake"] for d in result["decisions"])
    assert decisions > 10 and mistakes > 0  # dumpers throw escapes away now and then


def check_analysis(record: dict) -> dict:
    result = analyze(record, max_cards=16, deals=2)
    states = replay_states(record)
    assert {d["by"] for d in result["decisions"]} <= {EXACT, "flat:16"}  # phase one: flat
    for d in result["decisions"]:
        if d["by"] != EXACT:
            continue
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


def test_analyze_command_writes_json_for_any_game(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(koira_record(4)))
    out = tmp_path / "analysis.json"
    assert main(["analyze", str(path), "--agent", "champion", "--json", str(out)]) == 0
    shown = capsys.readouterr().out
    analysis = json.loads(out.read_text())
    assert analysis["format"] == "koira-analysis/2" and analysis["agent"] == "champion"
    assert all("agent" in d for d in analysis["decisions"])
    assert f"{len(analysis['decisions'])} decisions analysed" in shown
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"game": "kop", "rules": {}, "deck": [], "actions": [99]}))
    assert main(["analyze", str(broken)]) == 2
    assert "not a game record" in capsys.readouterr().err
    kop = tmp_path / "kop.json"
    kop.write_text(json.dumps(game_record_of("kop", "counter", 1)))
    assert main(["analyze", str(kop)]) == 0
    assert "decisions analysed (0 exactly" in capsys.readouterr().out


def game_record_of(game_id: str, bot: str, seed: int) -> dict:
    """A record of one game of ``game_id`` between ``bot``s."""
    game = make_any_game(game_id, **spec(game_id).single_hand)
    bots = [make_agent(bot, game_id)] * game.num_players
    result = play_game(bots, game, None, seed, deal_seed=seed)
    state = game.new_state(deck=list(result.deck), seed=seed, log=True)
    for action in result.actions:
        state.apply(action)
    return game_record(state)


def test_other_games_are_valued_by_their_analyst_and_mistakes_read_the_values():
    """Kop: its champion's open-card values (counter's declarations valued by flat Monte
    Carlo); a mistake is a move played nearer the worst value than the best."""
    record = game_record_of("kop", "lowest", 2)
    result = analyze(record, deals=1)
    states = replay_states(record)
    assert result["game"] == "kop" and result["analyst"] == "champion"
    assert {d["by"] for d in result["decisions"]} <= {"champion", "flat:16"}
    assert any(d["by"] == "champion" for d in result["decisions"])
    for d in result["decisions"]:
        before = states[d["index"]]
        values = {m["action"]: m["value"] for m in d["moves"]}
        assert sorted(values) == before.legal_actions()
        best, worst = max(values.values()), min(values.values())
        played = values[states[d["index"] + 1].history[-1]]
        if abs(best - played - (best - worst) / 2) > 1e-3:  # clear of the rounding
            assert d["mistake"] == (best - played > (best - worst) / 2)
        assert values[before.game.action_id(d["best"])] == best
    assert result["mistakes"]  # lowest sheds points without looking: some moves are bad
    assert render(result).count("MISTAKE") == len(result["mistakes"])


def test_a_hint_values_the_current_decision_without_a_played_move():
    game = make_game(4, "koira")
    state = game.new_state(seed=5)
    row = decision(state, Analyst("koira"), random.Random(1))
    assert row["by"] == "flat:16" and "played" not in row and row["mistake"] is False
    assert {m["action"] for m in row["moves"]} == set(state.legal_actions())
