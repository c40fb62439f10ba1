"""Koira as a game of the suite: one ``KoiraGame`` per rule set (``Rules``), shared by states.

The presets (``koira``, ``koira-b``, ``mattis``) and every option are ``Rules`` fields
(``rules.py``); the engine (``engine.py``) decides each rule; this module ties them to the
game protocol of ``koira_env.core.game``: dealing, the observation encoder, action names,
text and the env's end-of-game info.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default) and the pure-Python reference (``engine.py``, ``engine="python"``). The choice is not
a rule: records and ``rules.to_dict()`` do not mention it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ...cards import NUM_CARDS, card_id, card_name
from ...core.game import Game, action_index, choose_engine, shuffled
from . import SPEC
from .engine import RISK, RUN_ACTION, TAKE, State, action_name
from .observation import ObservationEncoder
from .render import describe_event, render_text
from .rules import Rules, deck_cards, make_rules

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)


class KoiraGame(Game):
    """Koira (or Mattis) under one ``Rules``; build it with ``make_game`` (cached per rules).

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    deck_size = NUM_CARDS
    max_decks = 1

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        self.rules = rules
        cards = deck_cards(rules)
        if len(cards) < NUM_CARDS:  # a smaller deck (mini): the cards in play, by id
            self.deck_size = len(cards)
            self.deck_cards = cards
        self.num_players = rules.num_players
        self.engine = engine = engine_name(engine)
        self.encoder = encoder = ObservationEncoder(rules)
        self.num_actions = encoder.num_actions
        self.observation_size = encoder.size
        self.observation_layout = encoder.layout
        self.observation_scale = encoder.scale
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
        else:  # bound methods as instance attributes: the env's hot path calls them directly
            self.compiled = None
            self.state_class = State
            self.observation = encoder.observation
            self.action_mask = encoder.action_mask

    @property
    def env_name(self) -> str:
        """``koira_v0``, ``koira_b_v0``, ``mattis_v0`` or ``mini_v0``: one name per preset."""
        return f"{self.rules.preset.replace('-', '_')}_v{self.spec.version}"

    @property
    def variant(self) -> str:
        return self.rules.preset

    def new_state(
        self, deck: Sequence[Any] | None = None, *, seed: Any = None, log: bool = False
    ) -> State:
        """``deck`` (52 names or ids, ``deck[0]`` dealt first; with a smaller deck, exactly the
        cards in play) fixes the deal, else ``seed`` shuffles the cards in play; Koira deals
        once, so nothing else is random."""
        if deck is not None:
            order = self.parse_deck(deck)
        elif self.deck_cards is None:
            order = shuffled(NUM_CARDS, seed)
        else:
            cards = self.deck_cards
            order = [cards[i] for i in shuffled(len(cards), seed)]
        return self.state_class(self, order, log=log, seed=seed)

    def card_name(self, card: int) -> str:
        return card_name(card)

    def card_id(self, name: str) -> int:
        return card_id(name)

    def action_name(self, action: int) -> str:
        return action_name(action_index(action, self.num_actions))

    def action_id(self, name: str) -> int:
        """``"QS"``, ``"10h"``, a run in any order (``"5H-6H-7H"``), ``"risk"`` or ``"take"``."""
        word = name.strip().lower() if isinstance(name, str) else ""
        if word in ("risk", "take"):
            return RISK if word == "risk" else TAKE
        cards = tuple(sorted(card_id(part) for part in re.split(r"[-\s,]+", word) if part))
        if len(cards) == 1:
            return cards[0]
        if cards in RUN_ACTION and RUN_ACTION[cards] < self.num_actions:
            return RUN_ACTION[cards]
        raise ValueError(f"{name!r} is not a card, a run of consecutive cards, risk or take")

    def render(self, state: State, seat: int) -> str:
        return render_text(state, seat)

    def describe_event(self, event: dict[str, Any]) -> str:
        return describe_event(event)

    def end_info(self, state: State) -> dict[str, Any]:
        """The outcome plus ``placements``: agents in the order they went out, the loser last
        (only those already out when a game is truncated)."""
        placements = [f"player_{p}" for p in state.placements]
        return {**super().end_info(state), "placements": placements}


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, "Koira", None if _compiled is not None else _COMPILED_ERROR)


@lru_cache(maxsize=64)
def _game(rules: Rules, engine: str) -> KoiraGame:
    return KoiraGame(rules, engine)


def game_for(rules: Rules, engine: str | None = None) -> KoiraGame:
    """The one ``KoiraGame`` of a rule set and engine (its tables are built once)."""
    return _game(rules, engine_name(engine))


def make_game(
    num_players: int = 4,
    rules: str | Rules = "koira",
    preset: str | None = None,
    engine: str | None = None,
    **options: Any,
) -> KoiraGame:
    """``rules`` is a preset name or a ``Rules``; ``preset`` is the same, as records store it.
    ``engine``: ``"compiled"`` (the default when built) or ``"python"`` (the reference)."""
    return game_for(make_rules(num_players, rules if preset is None else preset, **options), engine)
