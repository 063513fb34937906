"""Every websocket message sent during the test session, checked against its JSON Schema.

At the start of the session a folder is named in ``BACCARAT_MESSAGE_TRACE`` and this folder put on
``PYTHONPATH``: every server process (the test process's own apps, and the servers the browser and
two-process tests start) writes each message it sends there (:mod:`tests.message_trace.sitecustomize`).
At the end the session fails if any message does not match
:data:`baccarat.server.observer.messages.SCHEMAS` (or has a ``type`` without a schema), and the
terminal summary says how many messages were checked. Under ``pytest-xdist`` the workers inherit
the folder and the main process checks.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
_STATE: dict[str, Any] = {}


def _load_trace() -> Any:
    spec = importlib.util.spec_from_file_location("baccarat_message_trace", HERE / "sitecustomize.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_configure(config: pytest.Config) -> None:
    """Name the folder (unless an outer session did: then that one checks) and trace this process."""
    trace = _load_trace()
    if not os.environ.get(trace.ENV):
        os.environ[trace.ENV] = tempfile.mkdtemp(prefix="baccarat-messages-")
        _STATE["folder"] = Path(os.environ[trace.ENV])
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(HERE) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), *[p for p in paths if p]])
    trace.install()


def check(folder: Path) -> tuple[int, list[str]]:
    """How many distinct messages were written down under ``folder``, and what is wrong with each bad one."""
    from jsonschema import Draft202012Validator

    from baccarat.server.observer.messages import SCHEMAS

    validators = {kind: Draft202012Validator(schema) for kind, schema in SCHEMAS.items()}
    texts: set[str] = set()
    for path in sorted(folder.glob("*.jsonl")):
        texts.update(line for line in path.read_text(encoding="utf-8").split("\n") if line)
    problems: list[str] = []
    for text in sorted(texts):
        message = json.loads(text)
        kind = message.get("type") if isinstance(message, dict) else None
        validator = validators.get(str(kind))
        if validator is None:
            problems.append(f"no schema for a message of type {kind!r}: {text[:300]}")
            continue
        for error in validator.iter_errors(message):
            where = "/".join(str(p) for p in error.absolute_path) or "(the message)"
            problems.append(f"{kind} at {where}: {error.message[:200]} in {text[:300]}")
    return len(texts), problems


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Check every message written down; a bad one fails the session."""
    folder = _STATE.pop("folder", None)
    if folder is None or hasattr(session.config, "workerinput"):
        return
    try:
        _STATE["checked"], _STATE["problems"] = check(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if _STATE["problems"] and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many messages were checked, and each one that did not match its schema."""
    checked, problems = _STATE.get("checked", 0), _STATE.get("problems", [])
    if not checked:
        return
    terminalreporter.write_line(
        f"websocket messages checked against their schemas: {checked}, invalid: {len(problems)}"
    )
    for problem in problems[:50]:
        terminalreporter.write_line(f"  invalid message: {problem}", red=True)
