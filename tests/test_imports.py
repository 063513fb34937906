"""Every module of the package imports on its own, with no other module of the package loaded.

An import cycle hides when a test suite imports modules in a lucky order: ``a`` imports ``b``
which imports ``a`` back works once ``a`` is already loaded, and fails for whoever imports ``b``
first. So each module is imported in a process of its own in which no module of the package has
been loaded. Starting a new interpreter per module costs most of a second (numpy, numba,
SQLAlchemy, FastAPI, Textual…), so one interpreter imports those third-party libraries once,
never the package, and forks a child per module: each child starts with the libraries loaded and
``baccarat`` absent from ``sys.modules``, imports its one module and exits, its status and
traceback reported back. One more module, ``baccarat`` itself, is imported by a wholly new
interpreter, the way a user's ``python -c "import baccarat"`` does.

The modules are found on disk (:func:`pkgutil.iter_modules`, package by package), not by importing
the packages, so a package that fails to import still has its modules listed and tried. Left out:

* ``__main__`` modules, which run the command line when imported (``python -m`` entry points);
* ``baccarat.server.migrations``: not a package (no ``__init__.py``); Alembic loads its scripts
  by path, and their names (``0001_initial``) are not importable names anyway.
"""

from __future__ import annotations

import json
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


#: Third-party libraries the forking interpreter loads once (those it lacks are skipped).
PRELOADED = (
    "numpy",
    "numba",
    "sqlalchemy",
    "alembic",
    "pydantic",
    "fastapi",
    "starlette",
    "uvicorn",
    "httpx",
    "rich",
    "typer",
    "textual",
    "argon2",
    "psycopg",
    "hypothesis",
)

#: The forking interpreter: loads the libraries, then for each module name read from stdin forks
#: a child that imports it; prints one JSON line per module: [module, exit status, traceback].
FORKER = r"""
import importlib, json, os, sys, traceback
for name in sys.argv[1].split(","):
    try:
        importlib.import_module(name)
    except Exception:
        pass
assert not [m for m in sys.modules if m == "baccarat" or m.startswith("baccarat.")]
for line in sys.stdin:
    module = line.strip()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        status = 0
        try:
            importlib.import_module(module)
        except BaseException:
            os.write(write, traceback.format_exc().encode())
            status = 1
        os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        error = pipe.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    print(json.dumps([module, os.waitstatus_to_exitcode(status), error]), flush=True)
"""


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


def _import_forked(modules: list[str], cwd: Path) -> dict[str, tuple[int, str]]:
    """Each module's exit status and traceback, imported by a child of the forking interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", FORKER, ",".join(PRELOADED)],
        input="\n".join(modules) + "\n",
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = {}
    for line in done.stdout.splitlines():
        module, status, error = json.loads(line)
        found[str(module)] = (int(status), str(error))
    return found


@pytest.fixture(scope="module")
def fresh_imports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str]]:
    """Each module's import on its own: ``baccarat`` in a new interpreter, the others forked, in
    two halves at once."""
    cwd = tmp_path_factory.mktemp("imports")
    rest = MODULES[1:]
    with ThreadPoolExecutor(max_workers=3) as pool:
        alone = pool.submit(_import_alone, MODULES[0], cwd)
        halves = pool.map(lambda part: _import_forked(part, cwd), [rest[0::2], rest[1::2]])
        found = {MODULES[0]: alone.result()}
        for half in halves:
            found |= half
    return found


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
    assert status == 0, f"import {module} failed on its own (no other module of the package loaded):\n{stderr}"


def test_every_public_name_of_the_package_resolves() -> None:
    import baccarat

    for name in baccarat.__all__:
        assert getattr(baccarat, name) is not None, name
    assert set(baccarat._MODULE_OF) | {"__version__"} == set(baccarat.__all__)
