"""Property-based tests: bad input to any game is refused with a ``ValueError`` naming it.

Hypothesis draws decks (valid orders, wrong lengths, repeated cards, unknown names, entries
of the wrong type), option mixes (valid and invalid values, unknown names, bad player
counts) and game records (valid ones from random games, and the same corrupted), for every
game of ``koira_env.games()``. Valid input must work (a record replays exactly, through
JSON); anything else must raise ``ValueError``, never another exception, and a refused
``reset`` leaves the env as it was. Derandomized, so every run draws the same examples.

Every test runs twice, once on each engine (the ``engine`` fixture): the compiled cores and
the pure-Python reference engines must refuse the same input with the same errors.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from junk import JUNK, PROFILE

import koira_env
from koira_env.core.record import game_record
from koira_env.registry import replay, replay_states, spec

GAMES = koira_env.games()


@pytest.fixture(autouse=True, params=["compiled", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The engine every game built in the test runs by default (records and envs too): each
    game module's ``engine_name`` answers ``None`` with this engine."""
    for game_id in GAMES:
        module = importlib.import_module(f"koira_env.games.{game_id}.game")
        chosen = module.engine_name
        monkeypatch.setattr(
            module, "engine_name", lambda e=None, c=chosen, p=request.param: c(e or p)
        )
    assert {koira_env.make_game(g).engine for g in GAMES} == {request.param}
    yield request.param


def _not_a_card(game: Any, value: Any) -> bool:
    """True when ``value`` is neither a card name nor a card id of ``game``."""
    if isinstance(value, str):
        try:
            game.card_id(value)
        except ValueError:
            return True
        return False
    return not (type(value) is int and 0 <= value < game.deck_size)


def _names(game: Any, order: list[int]) -> list[str]:
    return [game.card_name(c) for c in order]


def _refused(call: Any, word: str) -> str:
    """The message of the ``ValueError`` ``call()`` raises; it must name ``word``."""
    with pytest.raises(ValueError) as err:
        call()
    assert word in str(err.value), str(err.value)
    return str(err.value)


def _accepted_or_refused(call: Any) -> Any:
    """``call()``'s result, or None when it raised ``ValueError`` (any other error fails)."""
    try:
        return call()
    except ValueError as err:
        assert str(err), "a ValueError must say what is wrong"
        return None


# ---------------------------------------------------------------------------------- decks


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_a_valid_deck_deals_that_order(game_id: str, data: st.DataObject) -> None:
    game = koira_env.make_game(game_id)
    order = data.draw(st.permutations(range(game.deck_size)))
    as_names = data.draw(st.booleans())
    deck = _names(game, order) if as_names else list(order)
    state = game.new_state(deck=deck, seed=1)
    assert _names(game, state.deck[: game.deck_size]) == _names(game, order)
    env = koira_env.make(game_id)
    env.reset(options={"deck": deck})
    assert _names(game, env.state_object.deck[: game.deck_size]) == _names(game, order)


@st.composite
def corrupt_decks(draw: st.DrawFn, game: Any) -> tuple[str, list[Any]]:
    """A whole deck of ``game`` made invalid one way; the way is returned with it."""
    size = game.deck_size
    deck: list[Any] = list(draw(st.permutations(range(size))))
    if draw(st.booleans()):
        deck = _names(game, deck)
    how = draw(st.sampled_from(["entry", "unknown name", "short", "long", "repeat"]))
    i = draw(st.integers(0, size - 1))
    if how == "entry":
        deck[i] = draw(JUNK.filter(lambda v: not isinstance(v, str) and _not_a_card(game, v)))
    elif how == "unknown name":
        deck[i] = draw(st.text(max_size=5).filter(lambda v: _not_a_card(game, v)))
    elif how == "short":
        del deck[draw(st.integers(1, size)) * -1 :]
    elif how == "long":
        deck += deck[: draw(st.integers(1, size - 1))]
    else:  # the same card twice, by id (Dois reads a repeated name as the next copy)
        j = draw(st.integers(0, size - 1).filter(lambda j: j != i))
        deck = list(draw(st.permutations(range(size))))
        deck[j] = deck[i]
    return how, deck


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_a_corrupt_deck_is_refused_naming_it(game_id: str, data: st.DataObject) -> None:
    game = koira_env.make_game(game_id)
    _, deck = data.draw(corrupt_decks(game))
    _refused(lambda: game.new_state(deck=deck), "deck")


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(deck=JUNK)
def test_any_value_as_a_deck_is_dealt_or_refused(game_id: str, deck: Any) -> None:
    game = koira_env.make_game(game_id)
    _accepted_or_refused(lambda: game.new_state(deck=deck))
    env = koira_env.make(game_id)
    env.reset(seed=1)
    before = _env_view(env)
    if _accepted_or_refused(lambda: env.reset(options={"deck": deck}) or True) is None:
        assert _env_view(env) == before


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    "entry", [[1], {"card": 1}, [["x"]], {}, [], None, 1.5, True, -1, 10**30, b"x"]
)
def test_a_deck_entry_of_the_wrong_type_is_refused(game_id: str, entry: Any) -> None:
    """Dois once raised ``TypeError: unhashable type`` for a list or dict entry."""
    game = koira_env.make_game(game_id)
    deck: list[Any] = _names(game, list(range(game.deck_size)))
    deck[5] = entry
    message = _refused(lambda: game.new_state(deck=deck), "deck[5]")
    assert repr(entry) in message


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("deck", [{"a": 1}, {1, 2}, "RYGB", b"\x00", 7, None.__class__])
def test_a_deck_that_is_no_list_is_refused(game_id: str, deck: Any) -> None:
    game = koira_env.make_game(game_id)
    _refused(lambda: game.new_state(deck=deck), "deck must be a list")


