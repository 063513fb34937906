"""The dependencies the routes share: the application's context and service, the current user,
the admin, a table of the lobby, and the ids in paths.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from baccarat.server.api.actions import TableActions
from baccarat.server.api.context import AppContext
from baccarat.server.api.problems import Refusal
from baccarat.server.service import Service
from baccarat.server.settings import TableSpec
from baccarat.server.store import Role, User

__all__ = [
    "ActionsDep",
    "AdminUser",
    "ClientAddress",
    "ContextDep",
    "CurrentUser",
    "HouseUser",
    "RoundId",
    "ServiceDep",
    "TableDep",
    "TableId",
    "Token",
    "bearer",
]


def get_context(connection: HTTPConnection) -> AppContext:
    """The application's context (made by ``create_app``)."""
    context: AppContext = connection.app.state.context
    return context


def get_service(connection: HTTPConnection) -> Service:
    """The application's service."""
    service: Service = connection.app.state.context.service
    return service


def get_actions(connection: HTTPConnection) -> TableActions:
    """The application's path for table actions."""
    actions: TableActions = connection.app.state.actions
    return actions


ContextDep = Annotated[AppContext, Depends(get_context)]
ServiceDep = Annotated[Service, Depends(get_service)]
ActionsDep = Annotated[TableActions, Depends(get_actions)]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def get_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The session token the request carries, if any."""
    return bearer(authorization)


Token = Annotated[str | None, Depends(get_token)]


async def get_user(context: ContextDep, token: Token) -> User:
    """The logged-in user, or 401."""
    if not token:
        raise Refusal(401, "auth.required", "log in first: send Authorization: Bearer <token>")
    user = await context.sessions.user(token)
    if user is None:
        raise Refusal(401, "auth.invalid", "invalid or expired session: log in again")
    return user


CurrentUser = Annotated[User, Depends(get_user)]


async def get_admin(user: CurrentUser) -> User:
    """The logged-in admin, or 403."""
    if user.role is not Role.ADMIN:
        raise Refusal(403, "auth.forbidden", "this action needs the admin role", params={"role": "admin"})
    return user


AdminUser = Annotated[User, Depends(get_admin)]


def get_address(connection: HTTPConnection) -> str:
    """The client's address (the peer of the connection)."""
    return connection.client.host if connection.client else "?"


ClientAddress = Annotated[str, Depends(get_address)]

TableId = Annotated[str, PathParam(max_length=40)]
RoundId = Annotated[int, PathParam(ge=1, le=2**31)]


async def get_table(context: ContextDep, table_id: TableId) -> TableSpec:
    """A table of the lobby (with the house's changes to its settings), or 404."""
    await context.service.refresh_settings()
    spec = context.service.lobby.table(table_id)
    if spec is None:
        raise Refusal(404, "table.not_found", f"no table {table_id!r}", params={"table": table_id})
    return spec


TableDep = Annotated[TableSpec, Depends(get_table)]


async def get_house(user: CurrentUser, spec: TableDep, context: ContextDep) -> User:
    """The admin, or a dealer assigned to the table of the path; 403 for anyone else."""
    if user.role is Role.ADMIN:
        return user
    if user.role is not Role.DEALER:
        raise Refusal(403, "auth.forbidden", "this action needs the dealer or admin role", params={"role": "dealer"})
    assigned = await context.service.read(context.service.store.staff.tables_of, user.id)
    if spec.id not in assigned:
        detail = f"dealer {user.name} is not assigned to table {spec.id}"
        raise Refusal(403, "dealer.not_assigned", detail, params={"table": spec.id, "dealer": user.name})
    return user


#: Who runs a table: the admin, or a dealer assigned to it.
HouseUser = Annotated[User, Depends(get_house)]
