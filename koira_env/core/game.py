"""The game protocol: what a game of the suite offers to the shared machinery.

OpenSpiel's split: a ``Game`` is one rule set at one table size (immutable, shared by every
state, the place for per-rule-set tables such as the observation encoder); a ``State`` is one
game in progress (mutable, with a cheap ``clone()`` for search). The generic env, records,
tournaments, ISMCTS, the single-agent wrapper and training use only what is declared here, so
a new game is one package under ``koira_env/games/`` plus one line in ``koira_env.registry``.

Conventions every game follows (docs/games.md says why):

* Seats are ``0..n-1``; seat 0 acts first in the first hand. Actions are ints ``0..A-1``.
* **Chance lives in the deal.** A game's randomness is its deck order: a flat list of card
  ids, one deck after another for games of several hands. ``new_state(deck=..., seed=...)``
  takes the first decks as given; any further deck (a later hand, a redeal) is shuffled by
  ``deck_for_hand(seed, k)``, so a seed and a deck prefix fix the whole game, duplicate deals
  replay identically in every seat rotation, and ``state.deck`` (the decks used so far) plus
  ``state.history`` replay it exactly.
* **Outcomes are places.** ``state.outcome()`` gives each seat a place (1 = best; tied seats
  and partners share a place), the zero-sum returns (``returns_from_places`` unless the game
  documents otherwise) and the raw scores. Tournaments rate agents from places alone.
* **Views.** ``state.view(seat)`` is a game-specific NamedTuple of what that seat may know,
  with at least ``seat`` and ``legal`` (empty unless the seat is to act); bots read only it.
  ``state.determinize(seat, rng)`` is a full state consistent with that view, the hidden
  cards dealt afresh; search plays on it.
"""

from __future__ import annotations

import operator
import random
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

