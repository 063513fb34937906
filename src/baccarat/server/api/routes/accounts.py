"""Accounts: register, log in and out, the user's account and history."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query

from baccarat.server.api.context import AppContext
from baccarat.server.api.deps import ContextDep, CurrentUser, Token
from baccarat.server.api.models import Credentials, HistoryOut, OkOut, SessionOut, UserView
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.auth import check_name, check_password, hash_password
from baccarat.server.store import Role

__all__ = ["router"]

T = TypeVar("T")

router = APIRouter(prefix="/api", tags=["accounts"], responses=ERRORS)


@functools.cache
def _dummy_hash() -> str:
    """A hash checked for a name nobody has, so that a login for an unknown name costs what any login costs."""
    return hash_password("x" * 16)


async def _off_loop(context: AppContext, fn: Callable[..., T], *args: Any) -> T:
    """Run a password hash or check on a worker thread, a few at a time (``AppContext.hashing``)."""
    async with context.hashing:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


@router.post("/auth/register", status_code=201)
async def register(body: Credentials, context: ContextDep) -> SessionOut:
    """Create a player account with a play-money wallet; returns a session token."""
    check_name(body.name)
    if body.name.lower() == "admin":
        raise Refusal(409, "name.reserved", "the name 'admin' is reserved", params={"name": "admin"})
    service = context.service
    digest = await _off_loop(context, hash_password, body.password)
    user = await service.write(
        service.store.accounts.create_user,
        name=body.name,
        password_hash=digest,
        role=Role.PLAYER,
        starting_balance=service.lobby.starting_balance,
    )
    token = await service.write(service.store.accounts.new_session, user)
    return SessionOut(token=token, user=UserView(**await context.user(user)))


@router.post("/auth/login")
async def login(body: Credentials, context: ContextDep) -> SessionOut:
    """Log in; returns a session token (send it as ``Authorization: Bearer <token>``)."""
    service = context.service
    found = await service.read(service.store.accounts.password_hash_of, body.name)
    digest = found[1] if found else await _off_loop(context, _dummy_hash)
    ok = await _off_loop(context, check_password, digest, body.password)
    if found is None or not ok:
        raise Refusal(401, "auth.invalid", "wrong name or password")
    token = await service.write(service.store.accounts.new_session, found[0])
    return SessionOut(token=token, user=UserView(**await context.user(found[0])))


@router.post("/auth/logout")
async def logout(_: CurrentUser, token: Token, context: ContextDep) -> OkOut:
    """End the session."""
    token = token or ""
    context.sessions.forget(token)
    await context.service.write(context.service.store.accounts.end_session, token)
    return OkOut(ok=True)


@router.get("/me")
async def me(user: CurrentUser, context: ContextDep) -> UserView:
    """The logged-in user: name, role, wallet balance and commission owed (minor units)."""
    return UserView(**await context.user(user))


@router.get("/me/history")
async def history(
    user: CurrentUser, context: ContextDep, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> HistoryOut:
    """The user's last rounds: cards, bets, payouts, wallet balance before and after."""
    service = context.service
    return HistoryOut(rounds=await service.read(service.store.rounds.history, user, limit=limit))
