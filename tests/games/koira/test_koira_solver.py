"""The exact phase-two solver (``koira_env.games.koira.solver``).

Three searches must agree: the compiled solver (``_solver.pyx``), the readable reference
(``ReferenceSolver``) and an exhaustive search with no table and no shortcuts
(``brute_force``), on small positions of every preset, table sizes from 2 to 8 and the option
mixes that change phase two, from both engines. On bigger positions the solver must agree with
its own children (an escape needs one escaping move at the seat's turn, and every move at the
others').
"""

from __future__ import annotations

import random

import pytest

from koira_env.games.koira import solve, solve_moves
from koira_env.games.koira.engine import PHASE_TWO
from koira_env.games.koira.game import make_game
from koira_env.games.koira.solver import ReferenceSolver, brute_force, compiled_copy

# (preset, players, options): every preset, the smallest and largest tables, and the options
# that change phase two
TABLES = [
    ("koira", 2, {}),
    ("koira", 3, {}),
    ("koira", 4, {}),
    ("koira", 8, {}),
    ("koira-b", 3, {}),
    ("koira-b", 6, {}),
    ("mattis", 4, {}),
    ("mattis", 8, {}),
    ("mini", 2, {}),
    ("mini", 2, {"trump_card": "revealed", "phase_two_leader": "last_winner"}),
    ("koira", 3, {"deck_ranks": 4, "hand_size": 2, "take": "lowest"}),
    ("koira", 4, {"trump_only_when_void": False, "voluntary_take": True}),
    ("koira", 4, {"take": "lowest", "trump_ends_trick": True}),
    ("koira", 3, {"sequences": 2}),
    ("koira-b", 4, {"sequences": 2, "take_one_card": True, "sequences_from_two": True}),
    ("koira", 4, {"sequences": 3, "sequence_beat": "any_length", "reward": "placement"}),
    ("koira", 4, {"emptied_trick": "ends"}),
    ("koira-b", 3, {"emptied_trick": "ends"}),
]


def positions(preset, n, options, count, max_cards, engine=None, seed=0):
    """Phase-two positions of random games, the first with at most ``max_cards`` in hands."""
    game = make_game(n, preset, engine=engine, **options)
    rng = random.Random(seed)
    found, g = [], 0
    while len(found) < count:
        state = game.new_state(seed=seed * 100_000 + g)
        g += 1
        while not state.is_terminal:
            if state.phase == PHASE_TWO and sum(map(len, state.hands)) <= max_cards:
                found.append(state)
                break
            state.apply(rng.choice(state.legal_actions()))
    return found