def _env_view(env: Any) -> tuple:
    state = env.state_object
    return (
        env.agent_selection,
        tuple(state.deck),
        tuple(state.history),
        env.observe(env.agent_selection)["observation"].tobytes(),
    )


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_a_refused_reset_leaves_the_env_unchanged(game_id: str, data: st.DataObject) -> None:
    env = koira_env.make(game_id)
    env.reset(seed=3)
    for _ in range(data.draw(st.integers(0, 4))):
        legal = env.state_object.legal_actions()
        if env.agents and legal:
            env.step(legal[0])
    before = _env_view(env)
    _, deck = data.draw(corrupt_decks(env.game))
    seed = data.draw(st.none() | st.integers(0, 99))
    _refused(lambda: env.reset(seed=seed, options={"deck": deck}), "deck")
    assert _env_view(env) == before
    # the seed sequence did not move either: the next reset deals as it would have
    twin = koira_env.make(game_id)
    twin.reset(seed=3)
    env.reset()
    twin.reset()
    assert env.state_object.deck == twin.state_object.deck


# -------------------------------------------------------------------------------- options


def _valid_values(game_id: str) -> dict[str, st.SearchStrategy[Any]]:
    """Each option of ``game_id`` and a strategy for its valid values."""
    if game_id == "koira":
        from koira_env.games.koira.rules import BOOL_OPTIONS, CHOICES, MAX_ACTIONS_LIMIT

        values = {name: st.sampled_from(choices) for name, choices in CHOICES.items()}
        values.update({name: st.booleans() for name in BOOL_OPTIONS})
        values["max_actions"] = st.integers(100, MAX_ACTIONS_LIMIT)
        return values
    rules = type(koira_env.make_game(game_id).rules)
    values = {}
    for f in dataclasses.fields(rules):
        if f.name == "num_players":
            continue
        if "choices" in f.metadata:
            values[f.name] = st.sampled_from(f.metadata["choices"])
        elif isinstance(f.default, bool):
            values[f.name] = st.booleans()
        else:
            values[f.name] = st.integers(f.metadata["min"], f.metadata["max"])
    return values


def _made_valid(game_id: str, options: dict[str, Any], n: int) -> dict[str, Any]:
    """``options`` with the combinations a game refuses on purpose undone (at ``n`` players)."""
    if game_id == "koira" and not options.get("sequences"):
        options.pop("sequences_from_two", None)
        options.pop("take_one_card", None)
    if game_id == "whist22" and options.get("hook") is False and not options.get("max_hands"):
        options["max_hands"] = 50
    if (
        game_id == "matapesa"
        and options.get("deck_ranks", 13) * len(options.get("deck_suits", "CDHS")) < n
    ):
        options["deck_ranks"] = 13  # a deck with fewer cards than players
    return options


