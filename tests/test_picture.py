"""``render_mode="rgb_array"`` and ``koira replay --gif``: pictures of the table drawn from
``Game.table`` by ``koira_env.core.picture``, for every game of the registry."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import render_test
from PIL import Image

from koira_env import games, make, make_game
from koira_env.core import picture as pic
from koira_env.core.record import describe_event, game_record, save_record
from koira_env.registry import spec
from koira_experiments import cli


@pytest.mark.parametrize("game_id", games())
def test_pettingzoo_render_test_passes_in_every_mode(game_id):
    assert "rgb_array" in make(game_id).metadata["render_modes"]
    render_test(lambda render_mode=None: make(game_id, render_mode=render_mode))


@pytest.mark.parametrize("game_id", games())
def test_pictures_are_uint8_images_of_a_fixed_size_that_follow_the_game(game_id):
    n = spec(game_id).players[0]
    env = make(game_id, n, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert first.dtype == np.uint8 and first.shape == (*pic.picture_size(n), 3)
    assert np.array_equal(env.render(), first)  # the same state, the same picture
    frames = [first]
    for _ in range(6):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:  # a short game (Red7 at two) may end within six moves
            break
        env.step(env.action_space(env.agent_selection).sample(obs["action_mask"]))
        frames.append(env.render())
        assert frames[-1].shape == first.shape
    assert not np.array_equal(frames[0], frames[-1])  # some moves later the table differs
    state = env.unwrapped.state_object
    seats = [pic.picture(state, seat) for seat in range(n)]
    assert not np.array_equal(seats[0], seats[1])  # each seat sees its own hand
    assert np.array_equal(env.render(), pic.picture(state, state.current))


def test_the_painter_reads_only_the_generic_dict():
    """A game it has never heard of, with every kind of zone and pile: still a picture."""
    seat = {"hidden": 2, "info": ["bid 2"], "flags": ["dealer"]}
    table = {
        "game": "nogame", "title": "No Game", "variant": "nogame", "players": 3, "seat": 1,
        "current": 2, "status": "someone to play",
        "seats": [
            {**seat, "seat": p, "name": f"player_{p}", "hand": ["QS", "10H", "Fool"][: p + 1],
             "piles": [{"label": "won", "cards": ["2C"] * 30}, {"label": "pot", "count": 3}]}
            for p in range(3)
        ],
        "zones": [
            {"label": "trick", "plays": [{"seat": 0, "cards": ["5H", "6H"]}], "text": "1 of 3"},
            {"label": "stock", "count": 20}, {"label": "trump", "text": "hearts"},
            {"label": "canvas", "cards": ["R7"]},
        ],
        "moves": [], "log": ["a", "b", "c", "d"], "result": None,
    }  # fmt: skip
    image = pic.paint(table)
    assert image.shape == (*pic.picture_size(3), 3) and image.dtype == np.uint8
    table["seats"][1]["hand"] = ["2D"]
    assert not np.array_equal(pic.paint(table), image)


def test_pillow_is_needed_only_for_pictures_and_its_absence_is_named(monkeypatch):
    code = (
        "import sys, koira_env; env = koira_env.make('kop', render_mode='rgb_array'); "
        "env.reset(seed=1); env.step(env.unwrapped.state_object.legal_actions()[0]); "
        "print('PIL' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    pic._font.cache_clear()
    env = make("matapesa", render_mode="rgb_array")
    env.reset(seed=1)
    with pytest.raises(ImportError, match=r"koira-rl\[web\]"):
        env.render()
    pic._font.cache_clear()


def test_koira_replay_gif_writes_one_frame_per_state(tmp_path, capsys):
    state = make_game("whist22", 3).new_state(seed=2, log=True)
    rng = random.Random(2)
    for _ in range(10):  # a game in progress is a record too
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    save_record(game_record(state), path)
    frames = len(state.history) + 1
    for seat, name in ((None, "all.gif"), (1, "seat1.gif")):
        out = tmp_path / name
        args = ["replay", str(path), "--gif", str(out)] + ([] if seat is None else ["--seat", "1"])
        assert cli.main(args) == 0
        assert f"{frames} frames written" in capsys.readouterr().out
        with Image.open(out) as gif:
            assert gif.n_frames == frames and gif.size == (pic.WIDTH, pic.picture_size(3)[0])
            gif.seek(frames - 1)
            last = np.asarray(gif.convert("RGB"))
        expected = pic.picture(state, seat)
        assert np.abs(last.astype(int) - expected).mean() < 8  # GIF palettes are approximate
    assert cli.main(["replay", str(path), "--gif", str(tmp_path / "x.gif"), "--seat", "3"]) == 2
    assert "--seat must be in 0..2" in capsys.readouterr().err


def _ink_width(text: str, size: int) -> int:
    alpha = np.asarray(pic._text_tile(text, size, (255, 255, 255)))[:, :, 3]
    columns = np.flatnonzero(alpha.max(axis=0) > 60)
    return int(columns[-1] - columns[0] + 1)


@pytest.mark.parametrize("size", [10, 11, 12, 13])
@pytest.mark.parametrize("text", ["4 cards in hand", "player_1 plays 4D to the canvas"])
def test_picture_text_keeps_the_fonts_spacing_at_small_sizes(text, size):
    """The built-in font hinted at 10-12 pixels squeezed spaces ("4cardsin hand",
    "player_ 1plays"); each space must take the width the font gives it, within a pixel."""
    from PIL import ImageFont

    space = ImageFont.load_default(size=400).getlength(" ") / 400 * size
    spaces = text.count(" ")
    gained = _ink_width(text, size) - _ink_width(text.replace(" ", ""), size)
    assert abs(gained - spaces * space) <= 1, (gained, spaces * space)


def test_counted_words_agree_with_their_number():
    from koira_env.core.text import counted

    assert counted(1, "card") == "1 card" and counted(0, "card") == "0 cards"
    assert counted(3, "victory card") == "3 victory cards"


ONE_PLURAL = re.compile(r"(?<![\d.-])1 (cards|tricks|points|hands|rounds|victory cards)\b")


@pytest.mark.parametrize("game_id", games())
def test_no_text_of_any_game_says_one_with_a_plural(game_id):
    """ "1 cards left in hand", "won 1 tricks": every table text, log line and render of a
    few random games, at every seat, counts in the right number."""
    game = make_game(game_id, **spec(game_id).single_hand)
    texts: set[str] = set()
    for seed in range(3):
        state = game.new_state(seed=seed, log=True)
        rng = random.Random(seed)
        while True:
            for seat in (None, *range(game.num_players)):
                table = game.table(state, seat)
                texts.add(table["status"])
                texts.update(line for line in table["log"])
                for entry in table["seats"]:
                    texts.update(entry["info"] + entry["flags"])
                    texts.update(z.get("text", "") for z in entry["piles"])
                texts.update(z.get("text", "") for z in table["zones"])
            if state.is_terminal:
                break
            texts.add(game.render(state, state.current))
            state.apply(rng.choice(state.legal_actions()))
        texts.update(describe_event(game, event) for event in state.log)
    wrong = sorted({m.group(0) for text in texts for m in ONE_PLURAL.finditer(text)})
    assert not wrong, wrong


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def _contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (3 is the floor for large or bold text)."""

    def luminance(colour: str) -> float:
        lin = [
            (v / 255) / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4
            for v in _rgb(colour)
        ]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_card_colours_are_the_web_tables():
    """The picture's hues are those of the page (cards.js COLOURS), so a Red7 card looks the
    same in the browser, in a GIF and in a training video (the inks may differ: the next
    test wants them readable on the picture's small text)."""
    from koira_env.core.table import CARD_COLOURS

    source = (Path(cli.__file__).parent / "web" / "static" / "cards.js").read_text()
    found = re.findall(r'[A-Z]: \["(\w+)", "(#[0-9a-f]{6})", "#[0-9a-f]{3,6}"\]', source)
    assert len(found) == 7
    for word, fill in found:
        assert CARD_COLOURS[word][0] == fill, word


