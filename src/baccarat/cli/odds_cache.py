"""Par sheets kept between runs of ``baccarat odds``, so that a repeated question needs no kernel.

Computing a par sheet takes milliseconds; loading the machinery that computes it (numpy, numba and
the compiled kernels) takes most of a second. The figures of a builtin variant depend only on the
shoe, the variant and the package's own code, so ``baccarat odds`` keeps each par sheet it computes
as JSON, under a key made of the question and a fingerprint of the package (its version, and the
name, size and modification time of every module and paytable the figures come from): any change to
that code gives a new fingerprint, and the old entries are never read again.

The cache lives in ``$BACCARAT_CACHE_DIR`` if set (``off`` turns it off), else ``$XDG_CACHE_HOME/baccarat``
or ``~/.cache/baccarat`` (``%LOCALAPPDATA%\\baccarat`` on Windows). A cache that cannot be read or written
is skipped: the figures are computed as if it were not there.

>>> import tempfile, os
>>> os.environ[CACHE_ENV] = tempfile.mkdtemp()
>>> store({"decks": 8}, {"total_ways": 1})
>>> load({"decks": 8}), load({"decks": 6})
({'total_ways': 1}, None)
>>> del os.environ[CACHE_ENV]
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import baccarat

__all__ = ["CACHE_ENV", "cache_dir", "fingerprint", "load", "store"]

#: The environment variable that moves (or, set to ``off``, turns off) the cache.
CACHE_ENV = "BACCARAT_CACHE_DIR"

_PACKAGE = Path(baccarat.__file__).parent
#: The parts of the package the figures come from: the engine's modules, the analysis, the paytables.
_SOURCES = (".", "analysis", "paytables")


def cache_dir() -> Path | None:
    """Where the par sheets are kept, or ``None`` when the cache is off."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return None if chosen.casefold() == "off" else Path(chosen)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "baccarat" / "odds"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "baccarat" / "odds"


@functools.cache
def fingerprint() -> str:
    """A digest of the package version and of every source file the figures come from."""
    digest = hashlib.sha256(f"{baccarat.__version__}|{sys.version_info[:2]}".encode())
    for folder in _SOURCES:
        try:
            entries = sorted(os.scandir(_PACKAGE / folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith((".py", ".toml")) and entry.is_file():
                info = entry.stat()
                digest.update(f"{folder}/{entry.name}:{info.st_size}:{info.st_mtime_ns};".encode())
    return digest.hexdigest()


def _path(key: dict[str, Any]) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    name = hashlib.sha256((json.dumps(key, sort_keys=True) + fingerprint()).encode()).hexdigest()[:32]
    return folder / f"{name}.json"


def load(key: dict[str, Any]) -> Any | None:
    """The value stored under ``key`` by this very code, or ``None``."""
    path = _path(key)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key or data.get("fingerprint") != fingerprint():
        return None
    return data.get("value")


def store(key: dict[str, Any], value: Any) -> None:
    """Keep ``value`` under ``key`` (whole or not at all; a cache that cannot be written is skipped)."""
    path = _path(key)
    if path is None:
        return
    text = json.dumps({"key": key, "fingerprint": fingerprint(), "value": value}, ensure_ascii=False)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
