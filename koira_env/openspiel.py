"""Every game of the registry as an OpenSpiel game: ``import koira_env.openspiel`` registers
each one with ``pyspiel.register_game`` as ``python_<id>``.

``pyspiel.load_game("python_koira", {"players": 3, "rules": "mattis"})`` builds the game's
``Game`` through the registry; the parameters are ``players`` and the game's rule options by
their names (a game with presets, Koira, also takes ``rules``), with the game's defaults.

Chance is explicit: a deck is dealt as one chance node per card, uniform over the cards of
that deck not yet dealt (an outcome is the card's place among the cards in play, so a rule
set that plays part of the deck, as mini Koira's 6 of 52, has 6 outcomes), and play starts
once the whole deck is known (``new_state(deck=...)``). A game of several hands asks for its
next deck when an action would make the engine shuffle one from its seed
(``len(state.deck)`` grows): the state goes back to chance nodes for that deck, then
rebuilds the engine from every deck so far and replays the actions. Observations are the
env's (``game.observation``, ``game.render``); the information state of a seat is everything
it has seen, in order (docs/openspiel.md).
Nothing here is specific to one game.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pyspiel

from . import registry
from .core.agent import Turn
from .core.game import Game, State

PREFIX = "python_"
# a bound on the actions and chance nodes of a game, which OpenSpiel asks for: every game ends
# well within it under its default rules (the games' own safeguards truncate far earlier)
MAX_GAME_LENGTH = 1_000_000
RESAMPLE_TRIES = 20  # determinizations tried before resample_from_infostate gives up
_PARAM_TYPES = (bool, int, float, str)


def parameters(game_id: str) -> dict[str, Any]:
    """The OpenSpiel parameters of a game and their defaults: ``players`` (the usual table),
    ``rules`` for a game with presets (the default preset), then every rule option."""
    spec = registry.spec(game_id)
    options = spec.make_game().rules.to_dict()
    options.pop("num_players")
    params: dict[str, Any] = {"players": spec.default_players}
    if spec.load("presets"):
        params["rules"] = options.pop("preset")
    for name, value in options.items():
        if not isinstance(value, _PARAM_TYPES):
            raise TypeError(f"{game_id} option {name}={value!r} is no OpenSpiel parameter type")
        params[name] = value
    return params


def make_koira_game(game_id: str, params: dict[str, Any]) -> Game:
    """The suite's ``Game`` for OpenSpiel parameters (pyspiel fills in every default).

    Under a preset (``rules``), an option equal to the default preset's value is left to the
    preset: pyspiel hands every parameter over, so a default cannot be told from a choice."""
    spec = registry.spec(game_id)
    defaults = parameters(game_id)
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {unknown} for {PREFIX}{game_id}; valid: {sorted(defaults)}"
        )
    options = {k: v for k, v in params.items() if k not in ("players", "rules")}
    if "rules" in defaults:
        options = {k: v for k, v in options.items() if v != defaults[k]}
        options["rules"] = params.get("rules", defaults["rules"])
    try:
        return spec.make_game(params.get("players", defaults["players"]), **options)
    except ValueError as error:  # the game's own message, named by its OpenSpiel name
        raise ValueError(f"{PREFIX}{game_id}: {error}") from None


def game_type(game_id: str) -> pyspiel.GameType:
    spec = registry.spec(game_id)
    return pyspiel.GameType(
        short_name=PREFIX + game_id,
        long_name=f"Python {spec.title} (Koira suite)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.players[1],
        min_num_players=spec.players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game_id),
    )


class OpenSpielGame(pyspiel.Game):
    """One game of the suite at one rule set; ``koira_game`` is the suite's ``Game``."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.koira_game = game = make_koira_game(self.game_id, params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=game.deck_size,
            num_players=game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(self.game_id), info, params or {})

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.koira_game, perfect_recall)


def _canonical(value: Any) -> Any:
    """``value`` with sets sorted and arrays as tuples: equal views give equal text."""
    if isinstance(value, set | frozenset):
        return tuple(sorted(_canonical(v) for v in value))
    if isinstance(value, dict):
        return tuple(sorted((k, _canonical(v)) for k, v in value.items()))
    if isinstance(value, np.ndarray):
        return tuple(value.tolist())
    if isinstance(value, list | tuple):
        return tuple(_canonical(v) for v in value)
    return value


def _digest(previous: str, seen: str) -> str:
    return hashlib.blake2b(f"{previous}\n{seen}".encode(), digest_size=16).hexdigest()


