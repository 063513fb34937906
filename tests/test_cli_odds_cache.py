"""The par sheets ``baccarat odds`` keeps between runs: the same figures as computed, never stale."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.cli import odds_cache
from baccarat.cli.app import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(odds_cache.CACHE_ENV, str(folder))
    return folder


def _odds(*args: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, ["odds", *args], env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--json",),
        ("--decks", "6", "--variant", "ez", "--json"),
        (
            "--variant",
            "ez",
        ),
    ],
)
def test_a_kept_par_sheet_prints_exactly_what_computing_prints(args: tuple[str, ...], _cache: Path) -> None:
    computed = _odds(*args, env={odds_cache.CACHE_ENV: "off"})
    first = _odds(*args)
    assert len(list(_cache.glob("*.json"))) == 1
    assert _odds(*args) == first == computed


def test_each_question_has_its_own_entry(_cache: Path) -> None:
    _odds("--json")
    _odds("--json", "--remove", "5S 5H K")
    _odds("--json", "--variant", "standard")
    assert len(list(_cache.glob("*.json"))) == 3


def test_a_damaged_entry_is_computed_again(_cache: Path) -> None:
    good = _odds("--json")
    (entry,) = _cache.glob("*.json")
    entry.write_text('{"key": ', encoding="utf-8")
    assert _odds("--json") == good
    entry.write_text('{"key": {"figures": "other"}, "fingerprint": "x", "value": {}}', encoding="utf-8")
    assert _odds("--json") == good


def test_another_version_of_the_code_does_not_read_old_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    odds_cache.store({"q": 1}, {"a": 1})
    assert odds_cache.load({"q": 1}) == {"a": 1}
    monkeypatch.setattr(odds_cache, "fingerprint", lambda: "changed code")
    assert odds_cache.load({"q": 1}) is None


def test_the_fingerprint_follows_the_engine_sources() -> None:
    odds_cache.fingerprint.cache_clear()
    first = odds_cache.fingerprint()
    odds_cache.fingerprint.cache_clear()
    assert odds_cache.fingerprint() == first and len(first) == 64


def test_paytable_files_and_other_formats_are_always_computed(tmp_path: Path, _cache: Path) -> None:
    path = tmp_path / "tie9.toml"
    path.write_text('name = "tie9"\n[bets.tie]\npays = 9\n', encoding="utf-8")
    _odds("--paytable", str(path), "--json")
    _odds("--csv")
    assert not _cache.exists() or not list(_cache.glob("*.json"))


def test_an_unwritable_cache_is_skipped(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    out = _odds("--json", env={odds_cache.CACHE_ENV: str(blocked / "cache")})
    assert '"total_ways": 4998398275503360' in out