def _play_a_little(game: Any, seed: int) -> None:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_a_valid_option_mix_builds_a_playable_game(game_id: str, data: st.DataObject) -> None:
    lo, hi = spec(game_id).players
    n = data.draw(st.integers(max(lo, 3) if game_id == "koira" else lo, hi))
    preset = {}
    if game_id == "koira":
        preset = {"rules": data.draw(st.sampled_from(["koira", "koira-b", "mattis"]))}
    options = data.draw(st.fixed_dictionaries({}, optional=_valid_values(game_id)))
    options = _made_valid(game_id, options, n)
    game = koira_env.make_game(game_id, n, **preset, **options)
    assert game.num_players == n
    for name, value in options.items():
        assert getattr(game.rules, name) == value
    _play_a_little(game, data.draw(st.integers(0, 99)))


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_any_option_mix_builds_or_is_refused(game_id: str, data: st.DataObject) -> None:
    valid = _valid_values(game_id)
    names = [*valid, "num_players_", "rules", "preset", "engine", "colour", ""]
    options = data.draw(
        st.dictionaries(st.sampled_from(names), JUNK | st.one_of(*valid.values()), max_size=4)
    )
    players = data.draw(st.none() | JUNK | st.integers(-2, 10))
    built = _accepted_or_refused(lambda: koira_env.make_game(game_id, players, **options))
    lo, hi = spec(game_id).players
    if built is None:
        return
    assert (type(players) is int and lo <= players <= hi) or players is None
    for name, value in options.items():
        if hasattr(built.rules, name) and name != "preset":
            assert getattr(built.rules, name) == value
    _play_a_little(built, 0)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", [0, 1, 9, 100, -4, 3.0, "4", None.__class__, [4], True])
def test_a_bad_player_count_is_refused(game_id: str, players: Any) -> None:
    lo, hi = spec(game_id).players
    if type(players) is int and lo <= players <= hi:
        return  # a player count this game allows
    _refused(lambda: koira_env.make_game(game_id, players), "players")


@pytest.mark.parametrize("game_id", GAMES)
def test_an_unknown_option_is_refused_naming_it(game_id: str) -> None:
    _refused(lambda: koira_env.make_game(game_id, colour="blue"), "colour")


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"rules": ["koira"]}, "preset"),  # was TypeError: unhashable type
        ({"preset": {"a": 1}}, "preset"),
        ({"max_actions": 2**31}, "max_actions"),  # was OverflowError in the compiled core
        ({"max_actions": 10**30}, "max_actions"),
        ({"max_actions": True}, "max_actions"),
    ],
)
def test_koira_refuses_a_bad_preset_or_action_limit(options: dict[str, Any], word: str) -> None:
    _refused(lambda: koira_env.make_game("koira", **options), word)


# -------------------------------------------------------------------------------- records


def _played_record(game_id: str, seed: int, stop: int) -> tuple[Any, dict[str, Any]]:
    game = koira_env.make_game(game_id)
    state = game.new_state(seed=seed, log=True)
    rng = random.Random(seed)
    while not state.is_terminal and len(state.history) < stop:
        state.apply(rng.choice(state.legal_actions()))
    return state, json.loads(json.dumps(game_record(state, [f"p{i}" for i in range(state.n)])))


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 400))
def test_a_record_replays_exactly_through_json(game_id: str, seed: int, stop: int) -> None:
    state, record = _played_record(game_id, seed, stop)
    again = replay(record)
    assert again.history == state.history
    game = state.game  # Dois records name cards, so copies of a card may swap ids
    assert _names(game, again.deck[: len(state.deck)]) == _names(game, state.deck)
    assert again.log == state.log
    assert again.is_terminal == state.is_terminal
    assert again.returns() == state.returns()
    assert len(replay_states(record)) == len(state.history) + 1


REQUIRED = ("format", "rules", "deck", "actions")


