"""``render_mode="rgb_array"`` and ``koira replay --gif``: pictures of the table drawn from
``Game.table`` by ``koira_env.core.picture``, for every game of the registry."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import render_test
from PIL import Image

from experiments import cli
from koira_env import games, make, make_game
from koira_env.core import picture as pic
from koira_env.core.record import describe_event, game_record, save_record
from koira_env.registry import spec


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
    from koira_env.core.table import counted

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
