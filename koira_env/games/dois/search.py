"""Dois's model playouts for perfect-information Monte Carlo: ``GameSpec.pimc`` for
``koira_agents.pimc`` (``champion``, docs/games/dois.md "champion").

At each decision the cards the seat cannot see (the other hands and the undealt cards) are
dealt ``deals`` times within everything public (``State.determinize``'s constraints), and
every legal action, bids included, is scored in each deal by the seat's score for the hand
when it takes that action and then every player, the seat too, bids and plays by
``counter``'s rule from its own view (the cards of the deal decide what they hold, not what
they know); in the game's last hand a deal where the seat then tops the table also scores
``WIN_BONUS``, so the search plays for the win there. It is one step of policy improvement
over ``counter`` against ``counter``: the model of the others is the suite's best bot, as
Whist 22's model solver (docs/games/whist22.md "champion"). Searching the seat's whole plan,
as Whist 22 does, is out of reach here: 12 tricks with up to 8 kinds to play in each.

Two engines, differing only in their random streams:

- ``"python"``, the readable reference: ``turn.sample_state()`` for each deal and
  ``model_move_values`` on it (the engine and ``bots.CounterBot`` themselves);
- ``"auto"`` (where ``_model`` is built): the position read from the seat's view
  (``view_position``), the deals drawn and every playout run in one compiled call
  (``_model.model_totals``); the tests compare the two on the same deals. Where the deals
  are too constrained to draw by rejection, or a redeal showed a hand this hand (whose
  constraint only ``State.determinize`` applies), Python deals them.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.agent import Turn
from .bots import CounterBot
from .cards import MIN_OF_EACH, NUM_SUITS
from .engine import FIRST, OVER, PHASE_NAMES, DoisView, State

try:
    from ._model import model_totals
except ImportError:  # an unbuilt checkout: the reference runs
    model_totals = None

ENGINES = ("auto", "python")
MARGIN = 0.1  # counter's default margin, the model of every player
# In the game's last hand a deal also scores whether the seat's total then tops the table
# (ties too: the tournament counts them as wins), worth more than any hand's score.
WIN_BONUS = 100


def view_position(view: DoisView) -> dict[str, Any]:
    """What the compiled playouts need from the seat's view: its hand, the public table and
    each player's cards played this hand, and the suit and number cards each other hand
    must still hold (every hand began with 3 of each)."""
    n = len(view.bids)
    needs = []
    for plays in view.plays:
        suits = sum(1 for k in plays if k < NUM_SUITS)
        needs.append((max(MIN_OF_EACH - suits, 0), max(MIN_OF_EACH - (len(plays) - suits), 0)))
    phase = PHASE_NAMES.index(view.phase)
    return {
        "n": n,
        "seat": view.seat,
        "trump": view.trump,
        "hand": list(view.counts),
        "played": list(view.played),
        "nplays": [len(p) for p in view.plays],
        "suits": list(view.suits),
        "numbers": list(view.numbers),
        "voids": list(view.voids),
        "bids": list(view.bids),
        "won": list(view.won),
        "scores": list(view.scores),
        "leader": view.leader,
        "in_trick": view.in_trick,
        # the second action of a first-trick turn: the seat has played its suit card
        "step": int(phase == FIRST and len(view.plays[view.seat]) == 1),
        "phase": phase,
        "tricks": view.trick_no,
        "needs": needs,
    }


def model_move_values(
    state: State, seat: int, margin: float = MARGIN, win_bonus: int = 0
) -> dict[int, float]:
    """The reference: for each legal action of ``seat`` (to act in ``state``, a full deal),
    its score for the hand when every player then plays ``CounterBot(margin)``, plus
    ``win_bonus`` where its total is then the highest (ties too)."""
    bot = CounterBot(margin)
    rng = random.Random(0)  # unused by the bot; a Turn carries one
    values = {}
    for action in state.legal_actions():
        game = state.clone()
        hand = game.hand_no
        game.apply(action)
        while game.hand_no == hand and game.phase != OVER:
            p = game.current
            game.apply(bot.act(Turn(game.view(p), game.game, rng, game)))
        others = max(t for p, t in enumerate(game.scores) if p != seat)
        won = win_bonus if game.scores[seat] >= others else 0
        values[action] = float(game.hand_delta[seat] + won)
    return values


def move_values(turn: Turn, deals: int, seed: int, engine: str = "auto") -> list[tuple[int, float]]:
    """``[(action, mean value)]`` over ``deals`` deals, in legal order: the seat's score for
    the hand, plus ``WIN_BONUS`` for a win in the game's last hand."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    if deals < 1:
        raise ValueError(f"the model playouts need at least one deal, got {deals}")
    view = turn.view
    legal = list(view.legal)
    bonus = WIN_BONUS if view.hand_no == turn.rules.hands - 1 else 0
    if model_totals is None or engine == "python":
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(deals):  # seed unused: the deals come from the turn's own generator
            for action, value in model_move_values(
                turn.sample_state(), view.seat, MARGIN, bonus
            ).items():
                totals[action] += value
        return [(action, totals[action] / deals) for action in legal]
    pos = view_position(view)
    sums = None if view.shown else model_totals(pos, legal, deals, seed, MARGIN, None, bonus)
    if sums is None:
        fixed = [list(map(list, turn.sample_state().hands)) for _ in range(deals)]
        sums = model_totals(pos, legal, deals, seed, MARGIN, fixed, bonus)
    return [(action, total / deals) for action, total in sums]
