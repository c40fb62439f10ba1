"""Engine invariants checked at every step of thousands of random games.

``check_state`` is the one fast invariant checker (bytes masks instead of per-card loops where
it can); ``test_properties`` reuses it. Every tenth game also tries every legal action on a
clone, replays itself from the seed, and checks that a clone played out leaves it untouched.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from typing import Any

import pytest

from koira_env.cards import NUM_CARDS
from koira_env.games.koira.engine import (
    DISCARD,
    GAME_OVER,
    HAND,
    PHASE_ONE,
    PHASE_TWO,
    REMOVED,
    RISK,
    STOCK,
    TAKE,
    TRICK,
    TRUMP_ASIDE,
    UNKNOWN,
    WON,
    IllegalActionError,
    State,
    new_game,
    num_actions,
)
from koira_env.games.koira.rules import PLAYER_RANGE, Rules, deck_cards, removed_unseen

# Location bytes mapped to 0xFF where a property holds, else 0, for whole-deck checks in C.
_UNPLACED = bytes(x if x in (DISCARD, REMOVED) else 0xFF for x in range(256))
_MUST_BE_PUBLIC = bytes(
    0xFF if x in (TRICK, DISCARD) or WON <= x < WON + 8 else 0 for x in range(256)
)
_MUST_BE_HIDDEN = bytes(0xFF if x in (STOCK, REMOVED, TRUMP_ASIDE) else 0 for x in range(256))
_IS_UNKNOWN = bytes(0xFF if x == UNKNOWN else 0 for x in range(256))
_NOT_REMOVED = bytes(0 if x == REMOVED else 0xFF for x in range(256))
_ALL_UNKNOWN = int.from_bytes(bytes([UNKNOWN]) * NUM_CARDS)
_SHARE = 0.6  # observed game lengths must stay below this share of rules.max_actions
_OUT_OF_PLAY: dict[Rules, tuple[int, bytes]] = {}  # per rules: cards not in the deck, as a mask


def _out_of_play(rules: Rules) -> tuple[int, bytes]:
    """The cards a smaller deck leaves out: a 0xFF-per-card mask (as an int) and as REMOVED
    codes, or ``(0, b"")`` for the full deck."""
    if rules not in _OUT_OF_PLAY:
        cards = set(deck_cards(rules))
        if len(cards) == NUM_CARDS:
            _OUT_OF_PLAY[rules] = (0, b"")
        else:
            mask = bytes(0 if c in cards else 0xFF for c in range(NUM_CARDS))
            codes = bytes(REMOVED if c not in cards else 0 for c in range(NUM_CARDS))
            _OUT_OF_PLAY[rules] = (int.from_bytes(mask), codes)
    return _OUT_OF_PLAY[rules]


def check_state(s: State) -> list[int]:
    """Assert every engine invariant on ``s`` and return its legal actions; cheap per step."""
    loc, pub, n, phase = s.loc, s.pub, s.n, s.phase
    hands = s.hands
    # Every card is in exactly one place, and that place agrees with loc.
    exp = loc.translate(_UNPLACED)
    count = NUM_CARDS - exp.count(0xFF) + len(s.stock) + len(s.pile)
    for p, hand in enumerate(hands):
        for c in hand:
            exp[c] = HAND + p
        count += len(hand)
    for p, won in enumerate(s.won):
        for c in won:
            exp[c] = WON + p
        count += len(won)
    for c in s.stock:
        exp[c] = STOCK
    for _, c in s.pile:
        exp[c] = TRICK
    for _, cards in s.trick:
        for c in cards:
            exp[c] = TRICK
        count += len(cards)
    if phase == PHASE_ONE and s.trump_card >= 0 and s.rules.trump_card == "hidden":
        exp[s.trump_card] = TRUMP_ASIDE
        count += 1
    out_mask, out_codes = _out_of_play(s.rules)
    removed = removed_unseen(s.rules) + (out_codes.count(REMOVED) if out_mask else 0)
    if count != NUM_CARDS or exp != loc or loc.count(REMOVED) != removed:
        wrong = [(c, loc[c], exp[c]) for c in range(NUM_CARDS) if exp[c] != loc[c]]
        raise AssertionError(f"cards not accounted for: {count} placed, (card, loc, found) {wrong}")

    # pub never lies: a known card is where pub says; face-up places are public, face-down hidden.
    public = int.from_bytes(pub)
    differs = int.from_bytes(loc) ^ public
    assert not differs & ~int.from_bytes(pub.translate(_IS_UNKNOWN)), "pub claims a false place"
    everything_shown = phase != PHASE_ONE and s.rules.phase_one_end != "one_holder"
    must_show = _NOT_REMOVED if everything_shown else _MUST_BE_PUBLIC
    assert not differs & int.from_bytes(loc.translate(must_show)), "a face-up card is not public"
    hidden = int.from_bytes(loc.translate(_MUST_BE_HIDDEN))
    if out_mask:  # a smaller deck: the cards not in it are out, and everyone knows it
        assert int.from_bytes(loc) & out_mask == int.from_bytes(out_codes), "out of play moved"
        assert public & out_mask == int.from_bytes(out_codes), "pub hides a card not in play"
        hidden &= ~out_mask
    assert not (public ^ _ALL_UNKNOWN) & hidden, "a face-down card is public"

    assert not s.truncated
    assert s.actions_taken == len(s.history) or s.deck == ()  # a determinized state: no history
    if phase == PHASE_ONE:
        assert not s.trick and not s.placements and max(map(len, hands)) <= s.rules.hand_size
    elif phase == PHASE_TWO:
        assert not s.stock and not s.pile and not any(s.won) and s.trump_suit >= 0
        still_in = n - len(s.placements)
        assert still_in <= s.trick_needed <= still_in + s.trick_count
        assert 0 <= s.trick_count < s.trick_needed
        assert not s.out[s.current] and len(s.placements) == sum(s.out) <= n - 2
        assert not any(h for h, out in zip(hands, s.out, strict=True) if out)
    else:
        check_final(s)
        return []
    legal = s.legal_actions()
    assert legal, "no legal action in a live game"
    assert len(set(legal)) == len(legal) and min(legal) >= 0 and max(legal) < num_actions(s.rules)
    if phase == PHASE_ONE:
        assert set(legal) <= {*hands[s.current], RISK}
    else:
        assert all(h == sorted(h) for h in hands), "phase-two hands must stay sorted"
        if not s.rules.sequences:
            assert legal == reference_phase_two_legal(s)
    return legal


def reference_phase_two_legal(s: State) -> list[int]:
    """The single-card phase-two moves by the general ``_beats`` test, card by card."""
    hand = s.hands[s.current]
    if not s.trick:
        return sorted(hand)
    top = s.trick[-1][1]
    acts = [c for c in hand if s._beats((c,), top, hand)]
    if not acts or s.rules.voluntary_take:
        acts.append(TAKE)
    return sorted(acts)


def check_final(s: State) -> None:
    """A finished game: one loser, placements a permutation of seats, zero-sum returns."""
    n = s.n
    assert s.phase == GAME_OVER and not s.truncated
    assert sorted(s.placements) == list(range(n)), s.placements
    loser = s.placements[-1]
    assert s.loser == loser and s.out.count(False) == 1 and not s.out[loser]
    assert s.legal_actions() == []
    ret = s.returns()
    assert abs(sum(ret)) < 1e-9
    assert ret[loser] == -1.0 and min(ret) == -1.0
    if s.rules.reward == "loser":
        assert all(abs(ret[p] - 1.0 / (n - 1)) < 1e-12 for p in range(n) if p != loser)
    else:
        assert [ret[p] for p in s.placements] == sorted(ret, reverse=True)
        assert ret[s.placements[0]] == 1.0


def snapshot(s: State) -> tuple[str, ...]:
    """Everything in a state but caches, as text, to compare two states field by field."""
    return tuple(repr(getattr(s, name)) for name in State.__slots__ if not name.startswith("cache"))


def check_every_action(s: State, legal: list[int]) -> None:
    """Each legal action applies on a clone; an illegal one raises and changes nothing."""
    assert s.clone().legal_actions() == legal  # a fresh state agrees with any cached answer
    for action in legal:
        s.clone().apply(action)
    before = (bytes(s.loc), bytes(s.pub), s.current, s.actions_taken, len(s.history))
    illegal = next(a for a in range(num_actions(s.rules)) if a not in legal)
    with pytest.raises(IllegalActionError, match="legal actions"):
        s.apply(illegal)
    assert (bytes(s.loc), bytes(s.pub), s.current, s.actions_taken, len(s.history)) == before


def check_clone_independent(s: State, rng: random.Random) -> None:
    """Playing a clone to the end must not touch the original."""
    assert s.returns() == [0.0] * s.n and s.loser == -1
    before = snapshot(s)
    twin = s.clone()
    assert snapshot(twin) == before
    while not twin.is_terminal:
        twin.apply(rng.choice(twin.legal_actions()))
    assert snapshot(s) == before


def play_checked(s: State, rng: random.Random, deep: bool = False) -> State:
    """Play random legal actions to the end, checking invariants after every one."""
    clone_at = 3 * s.deck[0] if deep else -1  # some step in 0..153, without touching rng
    legal = check_state(s)
    while legal:
        if deep:
            check_every_action(s, legal)
            if s.actions_taken == clone_at:
                check_clone_independent(s, random.Random(clone_at))
        s.apply(rng.choice(legal))
        legal = check_state(s)
    return s


def run_games(
    preset: str, n: int, options: dict[str, Any], games: int, log: bool = False
) -> tuple[int, Counter[str]]:
    """Play ``games`` checked games; the longest length and the games with each event kind."""
    base = zlib.crc32(f"{preset}/{n}/{sorted(options.items())}".encode()) * 1_000_000
    longest = 0
    events: Counter[str] = Counter()
    for i in range(games):
        seed = base + i
        deep = i % 10 == 0
        s = play_checked(
            new_game(n, preset, seed=seed, log=log, **options), random.Random(seed), deep
        )
        longest = max(longest, s.actions_taken)
        if log:
            events.update({e["type"] for e in s.log})
        if deep:  # same seed, same choices: the same game
            again = play_checked(new_game(n, preset, seed=seed, **options), random.Random(seed))
            assert again.history == s.history and again.placements == s.placements
            assert again.loc == s.loc and again.deck == s.deck
    assert longest < _SHARE * s.rules.max_actions, f"{preset} n={n} {options}: {longest} actions"
    print(f"{preset} n={n} {options}: {games} games, longest {longest} actions")
    return longest, events


PRESET_CASES = [
    (preset, n, {}) for preset, (lo, hi) in PLAYER_RANGE.items() for n in range(lo, hi + 1)
]
B_VARIATIONS = {
    "war_mode": "split",
    "trump_ends_trick": True,
    "sequences": 2,
    "sequences_from_two": True,
    "take_one_card": True,
}
MIX_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("koira", 4, {"sequences": 2}),
    ("koira", 5, {"sequences": 3, "sequence_beat": "any_length"}),
    ("koira-b", 4, {"sequences": 2}),
    ("koira-b", 6, {"sequences": 3, "sequence_beat": "same_length"}),
    ("koira", 3, {"war_mode": "split"}),
    ("koira-b", 4, {"war_mode": "split"}),
    ("koira-b", 5, {"trump_ends_trick": True}),
    ("koira-b", 4, {"sequences": 2, "sequences_from_two": True}),
    ("koira-b", 4, {"sequences": 3, "take_one_card": True}),
    ("koira-b", 8, B_VARIATIONS),
    ("mattis", 5, {"sequences": 2, "take_one_card": True, "trump_ends_trick": True}),
    ("koira", 4, {"reward": "placement"}),
    ("koira", 4, {"emptied_trick": "ends"}),
    ("mattis", 5, {"emptied_trick": "ends", "sequences": 2}),
    ("mattis", 6, {"reward": "placement", "war_mode": "split"}),
    (
        "koira",
        4,
        {
            "trump_card": "revealed",
            "phase_one_end": "all_played",
            "phase_two_leader": "last_winner",
        },
    ),
    ("koira", 2, {"trump_card": "revealed", "phase_one_end": "due_player_empty"}),
    (
        "koira-b",
        4,
        {"trump_card": "hidden", "phase_one_end": "one_holder", "phase_two_leader": "trump_holder"},
    ),
    ("mattis", 4, {"trump_card": "hidden", "phase_two_leader": "trump_holder"}),
    (
        "koira",
        5,
        {
            "war_trigger": "highest_tie",
            "risk_in_war": False,
            "trump_only_when_void": False,
            "voluntary_take": True,
            "take": "lowest",
        },
    ),
    # the deck options on the big presets, and mini with other rules
    ("koira", 2, {"hand_size": 5}),
    ("koira", 3, {"deck_ranks": 5, "deck_suits": "CDH", "hand_size": 2}),
    ("koira-b", 4, {"deck_ranks": 4, "hand_size": 2, "sequences": 2}),
    ("mattis", 3, {"deck_suits": "DS", "hand_size": 4}),
    ("mini", 2, {"trump_card": "revealed", "war_trigger": "highest_tie"}),
    ("mini", 2, {"phase_one_end": "due_player_empty", "voluntary_take": True}),
    ("mini", 2, {"phase_one_end": "all_played", "phase_two_leader": "last_winner"}),
    ("mini", 2, {"hand_size": 1, "risk_in_war": False}),
    ("mini", 2, {"deck_ranks": 4, "hand_size": 3, "sequences": 2, "war_mode": "split"}),
]


def games_for(case: tuple[str, int, dict[str, Any]]) -> int:
    """Games per case in the default run: 20,662 in all, fewer where games are long, many
    for mini Koira (a game of about ten actions)."""
    preset, n, options = case
    if preset == "mini":
        return 1000 if options else 5000
    if options:
        return 60
    return 900 if preset == "koira" else 1200 // n


def _case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    preset, n, options = case
    return "-".join([preset, str(n), *(f"{k}={v}" for k, v in options.items())])


@pytest.mark.parametrize("case", PRESET_CASES + MIX_CASES, ids=_case_id)
def test_random_games_keep_invariants(case: tuple[str, int, dict[str, Any]]) -> None:
    run_games(*case, games_for(case))


def test_koira_wars_stalemates_and_risks_happen() -> None:
    """The random games reach the rare paths the invariants are meant to guard."""
    _, events = run_games("koira", 4, {}, 400, log=True)
    print(f"koira n=4 events per 400 games: {dict(events)}")
    for kind in ("war", "war_dropout", "stalemate", "trick_won", "take", "trick_emptied", "out"):
        assert events[kind] > 0, kind


@pytest.mark.slow
@pytest.mark.parametrize("case", PRESET_CASES + MIX_CASES, ids=_case_id)
def test_many_random_games_keep_invariants(case: tuple[str, int, dict[str, Any]]) -> None:
    run_games(*case, 10 * games_for(case))
