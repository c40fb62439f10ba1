"""Dois's diagnostic agents (experiments/dois_split.py): ``split`` bids as one agent and plays
cards as another, ``noisy`` errs only in card play and only as often as asked."""

from __future__ import annotations

import random

import pytest

from koira_agents.base import play_out
from koira_agents.registry import make_agent
from koira_env import make_game
from koira_env.core.agent import Turn
from koira_experiments.dois_split import NoisyAgent, SplitAgent


class Recording:
    """Plays as ``agent`` and records the phase of every decision it was asked."""

    name = "recording"

    def __init__(self, agent):
        self.agent, self.phases = agent, []

    def act(self, turn: Turn) -> int:
        self.phases.append(turn.view.phase)
        return self.agent.act(turn)


def test_split_asks_the_bidder_for_bids_and_the_player_for_cards():
    game = make_game("dois", 4, hands=2)
    bidder, player = (
        Recording(make_agent("counter", "dois")),
        Recording(make_agent("greedy", "dois")),
    )
    agents = [SplitAgent(bidder, player), *(make_agent("counter", "dois") for _ in range(3))]
    play_out(game.new_state(seed=3), agents, 5)
    assert bidder.phases == ["bid", "bid"]  # one bid a hand
    assert player.phases and "bid" not in player.phases


def test_split_and_noisy_are_agent_specs_of_dois():
    agent = make_agent("split:counter+noisy:0.5+greedy", "dois")
    assert isinstance(agent, SplitAgent) and isinstance(agent.player, NoisyAgent)
    assert agent.player.eps == 0.5
    for bad in ("split:counter", "noisy:x+counter", "noisy:2+counter", "split:+counter"):
        with pytest.raises(ValueError):
            make_agent(bad, "dois")


def test_noisy_errs_only_in_card_play_and_at_its_rate():
    game = make_game("dois", 4, hands=3)
    counter = make_agent("counter", "dois")
    same = {"bid": [0, 0], "card": [0, 0]}

    class Compare:
        name = "compare"

        def __init__(self, eps):
            self.noisy = NoisyAgent(eps, counter)

        def act(self, turn: Turn) -> int:
            mine = self.noisy.act(turn)
            kind = "bid" if turn.view.phase == "bid" else "card"
            if len(turn.view.legal) > 1:
                same[kind][0] += mine == counter.act(turn)
                same[kind][1] += 1
            return mine

    rng = random.Random(1)
    for g in range(4):
        play_out(
            game.new_state(seed=g), [Compare(0.5), counter, counter, counter], rng.getrandbits(32)
        )
    assert same["bid"][0] == same["bid"][1]  # bids are never noisy
    share = same["card"][0] / same["card"][1]
    assert 0.5 < share < 0.85  # half the cards are counter's, and a random one sometimes agrees
    for g in range(2):
        state = play_out(
            game.new_state(seed=g), [NoisyAgent(0.0, counter), counter, counter, counter], g
        )
        reference = play_out(game.new_state(seed=g), [counter] * 4, g)
        assert state.returns() == reference.returns()  # eps 0 is the agent itself
