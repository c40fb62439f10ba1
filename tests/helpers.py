"""Checks the per-game test files share: random play, what a seat observes, observations in
bounds, re-deals that keep what a seat knows, two deals played in step, alpha-beta windows and
the slow runs' chunks over every core. What every game must do is in tests/test_games.py."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from koira_env.core.record import game_record
from koira_env.registry import register, replay, unregister

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@contextlib.contextmanager
def example_game() -> Iterator[str]:
    """docs/games.md's example game (``examples/tricks``) registered for the block, so the
    conformance suite holds it to the protocol without other tests seeing an eighth game."""
    if str(EXAMPLES) not in sys.path:
        sys.path.append(str(EXAMPLES))
    game_id = register("tricks")
    try:
        yield game_id
    finally:
        unregister(game_id)


def random_game(game: Any, seed: int, *, log: bool = False) -> Any:
    """A whole game of uniformly random legal play."""
    state = game.new_state(seed=seed, log=log)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def walk(game: Any, games: int, seed: int = 0, *, last: bool = False) -> Iterator[Any]:
    """The live state at every decision of ``games`` random games (deal seeds ``seed``,
    ``seed + 1``, ...; game g's moves drawn by ``random.Random(g)``); with ``last``, each
    finished state too."""
    for g in range(games):
        state = game.new_state(seed=seed + g)
        rng = random.Random(g)
        while not state.is_terminal:
            yield state
            state.apply(rng.choice(state.legal_actions()))
        if last:
            yield state


def swapped_deals(
    game: Any, seeds: Iterable[int], holder: Callable[[int], int]
) -> Iterator[tuple[Any, Any, int, set[int], random.Random]]:
    """Per seed, the seed's first deal and that deal with two cards of two other seats swapped
    (``holder(i)``: the seat dealt deck position ``i``), both dealt: ``(one, two, seat, the
    two cards, rng)``, the rng (seeded by the seed) having drawn the seat and the positions."""
    size = game.deck_size
    for seed in seeds:
        rng = random.Random(seed)
        deck = game.new_state(seed=seed).deck[:size]
        seat = rng.randrange(game.num_players)
        a, b = rng.sample([i for i in range(size) if holder(i) != seat], 2)
        if holder(a) == holder(b):
            continue
        swapped = deck[:]
        swapped[a], swapped[b] = swapped[b], swapped[a]
        one, two = game.new_state(deck, seed=seed), game.new_state(swapped, seed=seed)
        yield one, two, seat, {deck[a], deck[b]}, rng


def early_states(
    game: Any, seeds: Iterable[int], rng: random.Random, phase: int, hands: int = 2
) -> Iterator[Any]:
    """The live state at every turn in ``phase`` of the first ``hands`` hands of random games
    (one per seed, every move drawn by ``rng``)."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        while not state.is_terminal and state.hand_no < hands:
            if state.phase == phase:
                yield state
            state.apply(rng.choice(state.legal_actions()))


def check_champion_repeats(game: Any) -> None:
    """The game's champion, seated with ``counter`` and ``random``, plays a whole game to its
    end, and the same seeds play it again move for move."""
    from koira_agents.base import play_game
    from koira_agents.registry import make_agent

    lineup = ["champion", "counter", "random", "champion"][: game.num_players]

    def played() -> Any:
        agents = [make_agent(a, game.id) for a in lineup]
        return play_game(agents, game, None, seed=3, deal_seed=3)

    first, again = played(), played()
    assert first.actions == again.actions and not first.truncated


def try_illegal(ref: Any, com: Any, rng: random.Random, snapshot: Callable[[Any], Any]) -> None:
    """Illegal, out-of-range and non-integer actions raise the same error on the reference
    engine ``ref`` and the compiled ``com`` and change nothing (``snapshot``: the state as a
    comparable value); numpy integers are accepted as the ints they are."""
    import pytest

    from koira_env.core.game import IllegalActionError

    legal = ref.legal_actions()
    num_actions = ref.game.num_actions
    illegal = [a for a in range(num_actions) if a not in legal]
    before = snapshot(com)
    bads = [-1, num_actions, 10**30, float(legal[0]), True, "3", None]
    if illegal:  # every action may be legal (a Mätäpesä lead holding all 13 ranks)
        bads.insert(0, rng.choice(illegal))
    for bad in bads:
        with pytest.raises(IllegalActionError) as expected:
            ref.apply(bad)
        with pytest.raises(IllegalActionError) as got:
            com.apply(bad)
        assert str(got.value) == str(expected.value)
    assert snapshot(com) == before
    twin = com.clone()
    twin.apply(np.int64(legal[-1]))
    assert twin.history[-1] == legal[-1] and type(twin.history[-1]) is int


def random_games(game: Any, games: int) -> Iterator[Any]:
    """``games`` finished random games (seeds 0, 1, ...), each checked zero-sum and not
    truncated: the slow runs' first check."""
    for seed in range(games):
        state = random_game(game, seed)
        assert abs(sum(state.returns())) < 1e-9 and not state.truncated, seed
        yield state


def check_sampled_deal(
    hands: Sequence[int], state: Any, seat: int, forbidden: Sequence[int]
) -> None:
    """A deal sampled for ``seat`` (a card bitmask per seat) could be the true one: the seat's
    own hand as dealt, every hand of its size, the same cards each once, and no seat holding
    a card ``forbidden`` to it."""
    true = [sum(1 << c for c in h) for h in state.hands]
    assert hands[seat] == true[seat]
    assert [bin(h).count("1") for h in hands] == [len(h) for h in state.hands]
    assert sum(hands) == sum(true)  # the same cards, each once
    assert all(not hands[p] & forbidden[p] for p in range(len(hands)))


def play_out(env, rng: random.Random) -> tuple[dict[str, float], dict]:
    """Random legal play of an env to the end, every observation a float32 array in [0, 1];
    the summed rewards per agent and the end info."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    end = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        observation = obs["observation"]
        assert observation.dtype == np.float32
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        if terminated or truncated:
            end = info
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return totals, end


def sorted_rewards(env: Any, seeds: Iterable[int]) -> tuple[set[tuple[float, ...]], list[dict]]:
    """Random games of an env from each seed: the set of their summed rewards (sorted,
    rounded to 3 places) and their end infos."""
    rng = random.Random(0)
    seen, infos = set(), []
    for seed in seeds:
        env.reset(seed=seed)
        totals, info = play_out(env, rng)
        seen.add(tuple(sorted(round(v, 3) for v in totals.values())))
        infos.append(info)
    return seen, infos


def observe(state: Any, seat: int) -> tuple[bytes, tuple[int, ...]]:
    """What ``seat`` observes: its observation bytes and its legal actions (mask)."""
    mover = state.current == seat and not state.is_terminal
    legal = tuple(state.legal_actions()) if mover else ()
    return state.game.observation(state, seat).tobytes(), legal


def observed_positions(game: Any, seeds: Iterable[int]) -> Iterator[tuple[Any, int, np.ndarray]]:
    """Every seat's observation at every position (the end too) of random games, each a
    float32 vector of the game's size in [0, 1]: yields the state, the seat and the vector."""
    layout = game.observation_layout
    assert game.observation_size == sum(s.stop - s.start for s in layout.values())
    assert min(s.start for s in layout.values()) == 0
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in range(game.num_players):
                obs = game.observation(state, seat)
                assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                yield state, seat, obs
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))


