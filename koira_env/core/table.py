"""The table as one seat sees it, as a JSON-ready dict: the one source of every picture.

``Game.table(state, seat)`` (each game's ``table`` module) describes the table in one generic
shape, so the web table (``experiments/web``) and the ``rgb_array`` painter
(``core.picture``) draw every game without knowing which game it is. docs/games.md ("The
table") documents the schema; in short::

    {"game", "title", "variant", "players",
     "seat": the viewer (None: the full view of a replay), "current": to act (None: over),
     "status": one line,
     "seats": [{"seat", "name", "hand": [visible card names], "hidden": unseen card count,
                "piles": [zone], "info": [str], "flags": [str]}],
     "zones": [zone],   # zone: {"label"} plus any of "cards", "count", "plays", "text"
     "moves": [{"action", "name", "cards"}],   # the viewer's legal moves, when it is to act
     "log": [str],      # the events so far as the viewer saw them (states built with log)
     "scores": {"caption", "columns": [str], "rows": [{"hand", "values": [str]}]} or None,
                        # the running score, one row per hand scored (games of many hands)
     "faces": {"cards": {name: {"fill", "ink"}}, "legend": {"title", "items":
               [{"code", "text", "fill", "ink"}]}} or None,
                        # coloured cards (Red7, Dois) and what their letter codes mean
     "result": {"places", "scores"} or None}

A game builds a seat's dict from ``state.view(seat)`` and public facts only (table size,
whose turn, the result once over, the events as that seat saw them), so nothing hidden from
the seat can reach it; tests/test_picture_table.py re-deals the hidden cards to check.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from .game import Game, State


def zone(
    label: str,
    *,
    cards: Iterable[str] | None = None,
    count: int | None = None,
    plays: Iterable[tuple[int, Sequence[str]]] | None = None,
    text: str | None = None,
) -> dict[str, Any]:
    """A labelled place on the table: face-up ``cards``, a face-down ``count``, ``plays``
    (who played which cards, in order) and/or a ``text``; absent parts are left out."""
    entry: dict[str, Any] = {"label": label}
    if cards is not None:
        entry["cards"] = list(cards)
    if count is not None:
        entry["count"] = count
    if plays is not None:
        entry["plays"] = [{"seat": p, "cards": list(cs)} for p, cs in plays]
    if text is not None:
        entry["text"] = text
    return entry


def seat_entry(
    p: int,
    hand: Iterable[str],
    hidden: int = 0,
    piles: Iterable[dict[str, Any]] = (),
    info: Iterable[str] = (),
    flags: Iterable[str] = (),
) -> dict[str, Any]:
    """One seat: the cards of its hand the viewer sees, how many more it holds unseen, its
    piles, short public facts (``"bid 2"``) and badges (``"dealer"``, ``"out 1st"``)."""
    return {
        "seat": p,
        "name": f"player_{p}",
        "hand": list(hand),
        "hidden": hidden,
        "piles": list(piles),
        "info": list(info),
        "flags": list(flags),
    }


def legal_moves(
    game: Game, legal: Iterable[int], cards: Callable[[int], Sequence[str]]
) -> list[dict[str, Any]]:
    """The legal moves with their names and the hand cards each puts down (``cards(a)``:
    empty for moves such as a bid or a pass), so a page can make exactly those cards
    clickable."""
    return [{"action": a, "name": game.action_name(a), "cards": list(cards(a))} for a in legal]


def visible_hands(state: State, seat: int | None) -> list[Any]:
    """Each seat's hand as ``seat`` may see it: its own only (``None`` for the others), or
    every hand in the full view (``seat`` ``None``, for replays)."""
    return [state.view(p).hand if seat is None or p == seat else None for p in range(state.n)]


def hidden_deal(event: dict[str, Any], seat: int, face_down: Sequence[str]) -> dict[str, Any]:
    """A ``deal`` event as ``seat`` saw it: its own hand; the other hands, and the card lists
    named in ``face_down`` (the undealt cards, those set aside), as ``"?"`` cards."""
    hands = [h if p == seat else ["?"] * len(h) for p, h in enumerate(event["hands"])]
    return {**event, "hands": hands, **{name: ["?"] * len(event[name]) for name in face_down}}


def public(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seen`` of a game whose every event is public as logged."""
    return event


def seen_log(
    state: State,
    seat: int | None,
    seen: Callable[[dict[str, Any], int], dict[str, Any]] = public,
    face_down: Sequence[str] = (),
) -> list[str]:
    """The logged events described as ``seat`` saw them: a deal with the other hands and the
    ``face_down`` card lists hidden (``hidden_deal``), then ``seen(event, seat)``, the game's
    redaction of anything else that seat could not see (a secret choice, a drawn card);
    ``seat`` ``None`` describes every event in full. Empty when the state keeps no log."""
    from .events import DEAL
    from .record import describe_event

    game = state.game
    events = state.log or ()
    if seat is None:
        return [describe_event(game, e) for e in events]
    return [
        describe_event(
            game, seen(hidden_deal(e, seat, face_down) if e["type"] == DEAL else e, seat)
        )
        for e in events
    ]


