"""Writes down every websocket message a server process sends: each text that
``baccarat.server.observer.messages.encode`` returns, one a line, in ``<pid>.jsonl`` under the
folder named by ``BACCARAT_MESSAGE_TRACE`` (nothing at all when that is not set).

The test session puts this folder on ``PYTHONPATH``, so that this module is the ``sitecustomize``
of every server process the tests start, and installs it in its own process too
(:mod:`tests.message_trace.plugin`); at the end it checks every message against its schema. Nothing
is imported ahead of time: ``encode`` is wrapped when the messages module is first imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

ENV = "BACCARAT_MESSAGE_TRACE"
MODULE = "baccarat.server.observer.messages"


def wrap(module: ModuleType) -> None:
    """Make ``module.encode`` write down each text it returns (once per module)."""
    folder = os.environ.get(ENV)
    real: Callable[[Any], str] = module.encode
    if not folder or getattr(real, "traced", False):
        return
    fd = os.open(os.path.join(folder, f"{os.getpid()}.jsonl"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def encode(message: Any) -> str:
        text = real(message)
        os.write(fd, (text + "\n").encode("utf-8"))  # one write: lines of several threads never mix
        return text

    encode.traced = True  # type: ignore[attr-defined]
    encode.__doc__ = real.__doc__
    setattr(module, "encode", encode)  # noqa: B010  (the module is typed as any module)


class _Loader(importlib.abc.Loader):
    """The module's own loader, and :func:`wrap` once the module has run."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        created: ModuleType | None = self.inner.create_module(spec)
        return created

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        wrap(module)

    def __getattr__(self, name: str) -> Any:  # get_source, get_filename, … (doctests read the source)
        return getattr(self.inner, name)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the messages module as usual, with :class:`_Loader` around its loader."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Trace this process's messages (when ``BACCARAT_MESSAGE_TRACE`` names a folder)."""
    if not os.environ.get(ENV):
        return
    if MODULE in sys.modules:
        wrap(sys.modules[MODULE])
    elif not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


install()
