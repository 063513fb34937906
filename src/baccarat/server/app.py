"""The FastAPI application: REST under ``/api``, a websocket per table under ``/ws``, the browser table at ``/``.

:func:`create_app` only assembles: the routers (``baccarat.server.api.routes``), the refusal
handlers, the request limits and the static browser table. The API is documented in
``docs/api.md`` and, live, at ``/docs`` (OpenAPI).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from baccarat.server.api.actions import TableActions
from baccarat.server.api.context import AppContext
from baccarat.server.api.headers import SecurityHeaders
from baccarat.server.api.limits import MAX_BODY, RequestLimits
from baccarat.server.api.problems import install_handlers
from baccarat.server.api.revocations import RevocationListener, prune_sessions, refresh_sessions
from baccarat.server.api.routes import (
    accounts,
    admin,
    dealer,
    lab,
    lab_live,
    limits,
    reports,
    rounds,
    staff,
    tables,
    websocket,
)
from baccarat.server.auth import check_password, hash_password
from baccarat.server.service import Service, ServiceOptions

__all__ = ["MAX_BODY", "create_app"]

log = logging.getLogger("baccarat.server")


def _lifespan(service: Service, context: AppContext) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's life: migrate the database, make the admin account follow the configured
    password, run the tables, listen for sessions other processes end, prune ended sessions."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, service.prepare)
        await _configure_admin(service, context)
        listener = None
        if service.channel is not None:
            conninfo = service.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            listener = RevocationListener(
                conninfo=conninfo, channel=service.channel, sessions=context.sessions, loop=loop
            )
            await loop.run_in_executor(None, listener.start)
        await service.start()
        pruner = asyncio.create_task(prune_sessions(context), name="prune-sessions")
        refresher = asyncio.create_task(refresh_sessions(context), name="refresh-sessions")
        try:
            yield
        finally:
            for task in (pruner, refresher):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            await service.stop()
            if listener is not None:
                await loop.run_in_executor(None, listener.stop)

    return lifespan


async def _configure_admin(service: Service, context: AppContext) -> None:
    """The admin account follows the configured password; with none it is disabled."""
    accounts = service.store.accounts
    done = await service.write(
        accounts.configure_admin, service.lobby.admin_password, hash_=hash_password, check=check_password
    )
    if done in ("changed", "disabled"):
        admin = await service.read(accounts.password_hash_of, "admin")
        if admin is not None:
            context.sessions.revoked(None, admin[0].id)
    if done == "disabled":
        log.warning("no admin password is set: the admin account is disabled and its sessions ended")
    elif done == "changed":
        log.info("the admin password changed: the admin's sessions ended")


def create_app(options: ServiceOptions) -> FastAPI:
    """The application for one server process (its lifespan migrates the database and runs the tables)."""
    service = Service(options)
    context = AppContext.of(service)
    app = FastAPI(
        title="baccarat table service",
        version="0.1.0",
        description="Macau baccarat tables: accounts, play-money wallets on a double-entry ledger, live tables.",
        lifespan=_lifespan(service, context),
    )
    app.state.service = service
    app.state.context = context
    app.state.actions = TableActions(service)
    install_handlers(app)
    app.add_middleware(RequestLimits, context=context)
    app.add_middleware(SecurityHeaders)
    for module in (accounts, tables, rounds, admin, reports, staff, dealer, limits, lab, lab_live, websocket):
        app.include_router(module.router)
    web = Path(str(resources.files("baccarat").joinpath("web")))
    if web.is_dir():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