def table_id(table):
    preset, n, options = table
    return f"{preset}-{n}" + "".join(f"-{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("table", TABLES, ids=table_id)
@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_solver_agrees_with_the_reference_and_brute_force(table, engine):
    preset, n, options = table
    cycles = options.get("emptied_trick") == "ends"  # brute force explores every cycle
    states = positions(preset, n, options, 8, 5 if cycles else 7, engine=engine, seed=n)
    verdicts = set()
    for state in states:
        for seat in range(n):
            exact = brute_force(state, seat)
            assert solve(state, seat) is exact
            assert ReferenceSolver(seat).value(state) is exact
            verdicts.add(exact)
    assert verdicts == {True, False}  # the positions test both answers


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_phase_two_moves_write_only_what_the_solver_copies_back(table):
    """The solver takes a move back by copying the state's first ``COPIED_BYTES`` (the core
    orders its fields so): no phase-two move, to the game's end, may write beyond them."""
    from koira_env.games.koira import _solver

    preset, n, options = table
    rng = random.Random(3)
    moves = 0
    for state in positions(preset, n, options, 10, 52, engine="compiled", seed=1):
        while not state.is_terminal:
            before = state.__reduce__()[1][2]
            state.apply(rng.choice(state.legal_actions()))
            after = state.__reduce__()[1][2]
            assert after[_solver.COPIED_BYTES :] == before[_solver.COPIED_BYTES :]
            moves += 1
    assert moves >= 30


@pytest.mark.parametrize("table", TABLES[:8] + TABLES[-2:], ids=table_id)
def test_solver_is_consistent_with_its_children(table):
    preset, n, options = table
    # repetitions (emptied_trick="ends") make lines long and answers line-dependent, so those
    # tables are checked on smaller positions
    cards = 5 if options.get("emptied_trick") == "ends" else 12 if n <= 4 else 9
    for state in positions(preset, n, options, 6, cards, seed=7):
        for seat in range(n):
            verdict = solve(state, seat)
            children = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply(action)
                children.append(solve(child, seat))
            expected = any(children) if state.current == seat else all(children)
            assert verdict is expected


# the tables whose games never repeat a position: the ones df-pn searches
ACYCLIC = [t for t in TABLES if t[2].get("emptied_trick") != "ends"]


@pytest.mark.parametrize("table", ACYCLIC, ids=table_id)
def test_dfpn_alone_and_after_a_depth_first_share_agree_with_the_reference(table):
    """``dfs_nodes`` 0 is df-pn alone, 20 hands over mid-search (the two share the table),
    -1 is the depth-first search alone; all must give the reference's verdict."""
    from koira_env.games.koira import _solver

    preset, n, options = table
    verdicts = set()
    for state in positions(preset, n, options, 8, 7, seed=n + 1):
        state = compiled_copy(state)
        for seat in range(n):
            exact = ReferenceSolver(seat).value(state)
            for share in (0, 20, -1):
                assert _solver.nodes_searched(state, seat, None, share)[0] is exact
            verdicts.add(exact)
    assert verdicts == {True, False}


@pytest.mark.parametrize(
    "table", [t for t in ACYCLIC if t[0] in ("koira-b", "mattis")], ids=table_id
)
def test_dfpn_agrees_with_the_depth_first_search_on_bigger_positions(table):
    """Voluntary takes, the lowest take and trumps at any time (koira-b, mattis): positions
    of up to 11 cards, where df-pn's numbers and transpositions matter."""
    from koira_env.games.koira import _solver

    preset, n, options = table
    for state in positions(preset, n, options, 6, 11, seed=17):
        for seat in range(n):
            exact = _solver.nodes_searched(state, seat, None, -1)[0]
            assert exact is not None
            assert _solver.nodes_searched(state, seat, None, 0)[0] is exact
            assert _solver.nodes_searched(state, seat, None, 200)[0] is exact


@pytest.mark.parametrize("table", [t for t in TABLES if t[2].get("sequences")], ids=table_id)
def test_renumbered_keys_with_runs_agree_with_the_reference(table):
    """Under ``sequences`` a run of discarded ranks is renumbered as one rank, so cards touch
    in a key only if they touch in play (and a 2 stays a 2): checked against the reference,
    whose keys hold the cards themselves, on positions bigger than brute force reaches."""
    preset, n, options = table
    for state in positions(preset, n, options, 6, 12, seed=23):
        for seat in range(n):
            assert solve(state, seat) is ReferenceSolver(seat).value(state)


@pytest.mark.parametrize("options", [{"sequences": 2}, {"sequences": 3, "take": "lowest"}])
@pytest.mark.parametrize("preset", ["koira", "koira-b"])
def test_renumbered_ranks_keep_order_adjacency_and_the_two(preset, options):
    """What the keys' renumbering must keep for the rules under ``sequences``: among the
    cards in play, each suit's order, which ranks are adjacent (a run needs them), and which
    card is a 2 (``sequences_from_two``); across suits the order of ranks when the lowest
    card is taken. Codes that closed a gap left by discarded cards would make two cards a
    run that is none."""
    from koira_env.games.koira import _solver

    gaps = 0
    for state in positions(preset, 4, options, 40, 20, engine="compiled", seed=5):
        code = _solver.rank_codes(state)
        live = [c for hand in state.hands for c in hand]
        live += [c for _, cards in state.trick for c in cards]
        for a in live:
            assert (code[a] % 13 == 0) == (a % 13 == 0), (a, code[a])  # a 2 stays a 2
            for b in live:
                if a // 13 == b // 13:
                    assert (code[a] < code[b]) == (a < b)
                    assert (code[b] - code[a] == 1) == (b - a == 1), (a, b, code[a], code[b])
                    gaps += b - a > 1 and not any(a < c < b for c in live if c // 13 == a // 13)
                if options.get("take") == "lowest" or preset == "koira-b":
                    assert (code[a] % 13 < code[b] % 13) == (a % 13 < b % 13)
    assert gaps > 100  # cards with discarded ranks between them were met


def test_dfpn_keeps_to_the_node_budget():
    from koira_env.games.koira import _solver

    big = positions("koira-b", 4, {}, 1, 30, seed=11)[0]
    for share in (0, 10):
        verdict, nodes = _solver.nodes_searched(big, big.current, 50, share)
        assert verdict is None and nodes <= 50


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_mini_phase_two_starts_of_every_deal_are_solved_exactly(engine):
    """Every one of mini's 720 deck orders, phase one played at random: at the first
    phase-two position, both seats' verdicts from the solver, the reference and brute force."""
    from itertools import permutations

    game = make_game(2, "mini", engine=engine)
    rng = random.Random(0)
    verdicts = []
    for order in permutations(game.deck_cards):
        state = game.new_state(list(order))
        while state.phase != PHASE_TWO and not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        for seat in (0, 1):
            exact = brute_force(state, seat)
            assert solve(state, seat) is exact
            assert ReferenceSolver(seat).value(state) is exact
            assert solve(state, seat) is (any if state.current == seat else all)(
                solve(_after(state, a), seat) for a in state.legal_actions()
            )
            verdicts.append(exact)
    assert len(verdicts) == 2 * 720 and 0.2 < sum(verdicts) / len(verdicts) < 0.8


def _after(state, action):
    child = state.clone()
    child.apply(action)
    return child


def test_solve_moves_gives_every_legal_move_the_movers_verdict():
    for state in positions("koira", 4, {}, 8, 12, seed=3):
        verdicts = solve_moves(state)
        assert sorted(verdicts) == state.legal_actions()
        for action, verdict in verdicts.items():
            child = state.clone()
            child.apply(action)
            assert verdict is solve(child, state.current)
        assert solve(state, state.current) is any(verdicts.values())
        first = solve_moves(state, first_escape=True)
        escapes = [a for a, v in first.items() if v is True]
        assert escapes == [] if True not in verdicts.values() else escapes == [list(first)[-1]]
        assert all(verdicts[a] is v for a, v in first.items())


def test_python_states_are_solved_through_a_compiled_copy():
    for state in positions("koira-b", 4, {"sequences": 2}, 6, 12, engine="python", seed=5):
        twin = compiled_copy(state)
        assert twin.hands == state.hands and twin.trick == state.trick
        assert twin.legal_actions() == state.legal_actions()
        assert solve_moves(state) == solve_moves(twin)


def test_phase_one_and_bad_seats_are_refused():
    state = make_game(4, "koira").new_state(seed=1)
    with pytest.raises(ValueError, match="phase-two states only"):
        solve(state, 0)
    with pytest.raises(ValueError, match="phase-two states only"):
        solve_moves(state)
    late = positions("koira", 4, {}, 1, 20)[0]
    for seat in (4, -1, 1.0, None):
        with pytest.raises(ValueError, match=r"seat must be an int in 0\.\.3"):
            solve(late, seat)


def test_a_budget_leaves_big_positions_undecided_and_finished_games_are_settled():
    big = positions("koira", 4, {}, 1, 40, seed=11)[0]
    assert sum(map(len, big.hands)) > 30
    assert solve(big, big.current, max_nodes=1) is None
    assert set(solve_moves(big, max_nodes=1).values()) <= {None, True, False}
    state = big.clone()
    rng = random.Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert [solve(state, p) for p in range(4)] == [p != state.loser for p in range(4)]
    assert solve_moves(state) == {}


def test_compiled_phase_two_setters_refuse_bad_positions():
    state = positions("koira", 4, {}, 1, 20)[0].clone()
    with pytest.raises(ValueError, match="one card or a run of one suit"):
        state.trick = [[0, [3, 5]]]
    with pytest.raises(ValueError, match="one flag per seat"):
        state.out = [False]
    with pytest.raises(ValueError, match="at most once"):
        state.placements = [1, 1]
    before = state.trick
    with pytest.raises(ValueError):
        state.trick = [[0, [12, 13]]]  # a king and the next suit's two are no run
    assert state.trick == before


def test_solver_agent_plays_an_escape_whenever_the_solver_finds_one():
    from koira_agents.registry import make_agent
    from koira_env.core.agent import Turn

    agent = make_agent("solver:1")
    played = 0
    for state in positions("koira", 4, {}, 40, 12, seed=13):
        state = state.clone()
        while not state.is_terminal:
            legal = state.legal_actions()
            seat = state.current
            if len(legal) > 1:
                verdicts = solve_moves(state)
                move = agent.act(Turn(state.view(seat), state.game, random.Random(0), state))
                assert move in legal
                if True in verdicts.values():  # nothing is hidden this late in these games
                    assert verdicts[move] is True
                    played += 1
            else:
                move = legal[0]
            state.apply(move)
    assert played > 20


def test_solver_agent_specs_and_games_without_a_solver_are_refused():
    from koira_agents.base import play_game
    from koira_agents.registry import make_agent
    from koira_env.registry import make_game as make_any_game

    agent = make_agent("solver:2:0/20:16")
    assert (agent.deals, agent.max_cards, agent.search.per_phase) == (2, 16, (0, 20))
    for bad in ("solver:x", "solver:0", "solver:1:2:3:0", "solver:1:2:3:4:5"):
        with pytest.raises(ValueError, match="solver"):
            make_agent(bad)
    game = make_any_game("kop")
    with pytest.raises(ValueError, match="Kop has no endgame solver"):
        play_game([make_agent("solver", "kop")] * 4, game, None, 0, deal_seed=1)


def test_the_solver_benchmark_reports_every_bucket_of_every_preset(tmp_path):
    import json

    from bench_scripts import load_benchmark

    bench = load_benchmark("bench_solver")
    out = tmp_path / "b.json"
    argv = ["--games", "2", "--rules", "koira,koira-b", "--max-nodes", "2000"]
    rows = bench.main([*argv, "--max-cards", "20", "--json", str(out)])
    names = [f"{lo}-{hi}" for lo, hi in bench.BUCKETS]
    tables = json.loads(out.read_text())["tables"]
    assert list(tables) == ["koira", "koira-b"]
    for rules, table in tables.items():
        mine = [r for r in rows if r["rules"] == rules]
        assert mine == table["rows"]
        assert [r["cards"] for r in mine] == [b for b in names if b in {r["cards"] for r in mine}]
        assert sum(r["positions"] for r in mine) == len(bench.positions(2, 4, rules, max_cards=20))
        assert table["summary"]["positions"] == sum(
            r["positions"] for r in mine if int(r["cards"].split("-")[1]) <= 16
        )
        for r in [*mine, table["summary"]]:
            assert 0 <= r["median_ms"] <= r["p90_ms"] <= r["p99_ms"] <= r["max_ms"]
            assert 0 <= r["undecided"] <= 1 and r["ratio"] > 0
    random_rows = bench.main(["--games", "1", "--rules", "mattis", "--play", "random"])
    assert random_rows and all(r["rules"] == "mattis" for r in random_rows)
