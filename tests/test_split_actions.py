"""Split actions (``core.parts``): Red7's turn asked for in two decisions, a palette card (or
none) and then a canvas card (or none), by the AEC env and the batched env. Two parts play
exactly the whole turn; the masks are the parts of the legal turns; only the mover sees the
part it chose; bad parts change nothing (raw env) or end the game (env); PettingZoo's
checkers pass; the batched env writes the AEC env's bytes."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import koira_env
from koira_env.core.game import IllegalActionError
from koira_env.core.parts import FIRST_PART, part_actions
from koira_env.core.vector_env import game_seed

SLOTS = 50  # Red7's action: SLOTS * (palette card + 1, or 0) + (canvas card + 1, or 0)
ENGINES = ["compiled", "python"]
DECK = [f"{colour}{number}" for number in range(1, 8) for colour in "ROYGBIV"]  # a fixed order


def legal_parts(env: koira_env.CardGameEnv) -> list[int]:
    return part_actions(env.state_object.legal_actions(), SLOTS, env._pending)


def whole_turns(env: koira_env.CardGameEnv) -> list[int]:
    """The legal turns with both parts a card: the turns whose split differs most."""
    return [a for a in env.state_object.legal_actions() if a // SLOTS and a % SLOTS]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_turn_in_two_parts_plays_the_whole_turn(engine: str) -> None:
    """From a fixed deck and from seeds: each turn played in two parts leaves the state, the
    record and every seat's observation as the whole turn does in the usual env, and the
    game's rewards are the same; every turn is two decisions."""
    options = [{"deck": DECK}] + [None] * 59
    for seed, option in enumerate(options):
        split = koira_env.make("red7", 4, engine=engine, split_actions=True)
        whole = koira_env.make("red7", 4, engine=engine)
        for env in (split, whole):
            env.reset(seed=seed, options=option)
        rng = random.Random(seed)
        decisions = 0
        while not whole.state_object.is_terminal:
            turn = rng.choice(whole.state_object.legal_actions())
            for part in divmod(turn, SLOTS):
                split.step(part)
                decisions += 1
            whole.step(turn)
            assert split.state_object.history == whole.state_object.history
            for agent in whole.possible_agents:
                if agent in whole.agents:
                    seen = split.observe(agent)["observation"]
                    assert np.array_equal(seen[:-SLOTS], whole.observe(agent)["observation"])
                    assert not seen[-SLOTS:].any()  # no part waits after a whole turn
        assert decisions == 2 * len(whole.state_object.history)
        assert split.rewards == whole.rewards and split.infos == whole.infos
        assert split.game_record() == whole.game_record()