class _Shared:
    """What every clone of a state shares (``pyspiel`` clones by deep copy): the game, and
    its cards in play, a chance outcome being a card's place among them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = list(game.deck_cards or range(game.deck_size))
        self.outcome = {card: i for i, card in enumerate(self.cards)}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Play:
    """What a state has dealt and played, copied with the engine's own ``clone``."""

    def __init__(self, n: int) -> None:
        self.decks: list[int] = []
        self.actions: list[int] = []
        self.engine: State | None = None
        self.dealing = True
        # per seat: a digest of everything it has seen (its views, each time one changes, and
        # its own actions) and its last view, for the information state
        self.seen = [""] * n
        self.last_view: list[str | None] = [None] * n
        self.trail: list[tuple[str, ...]] = []  # ``seen`` after each player action

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        c = object.__new__(_Play)
        c.decks = self.decks[:]
        c.actions = self.actions[:]
        c.engine = None if self.engine is None else self.engine.clone()
        c.dealing = self.dealing
        c.seen = self.seen[:]
        c.last_view = self.last_view[:]
        c.trail = self.trail[:]
        return c


class OpenSpielState(pyspiel.State):
    """A game in progress: the cards dealt by chance (``decks``), the players' actions and the
    engine state they make (``engine``; ``None`` until the first deck is dealt)."""

    def __init__(self, game: OpenSpielGame) -> None:
        super().__init__(game)
        self._game = _Shared(game.koira_game)
        self._play = _Play(game.koira_game.num_players)

    @property
    def koira_game(self) -> Game:
        """The suite's ``Game`` this state is played under."""
        return self._game.game

    @property
    def engine(self) -> State | None:
        """The engine state (``None`` until the first deck is dealt); while a later deck is
        dealt, the state before the action that needs it."""
        return self._play.engine

    @property
    def decks(self) -> list[int]:
        """Every card chance dealt so far, whole decks one after another."""
        return self._play.decks

    @property
    def actions(self) -> list[int]:
        """Every player action so far, in order."""
        return self._play.actions

    # ------------------------------------------------------------------ chance
    def current_player(self) -> int:
        if self._play.dealing:
            return pyspiel.PlayerId.CHANCE
        if self.engine.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current

    def is_terminal(self) -> bool:
        return not self._play.dealing and self.engine.is_terminal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._play.dealing, "not a chance node"
        start = len(self.decks) - len(self.decks) % self.koira_game.deck_size
        dealt = set(self.decks[start:])
        left = [i for i, card in enumerate(self._game.cards) if card not in dealt]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _legal_actions(self, player: int) -> list[int]:
        if self._play.dealing or player != self.engine.current or self.engine.is_terminal:
            return []
        return sorted(self.engine.legal_actions())  # Koira's compiled core does not sort them

    def _apply_action(self, action: int) -> None:
        if self._play.dealing:
            self._play.decks.append(self._game.cards[action])
            if len(self.decks) % self.koira_game.deck_size == 0:
                self._rebuild()
            return
        engine = self.engine
        known = len(engine.deck)
        player = engine.current
        engine.apply(action)
        self._play.actions.append(action)
        self._play.seen[player] = _digest(self._play.seen[player], f"act {action}")
        if len(engine.deck) > known:  # the engine shuffled a deck of its own: deal it instead
            self._rebuild()
        else:
            self._note_views()
        self._play.trail.append(tuple(self._play.seen))

    def _rebuild(self) -> None:
        """The engine from every deck so far and every action; back to chance when it needs
        a deck more (then ``engine`` is the state before the action that needs it)."""
        known = len(self.decks)
        engine = self.koira_game.new_state(deck=self.decks, seed=0)
        if len(engine.deck) > known:  # the first deal itself asks for another deck
            self._play.dealing = True
            return
        last = len(self.actions) - 1
        for i, action in enumerate(self.actions):
            before = engine.clone() if i == last else None
            engine.apply(action)
            if len(engine.deck) > known:
                if i != last:
                    raise RuntimeError(
                        f"{self.koira_game.title}: replaying the actions asked for a deck "
                        "before the last action"
                    )
                self._play.engine = before
                self._play.dealing = True
                return
        self._play.engine = engine
        self._play.dealing = False
        self._note_views()

    # ------------------------------------------------------------------ what seats see
    def _note_views(self) -> None:
        engine = self.engine
        for seat in range(self.koira_game.num_players):
            view = repr(_canonical(tuple(engine.view(seat))))
            if view != self._play.last_view[seat]:
                self._play.last_view[seat] = view
                self._play.seen[seat] = _digest(self._play.seen[seat], view)

    def information_state(self, player: int) -> str:
        """The seat's perfect-recall information state: the digest of everything it has seen,
        in order, then the table as it sees it now."""
        return f"player_{player} seen {self._play.seen[player] or '-'}\n{self.observation(player)}"

    def observation(self, player: int) -> str:
        if self.engine is None:
            return f"player_{player}: the cards are being dealt"
        return self.koira_game.render(self.engine, player)

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        if self._play.dealing or not self.engine.is_terminal:
            return [0.0] * self.koira_game.num_players
        return [float(r) for r in self.engine.returns()]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            card = self._game.cards[action]
            return f"deal {self.koira_game.card_name(card)} (card {card})"
        return self.koira_game.action_name(action)

    def __str__(self) -> str:
        """The deal and the play; cards by id where names repeat (Dois), so that two states
        have the same text only when they have the same history."""
        game = self.koira_game
        names = {c: game.card_name(c) for c in self._game.cards}
        if len(set(names.values())) < len(names):
            names = {c: f"{name}#{c}" for c, name in names.items()}
        dealt = " ".join(names[c] for c in self.decks)
        played = " ".join(game.action_name(a) for a in self.actions)
        return f"dealt: {dealt}\nactions: {played}"

    # ------------------------------------------------------------------ sampling
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """A state ``player_id`` cannot tell from this one, from the engine's ``determinize``:
        decks that deal every hand its determinized cards (the game's ``dealing_decks``: by
        default the last deck's card ids renamed; Dois, whose views show card kinds and which
        deals a hand from several decks, writes its own), the play replayed on them
        (``_replayed``), and the determinized engine state itself. ``NotImplementedError``
        when the game cannot deal determinized hands from decks, ``RuntimeError`` when no
        deal of ``RESAMPLE_TRIES`` determinizations replays the play (an engine whose
        determinize deals hands the play so far rules out; Mätäpesä's keeps every seat's
        cards of a rank above those it has played, as its rank actions need)."""
        if self._play.dealing:
            raise ValueError("resample_from_infostate needs a decision or terminal state")
        rng = random.Random(int(probability_sampler() * 2**53))
        for _ in range(RESAMPLE_TRIES):
            sampled = self.engine.determinize(player_id, rng)
            decks = self.koira_game.dealing_decks(self.engine, sampled, self.decks, rng)
            state = None if decks is None else self._replayed(decks, player_id)
            if state is not None and state._play.seen[player_id] == self._play.seen[player_id]:
                state._play.engine = (
                    sampled  # the hidden cards outside hands as determinize put them
                )
                return state
        raise RuntimeError(
            f"{self.koira_game.title}: no deal found that gives the determinized hands; "
            "resample_from_infostate needs decks that deal them (the game's dealing_decks)"
        )

    def _replayed(self, decks: list[int], player: int) -> OpenSpielState | None:
        """A new state dealt ``decks`` whose play ``player`` cannot tell from this one's, or
        ``None``. Its own actions are replayed as they were; another seat's action is kept
        when ``player`` then sees what it saw, else replaced by a legal one that looks the
        same to ``player`` (Kop's silent holder and a seat without both black queens both
        pass, by different actions)."""
        size = self.koira_game.deck_size
        if sorted(decks[-size:]) != self._game.cards:
            return None
        state = self.get_game().new_initial_state()
        dealt = 0
        for action, seen in zip(self.actions, self._play.trail, strict=True):
            while state.is_chance_node():
                if dealt == len(decks):
                    return None
                state.apply_action(self._game.outcome[decks[dealt]])
                dealt += 1
            legal = state.legal_actions()
            if state.current_player() == player:
                if action not in legal:
                    return None
                state.apply_action(action)
                continue
            for choice in [action, *(a for a in legal if a != action)]:
                if choice not in legal:
                    continue
                trial = state.child(choice)
                if trial._play.seen[player] == seen[player]:
                    state = trial
                    break
            else:
                return None
        while state.is_chance_node() and dealt < len(decks):
            state.apply_action(self._game.outcome[decks[dealt]])
            dealt += 1
        return state


