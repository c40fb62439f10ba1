"""The batched env (``koira_env.vector_env``): shapes, parity with the AEC env, rewards once,
auto-reset, seeds, and bad input that changes nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

import koira_env
from koira_env.core._shuffle import _ahead_orders
from koira_env.core.game import shuffled
from koira_env.core.vector_env import VectorEnv, game_seed

GAMES = koira_env.games()


def random_actions(mask: np.ndarray, rng: random.Random) -> np.ndarray:
    """One uniformly random legal action per env."""
    return np.array([rng.choice(np.flatnonzero(row).tolist()) for row in mask], np.int64)


def fixed_decks(game: str, count: int, seed: int) -> list[list[str]]:
    """``count`` whole decks written as card names (the AEC env's ``deck`` option takes them)."""
    built = koira_env.make_game(game)
    return [
        [built.card_name(c) for c in shuffled(built.deck_size, f"d{seed}/{i}")]
        for i in range(count)
    ]


@pytest.mark.parametrize("game", GAMES)
def test_shapes_and_dtypes(game: str) -> None:
    venv = koira_env.vector_env(5, game=game)
    built = venv.game
    n, d, a, p = 5, built.observation_size, built.num_actions, built.num_players
    obs, mask, player = venv.reset(seed=3)
    assert (obs.shape, obs.dtype) == ((n, d), np.float32)
    assert (mask.shape, mask.dtype) == ((n, a), np.bool_)
    assert (player.shape, player.dtype) == ((n,), np.int64)
    assert mask.any(axis=1).all()
    obs, mask, player, rewards, terminated, truncated, info = venv.step(
        random_actions(mask, random.Random(0))
    )
    assert (rewards.shape, rewards.dtype) == ((n, p), np.float32)
    assert (terminated.shape, terminated.dtype) == ((n,), np.bool_)
    assert (truncated.shape, truncated.dtype) == ((n,), np.bool_)
    assert info["final_places"].shape == (n, p) and info["final_places"].dtype.kind == "i"
    assert info["episode_lengths"].shape == (n,) and info["episode_lengths"].dtype.kind == "i"
    assert (obs.shape, mask.shape, player.shape) == ((n, d), (n, a), (n,))


@pytest.mark.parametrize("game", GAMES)
def test_matches_the_aec_env_step_for_step(game: str) -> None:
    """Each env plays exactly as an AEC env given the same deck, seed and actions: the same
    seat, observation bytes, mask and final rewards, through the first game and the
    auto-reset one after it (dealt from ``game_seed(seed, i, 1)``)."""
    n, seed, rng = 3, 11, random.Random(5)
    decks = fixed_decks(game, n, seed)
    venv = koira_env.vector_env(n, game=game)
    obs, mask, player = venv.reset(seed=seed, options={"decks": decks})
    aecs = [koira_env.make(game) for _ in range(n)]
    for i, aec in enumerate(aecs):
        aec.reset(seed=game_seed(seed, i, 0), options={"deck": decks[i]})
    games_checked = [0] * n  # completed games compared per env; two each
    while min(games_checked) < 2:
        for i, aec in enumerate(aecs):
            if games_checked[i] < 2:
                agent = aec.agent_selection
                assert player[i] == int(agent.split("_")[1])
                seen = aec.observe(agent)
                assert seen["observation"].tobytes() == obs[i].tobytes()
                assert np.array_equal(seen["action_mask"].astype(bool), mask[i])
        actions = random_actions(mask, rng)
        obs, mask, player, rewards, terminated, truncated, info = venv.step(actions)
        for i, aec in enumerate(aecs):
            if games_checked[i] >= 2:
                continue
            aec.step(int(actions[i]))
            over = all(aec.terminations.values()) or all(aec.truncations.values())
            assert over == bool(terminated[i] or truncated[i])
            if not over:
                assert not rewards[i].any()
                continue
            expected = [aec.rewards[agent] for agent in aec.possible_agents]
            assert np.array_equal(rewards[i], np.float32(expected))
            assert info["episode_lengths"][i] == len(aec.state_object.history)
            games_checked[i] += 1
            aec.reset(seed=game_seed(seed, i, games_checked[i]))


@pytest.mark.parametrize("game", GAMES)
def test_rewards_come_once_and_sum_to_zero(game: str) -> None:
    n, rng = 8, random.Random(1)
    venv = koira_env.vector_env(n, game=game)
    _, mask, _ = venv.reset(seed=2)
    finished = 0
    while finished < 12:
        _, mask, _, rewards, terminated, truncated, info = venv.step(random_actions(mask, rng))
        ended = terminated | truncated
        finished += int(ended.sum())
        assert not rewards[~terminated].any()
        assert (info["final_places"][~terminated] == -1).all()
        assert (info["episode_lengths"][~ended] == 0).all()
        assert (info["episode_lengths"][ended] > 0).all()
        for i in np.flatnonzero(terminated):
            assert abs(float(rewards[i].sum())) < 1e-5
            assert rewards[i].any()
            assert (info["final_places"][i] >= 1).all()


def test_a_finished_env_starts_a_fresh_deal_in_the_same_step() -> None:
    seed, rng = 4, random.Random(2)
    venv = koira_env.vector_env(4, num_players=3, rules="mattis")
    _, mask, _ = venv.reset(seed=seed)
    dealt = dict.fromkeys(range(4), 0)
    while sum(dealt.values()) < 6:
        obs, mask, player, _, terminated, _, _ = venv.step(random_actions(mask, rng))
        for i in np.flatnonzero(terminated):
            dealt[i] += 1
            state = venv.states[i]
            fresh = venv.game.new_state(seed=game_seed(seed, i, dealt[i]))
            assert state.history == [] and state.deck == fresh.deck
            assert player[i] == fresh.current
            assert obs[i].tobytes() == venv.game.observation(fresh, fresh.current).tobytes()
            assert np.array_equal(mask[i], venv.game.action_mask(fresh.legal_actions()) == 1)


def test_truncated_games_report_no_result() -> None:
    venv = koira_env.vector_env(4, max_actions=100)
    _, mask, _ = venv.reset(seed=0)
    rng = random.Random(0)
    for _ in range(100):
        _, mask, _, rewards, _, truncated, info = venv.step(random_actions(mask, rng))
    assert truncated.any()  # random Koira games outlast 100 actions
    assert not rewards[truncated].any()
    assert (info["final_places"][truncated] == -1).all()
    assert (info["episode_lengths"][truncated] == 100).all()


def play(venv: VectorEnv, seed: int | None, steps: int) -> list[bytes]:
    """Observation bytes and rewards of ``steps`` steps of random play after ``reset(seed)``."""
    rng = random.Random(9)
    obs, mask, _ = venv.reset(seed=seed)
    out = [obs.tobytes()]
    for _ in range(steps):
        obs, mask, _, rewards, *_ = venv.step(random_actions(mask, rng))
        out += (obs.tobytes(), mask.tobytes(), rewards.tobytes())
    return out


@pytest.mark.parametrize("game", ["koira", "whist22"])
def test_a_seed_fixes_every_deal(game: str) -> None:
    first, second = (koira_env.vector_env(6, game=game) for _ in range(2))
    assert play(first, 7, 150) == play(second, 7, 150)
    assert play(first, 7, 5) != play(first, 8, 5)
    # resets without a seed continue a sequence drawn from the last one
    second.reset(seed=8)
    assert play(first, None, 20) == play(second, None, 20)
    built = first.game
    first.reset(seed=7)
    for i, state in enumerate(first.states):
        assert state.deck == built.new_state(seed=game_seed(7, i, 0)).deck


def snapshot(venv: VectorEnv) -> tuple[object, ...]:
    return (
        [list(s.history) for s in venv.states],
        [list(s.deck) for s in venv.states],
        venv._obs.tobytes(),
        venv._mask.tobytes(),
        venv._player.tobytes(),
    )


def test_an_illegal_action_names_the_env_and_moves_no_env() -> None:
    venv = koira_env.vector_env(4)
    _, mask, _ = venv.reset(seed=1)
    actions = random_actions(mask, random.Random(0))
    illegal = int(np.flatnonzero(~mask[2])[0])
    actions[2] = illegal
    before = snapshot(venv)
    with pytest.raises(ValueError, match=rf"env 2: action {illegal} is not legal"):
        venv.step(actions)
    assert snapshot(venv) == before
    for bad in (-1, venv.num_actions):
        actions[2] = bad
        with pytest.raises(ValueError, match=rf"env 2: action {bad}\b"):
            venv.step(actions)
    assert snapshot(venv) == before


@pytest.mark.parametrize("game", ["koira", "teka", "red7"])
def test_writing_into_the_returned_mask_changes_no_legality(game: str) -> None:
    """The mask returned is the caller's buffer: the legality check reads the env's own copy,
    so a mask the caller filled with ones admits nothing illegal, nor zeros refuse a legal
    move."""
    venv = koira_env.vector_env(4, game=game)
    _, mask, _ = venv.reset(seed=3)
    legal = mask.copy()
    actions = random_actions(legal, random.Random(1))
    illegal = int(np.flatnonzero(~legal[1])[0])
    mask[:] = True
    bad = actions.copy()
    bad[1] = illegal
    before = snapshot(venv)
    with pytest.raises(ValueError, match=rf"env 1: action {illegal} is not legal"):
        venv.step(bad)
    assert snapshot(venv) == before
    mask[:] = False
    venv.step(actions)  # legal all the same


@pytest.mark.parametrize(
    "actions",
    [
        np.zeros(3, np.int64),
        np.zeros((4, 1), np.int64),
        np.zeros(4, np.float32),
        np.zeros(4, bool),
        ["a", "b", "c", "d"],
        5,
    ],
)
def test_actions_of_the_wrong_shape_or_type_are_rejected(actions: object) -> None:
    venv = koira_env.vector_env(4)
    venv.reset(seed=1)
    before = snapshot(venv)
    with pytest.raises(ValueError, match="actions must be 4 integers"):
        venv.step(actions)
    assert snapshot(venv) == before


def test_bad_decks_are_rejected_and_change_nothing() -> None:
    venv = koira_env.vector_env(3)
    venv.reset(seed=1)
    before = snapshot(venv)
    decks = fixed_decks("koira", 3, 0)
    with pytest.raises(ValueError, match=r"one deck per env \(3\), got 2"):
        venv.reset(options={"decks": decks[:2]})
    with pytest.raises(ValueError, match=r"one deck per env \(3\), got str"):
        venv.reset(options={"decks": "AS"})
    with pytest.raises(ValueError, match=r"\['decks'\]\[1\]: .*repeats"):
        venv.reset(options={"decks": [decks[0], decks[0][:-1] + decks[0][:1], decks[2]]})
    assert snapshot(venv) == before
    # the failed resets drew no seed: the next unseeded reset is the one a fresh env makes
    other = koira_env.vector_env(3)
    other.reset(seed=1)
    assert play(venv, None, 3) == play(other, None, 3)


def test_decks_fix_each_env_and_take_ids() -> None:
    decks = fixed_decks("whist22", 2, 3)
    built = koira_env.make_game("whist22")
    ids = [[built.card_id(name) for name in deck] for deck in decks]
    venv = koira_env.vector_env(2, game="whist22")
    venv.reset(seed=0, options={"decks": ids})
    assert [s.deck[: built.deck_size] for s in venv.states] == ids


def test_construction_errors() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        koira_env.vector_env(0)
    with pytest.raises(ValueError, match="rules is Koira's preset"):
        koira_env.vector_env(2, rules="mattis", game="whist22")
    with pytest.raises(ValueError, match="unknown game"):
        koira_env.vector_env(2, game="nope")
    with pytest.raises(RuntimeError, match="before reset"):
        koira_env.vector_env(2).step([0, 0])
    venv = koira_env.vector_env(2, num_players=3, game="whist22")
    assert venv.num_players == 3 and venv.game.id == "whist22"


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("koira", 4, {}),
        ("koira", 2, {"war_mode": "split"}),
        ("koira", 5, {"rules": "koira-b", "voluntary_take": True}),
        ("koira", 6, {"rules": "mattis", "sequences": 3, "max_actions": 120}),  # truncations
        ("koira", 2, {"rules": "mini"}),  # six cards: many games and auto-resets
        ("koira", 3, {"deck_ranks": 4, "hand_size": 2, "trump_card": "revealed"}),
        ("matapesa", 4, {}),
        ("matapesa", 3, {"deck_ranks": 3, "deck_suits": "HS"}),  # mini Mätäpesä
        ("whist22", 3, {"max_hands": 3}),
        ("kop", 4, {"single_hand": True}),
        ("kop", 4, {"max_hands": 2}),  # truncations
        ("teka", 4, {"single_hand": True}),
        ("teka", 4, {"target": 20}),  # hands, redeals and results in C (deal_next, result_into)
        ("teka", 4, {"no_honours": "ask", "max_hands": 2}),  # the ask round; truncations
        ("dois", 3, {"hands": 2}),
        ("dois", 4, {"redeal": "all", "bidding": "sealed", "hands": 3}),
        ("red7", 3, {}),
        ("red7", 2, {"places": "elimination"}),
        ("red7", 4, {"scoring": "points", "max_rounds": 2}),
        ("red7", 4, {"scoring": "points", "target": 8, "canvas_draw": True}),
        ("red7", 4, {"split_actions": True}),  # each turn in two parts (core.parts)
        ("red7", 3, {"split_actions": True, "scoring": "points", "canvas_draw": True}),
    ],
    ids=lambda value: value if isinstance(value, str | int) else "-".join(map(str, value.values())),
)
def test_the_compiled_loop_writes_the_reference_engines_bytes(game, players, options) -> None:
    """The shared batch stepper in C (``core/_batch.pyx``) on each compiled core against the
    generic loop on the reference engine: the same seeds and actions give the same bytes in
    every returned array, through auto-resets."""
    n, rng = 6, random.Random(players)
    envs = [
        koira_env.vector_env(n, players, game=game, engine=engine, **options)
        for engine in ("compiled", "python")
    ]
    assert envs[0].game.batch is not None and envs[1].game.batch is None
    first = [venv.reset(seed=9) for venv in envs]
    assert all(np.array_equal(a, b) for a, b in zip(*first, strict=True))
    mask, finished = first[0][1], 0
    for step in range(400):
        actions = random_actions(mask, rng)
        if step % 2:  # every other step a random subset of the envs (env_ids)
            ids = np.array(sorted(rng.sample(range(n), rng.randint(1, n))), np.int64)
            compiled, reference = (venv.step(actions[ids], env_ids=ids) for venv in envs)
        else:
            compiled, reference = (venv.step(actions) for venv in envs)
        for a, b in zip(compiled[:6], reference[:6], strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        for key in ("final_places", "episode_lengths"):
            assert np.array_equal(compiled[6][key], reference[6][key])
        mask = compiled[1]
        finished += int(compiled[4].sum() + compiled[5].sum())
    assert finished >= n


def test_the_next_decks_of_games_that_deal_again_are_shuffled_ahead() -> None:
    """The C loop shuffles the next deck of every game that dealt one in a step, beside the
    others (``_shuffle.shuffle_ahead``), where a game that deals again (a Teka game to its
    target; Red7 under points scoring) will ask for it: each such env's next deck is kept,
    and is that seed's order. One-round Red7 games, which never deal again, get none."""
    rng = random.Random(3)
    for game, options, expect in (
        ("teka", {}, True),
        ("red7", {"scoring": "points"}, True),
        ("red7", {}, False),
    ):
        venv = koira_env.vector_env(16, 4, game=game, **options)
        mask = venv.reset(seed=5)[1]
        size = venv.game.deck_size
        for _ in range(60):
            mask = venv.step(random_actions(mask, rng))[1]
        kept = _ahead_orders()
        seeds = [f"{s.seed}/{len(s.deck) // size}" for s in venv.states]
        ahead = [seed for seed in seeds if seed in kept]
        assert all(kept[seed] == shuffled(size, seed) for seed in ahead)
        if expect:  # games whose deck is the first of a new game or hand at least
            assert len(ahead) >= 12, (game, len(ahead))
        else:
            assert not ahead


@pytest.mark.parametrize("engine", ["compiled", "python"])  # the C loop and the generic one
def test_env_ids_step_only_those_envs(engine: str) -> None:
    venv = koira_env.vector_env(4, game="kop", engine=engine)
    obs, mask, player = (a.copy() for a in venv.reset(seed=2))
    taken = [s.actions_taken for s in venv.states]
    ids = np.array([2, 0])
    actions = random_actions(mask, random.Random(1))[ids]
    out = venv.step(actions, env_ids=ids)
    assert [s.actions_taken for s in venv.states] == [
        taken[0] + 1,
        taken[1],
        taken[2] + 1,
        taken[3],
    ]
    for i in (1, 3):  # the waiting envs keep their rows
        assert np.array_equal(out[0][i], obs[i]) and np.array_equal(out[1][i], mask[i])
        assert out[2][i] == player[i]
    before = [s.actions_taken for s in venv.states]
    legal = venv.states[1].legal_actions()
    for bad in ([1, 1], [4], [[1]], [0.0], [-1]):
        with pytest.raises(ValueError, match=r"env_ids must be distinct env indices in 0\.\.3"):
            venv.step(np.array([legal[0]] * len(bad)), env_ids=bad)
    with pytest.raises(ValueError, match="actions must be 1 integers"):
        venv.step(np.array([legal[0], legal[0]]), env_ids=[1])
    illegal = next(a for a in range(venv.num_actions) if a not in legal)
    with pytest.raises(ValueError, match="env 1: action"):
        venv.step(np.array([illegal]), env_ids=[1])
    assert [s.actions_taken for s in venv.states] == before


def _resident_bytes() -> int:
    """This process's resident memory (Linux ``/proc/self/statm``)."""
    import os

    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_ten_million_steps_grow_no_memory(game: str) -> None:
    """The C loop over 10 million env steps (39,063 batch steps of 256 envs, every game dealt
    anew thousands of times): resident memory after the first 10% stays within 16 MB."""
    venv = koira_env.vector_env(256, game=game)
    mask = venv.reset(seed=0)[1]
    priorities = np.random.default_rng(0).random((64, venv.num_actions), np.float32)
    total = 10_000_000 // 256 + 1
    before = 0
    for k in range(total):
        mask = venv.step(np.argmax(mask * priorities[k % 64], axis=1))[1]
        if k == total // 10:
            before = _resident_bytes()
    assert venv.game.batch is not None
    assert _resident_bytes() - before < 16 * 2**20
