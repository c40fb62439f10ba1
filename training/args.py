"""The command line of ``koira train``'s trainers: flags generated from an arguments dataclass.

Each trainer (``koira_training.train``'s MaskablePPO, ``koira_training.distill`` and the league
that extends it, ``koira_training.pfsp``) describes its
arguments as a dataclass whose fields carry their help as docstrings; ``dataclass_flags`` turns
it into flags, so both trainers parse their command lines the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
from typing import Any


def dataclass_flags(cls: Any, argv: list[str] | None, prog: str, description: str) -> Any:
    """An instance of the arguments dataclass ``cls`` from command-line flags, one per field
    (its docstring is the help), as every trainer of ``koira train`` takes them."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    docs = _field_docs(cls)
    # the fields' own defaults, not an instance's: ``__post_init__`` may fill an empty one
    # from the game (a run folder, a field of bots), and that must follow --game
    defaults = {f.name: _default(f) for f in dataclasses.fields(cls)}
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        default = defaults[f.name]
        help_text = f"{docs.get(f.name, '')} (default: {default})"
        if isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default)
        elif isinstance(default, tuple):
            parser.add_argument(
                flag, nargs="+", type=_item_type(f), default=default, help=help_text
            )
        elif isinstance(default, dict):
            parser.add_argument(flag, type=json.loads, default=default, help=help_text)
        else:
            parser.add_argument(flag, type=type(default), default=default, help=help_text)
    ns = parser.parse_args(argv)
    values = {f.name: getattr(ns, f.name) for f in dataclasses.fields(cls)}
    for name, value in values.items():
        if isinstance(defaults[name], tuple):
            values[name] = tuple(value)
    return cls(**values)


def _default(f: dataclasses.Field) -> Any:
    return f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[misc]


def _item_type(f: dataclasses.Field) -> type:
    """The type of one item of a tuple field, from its annotation (``tuple[float, ...]``)."""
    annotation = str(f.type)
    for kind in (float, int):
        if f"[{kind.__name__}" in annotation:
            return kind
    return str


def _field_docs(cls: Any) -> dict[str, str]:
    """Field name -> the docstring under it, read from the source of the dataclass and of the
    dataclasses it extends (the league's arguments extend distillation's)."""
    import ast
    import inspect

    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass):
            continue
        body = ast.parse(inspect.getsource(klass)).body[0].body  # type: ignore[attr-defined]
        for node, nxt in itertools.pairwise(body):
            if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr):
                docs[node.target.id] = nxt.value.value  # type: ignore[union-attr]
    return docs