class Observer:
    """OpenSpiel's observer protocol: the env's observation (``tensor``) and the table's text,
    or, with perfect recall, the information state string (no tensor)."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else game.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self._game = game

    def set_from(self, state: OpenSpielState, player: int) -> None:
        if self.perfect_recall:
            return
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self._game.observation(state.engine, player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        return state.observation(player)


class AgentBot(pyspiel.Bot):
    """A bot of the suite (``koira_agents.registry.make_agent(spec, game)``, anything with
    ``act(turn)``) as an OpenSpiel bot: it acts from the engine state's view of its seat."""

    def __init__(self, agent: Any, player_id: int, seed: int | None = None) -> None:
        super().__init__()
        self.agent = agent
        self.player_id = player_id
        self.rng = random.Random(seed)

    def step(self, state: OpenSpielState) -> int:
        engine = state.engine
        turn = Turn(engine.view(self.player_id), engine.game, self.rng, engine)
        return int(self.agent.act(turn))

    def restart_at(self, state: OpenSpielState) -> None:
        pass

    def inform_action(self, state: OpenSpielState, player_id: int, action: int) -> None:
        pass


def register() -> list[str]:
    """Register every game of the registry not registered yet (importing this module does;
    call it again after ``koira_env.registry.register`` adds a game); their OpenSpiel
    names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_id in registry.games():
        name = PREFIX + game_id
        if name not in registered:
            cls = type(f"OpenSpiel_{game_id}", (OpenSpielGame,), {"game_id": game_id})
            pyspiel.register_game(game_type(game_id), cls)
        names.append(name)
    return names


GAMES = register()
