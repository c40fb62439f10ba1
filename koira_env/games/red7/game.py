"""Red7 as a game of the suite: dealing, the observation encoder, action names and text.

Two engines play the same games: the compiled core (``_compiled.pyx``, built at install, the
default; it writes the observation and the mask in C) and the pure-Python reference
(``engine.py`` with the encoder below, ``engine="python"``). The choice is not a rule: records
and ``rules.to_dict()`` do not mention it.

The observation is built directly as the bytes of its float32 values and handed to numpy once
(a copy of Koira's ``bytes`` trick without its multiply, which cost as much as the rest). Card
blocks are one ``bytes.translate`` each of the engine's ``locs``, four bytes per card, so no
Python loop runs over the cards; every other field is joined from tables of float32 bytes
made by the same numpy cast and multiply as Koira's scaled vector, so the values are exactly
those of ``uint8 * float32 scale``. Everything is seat-relative: "player r" is r seats after
the observer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from operator import itemgetter
from typing import Any

import numpy as np

from ...core import events
from ...core.encoding import code_table, layout, one_hot, seat_one_hots
from ...core.game import Game, action_index, choose_engine
from ...core.table import legend_line
from ...core.text import counted, hand_and_moves, result_line
from . import SPEC
from .cards import COLOUR_NAMES, NUM_CARDS, NUM_COLOURS, RULE_NAMES, card_id, card_name
from .engine import (
    CANVAS,
    DEAD,
    DRAW,
    FOLDED,
    HAND,
    HAND_SIZE,
    NUM_ACTIONS,
    PALETTE,
    SCORED,
    SLOTS,
    State,
    action_name,
)
from .rules import Rules, make_rules
from .table import FACES
from .turns import TURN_FEATURES, turn_features

try:
    from . import _compiled
except ImportError as err:  # a source checkout whose extension is not built
    _compiled = None  # type: ignore[assignment]
    _COMPILED_ERROR = str(err)

MAX_PLAYERS = 4


def _fields(rules: Rules) -> list[tuple[str, int, float]]:
    """(name, size, scale) of every observation field, in vector order."""
    n = rules.num_players
    fields = [("hand", NUM_CARDS, 1.0)]
    fields += [(f"palette_{r}", NUM_CARDS, 1.0) for r in range(n)]
    fields += [
        ("canvas", NUM_CARDS, 1.0),
        ("out_palettes", NUM_CARDS, 1.0),
        ("unseen", NUM_CARDS, 1.0),
    ]
    if rules.scoring == "points":
        fields.append(("scored", NUM_CARDS, 1.0))
    fields += [("rule", NUM_COLOURS, 1.0)]
    fields += [(f"leader_{name}", n, 1.0) for name in COLOUR_NAMES]
    fields += [
        ("active", n, 1.0),
        ("hand_sizes", n, 1.0 / HAND_SIZE),
        ("current_player", n, 1.0),
        ("draw_size", 1, 1.0 / (NUM_CARDS - (HAND_SIZE + 1) * n)),
    ]
    if rules.scoring == "points":
        fields += [("scores", n, 1.0 / rules.points_to_win), ("round", 1, 1.0 / 255)]
    return fields


def _floats(count: int, scale: float) -> list[bytes]:
    """The float32 bytes of ``v * scale`` for v in 0..count-1, as the scaled vector has them."""
    values = np.arange(count, dtype=np.uint16) * np.full(count, scale, np.float32)
    return [v.tobytes() for v in values.astype(np.float32)]


ZERO, ONE = _floats(2, 1.0)
BOOL = (ZERO, ONE)  # by False / True


class Red7Game(Game):
    """Red7 under one ``Rules``; build it with ``make_game``.

    ``engine`` is ``"compiled"`` (the Cython core, the default when it is built) or
    ``"python"`` (the reference engine); both give the same states, observations and records.
    """

    spec = SPEC
    deck_size = NUM_CARDS
    action_parts = SLOTS  # a turn is (palette card or none, canvas card or none)

    def __init__(self, rules: Rules, engine: str | None = None) -> None:
        n = rules.num_players
        self.rules = rules
        self.num_players = n
        self.engine = engine = engine_name(engine)
        self.num_actions = NUM_ACTIONS
        self.points = rules.scoring == "points"
        self.max_decks = None if self.points else 1  # one deck per round
        fields = _fields(rules)
        self.observation_layout, scales = layout(fields)
        self.observation_size = len(scales)
        seats = range(n)
        others = [[q for q in seats if q != s] for s in seats]
        table = partial(code_table, one=ONE)  # ``locs`` holds four bytes a card: float32 1.0
        self._tables = [
            [table({HAND + s})]
            + [table({PALETTE + (s + r) % n}) for r in seats]
            + [table({CANVAS}), table({DEAD + q for q in seats})]
            + [table({DRAW} | {HAND + q for q in others[s]} | {FOLDED + q for q in others[s]})]
            + ([table({SCORED + q for q in seats})] if self.points else [])
            for s in seats
        ]
        self._seat_one_hot = seat_one_hots(n, ONE)
        self._rule_one_hot = [one_hot(NUM_COLOURS, c, ONE) for c in range(NUM_COLOURS)]
        self._rotate = [itemgetter(*[(s + r) % n for r in seats]) for s in seats]
        scale = {name: sc for name, _, sc in fields}
        self._hand_sizes = _floats(HAND_SIZE + 1, scale["hand_sizes"])
        self._draw_sizes = _floats(NUM_CARDS - (HAND_SIZE + 1) * n + 1, scale["draw_size"])
        if self.points:
            self._scores = _floats(rules.points_to_win + 1, scale["scores"])
            self._rounds = _floats(256, scale["round"])
        if engine == "compiled":
            self.use_compiled(_compiled.Engine(rules), _compiled.State)
            self.turn_features = self.compiled.turn_features  # type: ignore[method-assign]
        else:
            self.compiled = None
            self.state_class = State

    # ------------------------------------------------------------------ states

    card_name = staticmethod(card_name)
    card_id = staticmethod(card_id)

    def action_name(self, action: int) -> str:
        return action_name(action_index(action, self.num_actions))

    # ------------------------------------------------------------------ encoding
    def observation(self, state: State, seat: int) -> np.ndarray:
        """A fresh float32 vector of what ``seat`` may know (``observation_layout``): the
        reference encoder, of the reference engine's states (the compiled core has its own,
        ``self.compiled.observation``, which replaces this method on a compiled game)."""
        one_hot = self._seat_one_hot[seat]
        rot = self._rotate[seat]
        parts = list(map(state.locs.translate, self._tables[seat]))
        parts.append(self._rule_one_hot[state.rule])
        parts += map(one_hot.__getitem__, state.leaders)
        parts += map(BOOL.__getitem__, rot(state.active))
        parts += map(self._hand_sizes.__getitem__, map(len, rot(state.hands)))
        parts.append(one_hot[state.current])
        parts.append(self._draw_sizes[len(state.draw)])
        if self.points:
            target = self.rules.points_to_win
            parts += [self._scores[min(s, target)] for s in rot(state.scores)]
            parts.append(self._rounds[min(state.round, 255)])
        return np.frombuffer(bytearray().join(parts), np.float32)

    turn_feature_size = TURN_FEATURES

    def turn_features(self, state: State, seat: int, legal: Sequence[int]) -> np.ndarray:
        """One row per turn of ``legal`` (``turns.py``): the reference writer, on either
        engine's states; on a compiled game ``self.compiled.turn_features`` (the same rows
        written in C; ``benchmarks/bench_turns.py`` times both) replaces this method, as it
        does ``observation``."""
        return turn_features(state.view(seat), legal)

    # ------------------------------------------------------------------ text
    def render(self, state: State, seat: int) -> str:
        """The table as ``seat`` sees it: palettes, canvas, who is out and its own hand."""
        view = state.view(seat)
        n = self.num_players
        rule = f"{COLOUR_NAMES[view.rule]} ({RULE_NAMES[view.rule]})"
        head = f"{self.title}, {n} players"
        if self.points:
            head += f", round {view.round + 1}, {view.target} points to win"
        status = f"player_{view.current} to play" if view.current >= 0 else "game over"
        lines = [f"{head}: {status}; rule: {rule}"]
        canvas = " ".join(card_name(c) for c in view.canvas)
        lines.append(f"Canvas: start card (red){' ' + canvas if canvas else ''}")
        for p in range(n):
            palette = " ".join(card_name(c) for c in view.palettes[p])
            if view.active[p]:
                lead = " (winning)" if p == view.winning else ""
                line = f"player_{p}: {view.hand_sizes[p]} in hand; palette {palette}{lead}"
            else:
                line = f"player_{p}: out (palette was {palette})"
            if self.points:
                line += f"; {counted(view.scores[p], 'point')}"
            lines.append(line)
        if self.rules.canvas_draw:
            lines.append(f"Draw pile: {counted(view.draw_size, 'card')}")
        lines.append(legend_line(FACES))
        lines += hand_and_moves(self, seat, map(card_name, view.hand), view.legal)
        if state.over:
            lines.append(result_line(state, state.round + 1, "round", "max_rounds"))
        return "\n".join(lines)

    def describe_event(self, event: dict[str, Any]) -> str:
        kind = event["type"]
        if kind == events.DEAL:  # public only: ``koira play`` shows these lines to a person
            palettes = " ".join(event["palettes"])
            return (
                f"Round {event['round'] + 1}: palettes {palettes}; player_{event['first']} starts"
            )
        if kind == events.PLAY:
            parts = []
            if "palette" in event:
                parts.append(f"{event['palette']} to the palette")
            if "canvas" in event:
                parts.append(f"{event['canvas']} to the canvas")
            drew = ", draws a card" if "drew" in event else ""
            return f"player_{event['player']} plays {' then '.join(parts)}{drew}"
        if kind == "out":
            left = counted(event["cards_left"], "card")
            return f"player_{event['player']} is out ({left} left in hand)"
        if kind == "round_won":
            cards = " ".join(event["cards"]) or "nothing"
            return (
                f"player_{event['player']} wins the round under {COLOUR_NAMES[event['rule']]} "
                f"and scores {cards}: {counted(event['points'], 'point')}"
            )
        if kind == events.GAME_OVER:
            if "scores" in event:
                rounds = counted(event["rounds"], "round")
                return f"Game over after {rounds}: scores {event['scores']}"
            return f"Game over: player_{event['winner']} is the last player in and wins"
        return super().describe_event(event)

    def end_info(self, state: State) -> dict[str, Any]:
        info = super().end_info(state)
        if info:
            info["round_winner"] = f"player_{state.winner}"
        return info


def engine_name(engine: str | None = None) -> str:
    """``"compiled"`` or ``"python"``; ``None`` means the compiled core if it is built, else
    the reference engine with one warning saying how to build the core
    (``core.game.choose_engine``)."""
    return choose_engine(engine, "Red7", None if _compiled is not None else _COMPILED_ERROR)


def make_game(num_players: int = 4, engine: str | None = None, **options: Any) -> Red7Game:
    """A ``Red7Game``; ``ValueError`` for a bad player count or option. ``engine``:
    ``"compiled"`` (the default when built) or ``"python"`` (the reference)."""
    return Red7Game(make_rules(num_players, **options), engine)
