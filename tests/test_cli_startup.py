"""Start-up of the command line: each command loads only what it uses, and the package imports cleanly.

Timings are the business of ``benchmarks/bench_cli.py``; these tests check what makes them: which
libraries a command imports, in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from baccarat.cli import odds_cache
from baccarat.cli.app import COMMANDS, app
from baccarat.cli.params import lighten

runner = CliRunner()
HEAVY = (
    "numpy",
    "numba",
    "rich",
    "pydantic",
    "textual",
    "fastapi",
    "sqlalchemy",
    "baccarat.server",
    "baccarat.analysis",
)


def _loaded_by(args: list[str], env: dict[str, str]) -> tuple[set[str], str]:
    """The heavy modules a fresh ``baccarat ARGS`` imports, and its stdout."""
    script = (
        "import sys\n"
        f"sys.argv = ['baccarat', *{args!r}]\n"
        "from baccarat.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
        f"heavy = sorted(m for m in sys.modules if m.startswith({HEAVY!r}))\n"
        "print('\\nLOADED', ' '.join(heavy))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env={**os.environ, **env}, check=True
    )
    out, _, loaded = done.stdout.rpartition("\nLOADED")
    return {name.split(".")[0] if not name.startswith("baccarat") else name for name in loaded.split()}, out


@pytest.mark.parametrize(
    "args",
    [["--help"], ["--version"], ["deal", "--cards", "AS 2H 3D KC 4S 8D"], ["deal", "--cards", "9S 8H KD 5C", "--json"]],
)
def test_help_and_deal_load_no_heavy_library(args: list[str], tmp_path: Path) -> None:
    loaded, out = _loaded_by(args, {odds_cache.CACHE_ENV: str(tmp_path)})
    assert loaded == set()
    assert out.strip()


def test_a_repeated_odds_question_loads_neither_numpy_nor_the_kernels(tmp_path: Path) -> None:
    env = {odds_cache.CACHE_ENV: str(tmp_path)}
    first, computed = _loaded_by(["odds", "--decks", "6", "--json"], env)
    assert {"numpy", "numba"} <= first
    again, cached = _loaded_by(["odds", "--decks", "6", "--json"], env)
    assert again == set()
    assert cached == computed and json.loads(cached)["decks"] == 6


@pytest.mark.parametrize("module", ["baccarat.play.plain", "baccarat.play.app", "baccarat.cli.play_cmd"])
def test_the_game_modules_import_in_a_fresh_interpreter(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_every_command_reads_its_values_without_pydantic() -> None:
    group = typer.main.get_command(app)
    for entry in COMMANDS:
        command = group.get_command(typer.Context(group), entry.name)  # type: ignore[attr-defined]
        assert command is not None, entry.name
        assert lighten(command) == [], entry.name


def test_the_listing_summarises_each_command_by_its_own_help() -> None:
    group = typer.main.get_command(app)
    for entry in COMMANDS:
        command = group.get_command(typer.Context(group), entry.name)  # type: ignore[attr-defined]
        first = " ".join((command.help or "").split("\n\n")[0].split())
        assert first == entry.summary, entry.name
        assert command.rich_help_panel == entry.panel


def test_root_help_groups_every_command_and_takes_h() -> None:
    result = runner.invoke(app, ["-h"])
    assert result.exit_code == 0
    for entry in COMMANDS:
        assert f"│ {entry.name} " in result.stdout
    for panel in ("Play and serve", "Cards, coups and scoreboards", "Mathematics", "Options"):
        assert panel in result.stdout
    assert "--version" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 100


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"baccarat {baccarat_version()}"


def baccarat_version() -> str:
    import baccarat

    return baccarat.__version__


def test_flags_show_no_type_in_the_help() -> None:
    result = runner.invoke(app, ["deal", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "<bool>" not in result.stdout
    assert "--json" in result.stdout and "--help" in result.stdout
