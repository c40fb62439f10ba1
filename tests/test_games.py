"""Every game of the registry keeps the game protocol (``koira_env.core.game``).

The same checks run on every game, so a new game gets them by being registered: the
registry's errors, env metadata, action names, integer-only actions, leak-free observations
(a seat observes the same thing on every deal consistent with what it knows), zero-sum
returns and valid places, determinism, exact record replay, and the generic agents
(``random``, ``ismcts``) and tournaments playing it; through the env, PettingZoo's api, seed
and render tests at every table size (and in the game's single-hand form), illegal actions,
the end-of-game info and Gymnasium's checker of the single-agent env; and the game's own bots.
What is one game's alone (its rules' options, fixed deals, rendering) stays in its
``test_<game>_env.py``.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from helpers import (
    example_game,
    observed_positions,
    play_out,
    random_game,
    replayed,
    snapshot,
)
from pettingzoo.test import api_test, render_test, seed_test

import koira_env
from koira_agents.base import play_game
from koira_agents.ismcts import ISMCTSAgent
from koira_agents.registry import default_agents, make_agent
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env import IllegalActionError, games, make, make_game, make_raw
from koira_env.core import events
from koira_env.core import game as core_game
from koira_env.core.agent import Turn
from koira_env.core.record import game_record
from koira_env.core.single_agent import SingleAgentEnv
from koira_env.core.spec import AgentChoices
from koira_env.registry import replay, spec

SUITE = games()
with example_game() as EXAMPLE:  # docs/games.md's walkthrough game is held to the same suite
    GAMES = games()
    # (game, players): each game at its smallest and largest table
    TABLES = sorted({(g, n) for g in GAMES for n in spec(g).players})
    # (game, players): each game at every table size
    ALL_TABLES = [(g, n) for g in GAMES for n in range(spec(g).players[0], spec(g).players[1] + 1)]
    # (game, players, options): every table in the full game, and in the single-hand form if any
    ENV_FORMS = [(g, n, {}) for g, n in ALL_TABLES] + [
        (g, n, spec(g).single_hand) for g, n in ALL_TABLES if spec(g).single_hand
    ]


@pytest.fixture(autouse=True)
def registered_example():
    """The example game is registered while each test here runs, and only then."""
    with example_game():
        yield


def form_id(value: object) -> str | None:
    """Test ids of ``ENV_FORMS``: "game" or "single-hand" for the options."""
    return ("single-hand" if value else "game") if isinstance(value, dict) else None


def random_states(game_id: str, n: int, count: int, seed: int = 0):
    """Finished random games, with every decision state kept (cloned) along the way."""
    game = make_game(game_id, n)
    rng = random.Random(seed)
    for g in range(count):
        state = game.new_state(seed=seed * 1000 + g, log=True)
        seen = []
        while not state.is_terminal:
            seen.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        yield state, seen


def test_games_are_listed_and_unknown_ones_named():
    assert SUITE == ["koira", "matapesa", "whist22", "kop", "dois", "teka", "red7"]
    assert games() == [*SUITE, EXAMPLE]  # a registered game is listed after the suite's


def test_register_refuses_a_taken_id_and_unregister_keeps_the_suites_games(tmp_path, monkeypatch):
    from koira_env import registry

    assert registry.register("tricks") == EXAMPLE  # the same package again: no change
    (tmp_path / "my_kop").mkdir()
    (tmp_path / "my_kop" / "__init__.py").write_text(
        "from koira_env.core.spec import GameSpec\n"
        "SPEC = GameSpec(__name__, id='kop', title='My Kop', players=(4, 4))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"game id 'kop' is taken by koira_env\.games\.kop"):
        registry.register("my_kop")
    with pytest.raises(ValueError, match="'kop' is one of the suite's games"):
        registry.unregister("kop")
    assert spec("kop").title == "Kop" and games() == [*SUITE, EXAMPLE]
    with pytest.raises(ValueError, match=r"unknown game 'poker'.*valid games: \['koira'"):
        make("poker")


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_player_counts_and_options_name_the_valid_choices(game_id):
    lo, hi = spec(game_id).players
    played_by = f"{lo}-{hi}" if lo < hi else f"{lo}"
    for n in (lo - 1, hi + 1):
        message = rf"is played by {played_by} players, got num_players={n}"
        with pytest.raises(ValueError, match=message):
            make(game_id, n)
    if game_id != "koira":  # Koira names its rules preset instead
        with pytest.raises(ValueError, match=re.escape(spec(game_id).title) + " " + message):
            make(game_id, hi + 1)
    with pytest.raises(ValueError, match=r"unknown .*option.*'no_such_option'.*valid options"):
        make(game_id, lo, no_such_option=1)
    with pytest.raises(ValueError, match="render_mode"):
        make(game_id, lo, render_mode="rgb")


# A bad value of each kind of option, per game, and the words its error must use: an unknown
# option lists the valid ones, a choice names its choices, a number its range, a flag its two.
BAD_OPTIONS = [
    ("kop", {"colour": "red"}, r"valid options: \[.*'silent_scoring'"),
    ("kop", {"tie": "split"}, r"choose one of \['nobody', 'queens_lose'\]"),
    ("kop", {"victory_cards": 0}, r"victory_cards must be an int in 1\.\.20"),
    ("kop", {"single_hand": "yes"}, "single_hand must be True or False"),
    ("teka", {"colour": "red"}, r"valid options: \[.*'failed_bid'"),
    ("teka", {"failed_bid": "half"}, r"choose one of \['opponents', 'double', 'nothing'\]"),
    ("teka", {"no_honours": True}, r"choose one of \['redeal', 'ask', 'keep'\]"),
    ("teka", {"target": 500}, r"target must be an int in 8\.\.200"),
    ("teka", {"single_hand": "yes"}, "single_hand must be True or False"),
    ("dois", {"trumps": 2}, r"valid options: \['bidding', 'hands', 'redeal'\]"),
    ("dois", {"bidding": "secret"}, r"choose one of \['open', 'sealed'\]"),
    ("dois", {"redeal": True}, r"choose one of \['player', 'all'\]"),
    ("dois", {"hands": 0}, r"hands must be an int in 1\.\.20"),
    ("red7", {"advanced": True}, r"valid options: \[.*'canvas_draw'"),
    ("red7", {"scoring": "rounds"}, r"choose one of \['last_standing', 'points'\]"),
    ("red7", {"first_player": "dealer"}, r"choose one of \['left_of_leader', 'player_0'\]"),
    ("red7", {"max_rounds": 0}, r"max_rounds must be an int in 1\.\.100000"),
    ("red7", {"canvas_draw": 1}, "canvas_draw must be True or False"),
]


@pytest.mark.parametrize(("game_id", "options", "message"), BAD_OPTIONS)
def test_bad_option_values_name_the_valid_choices(game_id, options, message):
    with pytest.raises(ValueError, match=message):
        make(game_id, **options)


@pytest.mark.parametrize("game_id", GAMES)
def test_metadata_names_the_game_and_env_forms_agree(game_id):
    name = f"{game_id}_v{spec(game_id).version}"  # tests/test_public_api.py pins each version
    assert make(game_id).metadata["name"] == koira_env.env(game_id).metadata["name"] == name
    assert type(koira_env.raw_env(game_id)) is type(make_raw(game_id))
    hi = spec(game_id).players[1]
    assert len(koira_env.env(game_id, hi).possible_agents) == hi


# by game: title, player range, default players, what tournaments rank by, the single-hand
# options, the number of actions and the deck's size at the default table, and the bots
SPECS = {
    "koira": ("Koira", (2, 8), 4, "loss_rate", {}, 54, 52, {"cautious", "dumper", "expert",
              "gambler", "greedy", "hoarder", "warrior"}),
    "matapesa": ("Mätäpesä", (3, 8), 4, "loss_rate", {}, 13, 52, {"keeper", "lowest", "shed"}),
    "whist22": ("Whist 22", (3, 4), 4, "win_rate", {"max_hands": 1}, 29, 22, {"counter", "greedy"}),
    "kop": ("Kop", (4, 4), 4, "win_rate", {"single_hand": True}, 20, 16, {"counter", "lowest"}),
    "dois": ("Dois", (3, 4), 4, "win_rate", {"hands": 1}, 25, 68, {"counter", "greedy"}),
    "teka": ("Teka", (4, 4), 4, "win_rate", {"single_hand": True}, 73, 52, {"counter", "greedy"}),
    "red7": ("Red7", (2, 4), 4, "win_rate", {}, 2500, 49, {"pressure", "thrifty"}),
    "tricks": ("Tricks", (2, 4), 4, "mean_place", {}, 20, 20, {"high"}),
}  # fmt: skip


def test_a_game_declares_only_a_known_headline_measure():
    with pytest.raises(ValueError, match=r"unknown rank_by 'speed'; valid: \['loss_rate'"):
        AgentChoices(rank_by="speed")


@pytest.mark.parametrize("game_id", GAMES)
def test_spec_and_game_attributes(game_id):
    title, players, default, rank_by, single_hand, actions, deck, bots = SPECS[game_id]
    entry = spec(game_id)
    assert (entry.title, entry.players, entry.default_players) == (title, players, default)
    assert entry.choices.rank_by == rank_by and entry.single_hand == single_hand
    game = make_game(game_id)
    assert (game.num_actions, game.deck_size) == (actions, deck)
    assert set(entry.load("bots")) == bots and entry.load("rollout") is not None
    env = make(game_id)
    env.reset(seed=0)
    assert env.num_agents == len(env.possible_agents) == default
    assert env.agent_selection == "player_0"


def test_spec_loads_only_declared_plugins():
    entry = spec("red7")
    assert entry.load("pimc") is None  # not declared: the agent refuses it by name
    assert spec("kop").load("pimc").__name__ == "move_values"
    with pytest.raises(ValueError, match="unknown plug-in 'bot'"):
        entry.load("bot")


def test_koira_presets_have_their_own_names():
    names = {p: koira_env.env(4, p).metadata["name"] for p in ("koira", "koira-b", "mattis")}
    assert names == {"koira": "koira_v0", "koira-b": "koira_b_v0", "mattis": "mattis_v0"}


@pytest.mark.parametrize("game_id", GAMES)
def test_action_names_round_trip(game_id):
    game = make_game(game_id)
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert len(set(names)) == len(names)
    assert [game.action_id(name) for name in names] == list(range(game.num_actions))
    assert [game.action_id(name.upper()) for name in names] == list(range(game.num_actions))
    env = make(game_id)
    assert env.unwrapped.action_id(env.unwrapped.action_name(0)) == 0
    with pytest.raises(ValueError):
        game.action_id("no such move")


@pytest.mark.parametrize("game_id", GAMES)
def test_action_names_take_the_integers_step_takes(game_id):
    """``step`` takes numpy integers, so naming one must work too (issue 28: Koira's
    ``action_name(np.int64(24))`` raised); bools, floats and strings stay refused, as by
    ``step``, and so are ids out of range."""
    game = make_game(game_id)
    engines = [None, "python"] if hasattr(game, "engine") else [None]  # compiled cores: both
    for engine in engines:
        env = make(game_id) if engine is None else make(game_id, engine=engine)
        named = env.unwrapped
        last = named.game.num_actions - 1
        for action in (0, 24 % last, last):
            name = named.action_name(action)
            for kind in (np.int64, np.int32, np.uint16, np.intp):
                assert named.action_name(kind(action)) == name
            assert named.action_id(name) == action
        for bad in (True, np.True_, 0.0, np.float64(1), str(last), None):
            with pytest.raises(IllegalActionError, match="an action must be an integer"):
                named.action_name(bad)
        for bad in (-1, last + 1, np.int64(last + 1)):
            with pytest.raises(ValueError, match=rf"action must be an int in 0..{last}, got"):
                named.action_name(bad)


@pytest.mark.parametrize("game_id", GAMES)
def test_non_integer_actions_change_nothing(game_id):
    """``13.0 == 13``: a float once passed the legality check, corrupting the state."""
    raw = make_raw(game_id)
    raw.reset(seed=1)
    state = raw.unwrapped.state_object
    legal = state.legal_actions()[0]
    seats = range(raw.unwrapped.game.num_players)
    before = (list(state.history), raw.agent_selection, [state.view(s) for s in seats])
    for bad in (float(legal), np.float32(legal), str(legal), None, True, False):
        # one wording in every engine: the illegal action, why, whose turn, the legal ones
        words = rf"illegal action {re.escape(repr(bad))} \(an action must be an integer, got "
        with pytest.raises(IllegalActionError, match=words + r".*legal actions: "):
            raw.step(bad)
        assert (list(state.history), raw.agent_selection, [state.view(s) for s in seats]) == before
    for bad in (-1, raw.unwrapped.game.num_actions):
        with pytest.raises(IllegalActionError):
            raw.step(bad)
        assert (list(state.history), raw.agent_selection, [state.view(s) for s in seats]) == before
    raw.step(np.int64(legal))  # numpy integers are integers
    assert state.history[-1] == legal and type(state.history[-1]) is int
    protected = make(game_id)
    protected.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        protected.step(float(legal))
    with pytest.raises(AssertionError, match="action space"):
        protected.step(True)  # not action 1, whether or not 1 is legal
    assert protected.unwrapped.state_object.history == []


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_illegal_actions_raise_in_the_raw_env_and_end_the_protected_env_game(game_id, n):
    """An action in range but not legal: the raw env raises and changes nothing, naming the
    legal actions; the protected env ends the game, the mover losing (-1) and nobody else
    scoring."""
    raw = make_raw(game_id, n)
    raw.reset(seed=1)
    state = raw.unwrapped.state_object
    bad = next(a for a in range(raw.unwrapped.game.num_actions) if a not in state.legal_actions())
    before = (list(state.history), raw.agent_selection, [state.view(s) for s in range(n)])
    with pytest.raises(IllegalActionError):
        raw.step(bad)
    assert (list(state.history), raw.agent_selection, [state.view(s) for s in range(n)]) == before
    with pytest.raises(IllegalActionError, match="legal"):
        state.apply(bad)
    env = make(game_id, n)
    env.reset(seed=1)
    mover = env.agent_selection
    env.step(bad)  # PettingZoo's logger warns "Illegal move made"
    assert env.rewards == {a: -1.0 if a == mover else 0.0 for a in env.possible_agents}
    assert all(env.terminations.values())


@pytest.mark.filterwarnings("ignore:ignoring unknown reset option")  # api_test passes one
@pytest.mark.filterwarnings("ignore:Observation")  # dict observations, as in PettingZoo's classic
@pytest.mark.parametrize(("game_id", "n", "options"), ENV_FORMS, ids=form_id)
def test_pettingzoo_api_seed_and_render(game_id, n, options):
    api_test(make(game_id, num_players=n, **options), num_cycles=200)
    seed_test(lambda: make(game_id, num_players=n, **options), num_cycles=200)
    render_test(
        lambda render_mode=None: make(game_id, num_players=n, render_mode=render_mode, **options)
    )


@pytest.mark.parametrize(("game_id", "n", "options"), ENV_FORMS, ids=form_id)
def test_env_games_are_zero_sum_with_places_and_scores_in_the_end_info(game_id, n, options):
    env = make(game_id, n, **options)
    rng = random.Random(n)
    for seed in range(10):
        env.reset(seed=seed)
        totals, info = play_out(env, rng)
        assert sum(totals.values()) == pytest.approx(0.0)
        assert set(info["places"]) == set(totals) == set(info["scores"])
        assert min(info["places"].values()) == 1
        assert all(1 <= p <= n for p in info["places"].values())


# random games whose every observation is checked, by table (one game where not named)
OBSERVED_GAMES = {("kop", 4): 100, ("teka", 4): 40}


@pytest.mark.parametrize(("game_id", "n"), ALL_TABLES)
def test_observation_layout_covers_the_observation_and_every_seat_stays_in_bounds(game_id, n):
    game = make_game(game_id, n)
    count = OBSERVED_GAMES.get((game_id, n), 1)
    assert sum(1 for _ in observed_positions(game, range(n, n + count))) > count * n


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_clones_play_on_as_the_original_would_and_leave_it_unchanged(game_id, n):
    """A clone of a fresh deal and of positions along random games, played to the end: the
    original shows exactly what it showed before (history, log, views, observations, hands,
    location tables, scores), and the clone is the game the same moves make from the deal."""
    game = make_game(game_id, n)
    rng = random.Random(n)
    checked = 0
    for seed in (3, 60, 61):
        state = game.new_state(seed=seed, log=True)
        steps = 0
        while True:
            if seed == 3 or steps % 11 == 5:
                before = snapshot(state)
                clone = state.clone()
                assert snapshot(clone) == before
                moves = []
                while not clone.is_terminal:
                    legal = clone.legal_actions()
                    moves.append(legal[-1] if not moves else legal[0])
                    clone.apply(moves[-1])
                assert snapshot(state) == before
                assert clone.history == state.history + moves
                again = game.new_state(seed=seed, log=True)
                for action in clone.history:
                    again.apply(action)
                assert snapshot(again) == snapshot(clone)
                checked += 1
            if state.is_terminal or seed == 3:
                break
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    assert checked >= 3


@pytest.mark.parametrize(("game_id", "n"), ALL_TABLES)
def test_single_agent_env_passes_gymnasiums_checker(game_id, n):
    game = make_game(game_id, n, **spec(game_id).single_hand)
    check_env(SingleAgentEnv(game), skip_render_check=True)


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_random_games_end_with_valid_places_and_zero_sum_returns(game_id, n):
    for state, _ in random_states(game_id, n, 15):
        outcome = state.outcome()
        assert outcome is not None and not state.truncated
        assert sorted(outcome.places)[0] == 1 and max(outcome.places) <= n
        assert len(outcome.returns) == len(outcome.scores) == n
        assert sum(outcome.returns) == pytest.approx(0.0, abs=1e-9)
        assert list(outcome.returns) == state.returns()
        for a in range(n):  # a better place never gets a smaller return
            for b in range(n):
                if outcome.places[a] < outcome.places[b]:
                    assert outcome.returns[a] >= outcome.returns[b]
        best, worst = outcome.places.index(1), outcome.places.index(max(outcome.places))
        assert max(outcome.places) == 1 or outcome.returns[best] > outcome.returns[worst]
        assert state.legal_actions() == []
        with pytest.raises(IllegalActionError):
            state.apply(0)


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_a_deck_for_the_first_deal_and_a_seed_make_the_seeds_game(game_id, n):
    """``new_state(deck, seed)`` with the seed's first ``deck_size`` cards: the same deal as
    the seed alone, and after the same moves the same state (later deals from the seed)."""
    game = make_game(game_id, n)
    for seed in (9, 10):
        first = random_game(game, seed, log=True)
        fixed = game.new_state(first.deck[: game.deck_size], seed=seed, log=True)
        assert snapshot(fixed) == snapshot(game.new_state(seed=seed, log=True))
        for action in first.history:
            fixed.apply(action)
        assert snapshot(fixed) == snapshot(first)


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_records_replay_exactly_and_seeds_repeat_games(game_id, n):
    for state in replayed(make_game(game_id, n), range(3000, 3005)):
        assert game_record(state)["game"] == game_id
    first = [s.history for s, _ in random_states(game_id, n, 3, seed=9)]
    assert first == [s.history for s, _ in random_states(game_id, n, 3, seed=9)]


# the event kinds each game logged before the engine kit (issue 28), by game
PREVIOUS_RELEASE = {
    "kop": {events.GAME_OVER: "game_end", events.TRICK: "trick"},
    "teka": {events.GAME_OVER: "game_end", events.TRICK: "trick"},
    "dois": {events.GAME_OVER: "game_end", events.TRICK: "trick", events.HAND_END: "score"},
    "whist22": {events.GAME_OVER: "end", events.TRICK: "trick", events.HAND_END: "score"},
}


@pytest.mark.parametrize("game_id", sorted(PREVIOUS_RELEASE))
def test_records_of_the_previous_release_replay_with_their_events_upgraded(game_id):
    """A record saved before the kit names some kinds differently: its actions replay as they
    were, and ``events.upgrade`` turns its events into today's log."""
    old_names = PREVIOUS_RELEASE[game_id]
    for state, _ in random_states(game_id, spec(game_id).default_players, 2, seed=4):
        record = json.loads(json.dumps(game_record(state)))
        old = [{**e, "type": old_names.get(e["type"], e["type"])} for e in record["events"]]
        assert old != record["events"]
        again = replay({**record, "events": old})  # the event check upgrades them first
        assert events.upgrade(old) == again.log == state.log


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_events_speak_the_shared_vocabulary_and_every_one_is_described(game_id, n):
    """The kinds every game shares are spelled once (``core.events``; issue 28: the end was
    ``game_over``, ``game_end`` or ``end``): a finished game's log ends with ``game_over``, no
    log uses a kind of an earlier release, and ``describe_event`` words every logged event and
    raises ``KeyError`` for a kind it does not know (``record.describe_event`` shows that one
    as JSON)."""
    game = make_game(game_id, n)
    for state, _ in random_states(game_id, n, 3, seed=5):
        kinds = [e["type"] for e in state.log]
        assert kinds[-1] == events.GAME_OVER and kinds.count(events.GAME_OVER) == 1
        assert events.PLAY in kinds and not set(kinds) & set(events.RENAMED)
        assert all(game.describe_event(e) for e in state.log)
    with pytest.raises(KeyError):
        game.describe_event({"type": "no_such_event"})


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_actions_are_worded_alike_in_every_game(game_id):
    """One wording on every engine (issue 28: Kop said "player 3" and "legal:"), naming the
    action, the mover and the legal actions; after the end, one sentence."""
    engines = [None, "python"] if hasattr(make_game(game_id), "engine") else [None]
    for engine in engines:
        game = make_game(game_id) if engine is None else make_game(game_id, engine=engine)
        state = game.new_state(seed=2)
        legal = state.legal_actions()
        bad = next(a for a in range(game.num_actions) if a not in legal)
        named = ", ".join(f"{a} ({game.action_name(a)})" for a in sorted(legal))
        expected = (
            f"illegal action {bad} ({game.action_name(bad)}) for player_{state.current}; "
            f"legal actions: {named}"
        )
        with pytest.raises(IllegalActionError) as err:
            state.apply(bad)
        assert str(err.value) == expected
        rng = random.Random(0)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        with pytest.raises(IllegalActionError, match=r"^the game is over: no action is legal$"):
            state.apply(legal[0])


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_observations_do_not_depend_on_what_the_seat_cannot_see(game_id, n):
    """Re-deal everything hidden from a seat (``determinize``): its observation and view stay
    the same, and the re-dealt state is a playable game."""
    game = make_game(game_id, n)
    rng = random.Random(5)
    checked = 0
    for _, seen in random_states(game_id, n, 3, seed=11):
        for state in seen[:: max(1, len(seen) // 12)]:
            for seat in range(n):
                other = state.determinize(seat, rng)
                assert other.history == [] and other.log is None
                expected = game.observation(state, seat)
                assert expected.dtype == np.float32 and expected.shape == (game.observation_size,)
                assert expected.min() >= 0.0 and expected.max() <= 1.0
                assert game.observation(other, seat).tobytes() == expected.tobytes()
                assert other.view(seat) == state.view(seat)
                if seat == state.current:
                    assert other.legal_actions() == state.legal_actions()
                checked += 1
            while not other.is_terminal:  # a determinized state plays to the end
                other.apply(rng.choice(other.legal_actions()))
    assert checked > 20


@pytest.mark.parametrize("game_id", GAMES)
def test_generic_agents_play_every_game(game_id):
    game = make_game(game_id)
    n = game.num_players
    tables = [
        [make_agent("random", game_id)] * n,
        [make_agent("ismcts:4", game_id), *[make_agent("random", game_id)] * (n - 1)],
        [ISMCTSAgent(4, rollout="random")] * n,
    ]
    for seats in tables:
        result = play_game(seats, game, None, seed=4, deal_seed=4)
        assert not result.truncated and sorted(result.places)[0] == 1
    search = [make_agent("ismcts:3:1", game_id)] * n
    if hasattr(game.new_state(seed=1).view(0), "phase"):
        assert not play_game(search, game, None, seed=1, deal_seed=1).truncated
    else:  # only games with phases can restrict the search to one
        with pytest.raises(ValueError, match="no phases"):
            play_game(search, game, None, seed=1, deal_seed=1)


@pytest.mark.parametrize(("game_id", "n"), ALL_TABLES)
def test_the_games_bots_and_rollout_play_legal_moves_from_their_views(game_id, n):
    """Each of the game's bots in turn, by seat and deal, over whole games; the rollout policy
    ISMCTS plays out with picks a legal move at every decision."""
    bots = spec(game_id).load("bots")
    names = sorted(bots)
    rollout = spec(game_id).load("rollout")
    game = make_game(game_id, n)
    for seed in range(10):
        rng = random.Random(seed)
        agents = [bots[names[(seed + p) % len(names)]]() for p in range(n)]
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = state.current
            assert rollout(state) in state.legal_actions()
            turn = Turn(state.view(seat), game, rng, state)
            action = agents[seat].act(turn)
            assert action in turn.view.legal and action in state.legal_actions()
            state.apply(action)


# the bots that take an argument (the others refuse one), by game
BOTS_WITH_AN_ARGUMENT = {
    "koira": {"gambler", "hoarder"},
    "whist22": {"counter", "greedy"},
    "dois": {"counter"},
}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_games_bots_name_themselves_and_refuse_a_bad_argument(game_id):
    for name, factory in spec(game_id).load("bots").items():
        assert factory().name == name
        with pytest.raises(ValueError, match=rf"{name}.* got 'x'") as err:
            factory("x")
        takes_none = name not in BOTS_WITH_AN_ARGUMENT.get(game_id, ())
        assert ("takes no argument" in str(err.value)) == takes_none


# whole games the rollout policy plays by itself, by table (ten where not named)
ROLLOUT_GAMES = {("kop", 4): 100, ("whist22", 3): 30, ("whist22", 4): 30}


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_the_rollout_policy_plays_whole_games_by_itself(game_id, n):
    rollout = spec(game_id).load("rollout")
    game = make_game(game_id, n)
    for seed in range(ROLLOUT_GAMES.get((game_id, n), 10)):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            action = rollout(state)
            assert action in state.legal_actions()
            state.apply(action)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_tournament_runs_on_every_game(game_id, tmp_path):
    bots = [b for b in default_agents(game_id) if b != "random"][:2]
    config = TournamentConfig(agents=("random", *bots), game=game_id, deals=2, seed=1)
    summary = run_tournament(config, tmp_path / game_id, workers=1)
    assert summary["complete"] and summary["rank_by"] == spec(game_id).choices.rank_by
    assert summary["config"]["game"] == game_id
    for row in summary["agents"]:
        assert 0 <= row["win_rate"] <= 1 and 0 <= row["loss_rate"] <= 1


# ---------------------------------------------------------------- compiled cores
# the games with a compiled core and the pure-Python reference (``engine=``)
COMPILED = [g for g in SUITE if hasattr(make_game(g), "engine")]
# by game: the arguments of the game module's ``make_game`` for a table checked below, and
# for another table with the message its compiled core gives for a state of the first
COMPILED_TABLES = {
    "koira": ((5, "mattis"), {}, (4, "koira"), "4-player engine"),
    "red7": ((3,), {"scoring": "points"}, (4,), "rules"),
    "whist22": ((3,), {"start_score": 9}, (4,), "rules"),
    "matapesa": ((5,), {"follow": "previous"}, (6,), "rules"),
    "kop": ((4,), {"victory_cards": 9}, (4,), "rules"),
    "teka": ((4,), {"target": 30}, (4,), "rules"),
    "dois": ((4,), {"hands": 3}, (3,), "rules"),
}


def game_module(game_id: str):
    return importlib.import_module(f"koira_env.games.{game_id}.game")


def test_the_compiled_games_are_named():
    assert sorted(COMPILED) == sorted(COMPILED_TABLES)


@pytest.mark.parametrize("game_id", COMPILED)
def test_engine_choice_is_not_a_rule(game_id):
    module = game_module(game_id)
    args, options, _, _ = COMPILED_TABLES[game_id]
    compiled = module.make_game(*args, engine="compiled", **options)
    python = module.make_game(*args, engine="python", **options)
    assert compiled.rules == python.rules and compiled is not python
    assert (compiled.engine, python.engine) == ("compiled", "python")
    assert module.make_game(*args, **options).engine == "compiled"  # the default
    assert make_game(game_id, engine="python").engine == "python"
    state = compiled.new_state(seed=5, log=True)
    state.apply(state.legal_actions()[0])
    assert "engine" not in game_record(state)["rules"]
    with pytest.raises(ValueError, match=r"unknown engine 'rust'; choose one of \['compiled'"):
        module.make_game(*args, engine="rust")


@pytest.mark.parametrize("game_id", COMPILED)
def test_an_unbuilt_core_falls_back_with_one_warning(game_id, monkeypatch):
    module = game_module(game_id)
    title = spec(game_id).title
    monkeypatch.setattr(module, "_compiled", None)
    monkeypatch.setattr(module, "_COMPILED_ERROR", "No module named '_compiled'", raising=False)
    monkeypatch.setattr(core_game, "_WARNED", set())
    with pytest.warns(RuntimeWarning, match=rf"compiled {title} core is not built.*pip install -e"):
        assert module.engine_name() == "python"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert module.engine_name() == "python"  # once is enough
        assert module.engine_name("python") == "python"
        assert module.make_game(engine="python").engine == "python"
    with pytest.raises(ImportError, match=rf"{title} core is not built.*C compiler"):
        module.engine_name("compiled")


@pytest.mark.parametrize("game_id", COMPILED)
def test_observe_into_writes_a_row_of_a_batch(game_id):
    module = game_module(game_id)
    args, options, other, message = COMPILED_TABLES[game_id]
    game = module.make_game(*args, engine="compiled", **options)
    state = game.new_state(seed=3)
    batch = np.full((3, game.observation_size), 7.0, np.float32)
    game.compiled.observe_into(state, 2, batch[1])
    assert batch[1].tobytes() == game.observation(state, 2).tobytes()
    assert (batch[0] == 7).all() and (batch[2] == 7).all()
    with pytest.raises(ValueError, match="must hold"):
        game.compiled.observe_into(state, 2, np.zeros(10, np.float32))
    with pytest.raises(ValueError, match="seat must be"):
        game.observation(state, game.num_players)
    with pytest.raises(ValueError, match=message):
        module.make_game(*other, engine="compiled").observation(state, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_keeps_its_legal_actions_when_the_original_plays_on(game_id):
    """Search clones a state and plays on both: nothing the clone answered may change under it
    (Kop once handed out its hand list itself as the legal actions, shared with clones)."""
    game = make_game(game_id)
    rng = random.Random(5)
    for seed in range(30):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            clone = state.clone()
            asked = clone.legal_actions()
            before = list(asked)
            state.apply(rng.choice(legal))
            assert asked == before and clone.legal_actions() == before, (game_id, seed)
