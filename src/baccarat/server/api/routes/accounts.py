"""Accounts: register, log in and out, the user's account and history."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query

from baccarat.server.api.context import AppContext
from baccarat.server.api.deps import ClientAddress, ContextDep, CurrentUser, Token
from baccarat.server.api.models import Credentials, HistoryOut, OkOut, PasswordBody, SessionOut, UserView
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.auth import check_name, check_password, hash_password, normal_name
from baccarat.server.responsible import Responsible
from baccarat.server.store import Role, User
from baccarat.server.store.sessions import token_hash

__all__ = ["router"]

T = TypeVar("T")

router = APIRouter(prefix="/api", tags=["accounts"], responses=ERRORS)


@functools.cache
def _dummy_hash() -> str:
    """A hash checked for a name nobody has, so that a login for an unknown name costs what any login costs."""
    return hash_password("x" * 16)


async def _off_loop(context: AppContext, fn: Callable[..., T], *args: Any) -> T:
    """Run a password hash or check on a worker thread, a few at a time (``AppContext.hashing``)."""
    return await context.off_loop(fn, *args)


def _wait(seconds: float) -> int:
    return max(1, math.ceil(seconds))


async def _verified(context: AppContext, name: str, password: str, address: str) -> User | None:
    """The user whose name and password these are, or ``None``; refused while the name or the
    address is locked. Each attempt counts as a failure until it succeeds, so attempts made at
    once are locked out as surely as attempts made one after the other."""
    guard = context.limits.logins
    locked = guard.locked(name, address, now=context.now())
    if locked > 0:
        detail = f"too many failed log-ins: try again in {_wait(locked)} s"
        raise Refusal(429, "auth.rate_limited", detail, params={"retry_after": _wait(locked)})
    guard.failed(name, address, now=context.now())
    service = context.service
    found = await service.read(service.store.accounts.password_hash_of, name)
    usable = found is not None and found[1].startswith("$argon2")
    digest = found[1] if found is not None and usable else await _off_loop(context, _dummy_hash)
    ok = await _off_loop(context, check_password, digest, password)
    if found is None or not usable or not ok:
        return None
    guard.succeeded(name, address)
    return found[0]


async def _session(context: AppContext, user: User) -> SessionOut:
    service = context.service
    lifetime = context.policy.session_lifetime_seconds
    token = await service.write(service.store.accounts.new_session, user, lifetime=lifetime)
    context.sessions.remember(token, user)
    return SessionOut(token=token, user=UserView(**await context.user(user)))


@router.post("/auth/register", status_code=201)
async def register(body: Credentials, context: ContextDep, address: ClientAddress) -> SessionOut:
    """Create a player account with the lobby's starting balance; returns a session token.
    Each address may register a few accounts, then one more every while (429 ``register.rate_limited``)."""
    name = check_name(body.name)
    if name.casefold() == "admin":
        raise Refusal(409, "name.reserved", "the name 'admin' is reserved", params={"name": "admin"})
    registrations = context.limits.registrations
    if not registrations.allow(address, now=context.now()):
        wait = registrations.bucket(address).wait(now=context.now())
        retry = _wait(wait) if math.isfinite(wait) else None
        detail = "too many accounts registered from this address: try again later"
        raise Refusal(429, "request.rate_limited", detail, params={"retry_after": retry})
    service = context.service
    digest = await _off_loop(context, hash_password, body.password)
    user = await service.write(
        service.store.accounts.create_user,
        name=name,
        password_hash=digest,
        role=Role.PLAYER,
        starting_balance=service.lobby.starting_balance,
    )
    return await _session(context, user)


@router.post("/auth/login")
async def login(body: Credentials, context: ContextDep, address: ClientAddress) -> SessionOut:
    """Log in; returns a session token (send it as ``Authorization: Bearer <token>``). Repeated
    failures lock the name and the address for a while, longer after each (429 ``auth.rate_limited``)."""
    user = await _verified(context, normal_name(body.name), body.password, address)
    if user is None:
        raise Refusal(401, "auth.invalid", "wrong name or password")
    if await context.service.read(context.service.store.staff.is_suspended, user.id):
        raise Refusal(403, "account.suspended", "this account is suspended: ask the house", params={"name": user.name})
    limits = await context.service.read(context.service.store.limits.get, user.id)
    if limits.excluded(context.service.clock.time()):
        raise Responsible.excluded(limits)
    return await _session(context, user)


@router.post("/auth/logout")
async def logout(
    user: CurrentUser, token: Token, context: ContextDep, everywhere: Annotated[bool, Query()] = False
) -> OkOut:
    """End the session (``everywhere=true``: every session of the user), in every server process;
    the websockets authenticated with it are closed."""
    accounts = context.service.store.accounts
    if everywhere:
        await context.service.write(accounts.sessions.end_all_of, user.id)
        context.sessions.revoked(None, user.id)
    else:
        token = token or ""
        await context.service.write(accounts.end_session, token)
        context.sessions.revoked(token_hash(token), None)
    return OkOut(ok=True)


@router.post("/auth/password")
async def change_password(
    body: PasswordBody, user: CurrentUser, context: ContextDep, address: ClientAddress
) -> SessionOut:
    """Change the password (the current one is needed): every session of the user ends, in every
    process, and a new session is returned. The admin's password is the server's configuration."""
    if user.role is Role.ADMIN:
        detail = "the admin password is set by the server's configuration (BACCARAT_ADMIN_PASSWORD)"
        raise Refusal(403, "auth.forbidden", detail, params={"role": "player"})
    if await _verified(context, user.name, body.old_password, address) is None:
        raise Refusal(401, "auth.invalid", "the current password is wrong")
    digest = await _off_loop(context, hash_password, body.new_password)
    await context.service.write(context.service.store.accounts.set_password, user.id, digest)
    context.sessions.revoked(None, user.id)
    return await _session(context, user)


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
