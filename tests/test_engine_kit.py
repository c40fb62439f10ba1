"""The engine kit's encoding pieces (``koira_env.core.encoding``), event upgrade
(``koira_env.core.events``) and generated ``clone`` (``koira_env.core.state``); the games'
conformance to the kit is in ``test_games.py``."""

from __future__ import annotations

import numpy as np
import pytest

from koira_env.core import events
from koira_env.core.encoding import code_table, layout, one_hot, one_hots, seat_one_hots
from koira_env.core.state import EngineState
from koira_env.registry import games

# every built-in game has a compiled core on core/_engine.pyx's bases
COMPILED = games()


def test_one_hot_takes_size_then_index_and_shows_nothing_for_a_negative_index():
    assert one_hot(4, 1) == b"\x00\x01\x00\x00"
    assert one_hot(3, -1) == bytes(3)
    assert one_hot(2, 1, b"\xaa\xbb") == b"\x00\x00\xaa\xbb"  # multi-byte ones (Red7's float32)
    assert one_hots(3) == [b"\x01\x00\x00", b"\x00\x01\x00", b"\x00\x00\x01", bytes(3)]


def test_seat_one_hots_count_seats_from_the_observer():
    table = seat_one_hots(3)
    assert table[1][1] == b"\x01\x00\x00"  # the observer itself is "player 0"
    assert table[1][0] == b"\x00\x00\x01"  # the seat before it is the last
    assert table[2][-1] == bytes(3)


def test_code_tables_translate_locations_into_card_blocks():
    locations = bytearray([0, 5, 7, 5])
    assert locations.translate(code_table({5, 7})) == b"\x00\x01\x01\x01"
    one = np.float32(1.0).tobytes()  # Red7: a card's location is four bytes 4c .. 4c + 3
    cards_at_codes_0_and_1 = bytes(range(8))
    assert cards_at_codes_0_and_1.translate(code_table({0}, one)) == one + bytes(4)


def test_layout_slices_fields_in_order_with_their_scales():
    slices, scale = layout([("a", 2, 0.5), ("b", 1, 1.0), ("c", 2, [1.0, 0.25])])
    assert slices == {"a": slice(0, 2), "b": slice(2, 3), "c": slice(3, 5)}
    assert scale.dtype == np.float32 and scale.tolist() == [0.5, 0.5, 1.0, 1.0, 0.25]


def test_upgrade_renames_only_the_kinds_of_earlier_releases():
    old = [{"type": "trick", "winner": 1}, {"type": "bid", "bid": 2}, {"type": "end"}]
    assert events.upgrade(old) == [
        {"type": events.TRICK, "winner": 1},
        {"type": "bid", "bid": 2},
        {"type": events.GAME_OVER},
    ]
    assert old[0]["type"] == "trick"  # the stored events are not changed in place


def test_clone_is_written_from_the_slots_copying_lists_as_declared():
    class Toy(EngineState):
        __slots__ = ("flat", "nested", "shared")
        COPIED = ("flat",)
        NESTED = ("nested",)

    toy = object.__new__(Toy)
    EngineState.__init__(toy, None, 2, [0, 1], 7, log=False)
    toy.current, toy.flat, toy.nested, toy.shared = 1, [1, 2], [[3], [4]], (5, 6)
    copy = toy.clone()
    copy.flat.append(9)
    copy.nested[0].append(9)
    copy.history.append(9)
    assert (toy.flat, toy.nested, toy.history) == ([1, 2], [[3], [4]], [])
    assert copy.shared is toy.shared and copy.current == 1 and copy.seed == 7


def test_clone_declarations_must_name_slots():
    with pytest.raises(TypeError, match=r"COPIED/NESTED name no slot of it: \['hand'\]"):

        class Typo(EngineState):
            __slots__ = ("hands",)
            COPIED = ("hand",)


@pytest.mark.parametrize(("game_id", "scores"), [("kop", "victory_cards"), ("teka", "scores")])
def test_a_game_of_hands_cut_off_at_max_hands_ends_truncated_with_its_scores(game_id, scores):
    """``EngineState._end_game``, shared by the games of several hands: after ``max_hands``
    the game is over, truncated (no outcome, zero returns), no action is legal, and the log
    ends with ``truncated`` naming the hands played and the scores."""
    from koira_env.core.game import IllegalActionError
    from koira_env.registry import make_game

    game = make_game(game_id, 4, max_hands=1)
    state = game.new_state(seed=3, log=True)
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        state.apply(int(rng.choice(state.legal_actions())))
    last = state.log[-1]
    assert state.truncated and state.outcome() is None and state.returns() == [0.0] * 4
    assert last["type"] == events.TRUNCATED and last["hands"] == 1 and scores in last
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)


