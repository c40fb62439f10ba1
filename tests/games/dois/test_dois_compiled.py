"""The compiled Dois core against the pure-Python reference engine: the same games, step by
step.

Both engines play the same deals with the same random choices at 3 and 4 players under
option mixes that use every option value. At every step the test compares whose turn it is,
the legal actions and mask, the observation bytes of every seat (the compiled writer against
the reference encoder), every seat's view and the bids it knows of, the returns, the history
and the event log; at one random step of every third game every attribute of the reference
state, illegal and non-integer actions (same message, nothing changed), clones, pickling and
determinized deals (the same ``rng`` gives the same deal, under the same constraints); at the
end the outcome and the game record. Redeals (both modes, their shows and what they tell
``determinize``), fixed decks, records, the env, the bots and the search on the compiled
states are compared too.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from helpers import play_budgeted, play_cases, random_game, run_chunks
from lockstep import (
    assert_envs_play_alike,
    assert_games_and_states_pickle,
    assert_records_replay,
    case_id,
    compare_protocol,
    option_values,
    play_quickly,
)
from lockstep import check_determinize as shared_check_determinize
from lockstep import play_both as shared_play_both
from lockstep import play_out as shared_play_out

import koira_env
from koira_env.core.agent import Turn
from koira_env.core.deck import deck_for_hand
from koira_env.core.record import game_record
from koira_env.games.dois import _compiled, search
from koira_env.games.dois import engine as reference
from koira_env.games.dois.bots import CounterBot, GreedyBot, greedy_rollout
from koira_env.games.dois.cards import DECK_SIZE, card_name
from koira_env.games.dois.engine import State as ReferenceState
from koira_env.games.dois.game import DoisGame, make_game
from koira_env.games.dois.rules import Rules, make_rules
from koira_env.games.dois.table import table

# Option mixes; together they use every value of every option (checked below). Few hands keep
# games short: a hand is 14 actions a player.
CASES: list[tuple[int, dict[str, Any]]] = [
    (4, {"hands": 1}),
    (3, {"hands": 1, "bidding": "sealed"}),
    (4, {"hands": 2, "redeal": "all"}),
    (3, {"hands": 3, "bidding": "sealed", "redeal": "all"}),
    (4, {"hands": 5, "bidding": "sealed"}),
    (3, {}),
    (4, {}),
    (3, {"hands": 20, "redeal": "all"}),
]
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games.
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 4, 200, 5_000
SKIP = ("cached_legal", "game")  # the cache is the reference's own; the game by its rules
PROTOCOL = ("current", "actions_taken", "truncated", "deck", "seed", "history", "log", "n")


def games(n: int, mix: dict[str, Any]) -> tuple[DoisGame, DoisGame]:
    """The reference game and the compiled game of one rule set."""
    return make_game(n, engine="python", **mix), make_game(n, engine="compiled", **mix)


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules)."""
    names = [name for name in (*ReferenceState.__slots__, *PROTOCOL) if name not in SKIP]
    return (
        *(repr(getattr(s, name)) for name in names),
        repr(s.game.rules),
        repr((s.is_terminal, s.dealer, s.lead, [s.public_bids(p) for p in range(s.n)])),
        repr([(s._caps(p), s._needs(p)) for p in range(s.n)]),
    )


def compare(py: DoisGame, co: DoisGame, ref: Any, com: Any, logged: int = 0) -> None:
    """What any seat or the env can read, on both engines (the log from entry ``logged``
    on: a log only grows, and the game's end compares it whole)."""
    compare_protocol(py, co, ref, com, logged)
    for seat in range(-1, ref.n):  # -1: the last seat's hand, as lists index
        assert com.view(seat) == ref.view(seat)
        assert com.public_bids(seat) == ref.public_bids(seat)


play_out = functools.partial(shared_play_out, compare, snapshot)


check_determinize = functools.partial(shared_check_determinize, compare, snapshot)


# the step that also checks clones, deals and errors: in the first hand on every other game,
# else anywhere in the first two hands
play_both = functools.partial(
    shared_play_both,
    compare=compare,
    snapshot=snapshot,
    determinize=check_determinize,
    probe=lambda seed, ref: 14 * ref.n * (1 if seed % 2 else 2),
)