from .encoding import Field, layout
from .parts import NO_PART, decision_sizes, part_actions
from .text import describe_shared


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is unchanged)."""


def as_action(action: Any) -> int:
    """``action`` as a plain int, or ``IllegalActionError``: floats, bools and strings are never
    actions (``13.0 in [13]`` is true, so engines must not rely on ``in`` alone)."""
    if type(action) is int:
        return action
    if isinstance(action, bool | float | str | bytes | np.floating):
        raise IllegalActionError(f"an action must be an integer, got {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(f"an action must be an integer, got {action!r}") from None


def action_index(action: Any, num_actions: int) -> int:
    """An action id to name, as a plain int in ``0..num_actions-1``: integers of any type
    ``step`` takes (numpy's too, through ``as_action``); bools, floats and strings raise
    ``as_action``'s ``IllegalActionError``, ids out of range a ``ValueError``. Every game's
    ``action_name`` starts with it."""
    action = as_action(action)
    if not 0 <= action < num_actions:
        raise ValueError(f"action must be an int in 0..{num_actions - 1}, got {action!r}")
    return action


def python_shuffled(size: int, seed: Any) -> list[int]:
    """``range(size)`` shuffled by ``random.Random(seed)`` (the suite's one shuffle)."""
    order = list(range(size))
    random.Random(seed).shuffle(order)
    return order


try:  # the same shuffle compiled (core/_shuffle.pyx, built at install): the same lists, faster
    from ._shuffle import shuffled
except ImportError:  # a source checkout whose extensions are not built
    shuffled = python_shuffled


ENGINES = ("compiled", "python")
BUILD_HINT = (
    'build it with `pip install -e ".[all]"` (or `python setup.py build_ext --inplace`) from '
    "the clone, which needs a C compiler"
)


_WARNED: set[str] = set()  # the games whose unbuilt core choose_engine has warned about


def choose_engine(engine: str | None, title: str, missing: str | None) -> str:
    """The engine a game with a compiled core runs: ``"compiled"`` or ``"python"``.

    ``missing`` says why the game's compiled core did not import (``None``: it is built).
    ``engine=None`` means the compiled core if it is built, else the pure-Python reference
    engine with a ``RuntimeWarning`` saying how to build the core, once per game. An unknown
    name is a ``ValueError`` naming the choices; ``"compiled"`` without the core an
    ``ImportError``.
    """
    if engine is None:
        if missing is None:
            return "compiled"
        if title not in _WARNED:
            _WARNED.add(title)
            warnings.warn(
                f"the compiled {title} core is not built ({missing}); using the pure-Python "
                f"reference engine, several times slower: {BUILD_HINT}. Pass engine='python' "
                "to choose the reference engine without this warning.",
                RuntimeWarning,
                stacklevel=4,
            )
        return "python"
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {list(ENGINES)}")
    if engine == "compiled" and missing is not None:
        raise ImportError(f"the compiled {title} core is not built ({missing}): {BUILD_HINT}")
    return engine


def deck_for_hand(seed: Any, hand: int, size: int) -> list[int]:
    """The deck of hand ``hand`` (0-based) of a game seeded by ``seed``: hand 0 is
    ``shuffled(size, seed)`` (so ``new_game(seed=s)`` deals as it always did); later hands
    and redeals draw from ``f"{seed}/{hand}"``. A seed that deals its own decks (a search's
    working state's, ``core._shuffle.SearchSeed``) deals them."""
    own = getattr(seed, "deck_for_hand", None)
    if own is not None:
        return own(hand, size)
    return shuffled(size, seed if hand == 0 else f"{seed}/{hand}")


def returns_from_places(places: Sequence[int]) -> list[float]:
    """Zero-sum returns from places: linear from +1 (1st) to -1 (last), tied seats sharing the
    mean of the ranks they span. One loser of n: -1 and +1/(n-1) each for the rest; one winner:
    +1 and -1/(n-1); two teams of two: +2/3 and -2/3."""
    n = len(places)
    if n < 2:
        return [0.0] * n
    order = sorted(range(n), key=lambda s: places[s])
    result = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and places[order[j + 1]] == places[order[i]]:
            j += 1
        value = 1.0 - 2.0 * ((i + j) / 2) / (n - 1)
        for k in range(i, j + 1):
            result[order[k]] = value
        i = j + 1
    return result


def places_from_scores(scores: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Competition ranking ("1224") of seats by score; equal scores share a place."""
    sign = -1 if higher_is_better else 1
    return [1 + sum(1 for t in scores if sign * t < sign * s) for s in scores]


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game (``None`` fields never; an unfinished game has none)."""

    places: tuple[int, ...]  # per seat: 1 = best; ties and partners share a place
    returns: tuple[float, ...]  # per seat, zero-sum: the terminal reward
    scores: tuple[float, ...]  # per seat: the game's raw score (victory cards, points, ...)
    teams: tuple[int, ...] | None = None  # per seat: its side in the final result, if any
    extra: dict[str, Any] = field(default_factory=dict)  # game-specific, JSON-ready

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "places": list(self.places),
            "returns": list(self.returns),
            "scores": list(self.scores),
        }
        if self.teams is not None:
            data["teams"] = list(self.teams)
        return {**data, **self.extra}


def outcome_by_scores(
    scores: Sequence[float],
    *,
    teams: tuple[int, ...] | None = None,
    extra: dict[str, Any] | None = None,
) -> Outcome:
    """The usual result: places by score, highest first (equal scores share a place), the
    returns of those places, the scores as floats."""
    places = places_from_scores(scores)
    return Outcome(
        places=tuple(places),
        returns=tuple(returns_from_places(places)),
        scores=tuple(float(s) for s in scores),
        teams=teams,
        extra={} if extra is None else extra,
    )


class State(Protocol):
    """One game in progress; engines implement this with plain slots for speed."""

    game: Game
    n: int  # players
    current: int  # whose turn it is (meaningless once terminal)
    history: list[int]  # every action applied, forced ones too
    deck: list[int]  # the decks dealt so far, flat (see the module docstring)
    seed: Any  # shuffles the decks beyond ``deck`` (see ``deck_for_hand``)
    log: list[dict[str, Any]] | None  # events, when built with ``log=True``
    truncated: bool  # stopped by the game's action limit: no result
    actions_taken: int

    @property
    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[int]:
        """Legal actions of ``current`` in increasing order (empty when terminal)."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action``; ``IllegalActionError`` (state unchanged) if it is not legal."""
        ...

    def clone(self) -> State: ...

    def returns(self) -> list[float]:
        """Per-seat terminal rewards; zeros before the end and when truncated."""
        ...

    def outcome(self) -> Outcome | None:
        """The result once terminal and not truncated, else ``None``."""
        ...

    def view(self, seat: int) -> Any:
        """What ``seat`` may know, as the game's NamedTuple (fields ``seat`` and ``legal``)."""
        ...

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view(seat)``; carries no history, log or deck order
        (nothing hidden leaks through it) and a fresh seed for later hands."""
        ...


class Game:
    """One rule set at one table size. Subclasses set the class attributes and implement the
    methods that raise ``NotImplementedError``; the rest is shared."""

    # the game's declaration: its package's ``SPEC``, a ``core.spec.GameSpec`` (which builds
    # Games, so this module does not import it)
    spec: ClassVar[Any]
    deck_size: int  # cards in one deck (ids 0..deck_size-1 unless deck_cards says otherwise)
    # the ids of one deck when they are not 0..deck_size-1 (a rule set playing part of the
    # game's cards: mini Koira); None for every other game
    deck_cards: tuple[int, ...] | None = None
    max_decks: ClassVar[int | None] = None  # 1 for games dealt once (a fixed deal is one deck)
    # the engine's State, built by ``new_state`` (a game with two engines sets it per instance)
    state_class: Any = None

    rules: Any  # the game's frozen options dataclass (``num_players``, ``to_dict()``)
    num_players: int
    num_actions: int
    observation_size: int
    observation_layout: dict[str, slice]  # field name -> slice of the observation vector
    # When every observation is small integer codes times this per-entry scale (Koira's is),
    # training stores demonstrations as uint8 codes: 4x less memory than float32.
    observation_scale: np.ndarray | None = None
    # When every action id is a pair ``first * action_parts + second`` (Red7's turn: a palette
    # card, then a canvas card), the size of its second part, and an env may ask for the two
    # parts as two decisions (``split_actions=True``, ``core.parts``); 0: actions are single.
    action_parts: int = 0

    def __init__(self, rules: Any, num_actions: int, fields: Sequence[Field]) -> None:
        """The sizes every game declares: the rule set (``num_players`` from it), the action
        count and the observation's fields (``core.encoding.layout``: ``observation_layout``,
        ``observation_size`` and the per-entry scale ``_scale`` the encoder multiplies by).
        A game whose observation is built otherwise (Koira's encoder, Red7's floats) sets
        them itself."""
        self.rules = rules
        self.num_players = rules.num_players
        self.num_actions = num_actions
        self.observation_layout, self._scale = layout(fields)
        self.observation_size = len(self._scale)

    @property
    def id(self) -> str:
        """The registry id, e.g. ``"koira"`` (``GameSpec.id``)."""
        return self.spec.id

    @property
    def title(self) -> str:
        """The name for people, e.g. ``"Whist 22"`` (``GameSpec.title``)."""
        return self.spec.title

    @property
    def env_name(self) -> str:
        """PettingZoo's ``metadata["name"]``: the game id plus its version (``GameSpec.version``,
        raised whenever the game's observation or rules change)."""
        return f"{self.id}_v{self.spec.version}"

    def use_compiled(self, engine: Any, state_class: type) -> None:
        """Run on a compiled core: ``engine`` (its ``CompiledEngine``, the rules as C values)
        and its states. Its observation and masks become instance attributes, bound methods
        of the engine, so the env's hot path calls them directly."""
        self.compiled = engine
        self.state_class = state_class
        self.observation = engine.observation  # type: ignore[method-assign]
        self.action_mask = engine.action_mask  # type: ignore[method-assign]
        self.legal_mask = engine.legal_mask  # type: ignore[method-assign]
        if self.action_parts:
            engine.parts = self.action_parts
            self.part_observation = engine.part_observation  # type: ignore[method-assign]
            self.part_mask = engine.part_mask  # type: ignore[method-assign]
            self.legal_part = engine.legal_part  # type: ignore[method-assign]

    @property
    def batch(self) -> Any:
        """The batch stepper of ``core.vector_env`` (``core/_batch.pyx``: ``write_decisions``,
        ``first_illegal``, ``step``) for a game on a compiled core (``compiled``, its
        ``CompiledEngine``), else None: the vector env then steps each state in Python. A
        property, not an attribute: a game must pickle, and a module does not."""
        if getattr(self, "compiled", None) is None:
            return None
        from . import _batch

        return _batch

    @property
    def variant(self) -> str:
        """The rule set's name for titles (``"mattis"`` for Koira's Mattis preset)."""
        return self.id

    # ------------------------------------------------------------------ states
    def new_state(
        self, deck: Sequence[Any] | None = None, *, seed: Any = None, log: bool = False
    ) -> State:
        """A fresh game: ``deck`` (names or ids, one or more whole decks in dealing order) fixes
        the first deals, ``seed`` shuffles every later one (and the first when no deck is
        given; a fresh random seed when ``None``). Built as ``state_class(game, decks, seed,
        log=log)``; a game whose deal works otherwise writes its own."""
        decks = [] if deck is None else self.parse_deck(deck)
        if seed is None:
            seed = random.getrandbits(63)
        return self.state_class(self, decks, seed, log=log)

    def dealing_decks(
        self, state: State, sampled: State, decks: list[int], rng: random.Random
    ) -> list[int] | None:
        """``decks`` (every deck ``state`` was dealt, flat) changed so that they deal the hands
        of ``sampled``, a ``determinize`` of ``state``, or ``None`` when no change found does
        (OpenSpiel's ``resample_from_infostate`` then tries another determinization). This
        default renames the last deck's cards: each seat's cards (``view(seat).hand``, card
        ids) become those its hand holds in ``sampled``, and the cards ``sampled`` moved out
        of hands take the places of those it moved in (in random pairs).
        ``NotImplementedError`` when the views' hands are no set of card ids; a game whose
        views show something else, or that deals a hand from several decks, writes its own."""
        true_cards: set[int] = set()
        new_cards: set[int] = set()
        mapping: dict[int, int] = {}
        hands = 0
        for seat in range(self.num_players):
            true_hand = list(state.view(seat).hand)
            new_hand = list(sampled.view(seat).hand)
            hands += len(true_hand)
            true_cards.update(true_hand)
            new_cards.update(new_hand)
            common = set(true_hand) & set(new_hand)
            old = [c for c in true_hand if c not in common]
            new = [c for c in new_hand if c not in common]
            rng.shuffle(new)
            for c in common:
                mapping[c] = c
            mapping.update(zip(old, new, strict=False))
        if len(true_cards) != hands:
            raise NotImplementedError(
                f"{self.title}: the view's hand is no set of card ids, so the determinized "
                "hands cannot be dealt from a deck by renaming its cards"
            )
        moved_in = sorted(new_cards - true_cards)
        moved_out = sorted(true_cards - new_cards)
        rng.shuffle(moved_out)
        mapping.update(zip(moved_in, moved_out, strict=False))
        start = len(decks) - self.deck_size
        return decks[:start] + [mapping.get(c, c) for c in decks[start:]]

    def parse_deck(self, deck: Sequence[Any]) -> list[int]:
        """Card names or ids, one or more whole decks, as ids; ``ValueError`` names the fault."""
        from .deck import parse_decks

        return parse_decks(
            deck,
            self.deck_size,
            self.card_id,
            self.card_name,
            self.max_decks,
            cards=self.deck_cards,
        )

    def card_name(self, card: int) -> str:
        raise NotImplementedError

    def card_id(self, name: str) -> int:
        """The id of a card written as ``card_name`` writes it (games may accept more)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of ``observation_size``: what ``seat`` may know."""
        raise NotImplementedError

    # the width of ``turn_features``' rows: 0 for a game without per-turn features
    turn_feature_size: int = 0

    def turn_features(self, state: State, seat: int, legal: Sequence[int]) -> np.ndarray:
        """(len(legal), turn_feature_size) float32: what each of ``legal`` leaves on the table,
        as ``seat`` may know it, for a network that scores turns one by one
        (``agents/turnnet.py``). A game that has them overrides this."""
        raise NotImplementedError(f"{self.title} has no per-turn features")

    def action_mask(self, legal: Sequence[int]) -> np.ndarray:
        """A fresh int8 vector with 1 at each legal action."""
        mask = bytearray(self.num_actions)
        for action in legal:
            mask[action] = 1
        return np.frombuffer(mask, np.int8)

    def legal_mask(self, state: State) -> np.ndarray:
        """``action_mask(state.legal_actions())``: the env's mask of the acting seat (a
        compiled core writes it without the list, ``use_compiled``)."""
        return self.action_mask(state.legal_actions())

    # ------------------------------------------------------------------ two-part actions
    def part_observation(self, state: State, seat: int, pending: int) -> np.ndarray:
        """``observation`` plus the first part chosen (``core.parts``): one-hot in a block of
        ``num_actions // action_parts`` entries, zeros unless ``seat`` is to act and has chosen
        ``pending`` (else -1)."""
        chosen = np.zeros(decision_sizes(self, True)[0] - self.observation_size, np.float32)
        if pending != NO_PART and seat == state.current and not state.is_terminal:
            chosen[pending] = 1.0
        return np.concatenate([self.observation(state, seat), chosen])

    def part_mask(self, state: State, pending: int) -> np.ndarray:
        """A fresh int8 vector of the split action space with 1 at each legal part: the first
        parts if ``pending`` is -1, else the second parts completing ``pending``."""
        mask = np.zeros(decision_sizes(self, True)[1], np.int8)
        mask[part_actions(state.legal_actions(), self.action_parts, pending)] = 1
        return mask

    def legal_part(self, state: State, pending: int, part: int) -> bool:
        """Whether ``part`` (an int) is one of ``part_mask(state, pending)``'s legal parts."""
        return type(part) is int and part in part_actions(
            state.legal_actions(), self.action_parts, pending
        )

    def action_name(self, action: int) -> str:
        raise NotImplementedError

    def action_id(self, name: str) -> int:
        """The action named ``name`` (as ``action_name`` writes it, case-insensitive)."""
        table = self.__dict__.get("_action_ids")
        if table is None:
            table = {self.action_name(a).lower(): a for a in range(self.num_actions)}
            self.__dict__["_action_ids"] = table
        if not isinstance(name, str) or name.strip().lower() not in table:
            raise ValueError(f"unknown action {name!r} for {self.title}")
        return table[name.strip().lower()]

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        """A few lines of the table as ``seat`` sees it (public information, its own cards)."""
        raise NotImplementedError

    # the one-line wording of the game's simple event kinds: kind -> ``str.format_map`` of the
    # event (``"player_{player} bids {bid}"``); kinds whose line needs code are its own
    event_text: ClassVar[dict[str, str]] = {}

    def describe_event(self, event: dict[str, Any]) -> str:
        """One line for a logged event (``koira replay``). A game words the kinds that need
        code and hands the rest on here: its ``event_text``, the kinds every game shares
        (``core.text.describe_shared``), ``KeyError`` for any other."""
        return describe_shared(event, self.event_text)

    def table(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: everything, for replays) as a JSON-ready
        dict in the schema of ``core.table``: the one source of the web table and the
        ``rgb_array`` picture. Built from ``state.view(seat)`` and public facts only, so no
        card hidden from the seat can reach it. Each game declares it (``GameSpec.table``)."""
        return self.spec.load("table")(state, seat)

    def end_info(self, state: State) -> dict[str, Any]:
        """The env's ``info`` at the end: the outcome with seats as agent names, raw scores."""
        outcome = state.outcome()
        if outcome is None:
            return {}
        agents = [f"player_{p}" for p in range(self.num_players)]
        info: dict[str, Any] = {
            "places": dict(zip(agents, outcome.places, strict=True)),
            "scores": dict(zip(agents, outcome.scores, strict=True)),
        }
        if outcome.teams is not None:
            info["teams"] = dict(zip(agents, outcome.teams, strict=True))
        return info