# the fields of a state that a clone must not share with it, where a game's state has them
STATE_FIELDS = (
    "hands", "palettes", "keys", "bids", "loc", "counts", "scores", "points", "trick",
    "tricks", "deck", "calls", "suit", "void", "draw", "rule", "vc",
)  # fmt: skip


def frozen(value: object) -> object:
    """A copy of a state's field that later changes to the state cannot reach."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, np.ndarray):
        return value.tobytes()
    return copy.deepcopy(value)


def snapshot(state, skip: tuple[str, ...] = ()) -> tuple:
    """All a state shows: history, log, turn, legal actions, every seat's view and
    observation, and its fields (hands, location tables, scores ...)."""
    seats = range(state.game.num_players)
    return (
        list(state.history),
        copy.deepcopy(state.log),
        state.current,
        state.is_terminal,
        tuple(state.legal_actions()),
        [copy.deepcopy(state.view(s)) for s in seats],
        [state.game.observation(state, s).tobytes() for s in seats],
        {
            name: frozen(getattr(state, name))
            for name in STATE_FIELDS
            if hasattr(state, name) and name not in skip
        },
    )


def play_checked(
    game: Any, seed: int, rng: random.Random, check_cards: Callable[[Any], None], every: int
) -> tuple[Any, int]:
    """A random game (choices from ``rng``) whose legal actions are never empty and always
    sorted, with every card in one place at every ``every``-th step. Returns the finished
    game and its number of steps."""
    state = game.new_state(seed=seed)
    steps = 0
    while not state.is_terminal:
        if steps % every == 0:
            check_cards(state)
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        state.apply(rng.choice(legal))
        steps += 1
    return state, steps


def replayed(game: Any, seeds: Iterable[int]) -> list[Any]:
    """Random games, each played twice from its seed (the same history, log and deck) and
    replayed from its record through JSON (the same state: ``snapshot`` but for the deck,
    whose cards no hand received need not be recorded; outcome and places in the record).
    Returns the finished games."""
    finished = []
    for seed in seeds:
        one, two = random_game(game, seed, log=True), random_game(game, seed, log=True)
        assert one.history == two.history and one.log == two.log and one.deck == two.deck
        record = json.loads(json.dumps(game_record(one)))
        again = replay(record)
        assert snapshot(again, skip=("deck",)) == snapshot(one, skip=("deck",))
        assert again.outcome() == one.outcome()
        assert again.returns() == one.returns()
        assert record["result"]["places"] == list(one.outcome().places)
        finished.append(one)
    return finished


def check_redeal(
    state: Any, seat: int, rng: random.Random, check_cards: Callable[[Any], None]
) -> Any:
    """``state.determinize(seat)``: a fresh deal (no history, log or deck) keeping the seat's
    hand, every hand's size, what the seat observes (bytes and legal actions) and its view,
    with every card in one place. Returns the re-dealt state."""
    world = state.determinize(seat, rng)
    assert world.history == [] and world.log is None and world.deck == []
    assert world.hands[seat] == state.hands[seat]
    assert list(map(len, world.hands)) == list(map(len, state.hands))
    assert observe(world, seat) == observe(state, seat)
    assert world.view(seat) == state.view(seat)
    check_cards(world)
    return world


def check_redeals_along_random_games(
    game: Any, seeds: Iterable[int], check_cards: Callable[[Any], None], hands: int = 0
) -> None:
    """At every position of random games (of their first ``hands`` hands, all if 0), a
    re-deal for the mover and one for the next seat pass ``check_redeal``, and the mover's
    plays on to the end of the hand."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal and (not hands or state.hand_no < hands):
            seat = state.current
            check_redeal(state, (seat + 1) % game.num_players, rng, check_cards)
            world = check_redeal(state, seat, rng, check_cards)
            play_on_in_the_hand(world, state.hand_no, rng)
            state.apply(rng.choice(state.legal_actions()))