def score_sheet(
    state: State,
    caption: str,
    columns: Sequence[str],
    row: Callable[[dict[str, Any]], Sequence[Any]],
) -> dict[str, Any]:
    """The running score of a game of many hands: one row per ``hand_end`` event of the log
    (a public event: every seat sees each hand scored), ``row(event)`` giving one value per
    column. Empty, like ``log``, when the state keeps no log."""
    from .events import HAND_END

    rows = [
        {"hand": event["hand"] + 1, "values": [str(v) for v in row(event)]}
        for event in state.log or ()
        if event["type"] == HAND_END
    ]
    return {"caption": caption, "columns": list(columns), "rows": rows}


# The fill and ink of a card of each colour. The fills are the web table's hues (COLOURS in
# experiments/web/static/cards.js; tests/test_picture.py holds the two equal), so a card looks
# the same on the page, in the ``rgb_array`` picture and in a GIF; each ink has a contrast of
# at least 3:1 on its fill (the page's white on orange has 2.8:1, too faint for the picture's
# 11-pixel text, so orange takes the dark ink yellow has). A game names colours in words;
# the hex values are decided here once.
CARD_COLOURS: dict[str, tuple[str, str]] = {
    "red": ("#d62828", "#ffffff"),
    "orange": ("#f07b12", "#1b1b1b"),
    "yellow": ("#f4c430", "#1b1b1b"),
    "green": ("#2a9d4e", "#ffffff"),
    "blue": ("#1f6fd1", "#ffffff"),
    "indigo": ("#3b2d8f", "#ffffff"),
    "violet": ("#a34fc9", "#ffffff"),
    "black": ("#1c1c1c", "#ffffff"),
    "white": ("#fdfcf7", "#15171a"),
}


def card_faces(
    colours: Mapping[str, str],
    title: str,
    legend: Iterable[tuple[str, str, str]],
    dark: Collection[str] = (),
) -> dict[str, Any]:
    """A deck's coloured faces for ``table_dict(faces=...)``: ``colours`` maps card names to a
    colour of ``CARD_COLOURS`` (a card not named is drawn plain); the names in ``dark`` are
    drawn black with their colour as ink (Dois's trump cards); ``legend`` lists
    ``(code, words, colour)`` so a picture can say what each letter code means. A constant
    of the deck: it tells nothing about any hand."""

    def face(fill: str, ink: str) -> dict[str, str]:
        return {"fill": fill, "ink": ink}

    cards = {}
    for name, colour in colours.items():
        fill, ink = CARD_COLOURS[colour]
        cards[name] = face(CARD_COLOURS["black"][0], fill) if name in dark else face(fill, ink)
    items = [{"code": code, "text": words, **face(*CARD_COLOURS[c])} for code, words, c in legend]
    return {"cards": cards, "legend": {"title": title, "items": items}}


def legend_line(faces: dict[str, Any]) -> str:
    """The legend of ``card_faces`` as one line of text (``"colours: R red, O orange"``), for
    a game's ``render``: the terminal shows the letter codes without their colours."""
    legend = faces["legend"]
    return f"{legend['title']}: " + ", ".join(f"{i['code']} {i['text']}" for i in legend["items"])


def table_dict(
    state: State,
    viewer: int | None,
    *,
    status: str,
    seats: list[dict[str, Any]],
    zones: list[dict[str, Any]],
    moves: list[dict[str, Any]],
    seen: Callable[[dict[str, Any], int], dict[str, Any]] = public,
    face_down: Sequence[str] = (),
    scores: dict[str, Any] | None = None,
    faces: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole dict: the game's parts plus the public facts every game shares. ``moves``
    are the viewer's (none in the full view, which has no viewer); ``seen`` and
    ``face_down`` redact the log for a seat (``seen_log``); ``scores``: a ``score_sheet`` for the
    games of many hands; ``faces``: ``card_faces`` for a deck of coloured cards."""
    game = state.game
    outcome = state.outcome() if state.is_terminal else None
    result = None
    if outcome is not None:
        result = {"places": list(outcome.places), "scores": list(outcome.scores)}
    return {
        "game": game.id,
        "title": game.title,
        "variant": game.variant,
        "players": state.n,
        "seat": viewer,
        "current": None if state.is_terminal else state.current,
        "status": status,
        "seats": seats,
        "zones": zones,
        "moves": [] if viewer is None else moves,
        "log": seen_log(state, viewer, seen, face_down),
        "scores": scores,
        "faces": faces,
        "result": result,
    }


def place_name(place: int) -> str:
    """``1`` -> ``"1st"``: places in badges and status lines."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"
