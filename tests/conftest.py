"""Shared pytest setup: ``slow`` tests run only when asked for with ``-m slow``; Koira's rules
tests (``test_koira_rules_*.py``) run once on each engine, the compiled core and the reference."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect ``@pytest.mark.slow`` tests unless the ``-m`` expression names ``slow``."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test of a ``test_koira_rules_*`` module runs on both Koira engines."""
    if metafunc.module.__name__.startswith("test_koira_rules_"):
        metafunc.parametrize("koira_engine", ["compiled", "python"], indirect=True)


@pytest.fixture(autouse=True)
def koira_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """The default Koira engine for a test (parametrized by ``pytest_generate_tests``)."""
    engine = getattr(request, "param", None)
    if engine is not None:
        from koira_env.games.koira import game

        name = game.engine_name
        monkeypatch.setattr(game, "engine_name", lambda choice=None: name(choice or engine))
    return engine