@pytest.mark.parametrize("game_id", COMPILED)
def test_a_compiled_engine_refuses_a_bad_seat_buffer_or_state_and_writes_nothing(game_id):
    """``core/_engine.pyx``'s ``CompiledEngine``, shared by the compiled cores: the seat is one
    of the table, ``observe_into`` needs a row of ``size`` floats, and a state of another
    table (Teka's: of another target; or not a state at all) is refused; a refused call
    leaves the buffer as it was."""
    from koira_env.registry import make_game

    # a state of another table: 3 players, or for the 4-player games another rule set
    four = {"teka": {"target": 30}, "kop": {"victory_cards": 9}, "dois": {"hands": 3}}
    other = make_game(game_id, 4, **four[game_id]) if game_id in four else make_game(game_id, 3)

    game = make_game(game_id, 4)
    engine = game.compiled
    state = game.new_state(seed=1)
    out = np.full(engine.size, 7.0, dtype=np.float32)
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.3, got 4"):
        engine.observe_into(state, 4, out)
    with pytest.raises(ValueError, match=f"out must hold {engine.size} floats"):
        engine.observe_into(state, 0, np.zeros(engine.size + 1, dtype=np.float32))
    with pytest.raises(ValueError):
        engine.observe_into(other.new_state(seed=1), 0, out)
    with pytest.raises(TypeError):
        engine.observe_into(object(), 0, out)
    assert (out == 7.0).all()
    engine.observe_into(state, 2, out)
    assert np.array_equal(out, engine.observation(state, 2))
    assert engine.action_mask(state.legal_actions()).sum() == len(state.legal_actions())


@pytest.mark.parametrize("game_id", COMPILED)
def test_legal_mask_is_the_action_mask_of_the_legal_actions_on_both_engines(game_id):
    """``Game.legal_mask`` (the env's mask every step): the compiled engine writes it without
    the list between, so it is checked against ``action_mask(legal_actions())`` along random
    games on both engines, all zeros at the end; a state whose rules have another action
    count is refused."""
    import random

    from koira_env.registry import make_game

    rng = random.Random(0)
    for engine in ("compiled", "python"):
        game = make_game(game_id, engine=engine)
        for seed in range(20):
            state = game.new_state(seed=seed)
            while True:
                mask = game.legal_mask(state)
                assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
                assert np.array_equal(mask, game.action_mask(state.legal_actions()))
                if state.is_terminal:
                    assert not mask.any()
                    break
                state.apply(rng.choice(state.legal_actions()))
    runs = make_game("koira", 4, sequences=2)  # runs are actions of their own: 366, not 54
    with pytest.raises(ValueError, match="not dealt under this engine's rules"):
        make_game("koira", 4).legal_mask(runs.new_state(seed=1))


@pytest.mark.parametrize("game_id", COMPILED)
def test_a_compiled_state_keeps_the_protocol_header_through_clones_and_pickles(game_id):
    """``core/_engine.pyx``'s ``CompiledState``: the protocol's fields are read from the core's
    ``Data`` header, so a clone, a pickle and the search's copies all see the same turn; a
    pickle of another layout is refused by name, even of the same size."""
    import pickle

    from koira_env.core._engine import _restore
    from koira_env.registry import make_game

    game = make_game(game_id, 4)
    state = game.new_state(seed=3)
    for _ in range(3):
        state.apply(state.legal_actions()[-1])
    header = (state.current, state.actions_taken, state.is_terminal, state.truncated)
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert (copy.current, copy.actions_taken, copy.is_terminal, copy.truncated) == header
        assert copy.legal_actions() == state.legal_actions() and copy.history == state.history
        copy.apply(copy.legal_actions()[0])
        assert copy.actions_taken == state.actions_taken + 1  # the copy has its own data
    _, (cls, *args) = state.__reduce__()
    refused = rf"pickled .*{game_id}._compiled.State from another build"
    shorter = [*args[:1], args[1][:-1], *args[2:]]  # the data of another build
    other = [*args[:-1], "0" * 16]  # the same size, another layout: fields would be misread
    for wrong in (shorter, other, args[:-1]):  # the last: a build that recorded no layout
        with pytest.raises(ValueError, match=refused):
            _restore(cls, *wrong)
    assert _restore(cls, *args).legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game_id", COMPILED)
def test_every_game_searches_in_c_and_refuses_a_seat_not_to_act(game_id):
    """``core/_search.pxi``, every core's search (the game's ``GameSpec.search``): a search
    starts from its seat's turn."""
    from importlib import import_module

    from koira_env.registry import make_game, spec

    assert spec(game_id).search == "bots.SEARCH"
    search = import_module(f"koira_env.games.{game_id}._search")
    state = make_game(game_id, 4).new_state(seed=3)
    other = (state.current + 1) % 4
    with pytest.raises(ValueError, match=f"player_{other} is not to act"):
        search.search(state, other, 10, 0.7, False, 1)
    with pytest.raises(ValueError, match=f"player_{other} is not to act"):
        search.action_values(state, other, 10, 1)
    visits = search.search(state, state.current, 30, 0.7, False, 1)
    assert sum(visits.values()) == 30 and set(visits) <= set(state.legal_actions())


def test_no_compiled_source_is_over_900_lines():
    """The compiled cores are split by concern (docs/games.md, "Compiled cores"): no ``.pyx``,
    ``.pxi`` or ``.pxd`` under ``koira_env/`` may grow past 900 lines; a core that does moves a
    concern into an include file."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "koira_env"
    sources = sorted(p for ext in ("pyx", "pxi", "pxd") for p in root.rglob(f"*.{ext}"))
    assert any(p.name == "_determinize.pxi" for p in sources)  # the sources were found
    over = {
        str(p.relative_to(root.parent)): n
        for p in sources
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 900
    }
    assert not over, "compiled sources over 900 lines: " + ", ".join(
        f"{name} ({n} lines)" for name, n in over.items()
    )
