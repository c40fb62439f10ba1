"""MkDocs hooks: the site shows README.md and RULES.md, and every link keeps working.

The Markdown files are written to be read on a repository browser, where links are relative
to the file's place in the repository (`docs/environment.md` from the README,
`../RULES.md` from a docs page). The site is built from `docs/` alone, so before a page is
converted this hook

* expands an include line, `--8<-- "PATH"` alone on a line (the pymdownx.snippets syntax,
  PATH relative to the repository root): `docs/index.md` is README.md and `docs/rules.md`
  is RULES.md;
* rewrites every relative link and image, in the page and in what it included, from its
  repository path to the page of the site that shows it: `docs/X` is `X`, README.md is
  `index.md`, RULES.md is `rules.md`.

Links to anything else are left alone, so a link to a file the site does not have still
fails the strict build.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DOCS = "docs"
SHOWN_AT = {"README.md": "index.md", "RULES.md": "rules.md"}  # repository file -> site page

_INCLUDE = re.compile(r'^--8<-- "([^"]+)"\s*$')
_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")  # [text](target) and ![alt](target)
_EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|#|/)", re.IGNORECASE)


def site_path(repo_path: str) -> str | None:
    """The site's path for a file of the repository, or None if the site does not show it."""
    if repo_path in SHOWN_AT:
        return SHOWN_AT[repo_path]
    if repo_path.startswith(DOCS + "/"):
        return repo_path[len(DOCS) + 1 :]
    return None


def rewrite_links(markdown: str, source: str, page: str) -> str:
    """Point ``markdown``'s relative links, written from repo file ``source``, at ``page``'s."""

    def fix(match: re.Match[str]) -> str:
        target = match.group(2)
        if _EXTERNAL.match(target):
            return match.group(0)
        path, hash_, anchor = target.partition("#")
        repo_path = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        mapped = site_path(repo_path)
        if mapped is None:
            return match.group(0)
        new = posixpath.relpath(mapped, posixpath.dirname(page) or ".")
        return f"{match.group(1)}{new}{hash_}{anchor}{match.group(3)}"

    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        out.append(line if fenced else _LINK.sub(fix, line))
    return "".join(out)


def expand(markdown: str, source: str, page: str) -> str:
    """``markdown`` with its include lines expanded and its links pointed at ``page``'s."""
    out, chunk = [], []
    for line in markdown.splitlines(keepends=True):
        match = _INCLUDE.match(line)
        if match is None:
            chunk.append(line)
            continue
        out.append(rewrite_links("".join(chunk), source, page))
        chunk = []
        included = match.group(1)
        text = (ROOT / included).read_text(encoding="utf-8")
        out.append(rewrite_links(text, included, page))
        if not text.endswith("\n"):
            out.append("\n")
    out.append(rewrite_links("".join(chunk), source, page))
    return "".join(out)


def on_page_markdown(markdown, page, config, files):  # MkDocs calls it by keyword
    src = page.file.src_uri
    return expand(markdown, f"{DOCS}/{src}", src)
