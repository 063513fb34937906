"""The FastAPI application: REST under ``/api``, a websocket per table under ``/ws``, the browser table at ``/``.

:func:`create_app` only assembles: the routers (``baccarat.server.api.routes``), the refusal
handlers, the request limits and the static browser table. The API is documented in
``docs/api.md`` and, live, at ``/docs`` (OpenAPI).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from baccarat.server.api.actions import TableActions
from baccarat.server.api.context import AppContext
from baccarat.server.api.limits import MAX_BODY, RequestLimits
from baccarat.server.api.problems import install_handlers
from baccarat.server.api.routes import accounts, admin, lab, rounds, tables, websocket
from baccarat.server.auth import hash_password
from baccarat.server.service import Service, ServiceOptions
from baccarat.server.store import Role

__all__ = ["MAX_BODY", "create_app"]


def _lifespan(service: Service) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's life: migrate the database, set the admin's password, run the tables."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, service.prepare)
        password = service.lobby.admin_password
        if password:
            digest = await asyncio.get_running_loop().run_in_executor(None, hash_password, password)
            await service.read(
                service.store.accounts.create_user,
                name="admin",
                password_hash=digest,
                role=Role.ADMIN,
                starting_balance=0,
                replace_admin=True,
            )
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    return lifespan


def create_app(options: ServiceOptions) -> FastAPI:
    """The application for one server process (its lifespan migrates the database and runs the tables)."""
    service = Service(options)
    app = FastAPI(
        title="baccarat table service",
        version="0.1.0",
        description="Macau baccarat tables: accounts, play-money wallets on a double-entry ledger, live tables.",
        lifespan=_lifespan(service),
    )
    context = AppContext.of(service)
    app.state.service = service
    app.state.context = context
    app.state.actions = TableActions(service)
    install_handlers(app)
    app.add_middleware(RequestLimits, context=context)
    for module in (accounts, tables, rounds, admin, lab, websocket):
        app.include_router(module.router)
    web = Path(str(resources.files("baccarat").joinpath("web")))
    if web.is_dir():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
