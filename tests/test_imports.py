"""The package's import graph: its contracts, and the imports a user's first command makes.

The layering is a static check of the import graph (import-linter, the ``[tool.importlinter]``
contracts of ``pyproject.toml``, run by ``make test`` as the ``imports`` stage and here): the engine
imports nothing of the mathematics, the simulator, the server or the faces; the front doors stand on
the mathematics; the server's layers point one way; and no package has an import cycle between its
modules (the cycle that hides when a test suite happens to import ``a`` before ``b``). What the graph
cannot show, a module that fails when it is the first thing imported, is checked the way a user
meets it: the package and each entry point started in a new interpreter (and every module is
imported by the suite's doctest collection, ``--doctest-modules``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grimp
import pytest

import baccarat

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = Path(baccarat.__file__).parent
BIN = Path(sys.executable).parent

#: The engine's modules are the package's top-level modules; the packages beside them are the rest.
OTHER_PACKAGES = {"analysis", "sim", "server", "cli", "play", "paytables", "web"}


def _contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {str(c["id"]): c for c in config["contracts"]}


def test_the_engine_contract_names_every_engine_module() -> None:
    """A module added at the package's top is an engine module, and the contract must cover it."""
    on_disk = {
        f"baccarat.{path.stem}" for path in PACKAGE_DIR.glob("*.py") if path.stem not in ("__init__", "__main__")
    }
    engine = _contracts()["engine"]
    assert set(engine["source_modules"]) == on_disk  # type: ignore[arg-type]
    assert {f"baccarat.{name}" for name in ("analysis", "sim", "server", "cli", "play")} == set(
        engine["forbidden_modules"]  # type: ignore[arg-type]
    )
    packages = {p.name for p in PACKAGE_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= OTHER_PACKAGES, packages - OTHER_PACKAGES


def test_the_import_contracts_hold() -> None:
    """``lint-imports``: every contract kept (a broken one is named with the import that breaks it)."""
    done = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"Contracts: {len(_contracts())} kept, 0 broken" in done.stdout


#: The package's import graph, type-only imports (``if TYPE_CHECKING:``) left out: they run nothing.
GRAPH = grimp.build_graph("baccarat", exclude_type_checking_imports=True, cache_dir=None)


@pytest.mark.parametrize("module", sorted(GRAPH.modules))
def test_a_module_is_imported_back_by_none_of_the_modules_it_imports(module: str) -> None:
    """No import cycle through the module: whichever of its modules is imported first, each finds
    the other complete."""
    for imported in sorted(GRAPH.find_modules_directly_imported_by(module)):
        chain = GRAPH.find_shortest_chain(importer=imported, imported=module)
        assert chain is None, f"{module} imports {imported}, which imports it back: {' -> '.join(chain or ())}"


#: What a user runs first: the package, and each entry point (the console script, ``python -m
#: baccarat`` and the server's ``python -m baccarat.server``), each in a new interpreter.
ENTRY_POINTS = {
    "import baccarat": [sys.executable, "-c", "import baccarat; print(baccarat.__version__)"],
    "baccarat --help": [str(BIN / "baccarat"), "--help"],
    "python -m baccarat --help": [sys.executable, "-m", "baccarat", "--help"],
    "python -m baccarat.server --help": [sys.executable, "-m", "baccarat.server", "--help"],
}


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each entry point started at once, in a folder of its own (nothing of the checkout on its path)."""
    cwd = tmp_path_factory.mktemp("entry")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"COLUMNS": "100"}

    def start(argv: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)

    with ThreadPoolExecutor(max_workers=len(ENTRY_POINTS)) as pool:
        return dict(zip(ENTRY_POINTS, pool.map(start, ENTRY_POINTS.values()), strict=True))


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_an_entry_point_starts_in_a_fresh_interpreter(
    entry: str, started: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    """Exit 0 and something on standard output, nothing on standard error."""
    done = started[entry]
    assert done.returncode == 0, f"{entry} failed in a new interpreter:\n{done.stderr[-4000:]}"
    assert done.stdout.strip()
    assert "Traceback" not in done.stderr


def test_every_public_name_of_the_package_resolves() -> None:
    import baccarat

    for name in baccarat.__all__:
        assert getattr(baccarat, name) is not None, name
    assert set(baccarat._MODULE_OF) | {"__version__"} == set(baccarat.__all__)
