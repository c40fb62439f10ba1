"""The documentation's pictures of the web page, and the browser set-up its tests share.

``python -m koira_experiments.web.screenshots`` starts ``koira serve``'s app on a free local port
with a small tournament's records, drives Debian's headless Chromium with Playwright, and
writes docs/figures/web-lobby.png, web-table.png (Koira), web-red7.png (a palette card
picked), web-phone.png (Kop at 390x844), web-replay.png, web-hint.png (Koira, a hint asked
for) and web-analysis.png (the analysis board of the
second record at a mistake, one in Koira's exact endgame where there is one). Nothing is downloaded:
Playwright launches ``/usr/bin/chromium`` (``apt-get install chromium``), never a browser of
its own (``playwright install`` is not needed).
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path
from typing import Any

from .app import create_app
from .store import Store

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
FIGURES = Path(__file__).resolve().parents[2] / "docs" / "figures"
MAX_FIGURE = 200_000  # bytes: the docs keep their pictures small
# the table page once the bots have moved (selectors, not script: the page's CSP forbids eval)
YOUR_TURN = 'body[data-waiting="0"]'


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def live_server(records: list[Path], store: Store | None = None) -> Iterator[str]:
    """The web app on uvicorn in a thread on a free port; yields its base URL."""
    import uvicorn

    port = free_port()
    app = create_app(records, store=store)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            threading.Event().wait(0.02)
        else:
            raise RuntimeError("the web server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def launch(playwright: Any) -> Any:
    """Debian's chromium, headless, with nothing that reaches the internet."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def tournament_records(folder: Path, games: int = 2) -> Path:
    """A small Koira tournament with its first records saved, as ``koira tournament
    --save-records`` writes them; returns the tournament's folder."""
    from koira_agents.tournament import TournamentConfig, run_tournament

    out = folder / "tournament"
    config = TournamentConfig(agents=("expert", "greedy"), game="koira", deals=1, seed=3)
    run_tournament(config, out, workers=1, save_records=games)
    return out


def _save(page: Any, name: str, out: Path) -> Path:
    """A screenshot as a small PNG (a 256-colour palette keeps the docs light)."""
    from PIL import Image

    image = Image.open(BytesIO(page.screenshot(full_page=False))).convert("RGB")
    path = out / name
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
    if path.stat().st_size > MAX_FIGURE:
        raise RuntimeError(f"{path} is {path.stat().st_size} bytes, over {MAX_FIGURE}")
    return path


def take(out: Path, browser: Any = None) -> list[Path]:
    """The pictures, in ``browser`` (default: a Chromium launched for them)."""
    from playwright.sync_api import sync_playwright

    if browser is None:
        with sync_playwright() as playwright:
            chromium = launch(playwright)
            try:
                return take(out, chromium)
            finally:
                chromium.close()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        records = tournament_records(Path(tmp))
        with live_server([records]) as url:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            try:
                return _pictures(context.new_page(), url, out)
            finally:
                context.close()


def _start(page: Any, url: str, game: str, seed: int) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#f-options label")
    page.select_option("#f-game", game)
    page.fill("#f-seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#play-board .seat")
    page.select_option("#speed", "0")


def _moves(page: Any, count: int) -> None:
    """``count`` moves of the person (the first move offered each time), bots in between."""
    for _ in range(count):
        page.wait_for_selector(YOUR_TURN, state="attached")
        page.click("#play-board [data-action] >> nth=0")
        page.wait_for_timeout(300)
    page.wait_for_selector(YOUR_TURN, state="attached")
    page.wait_for_timeout(600)  # the last card's animation


def _pictures(page: Any, url: str, out: Path) -> list[Path]:
    from playwright.sync_api import expect

    page.goto(url + "/")
    page.wait_for_selector("#f-options label")
    page.fill("#f-seed", "12")
    written = [_save(page, "web-lobby.png", out)]
    page.click("#start")
    page.wait_for_selector("#play-board .seat")
    page.select_option("#speed", "0")
    _moves(page, 6)  # a few moves in: cards on the table and in the won piles
    written.append(_save(page, "web-table.png", out))
    _start(page, url, "red7", 4)  # a palette card picked: the canvas card is next
    page.wait_for_selector(YOUR_TURN, state="attached")
    page.click("#play-board .hand.mine [data-pick] >> nth=0")
    page.wait_for_selector("#play-board .picked")
    written.append(_save(page, "web-red7.png", out))
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: Kop in its fourth trick
    _start(page, url, "kop", 7)
    _moves(page, 3)
    written.append(_save(page, "web-phone.png", out))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url + "/#/replays")
    page.click("a.record >> nth=0")
    page.wait_for_selector("#replay-board .seat")
    page.fill("#r-step", "37")
    page.press("#r-step", "Enter")
    expect(page.locator("#r-slider")).to_have_value("37")
    page.wait_for_timeout(600)
    written.append(_save(page, "web-replay.png", out))
    _start(page, url, "koira", 12)  # a hint: every move valued by the analyst, the best marked
    _moves(page, 6)
    page.click("#hint-button")
    page.wait_for_selector("#play-board .valued")
    written.append(_save(page, "web-hint.png", out))
    page.goto(url + "/#/replays")  # the analysis board, at a mistake of Koira's endgame
    page.click("a.record >> nth=1")
    page.wait_for_selector("#replay-board .seat")
    page.click("#r-analyse")
    expect(page.locator("#r-analyse")).to_have_text("Analysed", timeout=120_000)
    exact = page.locator('#mistakes .mistake-link[title*="exact endgame solver"]')
    (exact if exact.count() else page.locator("#mistakes .mistake-link")).first.click()
    page.wait_for_selector("#decision .valued")
    page.wait_for_timeout(600)
    written.append(_save(page, "web-analysis.png", out))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FIGURES, help="folder (default docs/figures)")
    args = parser.parse_args(argv)
    for path in take(args.out):
        print(f"{path} ({path.stat().st_size // 1000} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
