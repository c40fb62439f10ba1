"""Search distillation (``koira train --algo distill``) and the network agent (``net:``)."""

from __future__ import annotations

import csv
import dataclasses
import json
import random

import numpy as np
import pytest

pytest.importorskip("torch")

from koira_agents.base import play_game
from koira_agents.net import NetAgent, NetPolicy, save_net
from koira_agents.registry import make_agent
from koira_env import make_game
from koira_env.registry import spec
from koira_training import distill
from koira_training.train import main as train_main

TINY = [
    "--teacher",
    "ismcts:4/8",
    "--games-per-round",
    "6",
    "--eval-deals",
    "2",
    "--hidden",
    "24",
    "--workers",
    "1",
    "--window",
    "4000",
    "--batch-size",
    "64",
]


def curve(folder):
    with (folder / distill.EVAL_CSV).open() as f:
        return [{k: v for k, v in row.items() if k != "minutes"} for row in csv.DictReader(f)]


def run_files(folder):
    names = sorted(p.relative_to(folder) for p in (folder / "data").rglob("*.npz"))
    return {str(n): (folder / n).read_bytes() for n in names}


def test_a_run_stopped_and_resumed_equals_one_run(tmp_path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    assert train_main(["--algo", "distill", *TINY, "--rounds", "2", "--run-dir", str(whole)]) == 0
    assert train_main(["--algo=distill", *TINY, "--rounds", "1", "--run-dir", str(parts)]) == 0
    assert len(curve(parts)) == 1
    for bad in (["--run-dir", str(parts)], ["--run-dir", str(parts), "--resume", "--hidden", "8"]):
        with pytest.raises(ValueError, match=r"not empty|other arguments"):
            train_main(["--algo", "distill", *TINY, "--rounds", "2", *bad])
    args = ["--algo", "distill", *TINY, "--rounds", "2", "--run-dir", str(parts), "--resume"]
    assert train_main(args) == 0
    assert curve(parts) == curve(whole) and len(curve(whole)) == 2
    assert run_files(parts) == run_files(whole)
    assert (parts / "latest.npz").read_bytes() == (whole / "latest.npz").read_bytes()
    row = curve(whole)[-1]
    assert 0 <= float(row["loss_low"]) <= float(row["loss_rate"]) <= float(row["loss_high"]) <= 1
    assert int(row["decisions"]) > 50 and 0 <= float(row["agreement"]) <= 1
    assert 0 < float(row["decisive"]) <= 1 and 0 <= float(row["decisive_agreement"]) <= 1


def test_labels_are_the_teachers_visit_shares_over_legal_moves(tmp_path):
    args = distill.Args(teacher="ismcts:6/12", field=("dumper", "greedy"))
    data = distill.play_games(args, 0, [0, 1, 2], None)
    targets, masks = data["targets"], data["masks"]
    assert len(targets) > 20 and data["obs"].dtype == np.uint8
    assert np.allclose(targets.sum(axis=1), 1) and not (targets * ~masks).any()
    assert np.isin(data["returns"], np.float32([-1, 1 / 3])).all()  # the loser, the others
    again = distill.play_games(args, 0, [0, 1, 2], None)
    assert all(np.array_equal(data[k], again[k]) for k in data)  # a pure function of the seed
    with pytest.raises(ValueError, match=r"unknown agent 'counter' for koira"):
        distill.train(distill.Args(teacher="counter", run_dir="unused"))  # before any file


def test_a_flat_teacher_labels_its_best_moves_equally():
    args = distill.Args(teacher="flat:4", decisive_only=False)
    data = distill.play_games(args, 0, [0, 1], None)
    targets, masks = data["targets"], data["masks"]
    assert len(targets) > 20 and not (targets * ~masks).any()
    for row in targets:  # the best moves share the label equally
        best = row[row > 0]
        assert np.allclose(best, 1 / len(best))
    assert (targets.max(axis=1) < 1).any()  # ties happen (near-determined phase-two positions)
    uniform = [np.ptp(t[m]) == 0 for t, m in zip(targets, masks, strict=True)]
    assert any(uniform)  # a label that weighs every legal move the same
    decisive = distill.play_games(dataclasses.replace(args, decisive_only=True), 0, [0, 1], None)
    assert len(decisive["targets"]) == len(targets) - sum(uniform)
    assert all(
        np.ptp(t[m]) > 0 for t, m in zip(decisive["targets"], decisive["masks"], strict=True)
    )


def write_net(path, game, hidden=16, seed=0):
    rng = np.random.default_rng(seed)
    d, a = game.observation_size, game.num_actions
    layers = [(rng.normal(size=(hidden, d)), rng.normal(size=hidden))]
    policy = (rng.normal(size=(a, hidden)), rng.normal(size=a))
    save_net(path, game, layers, policy, (rng.normal(size=(1, hidden)), rng.normal(size=1)))


def test_the_net_agent_plays_legal_moves_fast_and_refuses_bad_files(tmp_path):
    game = make_game("koira", 4)
    path = tmp_path / "net.npz"
    write_net(path, game)
    agent = make_agent(f"net:{path}")
    assert isinstance(agent, NetAgent)
    result = play_game([agent, *(make_agent("dumper") for _ in range(3))], game, None, seed=1)
    assert not result.truncated
    policy = NetPolicy.load(path, game)
    obs = game.observation(game.new_state(seed=2), 0)
    assert np.isfinite(policy.value(obs))
    mask = np.zeros(game.num_actions, bool)
    mask[[3, 7]] = True
    assert policy.choose(obs, mask) in (3, 7)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="is not a koira network"):
        make_agent(f"net:{tmp_path / 'junk.npz'}")
    with pytest.raises(ValueError, match="no network file"):
        make_agent(f"net:{tmp_path / 'missing.npz'}")
    other = tmp_path / "kop.npz"
    write_net(other, make_game("kop"))
    with pytest.raises(ValueError, match="trained for kop, not koira"):
        play_game(
            [make_agent(f"net:{other}"), *(make_agent("dumper") for _ in range(3))],
            game,
            None,
            seed=1,
        )
    three = tmp_path / "three.npz"
    write_net(three, make_game("koira", 3))
    with pytest.raises(ValueError, match="num_players: model 3, game 4"):
        NetPolicy.load(three, game)


