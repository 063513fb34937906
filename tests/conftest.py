"""Settings for the whole suite: Hypothesis checks properties, not speed (timings belong to
``benchmarks/``), so no example fails for taking long on a busy machine; and every websocket
message a server sends during the session is checked against its schema (:mod:`tests.message_trace`)."""

from __future__ import annotations

from hypothesis import settings
from tests.message_trace.plugin import pytest_configure, pytest_sessionfinish, pytest_terminal_summary

__all__ = ["pytest_configure", "pytest_sessionfinish", "pytest_terminal_summary"]

settings.register_profile("baccarat", deadline=None)
settings.load_profile("baccarat")
