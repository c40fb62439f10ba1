"""The card-structured network (``--arch cards``): tokens read from the observation, numpy
and torch agreeing, the file format, and the endgame solver as distillation's teacher."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from koira_agents.base import play_game
from koira_agents.cardnet import CardNetPolicy, CardTokens
from koira_agents.net import NetAgent, NetPolicy
from koira_agents.registry import make_agent
from koira_agents.solver import SolverAgent
from koira_env import make_game
from koira_env.cards import card_id
from koira_env.core.agent import Turn
from koira_env.games.koira import solve_moves
from koira_env.games.koira.engine import UNKNOWN
from koira_training import distill
from koira_training.cardnet import CardNet


def played(game, seed, actions):
    state = game.new_state(seed=seed)
    for _ in range(actions):
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_cards_token_holds_its_entries_of_every_card_field(players):
    game = make_game("koira", players)
    tokens = CardTokens(game.observation_layout, game.num_actions)
    state = played(game, players, 40)
    obs = game.observation(state, state.current)
    planes, context = tokens.split(obs[None])
    layout = game.observation_layout
    card_fields = [n for n, s in layout.items() if (s.stop - s.start) % 52 == 0]
    assert planes.shape == (1, 52, tokens.token_size)
    column = 0
    for name in card_fields:
        block = obs[layout[name]].reshape(-1, 52)
        for row in block:  # round_cards holds one 52-card row per player
            assert np.array_equal(planes[0, :, column], row), name
            column += 1
    trump = np.flatnonzero(obs[layout["trump_suit"]])
    if trump.size:  # the per-card "is of the suit this field names" flag
        suit_flags = planes[0, :, column]
        assert np.array_equal(np.flatnonzero(suit_flags) // 13, np.full(13, trump[0]))
    ten_of_hearts = card_id("TH")
    rank, suit = planes[0, ten_of_hearts, -17:-4], planes[0, ten_of_hearts, -4:]
    assert rank.argmax() == 8 and suit.argmax() == 2
    others = np.concatenate([obs[s] for n, s in layout.items() if n not in card_fields])
    assert np.array_equal(context[0], others)


def test_numpy_plays_what_torch_trained():
    game = make_game("koira", 4, sequences=2)  # runs: actions beyond the 52 cards, risk, take
    torch.manual_seed(3)
    net = CardNet(game, (16, 12))
    arrays, meta = net.arrays()
    policy = CardNetPolicy(arrays, meta)
    states = [played(game, seed, k) for seed in range(4) for k in (5, 60, 90)]
    obs = np.stack([game.observation(s, 0) for s in states])
    with torch.no_grad():
        logits, values = net(torch.from_numpy(obs))
    got_logits, got_values = policy.forward(obs)
    assert got_logits.shape == (len(states), game.num_actions)
    assert np.allclose(got_logits, logits.numpy(), atol=1e-5)
    assert np.allclose(got_values, values.numpy(), atol=1e-5)


def test_a_card_network_file_plays_legal_moves_and_a_bad_arch_is_refused(tmp_path):
    path = tmp_path / "cards.npz"
    distill.main(
        [
            "--teacher",
            "champion",
            "--arch",
            "cards",
            "--hidden",
            "8",
            "--games-per-round",
            "4",
            "--eval-deals",
            "1",
            "--workers",
            "1",
            "--batch-size",
            "64",
            "--run-dir",
            str(tmp_path / "run"),
            "--export",
            str(path),
        ]
    )
    game = make_game("koira", 4)
    policy = NetPolicy.load(path, game)
    assert isinstance(policy, CardNetPolicy) and policy.meta["arch"] == "cards"
    agent = make_agent(f"net:{path}")
    assert isinstance(agent, NetAgent)
    result = play_game([agent, *(make_agent("dumper") for _ in range(3))], game, None, seed=5)
    assert not result.truncated
    with pytest.raises(
        ValueError, match=r"--arch must be one of mlp, cards, turns, got 'transformer'"
    ):
        distill.Args(arch="transformer")
    with pytest.raises(ValueError, match="a card network needs the 52 card actions"):
        CardTokens({"x": slice(0, 52)}, 10)


def test_the_solver_labels_every_escaping_move_and_only_those():
    game = make_game("koira", 4)
    teacher = SolverAgent(deals=1, iterations=(0, 20), max_cards=12, max_nodes=None)
    seen = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            cards = sum(map(len, state.hands))
            view = state.view(state.current)
            if state.phase == 2 and cards <= 12 and len(legal) > 1 and UNKNOWN not in view.where:
                turn = Turn(view, game, random.Random(seed), state)
                label, searched = teacher.label(turn)
                verdicts = solve_moves(state)
                escaping = {a for a, v in verdicts.items() if v}
                if escaping:
                    assert set(label) == escaping and searched
                    assert len(set(label.values())) == 1
                    seen += 1
                else:  # every move caught: the search's visits rank them all
                    assert set(label) <= set(legal) and searched
            state.apply(legal[0])
    assert seen > 20