def test_an_unknown_algorithm_is_a_clear_error(capsys):
    assert train_main(["--algo", "dqn"]) == 2
    assert (
        "--algo must be one of ['ppo', 'distill', 'league'], got 'dqn'" in capsys.readouterr().err
    )


def test_the_checkpoint_of_another_kind_is_refused(tmp_path):
    folder = tmp_path / "run"
    assert train_main(["--algo", "distill", *TINY, "--rounds", "1", "--run-dir", str(folder)]) == 0
    (folder / distill.CHECKPOINT).write_bytes(b"torn")
    args = ["--algo", "distill", *TINY, "--rounds", "2", "--run-dir", str(folder), "--resume"]
    with pytest.raises(ValueError, match="is not a usable checkpoint"):
        train_main(args)
    assert any((folder / "data").rglob("*.npz"))  # the data stays for a retry


def test_a_phase_the_teacher_does_not_search_is_labelled_with_its_rollout_move():
    from koira_env.core.agent import Turn
    from koira_env.games.koira.bots import dumper_move

    game = make_game("koira", 4)
    state = game.new_state(seed=3)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    recorder = distill.Recorder(game, distill._teacher(distill.Args()), None)
    move = recorder.act(Turn(state.view(state.current), game, random.Random(0), state))
    _, mask, target, _ = recorder.rows[0]
    assert move == dumper_move(state) and target[move] == 1 and target.sum() == 1 and mask[move]


