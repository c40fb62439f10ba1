"""RULES.md names, in each decision row, the methods that decide the rule; every name must
still exist, so renaming or removing one fails here until RULES.md follows.

A name is module-relative to ``koira_env.games``: ``koira.engine.State._can_risk`` is the
Python attribute ``State._can_risk`` of ``koira_env.games.koira.engine`` (import + getattr);
``koira._compiled.State._can_risk`` is compiled code, found as a ``def``/``cdef``/``cpdef``
in the Cython sources (``.pyx`` and ``.pxi``) of the game's folder, inside ``cdef class
State`` when it is class-qualified.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "koira_env" / "games"
COMPILED = "_compiled"  # the module name that marks compiled code
SECTIONS = {  # RULES.md section heading -> game id (the folder of its engines)
    "Koira and Mattis": "koira",
    "Mätäpesä": "matapesa",
    "Whist 22": "whist22",
    "Kop (also Baska)": "kop",
    "Dois": "dois",
    "Teka": "teka",
    "Red7": "red7",
}
# games whose compiled core plays by default
HAS_COMPILED = {"dois", "koira", "kop", "matapesa", "red7", "teka", "whist22"}


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def decision_rows() -> list[tuple[str, str, list[str], list[str]]]:
    """(game, row label, header, cells) of every row of a decision table: one with a ``test``
    column, or an information table without tests that names its deciders (Dois)."""
    rows = []
    game = None
    lines = (ROOT / "RULES.md").read_text().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("## "):
            game = SECTIONS.get(line[3:].strip())
        if not line.startswith("|") or lines[i - 1].startswith("|") or game is None:
            continue
        header = _cells(line)
        if "test" not in header and "decided by" not in header:
            continue
        for row in lines[i + 2 :]:
            if not row.startswith("|"):
                break
            cells = _cells(row)
            label = f"{cells[0]} ({cells[1][:40]})" if header[0] == "#" else cells[0][:40]
            rows.append((game, label, header, cells))
    return rows


ROWS = decision_rows()


def names_in(header: list[str], cells: list[str]) -> list[str]:
    return re.findall(r"`([^`]+)`", cells[header.index("decided by")])


CLASS = re.compile(r"(?:cdef\s+|cpdef\s+)?class\s+(\w+)")
DEF = re.compile(r"(?:async\s+)?(?:def|cdef|cpdef)\s+[^=]*?\b(\w+)\s*\(")
INCLUDE = re.compile(r"include\s+['\"]([^'\"]+)['\"]")


@cache
def cython_sources(game: str) -> tuple[tuple[str, str], ...]:
    """(file name, text) of the game folder's ``.pyx`` and ``.pxi`` files."""
    folder = GAMES / game
    files = sorted([*folder.glob("*.pyx"), *folder.glob("*.pxi")])
    return tuple((path.name, path.read_text()) for path in files)


def _statements(text: str):
    """(indent, enclosing class or None, stripped line) of every code line of one source."""
    classes: list[tuple[int, str]] = []  # (indent, name), innermost last
    for line in text.split("\n"):
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while classes and indent <= classes[-1][0]:
            classes.pop()
        yield indent, classes[-1][1] if classes else None, stripped
        found = CLASS.match(stripped)
        if found:
            classes.append((indent, found.group(1)))


def compiled_defined(sources: tuple[tuple[str, str], ...], qualname: str) -> bool:
    """Whether ``State.apply`` (a method) or ``known_locations`` (module level) has a
    def/cdef/cpdef in ``sources``: a method inside its class's body, or in a ``.pxi`` that the
    class's body includes (there the methods stand at the file's top level)."""
    *owner, name = qualname.split(".")
    if len(owner) > 1:
        return False
    cls = owner[0] if owner else None
    included = {  # file -> the class whose body includes it
        found.group(1): enclosing
        for _, text in sources
        for _, enclosing, line in _statements(text)
        if enclosing is not None and (found := INCLUDE.match(line))
    }
    for filename, text in sources:
        for indent, enclosing, line in _statements(text):
            found = DEF.match(line)
            if not found or found.group(1) != name or CLASS.match(line):
                continue
            if enclosing is None:
                enclosing = included.get(filename)  # a method of the class including it
            if enclosing == cls and (cls is not None or indent == 0):
                return True
    return False


