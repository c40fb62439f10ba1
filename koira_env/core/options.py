"""Validated rule options for any game: one frozen dataclass per game, checked here.

A game's rules are a frozen dataclass whose first field is ``num_players`` and whose other
fields are its options, each with a default and, in ``field(metadata=...)``, either
``choices`` (the allowed values) or an int range (``min``/``max``); bool fields take only
``True``/``False``. ``make_options`` is the one place that turns user input into such rules,
so every game reports bad input the same way: a ``ValueError`` naming the problem and the
valid choices.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import MISSING, asdict, fields, replace
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


def option_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.name != "num_players")


def check_players(num_players: Any, players: tuple[int, int], what: str) -> None:
    if not isinstance(num_players, int) or isinstance(num_players, bool):
        raise ValueError(f"num_players must be an int, got {num_players!r}")
    lo, hi = players
    if not lo <= num_players <= hi:
        count = f"{lo}" if lo == hi else f"{lo}-{hi}"
        raise ValueError(f"{what} is played by {count} players, got num_players={num_players}")


def make_options(
    cls: type[T], num_players: int, players: tuple[int, int], what: str, **options: Any
) -> T:
    """``cls(num_players, **options)`` after checking every value (see the module docstring)."""
    check_players(num_players, players, what)
    names = option_names(cls)
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise ValueError(f"unknown option(s) {unknown} for {what}; valid options: {sorted(names)}")
    rules = replace(cls(num_players=num_players), **options)  # type: ignore[call-arg]
    for f in fields(cls):
        if f.name == "num_players":
            continue
        value = getattr(rules, f.name)
        default = f.default if f.default is not MISSING else None
        choices = f.metadata.get("choices")
        if choices is not None:
            if value not in choices or isinstance(value, bool) != isinstance(default, bool):
                raise ValueError(
                    f"option {f.name}={value!r} is not valid; choose one of {list(choices)}"
                )
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"option {f.name} must be True or False, got {value!r}")
        elif isinstance(default, int):
            lo, hi = f.metadata.get("min"), f.metadata.get("max")
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or (lo is not None and value < lo)
                or (hi is not None and value > hi)
            ):
                bounds = f" in {lo}..{hi}" if hi is not None else f" >= {lo}" if lo else ""
                raise ValueError(f"option {f.name} must be an int{bounds}, got {value!r}")
    return rules


class RuleSet:
    """The base of every game's rules dataclass: ``to_dict`` written once (records, model
    metadata, configs and the web lobby show rules as JSON-ready dicts)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]


@cache
def option_descriptions(cls: type) -> dict[str, str]:
    """Each option's description: the comment lines just above its field in the rules
    dataclass (and any comment after it on its line), joined into one line. The rules'
    source is the one place that says what an option means; the web lobby shows it."""
    described: dict[str, str] = {}
    comment: list[str] = []
    for line in inspect.getsource(cls).splitlines():
        text = line.strip()
        if text.startswith("#"):
            comment.append(text.lstrip("# "))
            continue
        field_line = re.match(r"(\w+)\s*:[^#]*(?:#\s*(.*))?$", text)
        if field_line and not text.startswith(("def ", "@")):
            name, trailing = field_line.groups()
            parts = comment + ([trailing] if trailing else [])
            if parts and name not in described:
                described[name] = " ".join(parts)
        if text and not text.startswith(")"):  # a field's continuation keeps no comment
            comment = []
    names = option_names(cls)
    return {name: described[name] for name in names if name in described}
