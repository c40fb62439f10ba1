"""A picture of the table: ``Game.table`` drawn to an HxWx3 uint8 array with Pillow.

The env's ``render_mode="rgb_array"`` (PettingZoo's convention: training logs these as
videos) and ``koira replay --gif`` use it. It reads only the generic structure of the table
dict (``koira_env.core.table``), never a game id, so every game of the registry draws with
no code of its own. Pillow is imported only here, on first use: the core env needs only
numpy, gymnasium and pettingzoo; ``pip install "koira-rl[web]"`` adds it.

The size depends only on the number of seats, so every frame of a game has the same shape
(video writers need that): 960 pixels wide, one row per seat.

Coloured cards (Red7's, Dois's suits) are filled with the colour the table's ``faces`` gives
them (``core.table.card_faces``: the game declares it, the painter only reads it), and the
legend of their letter codes runs along the bottom of the shared zones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .game import State

WIDTH = 960
HEADER = 44
ZONES = 104
ROW = 76
FOOTER = 52
LEFT = 190  # the seat panel: name, flags, facts
CARD = (30, 42)  # a hand card
MINI = (24, 32)  # a card on a pile or in a zone
FELT = (31, 97, 62)
PANEL = (24, 74, 48)
ACTING = (214, 170, 52)
VIEWER = (150, 200, 255)
TEXT = (236, 240, 236)
DIM = (170, 196, 178)
BACK = (52, 84, 156)
SUPERSAMPLE = 4  # text is drawn this many times larger, then scaled down (``_text_tile``)
RED_CARD = re.compile(r"^(?:[2-9TJQKA]|10)[DH]$")  # hearts and diamonds of a 52-card deck


def picture_size(players: int) -> tuple[int, int]:
    """(height, width) of the picture of a table of ``players`` seats."""
    return HEADER + ZONES + ROW * players + FOOTER, WIDTH


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:  # pragma: no cover - the message is the point
        raise ImportError(
            'pictures of the table (render_mode="rgb_array", --gif) need Pillow: '
            'pip install "koira-rl[web]"'
        ) from None
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=4)
def _font(size: int) -> Any:
    """Pillow's built-in font: nothing to download or find on the system."""
    return _pillow()[2].load_default(size=size)


@lru_cache(maxsize=512)
def _card_tile(name: str | None, size: tuple[int, int], face: tuple[str, str] | None = None) -> Any:
    """A card drawn once and pasted wherever it lies (text is the slow part of a picture);
    ``face``: the (fill, ink) of a coloured card."""
    image_cls, draw_cls, _ = _pillow()
    w, h = size
    tile = image_cls.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    draw = draw_cls.Draw(tile)
    if name is None:
        draw.rounded_rectangle((0, 0, w, h), 3, fill=BACK, outline=TEXT)
        return tile
    font = _font(11 if len(name) <= 3 else 9)
    if face is None:
        draw.rounded_rectangle((0, 0, w, h), 3, fill="white", outline=(60, 60, 60))
        color = (190, 20, 30) if RED_CARD.match(name) else (15, 15, 15)
        draw.text((3, 3), name[:5], font=font, fill=color)
        return tile
    fill, ink = face
    draw.rounded_rectangle((0, 0, w, h), 3, fill=fill, outline=(34, 34, 34))
    for dx in (0, 1):  # drawn twice, a pixel apart: bold enough to read on any colour
        draw.text((3 + dx, 3), name[:5], font=font, fill=ink)
    return tile