def python_defined(module: str, qualname: str) -> bool:
    """Import ``koira_env.games.<module>``, then getattr along ``qualname``: a function,
    method or property."""
    try:
        obj = importlib.import_module(f"koira_env.games.{module}")
    except ImportError:
        return False
    for part in qualname.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return callable(obj) or isinstance(obj, property)


def resolve(game: str, name: str) -> str | None:
    """None if ``name`` resolves, else why not."""
    parts = name.split(".")
    if parts[0] != game:
        return f"{name}: not a name of game {game!r} (names start with the game id)"
    if len(parts) < 3:
        return f"{name}: expected <game>.<module>.<name>"
    qualname = ".".join(parts[2:])
    if parts[1] == COMPILED:
        if game not in HAS_COMPILED:
            return f"{name}: {game} has no compiled rules engine"
        if not compiled_defined(cython_sources(game), qualname):
            return f"{name}: no def/cdef/cpdef of it in {game}'s .pyx/.pxi sources"
        return None
    module = ".".join(parts[:2])
    if not (GAMES / game / f"{parts[1]}.py").exists():
        return f"{name}: no module koira_env/games/{game}/{parts[1]}.py"
    if not python_defined(module, qualname):
        return f"{name}: koira_env.games.{module} has no function or method {qualname}"
    return None


def test_rules_md_has_decision_rows_for_every_game():
    games = {game for game, *_ in ROWS}
    assert games == set(SECTIONS.values())
    assert len(ROWS) > 150


@pytest.mark.parametrize("header", sorted({tuple(h) for _, _, h, _ in ROWS}))
def test_every_decision_table_has_a_decided_by_column_before_test(header):
    assert "decided by" in header, header
    where = header.index("test") - 1 if "test" in header else len(header) - 1
    assert header.index("decided by") == where, header


def test_every_decision_row_names_what_decides_it():
    problems = []
    for game, label, header, cells in ROWS:
        if "decided by" not in header:
            problems.append(f"{game} row {label}: no 'decided by' column")
            continue
        names = names_in(header, cells)
        if not names:
            problems.append(f"{game} row {label}: names no deciding method")
        for name in names:
            why = resolve(game, name)
            if why:
                problems.append(f"{game} row {label}: stale name {why}")
        python_engine = any(name.startswith(f"{game}.engine.") for name in names)
        if game in HAS_COMPILED and python_engine and not any(f".{COMPILED}." in n for n in names):
            problems.append(f"{game} row {label}: names the Python engine but not the compiled")
    assert problems == [], "\n".join(problems)


def test_the_resolver_rejects_what_does_not_exist():
    assert resolve("koira", "koira.engine.State._can_risk") is None
    assert resolve("koira", "koira._compiled.State._can_risk") is None
    assert resolve("koira", "koira._compiled.known_locations") is None
    assert resolve("koira", "koira.engine.State._no_such_rule")
    assert resolve("koira", "koira._compiled.State._no_such_rule")
    assert resolve("koira", "koira._compiled.Engine._can_risk")  # a method of another class
    assert resolve("koira", "koira._compiled.State.bit")  # module level, not a method
    assert resolve("koira", "red7.engine.State.apply")  # another game's name
    assert resolve("kop", "kop._compiled.State.apply")  # the base class's (core/_engine.pyx)


def test_compiled_names_resolve_in_pxi_files_of_a_split_core():
    """Another layout of the same core: the class in a ``.pxi``, or its methods in a ``.pxi``
    that the class body includes."""
    whole = (("_compiled.pyx", 'include "state.pxi"\n'),)
    whole += (("state.pxi", "cdef class State:\n    cdef bint _can_risk(self) noexcept:\n"),)
    assert compiled_defined(whole, "State._can_risk")
    assert not compiled_defined(whole, "State._refill")
    body = (("_compiled.pyx", 'cdef class State:\n    include "state_one.pxi"\n'),)
    body += (("state_one.pxi", "cdef int _refill(self, int first) except -1:\n    pass\n"),)
    assert compiled_defined(body, "State._refill")
    assert not compiled_defined(body, "_refill")  # a method, not a module-level function
    assert not compiled_defined(body, "Engine._refill")