def test_the_cases_play_every_option_value():
    played = [make_rules(n, **mix) for n, mix in CASES]
    others = option_values(Rules, played)
    assert set(others) == {"num_players", "hands"}
    assert others["num_players"][1] == {3, 4}
    value, values, metadata = others["hands"]  # the default and both bounds, and others
    assert {value, metadata["min"], metadata["max"]} <= values and len(values) >= 5


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_both_engines_play_the_same_games(case: tuple[int, dict[str, Any]]) -> None:
    n, mix = case
    pair = games(n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


def _redealt_seeds(n: int, redeal: str, count: int) -> list[int]:
    """Seeds whose first deal needed a redeal under ``redeal`` (a redraw, shown, for
    "player"; everyone dealt again for "all")."""
    game = make_game(n, engine="compiled", hands=2, redeal=redeal)
    found = []
    seed = 0
    while len(found) < count:
        state = game.new_state(seed=seed, log=True)
        if any(event["type"] == "redeal" for event in state.log):
            found.append(seed)
        seed += 1
    return found


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("redeal", ["player", "all"])
def test_redeals_deal_show_and_determinize_alike(n: int, redeal: str) -> None:
    """Games whose first hand was dealt again, compared at every step, with determinized
    deals (which must respect what the shows tell) at several steps of that hand."""
    py, co = games(n, {"hands": 2, "redeal": redeal})
    shows = 0
    for seed in _redealt_seeds(n, redeal, 4):
        ref = py.new_state(seed=seed, log=True)
        com = co.new_state(seed=seed, log=True)
        shows += len(ref.shown)
        assert com.shown == ref.shown
        rng = random.Random(seed)
        logged = 0
        while not ref.is_terminal:
            compare(py, co, ref, com, logged)
            if ref.hand_no == 0 and ref.actions_taken % 5 == 0:
                check_determinize(py, co, ref, com, seed + ref.actions_taken, play=False)
            logged = len(ref.log)
            action = rng.choice(ref.legal_actions())
            ref.apply(action)
            com.apply(action)
        assert snapshot(com) == snapshot(ref) and game_record(com) == game_record(ref)
    assert (shows > 0) == (redeal == "player")


def _deal_problems(count: int, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """``engine._constrained_deal``'s arguments as ``determinize`` builds them, for every seat
    and for none, at every step of the first hand of games whose first hand was shown."""
    problems: list[tuple[Any, ...]] = []
    deal = reference._constrained_deal

    def capture(pool, rooms, caps, needs, rng, groups=()):
        problems.append((bytearray(pool), list(rooms), caps, needs, list(groups)))
        return deal(pool, rooms, caps, needs, rng, groups)

    py, _ = games(4, {"hands": 2, "redeal": "player"})
    with monkeypatch.context() as patch:
        patch.setattr(reference, "_constrained_deal", capture)
        for seed in _redealt_seeds(4, "player", count):
            state = py.new_state(seed=seed)
            rng = random.Random(seed)
            while state.hand_no == 0 and not state.is_terminal:
                for seat in range(-1, 5):
                    state.determinize(seat, random.Random(seed))
                state.apply(rng.choice(state.legal_actions()))
    return problems


def test_the_constrained_deal_in_c_draws_the_reference_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_constrained_deal`` in C gives the reference's deal and leaves the generator where
    the reference leaves it, on the problems of real shown redeals: at the usual budget, at
    budgets of 1-20 steps (the depth-first deal starts again many times), and through
    ``determinize`` with a ``Random`` subclass, which the reference's own function deals."""
    problems = _deal_problems(3, monkeypatch)
    assert len(problems) > 200 and any(p[4] for p in problems)
    for i, (pool, rooms, caps, needs, groups) in enumerate(problems):
        for steps in (None, 1 + i % 20):
            theirs, ours = random.Random(i), random.Random(i)
            with monkeypatch.context() as patch:
                if steps is not None:
                    patch.setattr(reference, "SEARCH_STEPS", steps)
                expected = reference._constrained_deal(pool, rooms, caps, needs, theirs, groups)
            got = _compiled.py_constrained_deal(pool, rooms, caps, needs, ours, groups, steps)
            assert got == expected and ours.getstate() == theirs.getstate(), (i, steps)

    class Other(random.Random):
        """A generator C does not follow: ``determinize`` deals by the reference's function."""

    _, co = games(4, {"hands": 2, "redeal": "player"})
    for seed in _redealt_seeds(4, "player", 2):
        com = co.new_state(seed=seed)
        for seat in range(4):
            a = com.determinize(seat, random.Random(seed))
            b = com.determinize(seat, Other(seed))
            assert (a.hands, a.remains) == (b.hands, b.remains)
    with pytest.raises(ValueError, match=r"random\.Random"):
        _compiled.py_constrained_deal(*problems[0][:4], Other(1), problems[0][4])


def test_the_differential_games_reach_every_event():
    """Redeals of both modes, bids, plays, tricks with and without the trump shown, hand
    ends and game ends all happen in compared games."""
    seen: set[str] = set()
    for n, mix in CASES[:5]:
        game = make_game(n, engine="compiled", **mix)
        for seed in range(40):
            state = random_game(game, seed, log=True)
            for event in state.log:
                seen.add(event["type"])
                if event["type"] == "redeal":
                    seen.add(f"redeal:{event['mode']}")
                if event["type"] == "trick_won":
                    seen.add(f"trump shown:{event['trump_shown']}")
    assert {"deal", "bid", "play", "trick_won", "hand_end", "game_over"} <= seen, seen
    assert {"redeal:player", "redeal:all", "trump shown:True", "trump shown:False"} <= seen


def test_fixed_decks_deal_and_play_the_same() -> None:
    """``new_state(deck=...)``: one deal's deck, several decks, by name and by id."""
    for k, (n, mix) in enumerate([(4, {"hands": 2}), (3, {"hands": 2, "redeal": "all"})]):
        py, co = games(n, mix)
        for seed in range(12):
            rng = random.Random(seed)
            deck: list[Any] = []
            for _ in range(1 + seed % 3):
                order = list(range(DECK_SIZE))
                rng.shuffle(order)
                deck += [card_name(c) for c in order] if seed % 2 else order
            ref = py.new_state(deck, seed=seed + k, log=True)
            com = co.new_state(deck, seed=seed + k, log=True)
            compare(py, co, ref, com)
            play_out(py, co, ref, com, rng)
            assert com.deck == ref.deck and game_record(com) == game_record(ref)


def test_a_hand_of_twenty_redraws_deals_alike() -> None:
    """A pool that only just makes a good hand (3 suit cards of 25) is redrawn until the hand
    is good: these decks (met in a search's rollout) take 20 redraws, all shown, which both
    engines deal and play alike (the compiled core holds up to ``MAX_SHOWS`` = 64)."""
    seed = 2764623393670853059
    deck = [c for j in range(2, 23) for c in deck_for_hand(seed, j, DECK_SIZE)]
    py, co = games(4, {"hands": 8, "redeal": "player"})
    ref = py.new_state(deck, seed=1, log=True)
    com = co.new_state(deck, seed=1, log=True)
    assert len(ref.shown) == 20 and ref.decks_used == 21
    compare(py, co, ref, com)
    play_out(py, co, ref, com, random.Random(1))


def test_records_replay_on_both_engines():
    assert_records_replay(games, CASES[:4], 3)


def test_the_default_env_plays_as_the_reference_env():
    """``koira_env.make("dois")`` (compiled by default) and ``engine="python"`` give the same
    observations, masks, rewards, ends and infos for the same actions."""
    for n, mix in [(4, {"hands": 1}), (3, {"hands": 2, "bidding": "sealed"})]:
        envs = [
            koira_env.make("dois", n, **mix),
            koira_env.make("dois", n, engine="python", **mix),
        ]
        assert envs[0].game.engine == "compiled" and envs[1].game.engine == "python"
        assert_envs_play_alike(envs, range(3))


def test_the_compiled_state_refuses_bad_seats_and_reads_as_the_reference():
    """``observe_into`` and the other compiled-core checks are in tests/test_games.py."""
    game = make_game(4, hands=2, engine="compiled")
    state = game.new_state(seed=3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(4)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(-5)
    with pytest.raises(IndexError, match="out of range"):
        game.action_mask([game.num_actions])
    with pytest.raises(ValueError, match="rules"):
        make_game(4, engine="compiled").observation(state, 0)  # other hands
    with pytest.raises(ValueError, match="rules"):
        make_game(3, hands=2, engine="compiled").observation(state, 0)
    # the reference encoder and text read the compiled state's attributes too: the same
    reference = make_game(4, hands=2, engine="python")
    rng = random.Random(0)
    while True:
        for seat in range(4):
            expected = reference.observation(state, seat).tobytes()
            assert game.observation(state, seat).tobytes() == expected
            assert game.render(state, seat) == reference.render(state, seat)
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))


def test_games_and_states_pickle():
    assert_games_and_states_pickle(make_game, snapshot, 3, bidding="sealed")


def test_each_engine_makes_its_own_states():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    assert make_game(4).engine == "compiled"
    assert isinstance(make_game(4, engine="compiled").new_state(seed=1), _compiled.State)
    assert isinstance(make_game(3, engine="python").new_state(seed=1), ReferenceState)


# ------------------------------------------------------------------ the bots and search
def _pairs_in_play(count: int) -> list[tuple[Any, Any]]:
    """Random (reference, compiled) states in the same position, bidding or in play."""
    found = []
    for n, mix in ((4, {"hands": 2}), (3, {"hands": 2, "bidding": "sealed"})):
        py, co = games(n, mix)
        for seed in range(count):
            ref, com = py.new_state(seed=seed), co.new_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(14 * n)):
                action = rng.choice(ref.legal_actions())
                ref.apply(action)
                com.apply(action)
            found.append((ref, com))
    return found


