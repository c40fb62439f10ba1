"""Experiments: quick settings write their outputs, stopped runs resume to the same files, the
risk policies follow their rules, and the probe gets known positions right."""

from __future__ import annotations

import csv
import json
import random
import re
from collections import Counter

import pytest

from koira_agents.base import play_game, play_out
from koira_agents.registry import agent_factories, default_agents, make_agent
from koira_env import make_game
from koira_env.cards import RANK_OF, card_id
from koira_env.games.koira.engine import HAND, RISK, STOCK, TRICK, UNKNOWN, WON, State, new_game
from koira_experiments import probe, risk, wars
from koira_experiments.cli import build_parser, first_sentence, main

OUTPUTS = {
    "risk": ["risk.json", "risk.csv", "risk_threshold.png", "risk_stock.png"],
    "probe": ["probe.json", "points.csv", "table.csv", "probe_heatmap.png"],
    "wars": ["wars.json", "wars.csv", "duels.csv", "wars.png"],
}
MODULES = {"risk": risk, "probe": probe, "wars": wars}


def files(folder, names):
    return {n: (folder / n).read_bytes() for n in names}


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_quick_run_writes_outputs_and_a_stopped_run_resumes_to_the_same_files(
    tmp_path, name, capsys
):
    assert main(["experiment", name, "--quick", "--out", str(tmp_path / "whole"), "--quiet"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"results in {tmp_path / 'whole'}/"
    head = printed[:-1]  # the headline: the main result with its numbers, before "results in"
    assert 1 <= len(head) <= 2
    assert all(re.search(r"-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]", line) for line in head), head
    whole = files(tmp_path / "whole", OUTPUTS[name])
    assert all(len(b) > 100 for b in whole.values())
    assert json.loads(whole[OUTPUTS[name][0]])["complete"]
    part = tmp_path / "part"
    args = ["experiment", name, "--quick", "--out", str(part), "--quiet", "--workers", "1"]
    assert main([*args, "--max-tasks", "3"]) == 0
    assert not json.loads((part / OUTPUTS[name][0]).read_text())["complete"]
    if name != "risk":  # risk's logs are tournament logs, whose torn lines are tested there
        with (part / "tasks.jsonl").open("a") as log:
            log.write('{"key": "koira/4", "ga')  # a write cut short by a kill
    assert main(args) == 0
    assert files(part, OUTPUTS[name]) == whole


def _summaries(help_text: str) -> dict[str, str]:
    """``koira experiment --help``'s subcommand summaries, their wrapped lines joined."""
    found: dict[str, str] = {}
    name = None
    for line in help_text.splitlines():
        words = line.split()
        if line.startswith("    ") and words and words[0] in MODULES:
            name = words[0]
            found[name] = " ".join(words[1:])
        elif name and line.startswith(" " * 8):
            found[name] += " " + line.strip()
        else:
            name = None
    return found


def test_experiment_help_summaries_are_whole_sentences(capsys):
    """They were the docstrings' first lines, cut mid-sentence ("... better than")."""
    with pytest.raises(SystemExit):
        main(["experiment", "--help"])
    found = _summaries(capsys.readouterr().out)
    assert sorted(found) == sorted(MODULES)
    for name, summary in found.items():
        assert summary[-1] in ".?", summary
        assert summary == first_sentence(MODULES[name].__doc__.replace("``", ""))
    assert found["probe"].endswith("than playing the best card in hand?")


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_each_experiment_help_says_what_it_measures_and_writes(name, capsys):
    with pytest.raises(SystemExit):
        main(["experiment", name, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert first_sentence(MODULES[name].__doc__.replace("``", "")) in text
    missing = [output for output in OUTPUTS[name] if output not in text]
    assert not missing, missing


def test_a_folder_of_another_experiment_setting_is_refused(tmp_path):
    wars.run(tmp_path, quick=True, max_tasks=1, workers=1)
    with pytest.raises(ValueError, match=r"different experiment.*deals"):
        wars.run(tmp_path, quick=True, deals=7, workers=1)


def test_wars_field_sets_the_opponents_of_the_tie_seeker_and_the_tie_avoider(tmp_path):
    result = wars.run(tmp_path, deals=2, field="expert", workers=1)
    rows = result["rules"]["koira"]["lineups"]
    assert [x["lineup"] for x in rows] == [
        "expert+expert+expert+expert",
        "warrior+warrior+warrior+warrior",
        "dumper+dumper+dumper+dumper",
        "warrior+expert+expert+expert",
        "dumper+expert+expert+expert",
    ]
    assert rows[3]["focal"] == "warrior" and rows[3]["games"] == 2 * 4  # every rotation
    with pytest.raises(ValueError, match="different experiment"):  # greedy's folder is another
        wars.run(tmp_path, deals=2, workers=1)


def test_wars_unknown_field_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(ValueError, match="nobody"):
        wars.run(tmp_path / "w", deals=2, field="nobody", workers=1)
    assert not (tmp_path / "w").exists()


def test_risk_quick_numbers_are_loss_rates_with_intervals(tmp_path):
    result = risk.run(tmp_path, quick=True, workers=1)
    for row in result["policies"]:
        assert row["games"] == 4 * 8
        assert 0 <= row["loss_low"] <= row["loss_rate"] <= row["loss_high"] <= 1
    best = result["best"]["dumper"]
    assert best["best"]["loss_rate"] == min(r["loss_rate"] for r in result["policies"])


# ------------------------------------------------------------------ risk policies
def test_risk_spec_round_trip_and_errors():
    agent = make_agent("risk:below=9,beaten=1,min_stock=10,max_stock=30")
    assert (agent.below, agent.beaten, agent.min_stock, agent.max_stock) == (9, True, 10, 30)
    assert risk.spec_of(9, True, 10, 30) == "risk:below=9,beaten=1,min_stock=10,max_stock=30"
    with pytest.raises(ValueError, match="bad knob"):
        make_agent("risk:threshold=3")
    with pytest.raises(ValueError, match=r"0\.\.13"):
        make_agent("risk:below=14")
    assert make_agent("risk:base=dumper").cards.name == "dumper"
    assert make_agent("risk:below=3,base=dumper").name == "risk:below=3,base=dumper"
    with pytest.raises(ValueError, match="cannot be a risk policy"):
        make_agent("risk:base=risk:below=3")


def test_the_base_plays_the_cards_and_the_rule_alone_risks():
    """``below=0`` plays exactly as its base (a bot that never risks), and a base that risks on
    its own (``gambler``) or a search that might never does inside a policy that says no."""
    game = make_game("koira", 4)
    for seed in range(6):
        plain = play_game([make_agent("dumper")] * 4, game, None, seed, deal_seed=seed)
        policy = [make_agent("risk:below=0,base=dumper")] * 4
        assert play_game(policy, game, None, seed, deal_seed=seed).actions == plain.actions
    for base in ("gambler", "ismcts:4"):
        never = [make_agent(f"risk:below=0,base={base}"), *[make_agent("gambler")] * 3]
        risked = Counter()
        for seed in range(4):
            state = play_out(game.new_state(seed=seed, log=True), never, seed)
            risked.update(e["player"] for e in state.log if e.get("risked"))
        assert risked[0] == 0 and sum(risked.values()) > 0, (base, risked)


def test_default_tournaments_leave_out_the_risk_family():
    build_parser()  # imports the experiments, which register "risk"
    assert "risk" in agent_factories() and "risk" not in default_agents()


def rank_cards(*names):
    return tuple(card_id(n) for n in names)


def test_risk_rule_threshold_beaten_and_stock_window():
    weak, strong = rank_cards("2C", "7D", "9H"), rank_cards("2C", "7D", "AH")
    king = [(0, card_id("KS"))]
    threshold = risk.RiskAgent(below=9)
    assert threshold.wants_risk(weak, [], 20, True)  # best card 9 (rank 7) is below a jack
    assert not threshold.wants_risk(strong, [], 20, True)
    beaten = risk.RiskAgent(beaten=True)
    assert beaten.wants_risk(weak, king, 20, True)  # nothing beats or ties the king
    assert not beaten.wants_risk(strong, king, 20, True)
    assert not beaten.wants_risk(weak, [], 20, True)  # leading: any card takes the lead
    early = risk.RiskAgent(below=13, min_stock=25)
    assert early.wants_risk(strong, [], 30, True) and not early.wants_risk(strong, [], 24, True)


# ------------------------------------------------------------------ the probe
PILE = [(0, "6H"), (1, "9C"), (2, "7H"), (3, "9D"), (1, "5C")]


def war_position(my_hand: list[str], hidden: list[str]) -> State:
    """Late phase one: seats 1 and 3 tied on nines, seat 1 played 5C in the war, seat 3 to play.

    The seven ``hidden`` cards fill the other hands (2, 1 and 2 cards) and the two-card stock;
    every other card lies in a public won pile, so seat 3 knows exactly which cards could be
    on top of the stock.
    """
    s = new_game(4, "koira", seed=0)
    pile = [(p, card_id(c)) for p, c in PILE]
    mine = [card_id(c) for c in my_hand]
    unseen = [card_id(c) for c in hidden]
    used = {c for _, c in pile} | set(mine) | set(unseen)
    rest = [c for c in range(52) if c not in used]
    s.hands = [unseen[0:2], unseen[2:3], unseen[3:5], mine]
    s.stock = unseen[5:7]
    s.won = [rest[p::4] for p in range(4)]
    s.pub[:] = bytes([UNKNOWN]) * 52
    for p in range(4):
        for c in s.hands[p]:
            s.loc[c] = HAND + p
        for c in s.won[p]:
            s.loc[c] = s.pub[c] = WON + p
    for c in s.stock:
        s.loc[c] = STOCK
    for _, c in pile:
        s.loc[c] = s.pub[c] = TRICK
    s.pile, s.round_cards = pile, pile[-1:]
    s.round_players, s.round_pos = [1, 3], 1
    s.in_war, s.war_rank, s.war_depth = True, 7, 1
    s.current, s.last_winner = 3, 0
    return s


LOW = ["2C", "2D", "2H", "2S", "3C", "3D", "3H"]
HIGH = ["AC", "AD", "AH", "AS", "KC", "KD", "KH"]


def pile_winner(state: State, action: int) -> int:
    s = state.clone()
    s.apply(action)
    return next(p for p in range(4) if card_id("5C") in s.won[p])


@pytest.mark.parametrize(
    ("hand", "hidden", "risk_takes_pile"),
    [(["AS", "KS"], LOW, False), (["4C", "4D"], HIGH, True)],
)
def test_probe_finds_the_sign_of_a_known_position(hand, hidden, risk_takes_pile):
    """Only low (high) cards are unseen, so risking surely loses (wins) the war pile of middling
    cards (6H 9C 7H 9D 5C) that any hand card surely wins (loses): whoever takes the pile
    starts phase two with more, weaker cards. In every deal of the unseen cards the trick goes
    as designed, and with common random numbers 150 rollouts give the sign with a wide margin
    (400 rollouts, seed 1: risk minus best card +0.52 [0.44, 0.60] and -0.44 [-0.50, -0.37])."""
    state = war_position(hand, hidden)
    assert sorted(state.legal_actions()) == sorted([card_id(c) for c in hand] + [RISK])
    for i in range(20):
        world = state.determinize(3, random.Random(i))
        assert (pile_winner(world, RISK) == 3) is risk_takes_pile
        for c in hand:
            assert (pile_winner(world, card_id(c)) == 3) is not risk_takes_pile
    values = probe.probe(state, 150, seed=3)
    summary = probe.risk_minus_best(values)
    if risk_takes_pile:
        assert summary["diff_high"] < -0.15
        assert summary["risk_loss"] > summary["best_loss"]
    else:
        assert summary["diff_low"] > 0.15
        assert summary["risk_loss"] < summary["best_loss"]


def test_probe_tabulates_the_position_in_the_trick(tmp_path):
    result = probe.run(tmp_path, quick=True, workers=1)
    points = list(csv.DictReader((tmp_path / "points.csv").open()))
    for p in points:
        assert int(p["leading"]) == (int(p["played"]) == 0)
    by_played = [r for r in result["table"] if r["by"] == "played"]
    assert sum(r["n"] for r in by_played) == len(points)
    assert {r["group"] for r in by_played} == {int(p["played"]) for p in points}


def test_probe_uses_common_random_numbers():
    """Two actions that lead to the same state get identical per-rollout returns, and a rerun
    with the same seed repeats every number."""
    state = war_position(["4C", "4D"], HIGH)  # both fours lose the war the same way
    a = probe.probe(state, 30, seed=5)
    b = probe.probe(state, 30, seed=5)
    assert a == b
    assert a[card_id("4C")].returns != a[RISK].returns
    fours = [a[card_id(c)].returns for c in ("4C", "4D")]
    same = sum(x == y for x, y in zip(*fours, strict=True))
    assert same >= 20  # only the suit of the kept four differs in phase two


def test_endgame_census_counts_decisions_and_an_exact_player_misses_no_escape(tmp_path):
    from koira_experiments import endgames

    args = ["--agent", "solver:1:0:12:200000", "--max-cards", "12", "--max-nodes", "200000"]
    rows = endgames.main([*args, "--games", "4", "--out", str(tmp_path)])
    rows = rows["rows"]
    assert rows and (tmp_path / "census.csv").exists() and (tmp_path / "census.json").exists()
    for row in rows:
        assert row["decisive"] <= row["decisions"] and row["missed"] <= row["decisive"]
    assert [r["cards"] for r in rows] == ["2-8", "9-12"]  # --max-cards 12
    assert sum(r["decisive"] for r in rows) > 0  # decisions the exact player met ...
    assert sum(r["missed"] for r in rows) == 0  # ... and never got wrong


def test_the_tie_probe_compares_the_best_tying_card_with_the_best_other(tmp_path):
    """``--choice tie``: every sampled point offers a card that ties the round's top card so far
    (by the engine's trigger: a later war is what the game then shows) and one that does not."""
    state = war_position(["9S", "4C"], LOW)  # seat 3 in a war over 5C: nothing ties a 5 here
    assert probe.tying_cards(state) == set()
    tied = new_game(4, "koira", seed=0)
    while not (tied.round_cards and probe.options(tied, "tie")):
        tied.apply(tied.legal_actions()[-1])
    played = {RANK_OF[c] for _, c in tied.round_cards}
    assert all(RANK_OF[card] in played for card in probe.tying_cards(tied))
    values = probe.probe(tied, 12, seed=1)
    row = probe.option_minus_best(values, probe.options(tied, "tie"), "tie")
    assert row["tie_card"] in probe.tying_cards(tied)
    assert row["best_card"] not in probe.tying_cards(tied)
    assert row["diff"] == pytest.approx(row["tie_return"] - row["best_return"])
    result = probe.run(tmp_path, quick=True, workers=1, choice="tie")
    assert result["config"]["choice"] == "tie" and result["overall"]["n"] == result["points"] > 0
    points = list(csv.DictReader((tmp_path / "points.csv").open()))
    assert all(p["tie_card"] != p["best_card"] for p in points)
    with pytest.raises(ValueError, match="--choice must be one of risk, tie"):
        probe.run(tmp_path / "bad", quick=True, choice="war")