@st.composite
def corruptions(draw: st.DrawFn, record: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
    """A corrupted copy of ``record``, what was done, and whether it must be refused (some
    changes, such as deleting the events, leave a record that still replays)."""
    r = copy.deepcopy(record)
    game = r["game"]
    how = draw(
        st.sampled_from(
            [
                "delete field",
                "field type",
                "rules option",
                "illegal action",
                "action type",
                "truncate actions",
                "extend actions",
                "alter action",
                "other game",
                "format",
                "event",
                "deck entry",
                "players",
            ]
        )
    )
    must = True
    if how == "delete field":
        key = draw(st.sampled_from(sorted(r)))
        del r[key]
        must = key in REQUIRED or (key == "game" and game != "koira")
    elif how == "field type":
        key = draw(st.sampled_from(sorted(r)))
        r[key] = draw(JUNK.filter(lambda v: v != record[key]))
        must = key in (*REQUIRED, "game", "events", "players")
        if key == "seed":  # an int or a string seeds decks the record does not hold
            must = not isinstance(r[key], int | str | None)
    elif how == "rules option":
        key = draw(st.sampled_from([*sorted(r["rules"]), "bogus"]))
        r["rules"][key] = draw(JUNK.filter(lambda v: v != record["rules"].get(key)))
        must = key in ("num_players", "bogus")  # another valid value replays other rules
    elif how == "illegal action":
        assume(r["actions"])
        i = draw(st.integers(0, len(r["actions"]) - 1))
        r["actions"][i] = draw(st.integers(-(2**40), -1) | st.integers(10**4, 2**70))
    elif how == "action type":
        assume(r["actions"])
        i = draw(st.integers(0, len(r["actions"]) - 1))
        r["actions"][i] = draw(JUNK.filter(lambda v: type(v) is not int))
        must = type(r["actions"][i]) is not bool  # a bool reads as 0 or 1
    elif how == "truncate actions":
        assume(r["actions"])
        del r["actions"][draw(st.integers(0, len(r["actions"]) - 1)) :]
    elif how == "extend actions":
        r["actions"] += draw(st.lists(st.integers(0, 500), min_size=1, max_size=3))
    elif how == "alter action":
        assume(r["actions"])
        i = draw(st.integers(0, len(r["actions"]) - 1))
        r["actions"][i] = draw(st.integers(0, 500).filter(lambda a: a != record["actions"][i]))
        must = False  # another legal action may happen to log the same events
    elif how == "other game":
        r["game"] = draw(st.sampled_from([g for g in GAMES if g != game]))
    elif how == "format":
        r["format"] = draw(JUNK | st.sampled_from(["koira-record/3", "koira-record", ""]))
        must = r["format"] != "koira-record/1" or game != "koira"
    elif how == "event":
        events = r["events"]
        assume(events)
        i = draw(st.integers(0, len(events) - 1))
        what = draw(st.sampled_from(["delete", "replace", "field", "append"]))
        if what == "delete":
            del events[i]
        elif what == "replace":
            events[i] = draw(JUNK.filter(lambda v: v != record["events"][i]))
        elif what == "field":
            key = draw(st.sampled_from(sorted(events[i])))
            events[i][key] = draw(JUNK.filter(lambda v: v != record["events"][i][key]))
        else:
            events.append(draw(JUNK))
    elif how == "deck entry":
        i = draw(st.integers(0, len(r["deck"]) - 1))
        r["deck"][i] = draw(JUNK.filter(lambda v: not isinstance(v, str | int)))
    else:
        r["players"] = draw(JUNK.filter(lambda v: v != record["players"]))
    return how, r, must


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_a_corrupt_record_is_refused_with_value_error(game_id: str, data: st.DataObject) -> None:
    seed, stop = data.draw(st.integers(0, 10**6)), data.draw(st.integers(1, 200))
    _, record = _played_record(game_id, seed, stop)
    _, bad, must = data.draw(corruptions(record))
    bad = json.loads(json.dumps(bad))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for load in (replay, replay_states):
            if must:
                with pytest.raises(ValueError):
                    load(bad)
            else:
                _accepted_or_refused(lambda load=load: load(bad))


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    ("field", "value", "word"),
    [
        ("events", None, "events"),  # was TypeError: 'NoneType' object is not iterable
        ("events", "x", "events"),  # was AttributeError: 'str' object has no attribute 'get'
        ("events", [None], "event 0"),  # was AttributeError
        ("events", [{"type": []}], "event 0"),  # was TypeError: unhashable type
        ("deck", [[1]], "deck[0]"),  # Dois: was TypeError: unhashable type
        ("deck", [{"a": 1}], "deck[0]"),
        ("seed", [1], "seed"),  # was accepted, and a list seed fails to shuffle
        ("seed", 1.5, "seed"),
    ],
)
def test_a_record_field_of_the_wrong_type_is_refused_naming_it(
    game_id: str, field: str, value: Any, word: str
) -> None:
    _, record = _played_record(game_id, 5, 10)
    record[field] = value
    for load in (replay, replay_states):
        _refused(lambda load=load: load(record), word)


@pytest.mark.parametrize("record", [None, [], "x", 3, {"format": ["koira-record/2"]}])
def test_a_value_that_is_no_record_is_refused(record: Any) -> None:
    _refused(lambda: replay(record), "not a game record")