@pytest.mark.parametrize("game_id", games())
def test_coloured_faces_have_readable_ink_and_explain_their_codes(game_id):
    game = make_game(game_id)
    faces = game.table(game.new_state(seed=1), None)["faces"]
    if game_id in ("red7", "dois"):
        assert faces is not None
    if faces is None:
        return
    for name, face in faces["cards"].items():
        assert _contrast(face["fill"], face["ink"]) >= 3, (name, face)
    codes = " ".join(item["code"] for item in faces["legend"]["items"])
    for name in faces["cards"]:  # every letter of a coloured card's name is in the legend
        assert all(letter in codes for letter in name if letter.isalpha()), name


def _hand_card_pixels(image: np.ndarray, seat: int, count: int) -> list[tuple[int, int, int]]:
    """The colour of each hand card of ``seat`` near its bottom-left corner, below the name.
    Hands of up to 13 cards fit side by side, 3 pixels apart (``_Painter.cards``)."""
    assert count <= 13
    y = pic.HEADER + pic.ZONES + pic.ROW * seat + 8 + pic.CARD[1] - 6
    step = pic.CARD[0] + 3
    return [tuple(int(v) for v in image[y, pic.LEFT + i * step + 3]) for i in range(count)]


@pytest.mark.parametrize("game_id", ["red7", "dois"])
def test_coloured_cards_are_filled_with_their_colour_and_the_legend_is_drawn(game_id):
    game = make_game(game_id, 4)
    state = game.new_state(seed=5)
    seat = state.current
    table = game.table(state, seat)
    faces = table["faces"]
    image = pic.paint(table)
    hand = table["seats"][seat]["hand"]
    seen = _hand_card_pixels(image, seat, len(hand))
    colours = {_rgb(face["fill"]) for face in faces["cards"].values()}
    for name, pixel in zip(hand, seen, strict=True):
        if name in faces["cards"]:
            assert pixel == _rgb(faces["cards"][name]["fill"]), (name, pixel)
        else:  # Dois's number cards stay white
            assert pixel == (255, 255, 255), (name, pixel)
    assert sum(name in faces["cards"] for name in hand) >= 3
    band = image[pic.HEADER + pic.ZONES - 20 : pic.HEADER + pic.ZONES - 2]
    present = {tuple(int(v) for v in p) for p in band.reshape(-1, 3)}
    for item in faces["legend"]["items"]:  # each code on a chip of its colour
        assert _rgb(item["fill"]) in present, item
    plain = pic.paint({**table, "faces": None})  # the same table without faces: white cards
    assert all(p == (255, 255, 255) for p in _hand_card_pixels(plain, seat, len(hand)))
    plain_band = plain[pic.HEADER + pic.ZONES - 20 : pic.HEADER + pic.ZONES - 2]
    assert not colours & {tuple(int(v) for v in p) for p in plain_band.reshape(-1, 3)}


def test_a_red7_gif_keeps_the_colours(tmp_path):
    state = make_game("red7", 3).new_state(seed=4, log=True)
    rng = random.Random(4)
    for _ in range(3):
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    save_record(game_record(state), path)
    assert cli.main(["replay", str(path), "--gif", str(tmp_path / "red7.gif")]) == 0
    with Image.open(tmp_path / "red7.gif") as gif:
        gif.seek(gif.n_frames - 1)
        last = np.asarray(gif.convert("RGB"))
    table = state.game.table(state, None)
    faces = table["faces"]["cards"]
    for seat in range(3):
        hand = table["seats"][seat]["hand"]
        for name, pixel in zip(hand, _hand_card_pixels(last, seat, len(hand)), strict=True):
            # a 64-colour palette per frame: close to the card's colour, far from white
            assert np.abs(np.array(pixel) - _rgb(faces[name]["fill"])).max() <= 12, name
