"""Responsible gaming: a player's own settings (a daily loss limit, a play-time reminder, a
self-exclusion), tightened by the player at once and loosened only by the house (the back office),
which can never end a self-exclusion early. The server enforces them (:mod:`baccarat.server.responsible`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from baccarat.server.api.actions import TableActions
from baccarat.server.api.context import AppContext
from baccarat.server.api.deps import ActionsDep, AdminUser, ContextDep, CurrentUser
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.api.staff_models import LimitsBody, LimitsOut
from baccarat.server.responsible import Responsible, loosened
from baccarat.server.store import Role, User
from baccarat.server.store.audit import AuditEntry
from baccarat.server.store.limits import Limits, day_start

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["responsible gaming"], responses=ERRORS)

Name = Annotated[str, Path(min_length=1, max_length=40)]


async def _out(context: AppContext, user_id: int) -> LimitsOut:
    service = context.service
    limits = await service.read(service.store.limits.get, user_id)
    lost = await service.read(service.store.limits.lost_since, user_id, day_start(service.clock.time()))
    limit = limits.daily_loss_limit
    return LimitsOut(
        daily_loss_limit=limit,
        session_reminder_minutes=limits.session_reminder_minutes,
        excluded_until=limits.excluded_until,
        lost_today=lost,
        left_today=None if limit is None else max(0, limit - lost),
    )


def _changed(old: Limits, body: LimitsBody, *, now: float, by_house: bool) -> Limits:
    """``old`` with what ``body`` sends: a field it leaves out stays as it is (only a field sent as
    ``null`` removes a setting), and a self-exclusion is added to one in force; refused (403
    ``limits.loosen_by_house``) when a player loosens a setting, or the house shortens an exclusion."""
    sent = body.model_fields_set
    new = Limits(
        body.daily_loss_limit if "daily_loss_limit" in sent else old.daily_loss_limit,
        body.session_reminder_minutes if "session_reminder_minutes" in sent else old.session_reminder_minutes,
        old.excluded_until if old.excluded(now) else None,
    )
    new = Responsible.with_exclusion(new, body.exclude_days, now=now)
    refused = [f for f in loosened(old, new, now=now) if not by_house or f == "excluded_until"]
    if refused:
        detail = "a player may only tighten their own limits: ask the house to loosen " + ", ".join(refused)
        raise Refusal(403, "limits.loosen_by_house", detail, params={"fields": refused})
    return new


async def _store(context: AppContext, actions: TableActions, user: User, body: LimitsBody, *, by_house: bool) -> Limits:
    """Change a player's settings by ``body`` (:func:`_changed`), read and written in one
    transaction with the player's row locked; a self-exclusion ends the player's sessions."""
    service = context.service
    now = service.clock.time()
    _, new = await service.write(
        service.store.limits.change, user.id, lambda old: _changed(old, body, now=now, by_house=by_house)
    )
    actions.responsible.forget()
    if new.excluded(now):
        await service.write(service.store.accounts.sessions.end_all_of, user.id)
        context.sessions.revoked(None, user.id)
    return new


@router.get("/me/limits")
async def my_limits(user: CurrentUser, context: ContextDep) -> LimitsOut:
    """Your responsible-gaming settings, what you lost today (UTC) and what is left under your limit."""
    return await _out(context, user.id)


@router.put("/me/limits")
async def set_my_limits(body: LimitsBody, user: CurrentUser, context: ContextDep, actions: ActionsDep) -> LimitsOut:
    """Set your settings: a lower loss limit, a shorter reminder or a self-exclusion take effect at
    once (a self-exclusion also ends your sessions); a setting left out of the body stays as it is,
    one sent as ``null`` is removed. Loosening one is for the house (403 ``limits.loosen_by_house``)."""
    if user.role is not Role.PLAYER:
        raise Refusal(403, "auth.forbidden", "limits are a player's", params={"role": "player"})
    await _store(context, actions, user, body, by_house=False)
    return await _out(context, user.id)


@router.put("/admin/players/{name}/limits")
async def set_player_limits(
    name: Name, body: LimitsBody, admin: AdminUser, context: ContextDep, actions: ActionsDep
) -> LimitsOut:
    """Set a player's settings from the back office (audited): the house may loosen a loss limit or a
    reminder, never shorten a self-exclusion."""
    found = await context.service.read(context.service.store.staff.user_named, name)
    if found is None or found[0].role is not Role.PLAYER:
        raise Refusal(404, "player.not_found", f"no player named {name!r}", params={"name": name})
    stored = await _store(context, actions, found[0], body, by_house=True)
    entry = AuditEntry(
        actor=admin.name,
        actor_id=admin.id,
        role=admin.role.value,
        action="staff.limits",
        status=200,
        detail={
            "player": name,
            "daily_loss_limit": stored.daily_loss_limit,
            "reminder": stored.session_reminder_minutes,
            "excluded_until": stored.excluded_until,
        },
    )
    await context.service.write(context.service.store.audit.record, entry)
    return await _out(context, found[0].id)


@router.get("/admin/players/{name}/limits")
async def player_limits(name: Name, _: AdminUser, context: ContextDep) -> LimitsOut:
    """A player's settings and today's loss."""
    found = await context.service.read(context.service.store.staff.user_named, name)
    if found is None or found[0].role is not Role.PLAYER:
        raise Refusal(404, "player.not_found", f"no player named {name!r}", params={"name": name})
    return await _out(context, found[0].id)