def test_a_rollout_share_keeps_every_searched_label_and_a_share_of_the_rollout_ones():
    args = distill.Args(teacher="flat:2:2", decisive_only=True, rollout_share=1.0)
    whole = distill.play_games(args, 0, [0, 1, 2, 3], None)
    part = distill.play_games(dataclasses.replace(args, rollout_share=0.25), 0, [0, 1, 2, 3], None)
    phase = make_game("koira", 4).observation_layout["phase"]

    def split(data):
        two = data["obs"][:, phase.start + 1] == 1
        return data["targets"][two], data["targets"][~two]

    (searched, rollout), (kept_searched, kept_rollout) = split(whole), split(part)
    assert np.array_equal(kept_searched, searched)  # the same games, every searched label
    assert 0 < len(kept_rollout) < 0.5 * len(rollout)
    again = distill.play_games(dataclasses.replace(args, rollout_share=0.25), 0, [0, 1, 2, 3], None)
    assert all(np.array_equal(part[k], again[k]) for k in part)
    with pytest.raises(ValueError, match=r"--rollout-share must be in \(0, 1\], got 0.0"):
        distill.train(dataclasses.replace(args, rollout_share=0.0, run_dir="unused"))


def test_a_half_precision_export_plays_the_same_moves_at_a_third_of_the_size(tmp_path):
    game = make_game("koira", 4)
    full, half = tmp_path / "full.npz", tmp_path / "half.npz"
    write_net(full, game, hidden=64)
    policy = NetPolicy.load(full)
    layers = [(w.T, b) for w, b in policy.layers]
    heads = [(w.T, b) for w, b in (policy.policy, policy.value_head)]
    save_net(half, game, layers, *heads, half=True)
    assert half.stat().st_size < 0.5 * full.stat().st_size
    small = NetPolicy.load(half, game)
    assert small.layers[0][0].dtype == np.float32
    rng = np.random.default_rng(0)
    same = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        obs = game.observation(state, state.current)
        mask = np.zeros(game.num_actions, bool)
        mask[rng.choice(52, 6, replace=False)] = True
        same += policy.choose(obs, mask) == small.choose(obs, mask)
    assert same >= 38


def test_the_export_flag_writes_a_shipping_network(tmp_path):
    folder, out = tmp_path / "run", tmp_path / "shipped.npz"
    args = ["--algo", "distill", *TINY, "--rounds", "1", "--run-dir", str(folder)]
    assert train_main([*args, "--export", str(out)]) == 0
    assert NetPolicy.load(out, make_game("koira", 4)).meta["round"] == 0
    out.unlink()
    assert train_main([*args, "--resume", "--export", str(out)]) == 0  # nothing left to train
    assert out.is_file()


def test_init_starts_the_network_from_a_saved_ones_weights_and_refuses_a_mismatch(tmp_path):
    game = make_game("koira", 4)
    args = distill.Args(init="net:koira4-net", hidden=(1024, 512))
    net = distill.build_network(game, args.hidden, args.arch)
    distill.load_weights(net, game, args)
    arrays, _ = net.arrays()
    shipped = NetPolicy.load(NetAgent("koira4-net").path, game)
    for k, (w, b) in enumerate([*shipped.layers, shipped.policy, shipped.value_head]):
        assert np.array_equal(arrays[f"w{k}"], w.T) and np.array_equal(arrays[f"b{k}"], b)
    folder = tmp_path / "run"
    for flags, problem in (
        (["--init", "net:koira4-net"], r"hidden layers \(1024, 512\); --hidden makes \(24,\)"),
        (["--init", "net:kop4-net", "--hidden", "1024", "512"], "kop"),
        (["--init", str(tmp_path / "none.npz")], "no network file"),
    ):
        with pytest.raises(ValueError, match=problem):
            train_main(["--algo", "distill", *TINY, "--run-dir", str(folder), *flags])
        assert not folder.exists()  # refused before any file


