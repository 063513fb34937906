"""Every module of the package imports on its own, in a fresh interpreter.

An import cycle hides when a test suite imports modules in a lucky order: ``a`` imports ``b``
which imports ``a`` back works once ``a`` is already loaded, and fails for whoever imports ``b``
first. So each module is imported by ``python -c "import <module>"`` in a new interpreter of its
own (nothing loaded before it but the standard start-up), several such interpreters running at
once so that the whole package takes seconds, not minutes.

The modules are found on disk (:func:`pkgutil.iter_modules`, package by package), not by importing
the packages, so a package that fails to import still has its modules listed and tried. Left out:

* ``__main__`` modules, which run the command line when imported (``python -m`` entry points);
* ``baccarat.server.migrations``: not a package (no ``__init__.py``); Alembic loads its scripts
  by path, and their names (``0001_initial``) are not importable names anyway.
"""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import baccarat

PACKAGE_DIR = Path(baccarat.__file__).parent
TIMEOUT_S = 120


def _modules(path: Path, prefix: str) -> Iterator[str]:
    """The importable modules below ``path`` (a package directory), depth first, without importing any."""
    for info in pkgutil.iter_modules([str(path)], prefix):
        leaf = info.name.rpartition(".")[2]
        if leaf == "__main__":
            continue
        yield info.name
        if info.ispkg:
            yield from _modules(path / leaf, info.name + ".")


MODULES = ["baccarat", *_modules(PACKAGE_DIR, "baccarat.")]


def _import_alone(module: str, cwd: Path) -> tuple[int, str]:
    """The exit status and stderr of importing ``module`` in a new interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    return done.returncode, done.stderr


@pytest.fixture(scope="module")
def fresh_imports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str]]:
    """Each module's fresh import, all run once, a few interpreters at a time."""
    cwd = tmp_path_factory.mktemp("imports")
    workers = max(2, min(8, os.cpu_count() or 2))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = pool.map(lambda module: _import_alone(module, cwd), MODULES)
        return dict(zip(MODULES, results, strict=True))


def test_the_walk_finds_the_package() -> None:
    """The walk reaches nested packages and leaves out what runs on import."""
    assert {"baccarat.cards", "baccarat.server.service", "baccarat.analysis._kernel", "baccarat.cli.app"} <= set(
        MODULES
    )
    assert not [m for m in MODULES if m.endswith("__main__") or ".migrations" in m]
    assert len(MODULES) == len(set(MODULES))


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_module_imports_in_a_fresh_interpreter(module: str, fresh_imports: dict[str, tuple[int, str]]) -> None:
    """``python -c "import <module>"`` succeeds with nothing imported before it."""
    status, stderr = fresh_imports[module]
    assert status == 0, f"import {module} failed in a fresh interpreter:\n{stderr}"


def test_every_public_name_of_the_package_resolves() -> None:
    import baccarat

    for name in baccarat.__all__:
        assert getattr(baccarat, name) is not None, name
    assert set(baccarat._MODULE_OF) | {"__version__"} == set(baccarat.__all__)
