"""The documentation site (mkdocs.yml) builds in strict mode and loads nothing from the internet.

Strict mode turns every warning into a failure: a broken link or anchor, a page missing from
the nav, a docstring the API reference cannot render. The build takes a few seconds.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PAGES = [
    "index.html",  # README.md
    "rules/index.html",  # RULES.md
    "games/index.html",
    *(
        f"games/{game}/index.html"
        for game in ("koira", "matapesa", "whist22", "kop", "dois", "teka", "red7")
    ),
    *(
        f"{page}/index.html"
        for page in (
            "environment", "bots", "solver", "tournaments", "training", "ray", "openspiel",
            "exploitability", "web",
            "findings", "benchmarks",
        )
    ),
    "api/index.html",
    *(
        f"api/{page}/index.html"
        for page in (
            "registry", "game", "options", "env", "single_agent", "record", "agent", "cards",
            "agents", "ismcts", "solver", "tournament", "training",
        )
    ),
]  # fmt: skip
_REMOTE = re.compile(r"^(https?:)?//", re.IGNORECASE)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


class _Assets(HTMLParser):
    """Every URL a page loads by itself: scripts, stylesheets, fonts, icons, images, frames."""

    def __init__(self) -> None:
        super().__init__()
        self.loaded: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and a.get("href"):  # stylesheet, preload, preconnect, icon, ...
            self.loaded.append(a["href"])
        elif tag in ("script", "img", "iframe", "source", "embed", "audio", "video"):
            self.loaded += [a[k] for k in ("src", "srcset") if a.get(k)]
        elif tag == "object" and a.get("data"):
            self.loaded.append(a["data"])
        self.styles.append(a.get("style") or "")
        self._in_style = tag == "style"

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False


def _remote_css(css: str) -> list[str]:
    urls = re.findall(r"url\(\s*['\"]?([^'\")\s]+)", css)
    urls += re.findall(r"@import\s+['\"]([^'\"]+)", css)
    return [u for u in urls if _REMOTE.match(u)]


def test_every_page_is_built(site: Path) -> None:
    missing = [page for page in PAGES if not (site / page).is_file()]
    assert not missing, f"pages not built: {missing}"
    built = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    assert sorted(PAGES) == built, "a page was added: list it in PAGES (and the README's count)"


def test_readme_and_rules_are_included_with_working_links(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Quick start" in index and "--8&lt;--" not in index
    assert 'href="games/kop/"' in index and 'href="rules/"' in index  # docs/games/kop.md, RULES.md
    rules = (site / "rules/index.html").read_text(encoding="utf-8")
    assert 'id="koira-and-mattis"' in rules and 'id="whist-22"' in rules
    kop = (site / "games/kop/index.html").read_text(encoding="utf-8")
    assert 'href="../../rules/"' in kop  # docs/games/kop.md's ../../RULES.md
    for page in ("registry", "env", "record"):  # the API reference rendered the docstrings
        assert 'class="doc doc-object' in (site / f"api/{page}/index.html").read_text("utf-8")


def test_images_are_shown(site: Path) -> None:
    shown = 0
    for page in ("findings/index.html", "training/index.html"):
        parser = _Assets()
        parser.feed((site / page).read_text(encoding="utf-8"))
        for src in parser.loaded:
            if src.endswith(".png"):
                assert (site / page).parent.joinpath(src).resolve().is_file(), (page, src)
                shown += 1
    assert shown >= 6  # four figures in findings, two training curves


def test_nothing_is_loaded_from_the_internet(site: Path) -> None:
    remote = []
    for page in site.rglob("*.html"):
        parser = _Assets()
        parser.feed(page.read_text(encoding="utf-8"))
        remote += [(page.name, url) for url in parser.loaded if _REMOTE.match(url)]
        remote += [(page.name, url) for style in parser.styles for url in _remote_css(style)]
    for css in site.rglob("*.css"):
        remote += [(css.name, url) for url in _remote_css(css.read_text(encoding="utf-8"))]
    assert not remote, f"external assets: {sorted(set(remote))[:10]}"
    assert not any("fonts.googleapis" in p.read_text("utf-8") for p in site.rglob("*.html"))
