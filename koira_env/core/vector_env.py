"""A batched env in the style of EnvPool and pgx: ``N`` games of one ``Game`` stepped together.

Learners that batch their forward pass want one call that advances many tables and answers
with stacked arrays, not an AEC loop per table. ``VectorEnv`` keeps ``N`` engine states and
steps each with one action per call: whoever is to act in env ``i`` plays ``actions[i]``.

* **Views.** ``obs[i]`` is ``game.observation(state, seat)`` for the seat to act in env ``i``
  (``player[i]``), ``mask[i]`` its legal actions: exactly what the AEC env's ``observe`` of
  that seat gives (the same bytes), so a policy trained on one runs on the other.
* **Rewards once.** ``rewards[i]`` (one entry per seat) is zero except in the step that ends
  env ``i``'s game, when it holds ``State.returns()``; ``terminated[i]`` (a result) or
  ``truncated[i]`` (the game's action limit: zero returns, no places) marks that step.
* **Auto-reset.** A finished env deals its next game at once, in the same step: the returned
  ``obs[i]``, ``mask[i]`` and ``player[i]`` are the new game's first decision. The old game's
  result is in ``rewards`` and in ``info`` (``final_places``, ``episode_lengths``).
* **Seeds.** ``reset(seed=s)`` deals env ``i``'s first game with ``new_state(seed=f"{s}/{i}")``
  and its ``k``-th game after that (``k`` = 1, 2, ...) with ``seed=f"{s}/{i}:{k}"`` (not
  ``/k``: that is the seed of hand ``k`` of a multi-hand game, ``deck_for_hand``). A reset
  without a seed continues a sequence drawn from the last seed (OS entropy if none), as the
  AEC env's reset does; ``options={"decks": [...]}`` fixes each env's first deal.
* **Split actions.** ``split_actions=True`` (a game whose action ids are pairs: Red7's turn)
  asks for each action in two steps, as the AEC env does (``core.parts``): the rows hold the
  part's mask and the observation with its chosen-part block, and ``episode_lengths`` counts
  steps, two a turn.
* **Buffers.** Every array returned (and ``info``'s) is preallocated and owned by the env:
  the next ``step`` or ``reset`` overwrites it in place. Copy what you keep across steps.
* **Compiled.** A game on a compiled core has a batch stepper (``Game.batch``, the shared
  ``core/_batch.pyx``): its envs are checked, stepped and written in one C loop; the results
  are the same bytes as the Python path's (tested against the reference engine). A finished
  game's result is written there too, and where the core deals in C (``deal_next``: Red7,
  Teka) and the game deals as ``Game.new_state``, so is the next game.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, NoReturn

import numpy as np

from .game import Game, IllegalActionError, State
from .parts import NO_PART, check_split, decision_sizes, part_actions
from .reset import ResetSeeds, reset_option

RESET_OPTIONS = ("decks",)
Step = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]
]


def game_seed(seed: int, env: int, k: int) -> str:
    """The seed of env ``env``'s ``k``-th game (0 = the first) after ``reset(seed=seed)``."""
    return f"{seed}/{env}" if k == 0 else f"{seed}/{env}:{k}"