@pytest.mark.parametrize("engine", ENGINES)
def test_the_masks_are_the_parts_of_the_legal_turns(engine: str) -> None:
    """The first decision's mask is the palette slots of the legal turns (0, no palette
    card, always: passing is always legal), the second's the canvas slots completing the
    chosen one; the observation grows by the chosen-part block, shown to the mover only."""
    env = koira_env.make("red7", 3, engine=engine, split_actions=True)
    layout = env.observation_layout[FIRST_PART]
    assert env.action_space("player_0").n == SLOTS
    assert (layout.start, layout.stop) == (
        env.game.observation_size,
        env.game.observation_size + SLOTS,
    )
    assert env.observation_space("player_0")["observation"].shape == (layout.stop,)
    checked = 0
    for seed in range(40):
        env.reset(seed=seed, options={"deck": DECK} if seed == 0 else None)
        rng = random.Random(seed)
        while not env.state_object.is_terminal:
            mover = env.agent_selection
            turns = env.state_object.legal_actions()
            mask = env.observe(mover)["action_mask"]
            assert np.flatnonzero(mask).tolist() == sorted({a // SLOTS for a in turns})
            assert mask[0] == 1
            others = {a: env.observe(a)["observation"] for a in env.agents if a != mover}
            first = rng.choice(np.flatnonzero(mask).tolist())
            env.step(first)
            assert env.agent_selection == mover and env.state_object.legal_actions() == turns
            seen = env.observe(mover)
            assert np.flatnonzero(seen["observation"][layout]).tolist() == [first]
            expected = [a % SLOTS for a in turns if a // SLOTS == first]
            assert np.flatnonzero(seen["action_mask"]).tolist() == expected
            for agent, before in others.items():  # the others see nothing of the chosen part
                now = env.observe(agent)
                assert np.array_equal(now["observation"], before) and not now["action_mask"].any()
            env.step(rng.choice(expected))
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bad_part_changes_nothing_in_the_raw_env(engine: str) -> None:
    env = koira_env.make_raw("red7", 4, engine=engine, split_actions=True)
    env.reset(seed=0, options={"deck": DECK})
    turn = whole_turns(env)[0]
    first, second = divmod(turn, SLOTS)
    bad_first = next(p for p in range(SLOTS) if p not in legal_parts(env))
    before = env.state_object.history[:], env.observe(env.agent_selection)
    for bad in (bad_first, -1, SLOTS, 2**70, "x", True, None):
        with pytest.raises(IllegalActionError, match="illegal first part"):
            env.step(bad)
        assert env._pending == -1 and env.state_object.history == before[0]
    env.step(first)
    bad_second = next(p for p in range(SLOTS) if p not in legal_parts(env))
    with pytest.raises(
        IllegalActionError, match=f"illegal second part {bad_second} after first part {first}"
    ):
        env.step(bad_second)
    assert env._pending == first and env.state_object.history == before[0]
    env.step(second)
    assert env.state_object.history == [*before[0], turn]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bad_part_ends_the_game_in_the_env(engine: str) -> None:
    """PettingZoo's convention, as for a whole illegal action: the game ends, the mover scores
    -1 and the others 0; an action outside the space is an AssertionError."""
    env = koira_env.make("red7", 4, engine=engine, split_actions=True)
    env.reset(seed=0, options={"deck": DECK})
    with pytest.raises(AssertionError, match="not in action space"):
        env.step(SLOTS)
    mover = env.agent_selection
    first = whole_turns(env)[0] // SLOTS
    env.step(first)
    bad = next(p for p in range(SLOTS) if p not in legal_parts(env))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(bad)
    assert env.rewards[mover] == -1.0 and sum(env.rewards.values()) == -1.0
    assert all(env.terminations.values()) and env._pending == -1
    assert env.infos[mover]["illegal_action"] == {"agent": mover, "action": bad}
    assert not env.observe(mover)["observation"][-SLOTS:].any()


def test_split_actions_is_for_games_whose_actions_are_pairs() -> None:
    for build in (
        lambda: koira_env.make("kop", split_actions=True),
        lambda: koira_env.vector_env(2, game="whist22", split_actions=True),
    ):
        with pytest.raises(ValueError, match="actions are single"):
            build()
    for bad in ("yes", 1, None):
        with pytest.raises(ValueError, match="split_actions must be True or False"):
            koira_env.make("red7", split_actions=bad)
        with pytest.raises(ValueError, match="split_actions must be True or False"):
            koira_env.vector_env(2, game="red7", split_actions=bad)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("options", [{}, {"scoring": "points", "canvas_draw": True}])
def test_pettingzoo_checkers_pass(engine: str, options: dict) -> None:
    def build(render_mode=None):
        return koira_env.make("red7", 3, render_mode, engine=engine, split_actions=True, **options)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(build(), num_cycles=300)
        seed_test(build, num_cycles=200)
        render_test(build)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_batched_env_writes_the_aec_envs_bytes(engine: str) -> None:
    """Each batched env plays as an AEC env with split actions given the same seed and parts:
    the same seat, observation bytes and mask at every decision, the same rewards and
    lengths (in decisions), through an auto-reset."""
    n, seed, rng = 3, 4, random.Random(2)
    venv = koira_env.vector_env(n, 4, game="red7", engine=engine, split_actions=True)
    obs, mask, player = venv.reset(seed=seed)
    aecs = [koira_env.make("red7", 4, engine=engine, split_actions=True) for _ in range(n)]
    for i, aec in enumerate(aecs):
        aec.reset(seed=game_seed(seed, i, 0))
    done = [0] * n
    decisions = [0] * n
    while min(done) < 2:
        for i, aec in enumerate(aecs):
            seen = aec.observe(aec.agent_selection)
            assert player[i] == aec.possible_agents.index(aec.agent_selection)
            assert seen["observation"].tobytes() == obs[i].tobytes()
            assert np.array_equal(seen["action_mask"].astype(bool), mask[i])
        actions = np.array([rng.choice(np.flatnonzero(row).tolist()) for row in mask])
        obs, mask, player, rewards, terminated, _, info = venv.step(actions)
        for i, aec in enumerate(aecs):
            aec.step(int(actions[i]))
            decisions[i] += 1
            if not terminated[i]:
                continue
            expected = [aec.rewards[agent] for agent in aec.possible_agents]
            assert np.array_equal(rewards[i], np.float32(expected))
            assert info["episode_lengths"][i] == decisions[i] == 2 * len(aec.state_object.history)
            done[i] += 1
            decisions[i] = 0
            aec.reset(seed=game_seed(seed, i, done[i]))


def test_thousands_of_random_games_end_and_sum_to_zero() -> None:
    """Random legal parts over 3,000 games of every table size: each game ends, in twice as
    many decisions as turns, with zero-sum rewards; a seed fixes every decision."""
    for n in (2, 3, 4):
        venv = koira_env.vector_env(64, n, game="red7", split_actions=True)
        again = koira_env.vector_env(64, n, game="red7", split_actions=True)
        mask = venv.reset(seed=n)[1]
        assert np.array_equal(mask, again.reset(seed=n)[1])
        rng = np.random.default_rng(n)
        ended = 0
        while ended < 1000:
            actions = (mask * rng.random(mask.shape)).argmax(axis=1)
            step = venv.step(actions)
            other = again.step(actions)
            assert all(np.array_equal(a, b) for a, b in zip(step[:6], other[:6], strict=True))
            mask, rewards, terminated, truncated, info = step[1], step[3], step[4], step[5], step[6]
            assert not truncated.any()
            assert np.allclose(rewards.sum(axis=1), 0.0, atol=1e-6)
            lengths = info["episode_lengths"][terminated]
            assert (lengths > 0).all() and (lengths % 2 == 0).all()
            ended += int(terminated.sum())


@pytest.mark.parametrize("options", [{}, {"scoring": "points", "canvas_draw": True}])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_core_finds_the_legal_parts_without_the_turns(players, options) -> None:
    """Red7's core answers a part's mask from the rules (``parts_into``), not by listing the
    turns: at every decision of random games, for no part chosen and for every palette slot
    (legal or not), the same parts as ``core.parts.part_actions`` of the legal turns."""
    built = koira_env.make_game("red7", players, **options)
    rng = random.Random(players)
    for seed in range(60):
        state = built.new_state(seed=seed)
        while not state.is_terminal:
            turns = state.legal_actions()
            for pending in range(-1, SLOTS):
                mask = built.part_mask(state, pending)
                assert np.flatnonzero(mask).tolist() == part_actions(turns, SLOTS, pending)
            state.apply(rng.choice(turns))


def test_the_text_shows_a_chosen_first_part() -> None:
    env = koira_env.make("red7", 4, "ansi", split_actions=True)
    env.reset(seed=0, options={"deck": DECK})
    first = whole_turns(env)[0] // SLOTS
    assert "first part" not in env.render()
    env.step(first)
    mover = env.state_object.current
    assert env.render().endswith(f"player_{mover} chose first part {first}; the second is next")