def test_the_distill_recipe_network_is_shipped_for_four_player_koira():
    agent = make_agent("net:koira4-net")
    assert isinstance(agent, NetAgent) and agent.path.name == "koira4-net.npz"
    assert agent.path.stat().st_size < 3.5e6  # shipped in the wheel: kept small
    policy = NetPolicy.load(agent.path, make_game("koira", 4))
    assert policy.meta["teacher"] == distill.Args().teacher  # the default recipe's network
    result = play_game(
        [agent, *(make_agent("dumper") for _ in range(3))], make_game("koira", 4), None, seed=5
    )
    assert not result.truncated
    with pytest.raises(ValueError, match="num_players: model 4, game 3"):
        NetPolicy.load(agent.path, make_game("koira", 3))


def kop_turn(seed=0, declaration=False):
    """A Kop turn with a real choice: a card play, or a holder's declaration (call/silent/solo)."""
    from koira_env.core.agent import Turn

    game = make_game("kop")
    for deal in range(seed, seed + 200):
        state = game.new_state(seed=deal)
        while not state.is_terminal:
            legal = state.legal_actions()
            if len(legal) > 1 and (min(legal) >= 16) == declaration:
                return Turn(state.view(state.current), game, random.Random(0), state)
            state.apply(legal[0])
    raise AssertionError("no such turn")


def test_a_pimc_teacher_labels_its_best_moves_shared_on_a_tie_and_its_fallback_elsewhere():
    from koira_agents.pimc import PIMCAgent

    turn = kop_turn()
    teacher = make_agent("champion", "kop")
    assert isinstance(teacher, PIMCAgent)
    label, searched = distill.teacher_label(teacher, turn)
    values = teacher.values(kop_turn())  # the same turn and random numbers
    best = max(values.values())
    assert searched and label == {a: 1.0 for a, v in values.items() if v == best}

    class Tied(PIMCAgent):
        def values(self, turn):
            legal = turn.view.legal
            return {a: 1.0 if k < 2 else 0.0 for k, a in enumerate(legal)}

    legal = turn.view.legal
    assert distill.teacher_label(Tied(4), turn) == ({legal[0]: 1.0, legal[1]: 1.0}, True)
    declaring = kop_turn(declaration=True)  # out of the solver's reach: counter's declaration
    counter = make_agent("counter", "kop")
    move = counter.act(declaring)
    assert distill.teacher_label(teacher, declaring) == ({move: 1.0}, False)


def test_a_temperature_labels_a_softmax_of_the_values_and_nothing_else_changes():
    from koira_agents.flat import FlatAgent

    turn = kop_turn()
    legal = turn.view.legal

    class Graded(FlatAgent):
        def values(self, turn):
            return [(a, 1.0 - 0.1 * k) for k, a in enumerate(turn.view.legal)]

    label, searched = distill.teacher_label(Graded(4), turn, temperature=0.05)
    assert searched and list(label) == list(legal)
    assert label[legal[0]] == 1.0 and np.isclose(label[legal[1]], np.exp(-2.0))  # 0.1 / 0.05
    assert distill.teacher_label(Graded(4), turn) == ({legal[0]: 1.0}, True)  # 0: the best
    counter = make_agent("counter", "kop")  # a bot's label is its move at any temperature
    assert distill.teacher_label(counter, turn, 0.05) == ({counter.act(turn): 1.0}, True)
    with pytest.raises(ValueError, match="--temperature"):
        distill.train(distill.Args(game="kop", temperature=-1, run_dir="unused"))


def test_a_plain_bot_teacher_labels_its_own_move_alone():
    turn = kop_turn(seed=3)
    counter = make_agent("counter", "kop")
    label, searched = distill.teacher_label(counter, turn)
    assert searched and label == {counter.act(turn): 1.0} and len(turn.view.legal) > 1