def play_on_in_the_hand(world: Any, hand_no: int, rng: random.Random) -> None:
    """A re-dealt state plays on to the end of the hand (or the game)."""
    while not world.is_terminal and world.hand_no == hand_no:
        world.apply(rng.choice(world.legal_actions()))


def random_moves(rng: random.Random) -> Callable[[Any], int]:
    """A chooser of uniformly random legal moves (for ``play_in_step``)."""
    return lambda state: rng.choice(state.legal_actions())


def play_in_step(
    one: Any,
    two: Any,
    seats: Iterable[int],
    choose: Callable[[Any], int],
    seen: Callable[[int], bool],
    *,
    same: Callable[[Any], bool] = lambda state: state.hand_no == 0,
    translate: Callable[[Any, int], int] = lambda two, action: action,
    views: bool = True,
) -> int:
    """Play two deals in step while ``same(one)``: at every position ``seats`` observe (bytes
    and legal actions) and view the same in both, until an action ``seen`` is chosen or the
    other deal cannot follow (``translate`` maps a move of ``one`` to ``two``'s). Returns how
    many positions were compared."""
    seats = tuple(seats)
    compared = 0
    while not one.is_terminal and same(one):
        for seat in seats:
            assert observe(one, seat) == observe(two, seat)
            if views:
                assert one.view(seat) == two.view(seat)
        compared += 1
        action = choose(one)
        other = translate(two, action)
        if seen(action) or other not in two.legal_actions():
            break
        one.apply(action)
        two.apply(other)
    return compared