def test_the_bots_search_and_table_read_the_compiled_states_alike():
    """The bots, ``search``'s values (reference and compiled playouts) and the table view
    give the same answers on both engines' states of one position."""
    checked = 0
    for ref, com in _pairs_in_play(10):
        seat = ref.current
        assert greedy_rollout(com) == greedy_rollout(ref)
        assert table(com, seat) == table(ref, seat) and table(com, None) == table(ref, None)
        turns = [Turn(s.view(seat), s.game, random.Random(seat), s) for s in (ref, com)]
        for bot in (CounterBot(), GreedyBot()):
            assert bot.act(turns[1]) == bot.act(turns[0])
        assert search.model_move_values(com, seat) == search.model_move_values(ref, seat)
        for engine in ("python", "auto"):
            values = [search.move_values(t, 2, 0, engine=engine) for t in turns]
            assert values[1] == values[0]  # the same deals from the same generator
        checked += 1
    assert checked >= 20


# ------------------------------------------------------------------ many games
SLOW_GAMES = 100_000
SLOW_CHUNKS = 40


def _chunk(chunk: int, chunks: int, total: int) -> tuple[int, int]:
    """Play games ``chunk, chunk + chunks, ...`` below ``total``, cycling through the cases:
    one in 500 as fully as the default run (``play_both``), the rest comparing the turns,
    legal sets and observations of the actor, and the whole state and log at the end."""
    return play_cases(chunk, chunks, total, SLOW_CASES, games, _play_one)


# the slow run's cases: every option value, mostly few hands (the reference engine is the
# slow side)
SLOW_CASES = [
    (n, {"hands": hands, "bidding": bidding, "redeal": redeal})
    for n in (3, 4)
    for hands, bidding, redeal in ((1, "open", "player"), (1, "sealed", "all"), (2, "open", "all"))
] + [(4, {}), (3, {"hands": 3, "bidding": "sealed"})]


def _play_one(pair: tuple[DoisGame, DoisGame], g: int) -> int:
    if g % 500 == 0:
        return play_both(pair, g)
    return play_quickly(snapshot, pair, g)


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_a_hundred_thousand_games_play_the_same():
    """100,000 games in chunks over every core (about 15 CPU-minutes)."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
