"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

One tree per decision, its nodes keyed by the action sequence from the acting seat's
information set. Every iteration deals the hidden cards afresh with ``turn.sample_state()``
and walks the tree with the engine's real moves: only the children legal in this deal are
candidates, and UCB uses availability counts (how often a child was legal when its parent
was visited) in place of the parent's visit count. A node's value is the mean return of the
seat that moved into it, so opponents are modelled as maximising their own return. Leaves are
finished with a cheap rollout policy (the game's own, ``bots.ROLLOUT`` of its package: Koira's
is the ``dumper`` heuristic; or uniform random), and the move played is the root child with the
most visits. It works on any game of the registry: it needs only ``State`` and the views'
``legal``. ``phase`` restricts the search to one phase of a game with phases (Koira: the
rollout policy plays the other): it shows where search pays, and Koira's phase two alone is
most of its strength at a fraction of the cost (docs/bots.md).

A game may ship the same search compiled (``bots.SEARCH``: every built-in game's
``_search.pyx`` on its compiled core; docs/benchmarks.md times both); ``ISMCTSAgent`` runs it
when it can, and this module's loop, the readable reference, otherwise (the reference engine)
or when asked (``engine="python"``). The two differ
only in their random streams.

Given ``models`` (one agent per seat), the search is a best response instead: every other
seat moves as its model does, in the tree and in the rollouts, and the searching seat's own
rollout moves are its model's, so the tree improves on that model against those opponents
(``koira_agents.exploit`` measures an agent's exploitability with it). It then plays its own
agent's move (the agent it is measured against, or its own seat's model) unless the most
visited move's mean return beats that move's by ``SAFE_Z`` standard errors: where the search
cannot tell the moves apart (a long game's noise, a bid among many), it keeps that move
instead of a coin toss.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from functools import cache

from koira_env.core.agent import Agent, Turn
from koira_env.core.game import State
from koira_env.registry import spec

ROLLOUTS = ("game", "random")
SAFE_Z = 1.0  # standard errors a best response's move must beat its own agent's move by
VAR_FLOOR = 0.05  # the least variance of one return a best response assumes (``_spread``)


class _Node:
    __slots__ = ("avail", "children", "player", "square", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat whose move led here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.square = 0.0  # the sum of squared returns: a best response's standard errors


ENGINES = ("auto", "python")


def check_engine(engine: str) -> str:
    """A search agent's ``engine`` (``ENGINES``: the compiled search where the game has one,
    or the reference Python loop), or a ``ValueError`` naming the choices."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    return engine


@cache
def game_rollout(game_id: str) -> Callable[[State], int] | None:
    """The game's own rollout policy, or ``None`` (then rollouts are uniformly random)."""
    return spec(game_id).load("rollout")


def rollout_move(turn: Turn, random_rollout: bool = False) -> int:
    """The move a rollout would make here: the game's rollout policy on a deal consistent
    with the seat's view, or a uniformly random legal move."""
    policy = None if random_rollout else game_rollout(turn.game.id)
    if policy is None:
        return turn.rng.choice(turn.view.legal)
    return policy(turn.sample_state())


@cache
def game_search(game_id: str) -> Callable[..., dict[int, int] | None] | None:
    """The game's compiled search (``GameSpec.search``), or ``None``."""
    return spec(game_id).load("search")


class ISMCTSAgent:
    """SO-ISMCTS with ``iterations`` deals per move, or fewer if ``max_seconds`` runs out.

    ``iterations`` may also give one count per phase (games whose views have a ``phase``,
    such as Koira's 1 and 2; the last count serves any later phase): search is spent where it
    pays, and 0 plays the game's rollout move in that phase. ``(20, 200)`` searches Koira's
    phase one lightly and its endgame hard.

    A time budget makes the result depend on the machine's speed; leave it ``None`` for
    reproducible games. ``rollout`` is ``"game"`` (the game's rollout policy) or ``"random"``.
    ``phase`` (games whose views have a ``phase``, such as Koira's 1 and 2) searches only in
    that phase and plays the game's rollout move in the others; ``None`` searches always.
    ``engine``: ``"auto"`` runs the game's compiled search when it has one for the turn's
    state, ``"python"`` always this module's loop. ``models`` (one agent per seat) makes it a
    best response to them (the module docstring); it runs this module's loop, and keeps
    ``own``'s move (default: its own seat's model's) where the search cannot beat it.
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | Sequence[int] = 50,
        max_seconds: float | None = None,
        exploration: float = 0.7,
        rollout: str = "game",
        phase: int | None = None,
        engine: str = "auto",
        models: Sequence[Agent] | None = None,
        own: Agent | None = None,
    ) -> None:
        counts = (iterations,) if isinstance(iterations, int) else tuple(iterations)
        if not counts or min(counts) < 0 or max(counts) < 1:
            raise ValueError(f"ismcts needs at least 1 iteration, got {iterations}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {list(ROLLOUTS)}, got {rollout!r}")
        self.engine = check_engine(engine)
        self.iterations = iterations
        self.per_phase = None if isinstance(iterations, int) else counts
        self.max_seconds = max_seconds
        self.exploration = exploration
        self.random_rollout = rollout == "random"
        self.phase = phase
        self.models = None if models is None else tuple(models)
        self.own = own

    def act(self, turn: Turn) -> int:
        legal = turn.view.legal
        if len(legal) == 1:
            return legal[0]
        if self.budget(turn) == 0:
            return rollout_move(turn, self.random_rollout)
        if self.models is not None:
            return self._best_response_move(turn)
        visits = self.search(turn)
        return max(legal, key=lambda a: visits.get(a, -1))

    def _best_response_move(self, turn: Turn) -> int:
        """The most visited move if its mean return beats ``own``'s move by ``SAFE_Z``
        standard errors, else ``own``'s move (also where the search never tried it)."""
        own = (self.own or self.models[turn.view.seat]).act(turn)
        children = self._tree(turn).children
        best = max(turn.view.legal, key=lambda a: children[a].visits if a in children else -1)
        if best == own or own not in children:
            return own
        return best if _beats(children[best], children[own]) else own

    def budget(self, turn: Turn) -> int:
        """The iterations this turn gets: per phase, and none outside ``phase`` if set."""
        if self.phase is None and self.per_phase is None:
            return self.iterations  # type: ignore[return-value]
        view_phase = getattr(turn.view, "phase", None)
        if view_phase is None:
            raise ValueError(f"ismcts: {turn.game.title} has no phases to search by")
        if self.phase is not None and view_phase != self.phase:
            return 0
        if self.per_phase is None:
            return self.iterations  # type: ignore[return-value]
        return self.per_phase[min(view_phase, len(self.per_phase)) - 1]

    def search(self, turn: Turn) -> dict[int, int]:
        """The root's visit counts after the search from this turn: ``{legal action: visits}``
        (actions never tried are left out). ``act`` plays the most visited, the first in
        legal order on a tie; learners can use the counts as soft targets."""
        iterations = max(1, self.budget(turn))
        compiled = self.engine == "auto" and self.models is None
        fast = game_search(turn.game.id) if compiled else None
        if fast is not None:
            seed = turn.rng.getrandbits(64)
            args = (iterations, self.exploration, self.random_rollout, seed)
            visits = fast(turn, *args, self.max_seconds)
            if visits is not None:
                return visits
        return {a: child.visits for a, child in self._tree(turn).children.items()}

    def _tree(self, turn: Turn) -> _Node:
        """The root of this module's search from ``turn``, after its iterations."""
        iterations = max(1, self.budget(turn))
        rng = turn.rng
        model = None if self.models is None else self._model_move(turn)
        policy = model or (None if self.random_rollout else game_rollout(turn.game.id))
        root = _Node(turn.view.seat)
        deadline = None if self.max_seconds is None else time.perf_counter() + self.max_seconds
        for _ in range(iterations):
            self._iterate(root, turn.sample_state(), rng, policy, model)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return root

    def _model_move(self, turn: Turn) -> Callable[[State], int]:
        """``State -> action``: the move of the current seat's model (a forced move unasked),
        each model drawing from the search's generator and seeing only its seat's view."""
        models, game, rng = self.models, turn.game, turn.rng
        if len(models) != game.num_players:
            raise ValueError(f"{len(models)} models for a {game.num_players}-player table")

        def move(state: State) -> int:
            legal = state.legal_actions()
            if len(legal) == 1:
                return legal[0]
            seat = state.current
            return models[seat].act(Turn(state.view(seat), game, rng, state))

        return move

    def _iterate(
        self,
        root: _Node,
        state: State,
        rng: random.Random,
        policy: Callable[[State], int] | None,
        model: Callable[[State], int] | None = None,
    ) -> None:
        """One deal down the tree and a rollout; with ``model``, the seats other than the
        root's move by it (their edges are followed, not chosen, and carry no statistics; they
        are keyed ``-1 - action``, apart from the root seat's own, since who moves at a node
        can differ between deals)."""
        node = root
        path = []
        c = self.exploration
        while not state.is_terminal:
            if model is not None and state.current != root.player:
                action = model(state)
                node = node.children.setdefault(-1 - action, _Node(state.current))
                state.apply(action)
                continue
            legal = state.legal_actions()
            children = node.children
            untried = []
            for a in legal:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                action = rng.choice(untried)
                child = _Node(state.current)
                children[action] = child
            else:
                best = -math.inf
                action = legal[0]
                for a in legal:
                    ch = children[a]
                    score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best:
                        best, action = score, a
                child = children[action]
            state.apply(action)
            path.append(child)
            node = child
            if untried:
                break
        if policy is None:
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
        else:
            while not state.is_terminal:
                state.apply(policy(state))
        returns = state.returns()
        for n in path:
            value = returns[n.player]
            n.visits += 1
            n.total += value
            n.square += value * value


class BestResponseAgent:
    """``br:ITERATIONS:MODEL``: the search best response (``ISMCTSAgent`` with ``models``) to
    the agent ``MODEL`` (any spec of the game, ``net:runs/x/latest.npz``) in every seat: a
    league's exploiter of its learner, or a sparring partner that punishes one agent."""

    name = "br"

    def __init__(self, iterations: int, model: str) -> None:
        if iterations < 1:
            raise ValueError(f"br needs at least 1 iteration, got {iterations}")
        if not model:
            raise ValueError("br needs the agent it answers: br:ITERATIONS:MODEL")
        self.iterations = iterations
        self.model = model
        self._search: dict[tuple[str, int], ISMCTSAgent] = {}  # per game and table size

    def act(self, turn: Turn) -> int:
        game = turn.game
        key = (game.id, game.num_players)
        if key not in self._search:
            from .registry import make_agent  # the registry builds this agent

            model = make_agent(self.model, game.id)
            self._search[key] = ISMCTSAgent(self.iterations, models=[model] * game.num_players)
        return self._search[key].act(turn)


def best_response(arg: str) -> BestResponseAgent:
    """``br:ITERATIONS:MODEL`` (``br:32:net:kop4-net``)."""
    iterations, _, model = arg.partition(":")
    try:
        count = int(iterations)
    except ValueError:
        raise ValueError(
            f"br needs an integer iteration count before the model, got {iterations!r}"
        ) from None
    from koira_env.registry import games

    from .registry import agent_factories  # the registry builds this agent

    kind = model.partition(":")[0]
    known = {name for g in games() for name in (*agent_factories(g), *spec(g).choices.aliases)}
    if model and kind not in known:  # the game is known only at the first move: check now
        raise ValueError(f"br: unknown agent {model!r} to answer; known: {sorted(known)}")
    return BestResponseAgent(count, model)


def _beats(node: _Node, other: _Node) -> bool:
    """Whether ``node``'s mean return beats ``other``'s by ``SAFE_Z`` standard errors."""
    error = math.sqrt(_spread(node) / node.visits + _spread(other) / other.visits)
    return node.total / node.visits - other.total / other.visits > SAFE_Z * error


def _spread(node: _Node) -> float:
    """The variance of one return of ``node``'s visits: their sample variance, at least
    ``VAR_FLOOR`` (a few visits that happen to agree are no proof of certainty), and the
    largest a return in [-1, 1] can have (1) below two visits."""
    if node.visits < 2:
        return 1.0
    mean = node.total / node.visits
    sample = (node.square / node.visits - mean * mean) * node.visits / (node.visits - 1)
    return max(VAR_FLOOR, sample)


def ismcts(arg: str = "") -> ISMCTSAgent:
    """``ismcts``, ``ismcts:ITERATIONS``, ``ismcts:ITERATIONS:PHASE`` (search only in that
    phase of a game with phases: Koira's 1 or 2) or ``ismcts:ITERATIONS:PHASE:python`` (the
    reference loop even where a compiled search exists; PHASE may be empty:
    ``ismcts:50::python``). ITERATIONS may be one count per phase: ``ismcts:20/200``."""
    if not arg:
        return ISMCTSAgent()
    iterations, _, rest = arg.partition(":")
    phase, _, engine = rest.partition(":")
    try:
        counts = [int(x) for x in iterations.split("/")]
    except ValueError:
        raise ValueError(
            f"ismcts needs an integer iteration count (or one per phase, 20/200), got "
            f"{iterations!r}"
        ) from None
    if phase and (not phase.isdigit() or int(phase) < 1):
        raise ValueError(f"ismcts phase must be a phase number (Koira: 1 or 2), got {phase!r}")
    return ISMCTSAgent(
        iterations=counts[0] if len(counts) == 1 else counts,
        phase=int(phase) if phase else None,
        engine=engine or "auto",
    )
