"""The files of ``examples/`` load, and the README's commands that name them run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.cli.app import app
from baccarat.paytables import load_paytable
from baccarat.server.settings import load_lobby

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_the_example_paytable_and_lobby_load() -> None:
    table = load_paytable(ROOT / "examples" / "my_table.toml")
    assert table.name == "my_table" and {"tie", "super6", "player_dragon_bonus"} <= {k.value for k in table.kinds}
    lobby = load_lobby(ROOT / "examples" / "my_tables.toml")
    assert [t.id for t in lobby.tables] == ["macau-vip", "ez-1"]


def _readme_commands() -> list[list[str]]:
    """The README's ``baccarat odds`` and ``baccarat deal`` commands that name a file of ``examples/``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for line in re.findall(r"^\.venv/bin/baccarat (.*)$", text, flags=re.MULTILINE):
        words = shlex.split(line.split("#")[0])
        if words[0] in ("odds", "deal") and any(word.startswith("examples/") for word in words):
            commands.append(words)
    return commands


@pytest.mark.parametrize("args", _readme_commands(), ids=" ".join)
def test_the_readme_commands_on_the_examples_run_as_written(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("BACCARAT_CACHE_DIR", "off")
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "My table" in result.stdout


def test_the_readme_has_such_commands() -> None:
    assert len(_readme_commands()) == 2
