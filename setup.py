"""The import names and the compiled cores: what pyproject.toml cannot say on its own.

Every module the suite installs starts with ``koira`` (``PACKAGES``): the repository's folders
keep their short names (``agents/`` is the package ``koira_agents``), so a user's own
``agents`` or ``training`` folder, or another distribution's ``agents`` package, never
shadows the suite. The compiled cores are every ``.pyx`` under koira_env (such as
koira/_compiled.pyx), built by Cython at install.

Everything else about the package is in pyproject.toml. ``pip install -e .`` builds the
extension in place; without a C compiler the build stops with a message saying what to
install (the pure-Python reference engine works without it: ``engine="python"``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

NEEDS = (
    "building the compiled Koira core (koira_env/games/koira/_compiled.pyx) needs a C "
    "compiler and the Python headers: on Debian/Ubuntu `apt install gcc python3-dev`, on "
    "Fedora `dnf install gcc python3-devel`, on macOS `xcode-select --install`, on Windows "
    "the Microsoft C++ Build Tools. Then run the install again."
)


class BuildExt(build_ext):
    """``build_ext`` that turns a missing compiler into one clear message."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # setuptools raises several distutils error types here
            raise SystemExit(f"error: {NEEDS}\n(the compiler said: {err})") from err

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as err:
            raise SystemExit(f"error: {NEEDS}\n(the compiler said: {err})") from err


# where the compiled cores' structs are declared: a pickled state records their digest
# (``core/_engine.pyx``'s ``LAYOUT``), so a state of another layout is refused
DECLARATIONS = sorted(Path("koira_env").rglob("*.pxd"))
LAYOUT = hashlib.sha256(b"".join(path.read_bytes() for path in DECLARATIONS)).hexdigest()[:16]


def extension(pyx: Path) -> Extension:
    """One compiled module per ``.pyx`` file under koira_env (the Koira core, its batched env
    and search, other games' cores): each builds the same way; the engine base, which
    pickles states, is built again whenever a declaration changes."""
    engine = pyx == Path("koira_env/core/_engine.pyx")
    return Extension(
        ".".join(pyx.with_suffix("").parts),
        [str(pyx)],
        include_dirs=[numpy.get_include()],
        define_macros=[
            ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
            *([("SUITE_LAYOUT", f'"{LAYOUT}"')] if engine else []),
        ],
        depends=[str(path) for path in DECLARATIONS] if engine else [],
    )


# import name -> the repository folder that holds it
PACKAGES = {
    "koira_env": "koira_env",
    "koira_agents": "agents",
    "koira_training": "training",
    "koira_experiments": "experiments",
}


def packages() -> list[str]:
    """Every package of ``PACKAGES`` with its subpackages, by import name."""
    found = []
    for name, folder in PACKAGES.items():
        found += [name, *(f"{name}.{sub}" for sub in find_packages(folder))]
    return found


extensions = [extension(pyx) for pyx in sorted(Path("koira_env").rglob("*.pyx"))]

setup(
    packages=packages(),
    package_dir=PACKAGES,
    ext_modules=cythonize(extensions, language_level=3),
    cmdclass={"build_ext": BuildExt},
)