def test_a_kop_run_reports_win_rate_against_its_table_resumes_and_plays(tmp_path):
    folder, shipped = tmp_path / "kop", tmp_path / "kop-net.npz"
    args = ["--algo", "distill", "--game", "kop", "--teacher", "pimc:4:counter"]
    args += [*TINY[2:], "--run-dir", str(folder), "--export", str(shipped)]
    assert train_main([*args, "--rounds", "1"]) == 0
    config = json.loads((folder / distill.CONFIG).read_text())
    assert config["field"] == ["counter"]  # the recipe's, not Koira's dumpers
    assert config["eval_opponents"] == ["counter", "random"]
    assert train_main([*args, "--rounds", "2", "--resume"]) == 0
    rows = curve(folder)
    assert [r["round"] for r in rows] == ["0", "1"]
    for row in rows:  # Kop's measure, its interval, and the best of counter and random
        assert 0 <= float(row["win_low"]) <= float(row["win_rate"]) <= float(row["win_high"]) <= 1
        assert row["best_bot"] in ("counter", "random") and int(row["decisions"]) > 10
    assert (folder / distill.EVAL_PNG).stat().st_size > 0
    game = make_game("kop")
    assert NetPolicy.load(shipped, game).meta["round"] == 1
    agent = make_agent(f"net:{shipped}", "kop")
    result = play_game(
        [agent, *(make_agent("counter", "kop") for _ in range(3))], game, None, seed=2
    )
    assert not result.truncated  # every move legal: an illegal one raises


SHIPPED_NETS = {  # game: (network, teacher)
    "kop": ("kop4-net", "champion"),
    "whist22": ("whist224-net", "champion"),
    "matapesa": ("matapesa4-net", "champion"),
    "dois": ("dois4-net", "champion"),
    # champion's flat Monte Carlo at 200 deals rather than 48, into a turn scorer
    "red7": ("red74-net", "flat:200"),
    "teka": ("teka4-net", "champion"),
}


@pytest.mark.parametrize(("game_id", "name", "teacher"), [(g, *v) for g, v in SHIPPED_NETS.items()])
def test_a_games_champion_net_is_its_distilled_champion_shipped_small(game_id, name, teacher):
    from koira_agents.registry import resolve

    assert resolve("champion-net", game_id) == f"net:{name}"
    agent = make_agent("champion-net", game_id)
    assert isinstance(agent, NetAgent) and agent.path.stat().st_size < 1e6  # ships in the wheel
    game = make_game(game_id)
    policy = NetPolicy.load(agent.path, game)
    assert policy.meta["teacher"] == teacher  # docs/games/<game>.md "champion-net"
    others = [
        make_agent(spec(game_id).recipe.field[0], game_id) for _ in range(game.num_players - 1)
    ]
    result = play_game([agent, *others], game, None, seed=7)
    assert not result.truncated


def test_flags_left_out_take_the_games_defaults_not_koiras():
    from koira_training.args import dataclass_flags
    from koira_training.train import parse_args

    kop = dataclass_flags(distill.Args, ["--game", "kop"], "koira train --algo distill", "")
    assert kop.field == ("counter",) and kop.eval_opponents == ("counter", "random")
    assert kop.teacher == "champion"  # Koira's flat:2:2 has no phases to search in Kop
    teka = dataclass_flags(distill.Args, ["--game", "teka"], "koira train --algo distill", "")
    # Teka is judged beside greedy (docs/games/teka.md "champion-net")
    assert teka.field == ("counter", "greedy") and teka.eval_opponents == ("counter", "greedy")
    koira = dataclass_flags(distill.Args, [], "koira train --algo distill", "")
    assert koira.field == ("dumper",) and koira.eval_opponents == ("dumper",) * 3
    assert koira.teacher == "flat:2:2"
    assert parse_args(["--game", "kop"]).run_dir == "runs/kop4"  # once runs/koira4
