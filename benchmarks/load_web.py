"""The web server under load: many concurrent bot games through the HTTP API.

    python benchmarks/load_web.py [--games 50] [--rounds 3] [--opponent random]
                                  [--browsers 0] [--port 8765] [--seed 1] [--json out.json]

Starts ``koira serve`` in a process of its own, then plays ``--games`` games at once, each
from a browser session of its own (its own cookie) and cycling through every game of the
suite: a client opens a table against ``--opponent`` bots, plays a random legal move on its
turn and asks the server to step the bots otherwise, until the game is over, then fetches the
record. It does that ``--rounds`` times, so the server's memory after each round shows
whether finished games pile up. Reports requests per second, p50/p99 latency, the errors
(any status but 2xx, or a broken connection) and the server's resident memory (VmRSS).
``--browsers N`` also plays N games by clicking, in headless Chromium pages (Debian's
chromium, as the browser tests drive it) that one thread serves in turn while the clients
run, and reports their clicks and console errors.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from koira_env import games
from koira_env.registry import spec


class Client:
    """One browser session: a cookie jar, and the latency of every request it made."""

    def __init__(self, base: str) -> None:
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.latencies: list[float] = []
        self.errors: list[str] = []

    def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data)
        request.add_header("Content-Type", "application/json")
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=120) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as err:
            self.errors.append(f"{path}: {err.code} {err.read()[:200]!r}")
            return None
        except OSError as err:
            self.errors.append(f"{path}: {err}")
            return None
        finally:
            self.latencies.append(time.perf_counter() - start)
        return payload


def play(base: str, game_id: str, opponent: str, seed: int) -> Client:
    """One whole game through the API, as the page plays it."""
    client = Client(base)
    rng = random.Random(seed)
    n = spec(game_id).default_players
    body = {"game": game_id, "seat": 0, "seed": seed, "opponents": [opponent] * (n - 1)}
    payload = client.call("/api/tables", body)
    while payload is not None and payload["table"]["result"] is None:
        table_id = payload["id"]
        if payload["waiting"]:
            payload = client.call(f"/api/tables/{table_id}/step", {})
        else:
            action = rng.choice(payload["table"]["moves"])["action"]
            payload = client.call(f"/api/tables/{table_id}/move", {"action": action})
    if payload is not None:
        client.call(f"/api/tables/{payload['id']}/record")
    return client


def browse(base: str, count: int, seed: int, seconds: float = 900.0) -> dict[str, Any]:
    """``count`` games played at once by clicking random choices in headless Chromium pages,
    each against random bots in the game's one-hand form; the page's own requests join the
    load."""
    from playwright.sync_api import sync_playwright

    from koira_experiments.web.screenshots import YOUR_TURN, launch

    rng = random.Random(seed)
    errors: list[str] = []
    clicks = 0
    deadline = time.monotonic() + seconds
    ids = games()
    with sync_playwright() as playwright:
        browser = launch(playwright)
        pages = []
        for k in range(count):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(base + "/")
            page.wait_for_selector("#f-options .option")
            game_id = ids[k % len(ids)]
            page.select_option("#f-game", game_id)
            for field in page.locator("#f-opponents input").all():
                field.fill("random")
            for name, value in spec(game_id).single_hand.items():
                box = page.locator(f'[data-option="{name}"]')
                box.set_checked(value) if isinstance(value, bool) else box.fill(str(value))
            page.click("#start")
            page.wait_for_selector("#play-board .seat")
            page.select_option("#speed", "0")
            pages.append(page)
        while pages:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(pages)} browser games did not end in {seconds:.0f} s")
            for page in list(pages):
                if page.locator("#result").count():
                    pages.remove(page)
                elif page.locator(YOUR_TURN).count():
                    choices = page.locator("#play-board .choice")
                    if choices.count():
                        page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
                        choices.nth(rng.randrange(choices.count())).click()
                        clicks += 1
        browser.close()
    return {"browser_games": count, "clicks": clicks, "console_errors": errors}


def rss_kb(pid: int) -> int:
    """The resident memory of process ``pid`` in kB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def wait_for(base: str, server: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"koira serve exited with {server.returncode}")
        try:
            with urllib.request.urlopen(base + "/api/games", timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"koira serve did not answer at {base} within {seconds:.0f} s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(
    games_at_once: int, rounds: int, opponent: str, port: int, seed: int, browsers: int = 0
) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "koira_experiments.cli", "serve", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        wait_for(base, server)
        memory = [rss_kb(server.pid)]
        clients: list[Client] = []
        start = time.perf_counter()
        with ThreadPoolExecutor(1) as driver:
            clicked = driver.submit(browse, base, browsers, seed) if browsers else None
            clients += run_rounds(base, games_at_once, rounds, opponent, seed, server, memory)
            browsed = clicked.result() if clicked else {}
        wall = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = [t for c in clients for t in c.latencies]
    errors = [e for c in clients for e in c.errors]
    return {
        "games": len(clients),
        "at_once": games_at_once,
        "opponent": opponent,
        "requests": len(latencies),
        "requests_per_s": len(latencies) / wall,
        "p50_ms": 1000 * percentile(latencies, 0.50),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "errors": len(errors),
        "first_errors": errors[:5],
        "server_rss_mb": [round(kb / 1024, 1) for kb in memory],  # at start, after each round
        "wall_s": wall,
        **browsed,
    }


def run_rounds(
    base: str,
    games_at_once: int,
    rounds: int,
    opponent: str,
    seed: int,
    server: subprocess.Popen,
    memory: list[int],
) -> list[Client]:
    """``rounds`` times ``games_at_once`` API games at once; the server's memory after each."""
    ids = games()
    clients: list[Client] = []
    with ThreadPoolExecutor(games_at_once) as pool:
        for r in range(rounds):
            jobs = [
                pool.submit(play, base, ids[k % len(ids)], opponent, seed + r * 1000 + k)
                for k in range(games_at_once)
            ]
            clients += [job.result() for job in jobs]
            memory.append(rss_kb(server.pid))
            done = (r + 1) * games_at_once
            print(f"round {r + 1}/{rounds}: {done} games, server {memory[-1] / 1024:.0f} MB")
    return clients


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once")
    parser.add_argument("--rounds", type=int, default=3, help="times the games are played")
    parser.add_argument("--opponent", default="random", help="the bots' agent spec")
    parser.add_argument(
        "--browsers", type=int, default=0, help="games also played by clicking in Chromium"
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the report here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1 or args.browsers < 0:
        parser.error("--games and --rounds must be at least 1, --browsers at least 0")
    report = run(args.games, args.rounds, args.opponent, args.port, args.seed, args.browsers)
    print(
        f"{report['games']} games ({args.games} at once), {report['requests']} requests: "
        f"{report['requests_per_s']:.0f} requests/s, p50 {report['p50_ms']:.1f} ms, "
        f"p99 {report['p99_ms']:.1f} ms, {report['errors']} errors; server memory "
        f"{' -> '.join(f'{m:.0f}' for m in report['server_rss_mb'])} MB"
    )
    if args.browsers:
        shown = len(report["console_errors"])
        print(f"{args.browsers} browser games: {report['clicks']} clicks, {shown} console errors")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 1 if report["errors"] or report.get("console_errors") else 0


if __name__ == "__main__":
    sys.exit(main())