def check_window(solves: Iterable[Callable[..., int]], position: tuple, exact: int) -> None:
    """Alpha-beta windows around an exact value: inside the window the value is exact;
    outside, a bound on the same side (for every solver in ``solves``)."""
    for alpha, beta in ((exact - 1, exact + 1), (exact, exact + 1), (exact - 1, exact)):
        for solve in solves:
            value = solve(*position, alpha, beta)
            if alpha < exact < beta:
                assert value == exact
            elif exact <= alpha:
                assert exact <= value <= alpha
            else:
                assert beta <= value <= exact


def play_budgeted(
    play: Callable[[int, bool], int], name: str, games: tuple[int, int], budget: int
) -> None:
    """The differential runs of one case: ``play(seed, deep)`` (returning the steps it
    played, ``deep`` on every third game) at least ``games[0]`` and at most ``games[1]``
    times, until ``budget`` steps; the seeds are drawn from the case's ``name``."""
    base = zlib.crc32(name.encode()) % 10**6 * 1000
    played = steps = 0
    while played < games[0] or (played < games[1] and steps < budget):
        steps += play(base + played, played % 3 == 0)
        played += 1
    print(f"{name}: {played} games, {steps} steps")


def play_cases(
    chunk: int,
    chunks: int,
    total: int,
    cases: list[Any],
    pair: Callable[..., Any],
    play: Callable[[Any, int], int],
) -> tuple[int, int]:
    """One chunk of a slow differential run: games ``chunk, chunk + chunks, ...`` below
    ``total``, game g of ``cases[g % len(cases)]`` played by ``play(pair(*case), g)`` (its
    steps; the pair of engines built once a case). Returns (games, steps)."""
    played = steps = 0
    pairs: dict[int, Any] = {}
    for g in range(chunk, total, chunks):
        k = g % len(cases)
        if k not in pairs:
            pairs[k] = pair(*cases[k])
        steps += play(pairs[k], g)
        played += 1
    return played, steps


def run_chunks(chunk: Callable[[int, int, int], tuple[int, int]], chunks: int, total: int) -> None:
    """The slow differential runs: ``chunk(c, chunks, total)`` on every core for each of
    ``chunks`` chunks, which together must play ``total`` games."""
    start = time.perf_counter()
    with ProcessPoolExecutor() as pool:
        jobs = [pool.submit(chunk, c, chunks, total) for c in range(chunks)]
        results = [job.result() for job in jobs]
    played = sum(r[0] for r in results)
    steps = sum(r[1] for r in results)
    print(f"{played:,} games, {steps:,} steps, {time.perf_counter() - start:,.0f} s")
    assert played == total


def seeded(summary: dict[str, Any]) -> dict[str, Any]:
    """A tournament's summary without its timing: what the seed alone decides (results.json)."""
    return {key: value for key, value in summary.items() if key != "timing"}