class VectorEnv:
    """``num_envs`` games of ``game``; build it with ``koira_env.vector_env(...)``."""

    def __init__(self, game: Game, num_envs: int, *, split_actions: bool = False) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        check_split(game, split_actions)
        self.game = game
        self.num_envs = n = num_envs
        self.num_players = p = game.num_players
        self.observation_size, self.num_actions = decision_sizes(game, split_actions)
        self._observation = game.observation  # bound once: the hot path
        # split actions (core.parts): the width of a part (0: whole actions), and per env the
        # first part chosen (-1: none)
        self._parts = game.action_parts if split_actions else 0
        self._pending = np.full(n, NO_PART, np.int64)
        self._batch = game.batch
        # the core's deal_next deals Game.new_state's game; a game dealing otherwise keeps its own
        self._deal_in_c = type(game).new_state is Game.new_state
        self._obs = np.zeros((n, self.observation_size), np.float32)
        self._mask = np.zeros((n, self.num_actions), bool)
        self._mask_bytes = self._mask.view(np.uint8)  # the same memory, as the C loop writes it
        # the compiled path's own copy of the mask, which the legality check reads: the mask
        # returned is the caller's to change
        self._legal_bytes = np.zeros_like(self._mask_bytes) if self._batch is not None else None
        self._player = np.zeros(n, np.int64)
        self._rows = np.arange(n, dtype=np.int64)
        self._rewards = np.zeros((n, p), np.float32)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._flag_bytes = self._terminated.view(np.uint8), self._truncated.view(np.uint8)
        self._final_places = np.full((n, p), -1, np.int64)
        self._episode_lengths = np.zeros(n, np.int64)
        self._info = {"final_places": self._final_places, "episode_lengths": self._episode_lengths}
        self.states: list[State] = []  # env i's game in progress: for tools and tests
        self._legal: list[list[int]] = []  # env i's legal actions, checked before any apply
        self._lengths = np.zeros(n, np.int64)  # actions so far in env i's game
        self._games = np.zeros(n, np.int64)  # games env i has dealt since the last reset
        self._seed: int | None = None  # the seed series of the current reset
        self._seeds = ResetSeeds()

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal a new game in every env; ``(obs, mask, player)`` of each one's first decision.

        ``options={"decks": [...]}`` gives one deck per env (each as ``game.new_state(deck=)``
        takes it); a bad deck or count raises ``ValueError`` and leaves every env as it was.
        """
        decks: Sequence[Any] | None = reset_option(options, RESET_OPTIONS, "decks")
        if decks is not None:
            listed = hasattr(decks, "__len__") and not isinstance(decks, str | bytes)
            if not listed or len(decks) != self.num_envs:
                got = len(decks) if listed else type(decks).__name__
                raise ValueError(
                    f"options['decks'] must hold one deck per env ({self.num_envs}), got {got}"
                )
        ids: list[Any] = [None] * self.num_envs
        if decks is not None:  # parsed before anything changes, the seed sequence included
            for i, deck in enumerate(decks):
                try:
                    ids[i] = self.game.parse_deck(deck)
                except ValueError as err:
                    raise ValueError(f"options['decks'][{i}]: {err}") from None
        base = self._seeds.next(seed)
        states = [self._deal(base, i, 0, ids[i]) for i in range(self.num_envs)]
        self._seed = base
        self.states = states
        self._lengths.fill(0)
        self._games.fill(0)
        self._pending.fill(NO_PART)
        if self._batch is not None:
            self._batch.write_decisions(
                states,
                self._obs,
                self._mask_bytes,
                self._legal_bytes,
                self._player,
                self._parts,
                self._pending,
            )
            return self._obs, self._mask, self._player
        for i in range(self.num_envs):
            self._observe(i)
        self._write_decisions()
        return self._obs, self._mask, self._player

    def step(self, actions: Any, env_ids: Any = None) -> Step:
        """Play ``actions[i]`` in env ``i``; ``(obs, mask, player, rewards, terminated,
        truncated, info)``. Every action is checked first: an illegal one raises
        ``IllegalActionError`` (a ``ValueError``) naming the env, and no env moves.

        ``env_ids`` (as EnvPool's): step only these envs, ``actions[k]`` in env
        ``env_ids[k]``; the others keep their rows (their games wait), and their rewards and
        flags are zero. A learner that plays one seat steps the other seats' envs this way."""
        if not self.states:
            raise RuntimeError("step() called before reset()")
        ids = self._rows if env_ids is None else self._env_ids(env_ids)
        array = np.asarray(actions)
        if array.shape != ids.shape or array.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {len(ids)} integers (shape ({len(ids)},)), "
                f"got shape {array.shape} of {array.dtype}"
            )
        batch = self._batch
        if batch is not None:
            array = np.ascontiguousarray(array, np.int64)
            bad = batch.first_illegal(self._legal_bytes, ids, array)
            if bad >= 0:
                i = int(ids[bad])
                self._illegal(i, int(array[bad]), self._legal_of(i))
        else:
            chosen = array.tolist()
            envs = ids.tolist()
            for i, action in zip(envs, chosen, strict=True):
                if action not in self._legal[i]:
                    self._illegal(i, action, self._legal[i])
        self._rewards.fill(0.0)
        self._terminated.fill(False)
        self._truncated.fill(False)
        self._final_places.fill(-1)
        self._episode_lengths.fill(0)
        if batch is not None:
            batch.step(
                self.states,
                ids,
                array,
                self._obs,
                self._mask_bytes,
                self._legal_bytes,
                self._player,
                self._lengths,
                self._rewards,
                *self._flag_bytes,
                self._final_places,
                self._episode_lengths,
                self._games,
                self._seed,
                self._deal_in_c,
                self._next_deal,
                self._parts,
                self._pending,
            )
        else:
            lengths, states, parts, pending = self._lengths, self.states, self._parts, self._pending
            for i, action in zip(envs, chosen, strict=True):
                state = states[i]
                lengths[i] += 1
                if parts:  # split actions: a first part waits for its second
                    if pending[i] == NO_PART:
                        pending[i] = action
                        self._observe(i)
                        continue
                    action += int(pending[i]) * parts
                    pending[i] = NO_PART
                state.apply(action)
                if state.is_terminal:
                    self._finish(i, state)
                self._observe(i)
            self._write_decisions(ids)
        return (
            self._obs,
            self._mask,
            self._player,
            self._rewards,
            self._terminated,
            self._truncated,
            self._info,
        )

    @property
    def pending(self) -> np.ndarray:
        """With split actions, the first part each env's mover has chosen (-1: none yet, the
        next step is a first part); the env's own array, read-only."""
        view = self._pending.view()
        view.flags.writeable = False
        return view

    def _env_ids(self, env_ids: Any) -> np.ndarray:
        ids = np.asarray(env_ids)
        n = self.num_envs
        if (
            ids.ndim != 1
            or ids.dtype.kind not in "iu"
            or (len(ids) and (ids.min() < 0 or ids.max() >= n))
            or len(np.unique(ids)) != len(ids)
        ):
            raise ValueError(f"env_ids must be distinct env indices in 0..{n - 1}, got {env_ids!r}")
        return np.ascontiguousarray(ids, np.int64)

    def _observe(self, i: int) -> None:
        """Env ``i``'s observation row for the seat to act (the Python path)."""
        state = self.states[i]
        if self._parts:
            row = self.game.part_observation(state, state.current, int(self._pending[i]))
        else:
            row = self._observation(state, state.current)
        self._obs[i] = row

    def _legal_of(self, i: int) -> list[int]:
        """Env ``i``'s legal decisions: its state's legal actions, or with split actions its
        legal parts."""
        legal = self.states[i].legal_actions()
        return part_actions(legal, self._parts, int(self._pending[i])) if self._parts else legal

    @staticmethod
    def _illegal(i: int, action: int, legal: list[int]) -> NoReturn:
        raise IllegalActionError(
            f"env {i}: action {action} is not legal (legal: {legal}); no env was stepped"
        )

    def _finish(self, i: int, state: State) -> State:
        """Record env ``i``'s result for this step and deal its next game in the slot."""
        self._episode_lengths[i] = self._lengths[i]
        if state.truncated:
            self._truncated[i] = True
        else:
            self._terminated[i] = True
            self._rewards[i] = state.returns()
            outcome = state.outcome()
            assert outcome is not None  # terminal and not truncated
            self._final_places[i] = outcome.places
        self._games[i] += 1
        self._lengths[i] = 0
        self.states[i] = state = self._next_deal(i, int(self._games[i]))
        return state

    def _next_deal(self, i: int, k: int) -> State:
        """Env ``i``'s ``k``-th game after the last reset (the C loop's deal where the core
        has none of its own)."""
        assert self._seed is not None  # set by reset, before any step
        return self._deal(self._seed, i, k, None)

    def _deal(self, seed: int, i: int, k: int, deck: list[int] | None) -> State:
        """Env ``i``'s ``k``-th game: from ``deck`` if given, its seed shuffling the rest."""
        state = self.game.new_state(deck=deck, seed=game_seed(seed, i, k))
        if state.is_terminal:  # the protocol does not promise a decision; the batch needs one
            raise RuntimeError(f"env {i}: the game seeded {game_seed(seed, i, k)!r} has no move")
        return state

    def _write_decisions(self, ids: np.ndarray | None = None) -> None:
        """The acting seat and legal set of every env (or of ``ids``) into ``player`` and
        ``mask``: one numpy call for the whole mask (a row at a time costs a third of a step)."""
        states = self.states
        if ids is None:
            ids = self._rows
            self._legal = [[] for _ in states]
        envs = ids.tolist()
        chosen = []
        for i in envs:
            self._legal[i] = legal = self._legal_of(i)
            chosen.append(legal)
        self._player[ids] = [states[i].current for i in envs]
        rows = ids.repeat(list(map(len, chosen)))
        self._mask[ids] = False
        self._mask[rows, list(chain.from_iterable(chosen))] = True
