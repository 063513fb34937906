"""What the security tests share: an app started with chosen security settings, and a time for
its limits and session cache that only the test moves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import start_app, write_tables

from baccarat.server.api.context import AppContext
from baccarat.server.policy import Policy
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby


class Ticks:
    """A monotonic time that stands still until :meth:`advance`."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def context_of(client: TestClient) -> AppContext:
    """The context of an app."""
    context = client.app.state.context  # type: ignore[attr-defined]
    assert isinstance(context, AppContext)
    return context


def start(
    tmp_path: Path,
    db: str,
    *,
    policy: Policy | None = None,
    lobby: dict[str, Any] | None = None,
    ticks: Ticks | None = None,
    name: str = "tables.toml",
    **options: Any,
) -> TestClient:
    """An app on ``db`` with the fast test lobby, these security settings and lobby fields; its
    limits and session cache count in ``ticks`` when given."""
    loaded = load_lobby(write_tables(tmp_path / name))
    loaded = replace(loaded, policy=policy or Policy(), **(lobby or {}))
    client = start_app(ServiceOptions(db_url=db, lobby=loaded, **options))
    if ticks is not None:
        context_of(client).now = ticks
    return client