@lru_cache(maxsize=2048)
def _text_tile(text: str, size: int, fill: Any) -> Any:
    """A line of text rendered once: seat names, labels and card counts recur every frame.

    Drawn at ``SUPERSAMPLE`` times the size and scaled down: at 10-11 pixels the built-in
    font's hinting squeezes a space to 2 pixels and moves glyphs ("4cardsin hand",
    "player_ 1plays"); the large drawing keeps the font's own spacing."""
    image_cls, draw_cls, _ = _pillow()
    font = _font(size * SUPERSAMPLE)
    width = max(1, -(-int(font.getlength(text)) // SUPERSAMPLE) + 1)
    height = size + size // 2
    big = image_cls.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    draw_cls.Draw(big).text((0, 0), text, font=font, fill=fill)
    return big.resize((width, height), image_cls.Resampling.LANCZOS)


class _Painter:
    def __init__(self, table: dict[str, Any]) -> None:
        image_cls, draw_cls, _ = _pillow()
        self.table = table
        height, width = picture_size(table["players"])
        self.image = image_cls.new("RGB", (width, height), FELT)
        self.draw = draw_cls.Draw(self.image)
        faces = table.get("faces") or {}
        self.faces = {
            name: (face["fill"], face["ink"]) for name, face in faces.get("cards", {}).items()
        }
        self.legend = faces.get("legend")

    def text(self, xy: tuple[int, int], text: str, size: int = 12, fill: Any = TEXT) -> int:
        """Draw ``text``; returns its width."""
        if not text:
            return 0
        tile = _text_tile(text, size, fill)
        self.image.paste(tile, xy, tile)
        return tile.width

    def card(self, x: int, y: int, name: str | None, size: tuple[int, int]) -> None:
        """A face-up card (``name``) or a face-down one (``None``)."""
        tile = _card_tile(name, size, None if name is None else self.faces.get(name))
        self.image.paste(tile, (x, y), tile)

    def cards(
        self, x: int, y: int, names: Sequence[str | None], room: int, size: tuple[int, int]
    ) -> int:
        """A row of cards overlapping as needed to fit ``room`` pixels; returns the width."""
        if not names:
            return 0
        w = size[0]
        step = min(w + 3, max(6, (room - w) // max(1, len(names) - 1)))
        for i, name in enumerate(names):
            self.card(x + i * step, y, name, size)
        return step * (len(names) - 1) + w

    def zone(self, x: int, y: int, zone: dict[str, Any], room: int) -> int:
        """A labelled zone (or pile) at (x, y); returns the width used."""
        used = self.text((x, y), zone["label"], 11, DIM)
        top = y + 15
        cx = x
        for play in zone.get("plays", []):
            width = self.cards(cx, top, play["cards"], max(MINI[0], room // 3), MINI)
            self.text((cx, top + MINI[1] + 2), f"p{play['seat']}", 10, DIM)
            cx += max(width, MINI[0]) + 6
        if zone.get("cards"):
            cx += self.cards(cx, top, zone["cards"], max(MINI[0], x + room - cx), MINI) + 6
        if "count" in zone and "cards" not in zone:
            if zone["count"]:
                self.card(cx, top, None, MINI)
            cx += MINI[0] + 4 + self.text((cx + MINI[0] + 4, top + 10), str(zone["count"]))
        if zone.get("text"):
            text_y = top + MINI[1] + 2 if cx > x else top
            cx = max(cx, x + self.text((x, text_y), zone["text"], 11))
        return max(used, cx - x)

    def key(self) -> None:
        """The legend of the letter codes, along the bottom of the zones' band (free there:
        a zone's cards and captions end above it): each code on a chip of its colour."""
        if not self.legend:
            return
        y = HEADER + ZONES - 20
        x = 12 + self.text((12, y + 2), f"{self.legend['title']}:", 11, DIM) + 8
        for item in self.legend["items"]:
            chip = _text_tile(item["code"], 11, item["ink"])
            width = chip.width + 8
            if x + width > WIDTH - 12:
                break
            self.draw.rounded_rectangle(
                (x, y, x + width, y + 17), 3, fill=item["fill"], outline=(34, 34, 34)
            )
            self.image.paste(chip, (x + 4, y + 2), chip)
            x += width + 4
            x += self.text((x, y + 2), item["text"], 11) + 12

    def header(self) -> None:
        t = self.table
        title = t["title"] if t["variant"] == t["game"] else f"{t['title']} ({t['variant']})"
        whose = "full view" if t["seat"] is None else f"seen by player_{t['seat']}"
        self.text((12, 6), f"{title}, {t['players']} players - {whose}", 15)
        self.text((12, 26), t["status"], 12, DIM)

    def zones(self) -> None:
        x, y = 12, HEADER
        for entry in self.table["zones"]:
            if x > WIDTH - 80:
                break
            x += self.zone(x, y, entry, WIDTH - 12 - x) + 22

    def seat(self, entry: dict[str, Any], y: int) -> None:
        t = self.table
        p = entry["seat"]
        fill = PANEL
        self.draw.rectangle((6, y, WIDTH - 6, y + ROW - 6), fill=fill)
        if p == t["current"]:
            self.draw.rectangle((6, y, 11, y + ROW - 6), fill=ACTING)
        name = entry["name"] + (" (you)" if p == t["seat"] else "")
        self.text((18, y + 4), name, 13, VIEWER if p == t["seat"] else TEXT)
        self.text((18, y + 22), ", ".join(entry["flags"]), 11, ACTING)
        self.text((18, y + 38), ", ".join(entry["info"]), 11, DIM)
        piles = [pile for pile in entry["piles"] if pile.get("cards") or pile.get("count")]
        pile_room = 0 if not piles else 260
        faces: list[str | None] = [*entry["hand"], *([None] * entry["hidden"])]
        room = WIDTH - 12 - LEFT - pile_room - 12
        self.cards(LEFT, y + 8, faces, room, CARD)
        x = WIDTH - 6 - pile_room
        for pile in piles:
            x += self.zone(x, y + 4, pile, WIDTH - 12 - x) + 12

    def footer(self, y: int) -> None:
        for i, line in enumerate(self.table["log"][-3:]):
            self.text((12, y + 4 + 15 * i), line[:150], 11, DIM)

    def paint(self) -> np.ndarray:
        self.header()
        self.zones()
        self.key()
        y = HEADER + ZONES
        for entry in self.table["seats"]:
            self.seat(entry, y)
            y += ROW
        self.footer(y)
        return np.asarray(self.image, dtype=np.uint8)


def paint(table: dict[str, Any]) -> np.ndarray:
    """The table dict drawn as an HxWx3 uint8 array (``picture_size(table["players"])``)."""
    return _Painter(table).paint()


def picture(state: State, seat: int | None) -> np.ndarray:
    """The table of ``state`` as ``seat`` sees it (``None``: everything), as an image array."""
    return paint(state.game.table(state, seat))


def save_gif(frames: Iterable[np.ndarray], path: str | Path, ms_per_frame: int = 700) -> int:
    """Write image arrays as an animated GIF (looping, the last frame held 3x); returns the
    number of frames."""
    image_cls = _pillow()[0]
    # a 64-colour palette per frame: the pictures are flat colours and text, and the fast
    # octree quantizer is 3x quicker than Pillow's default with half the file size
    fast = image_cls.Quantize.FASTOCTREE
    images = [image_cls.fromarray(frame).quantize(64, method=fast) for frame in frames]
    if not images:
        raise ValueError("no frames to write")
    durations = [ms_per_frame] * len(images)
    durations[-1] *= 3
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)
    return len(images)
