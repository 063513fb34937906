"""The back office's people (role ``admin``): dealers (created with their own credentials and
assigned to tables), the players with their money, and suspension. Every change is in the audit log."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import AfterValidator

from baccarat.server.api.context import AppContext
from baccarat.server.api.deps import AdminUser, ContextDep
from baccarat.server.api.models import HistoryOut
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.api.staff_models import (
    DealerBody,
    DealerOut,
    DealersOut,
    DealerTablesBody,
    PlayerOut,
    PlayersOut,
    SuspendBody,
)
from baccarat.server.auth import check_name, hash_password, normal_name
from baccarat.server.store import Role, User
from baccarat.server.store.audit import AuditEntry

__all__ = ["router"]

router = APIRouter(prefix="/api/admin", tags=["admin"], responses=ERRORS)

#: A user's name in a path, NFKC-normalised as names are stored (``ＡＮＮ`` finds ``ANN``).
Name = Annotated[str, Path(min_length=1, max_length=40), AfterValidator(normal_name)]


async def _audit(context: AppContext, admin: User, action: str, **detail: Any) -> None:
    entry = AuditEntry(
        actor=admin.name, actor_id=admin.id, role=admin.role.value, action=action, status=200, detail=detail
    )
    await context.service.write(context.service.store.audit.record, entry)


def _known_tables(context: AppContext, tables: list[str]) -> list[str]:
    unknown = sorted({t for t in tables if context.service.lobby.table(t) is None})
    if unknown:
        raise Refusal(404, "table.not_found", f"no table {unknown[0]!r}", params={"table": unknown[0]})
    return sorted(set(tables))


async def _user(context: AppContext, name: str, role: Role) -> User:
    found = await context.service.read(context.service.store.staff.user_named, name)
    if found is None or found[0].role is not role:
        code = "dealer.not_found" if role is Role.DEALER else "player.not_found"
        raise Refusal(404, code, f"no {role.value} named {name!r}", params={"name": name})
    return found[0]


async def _dealer_out(context: AppContext, name: str) -> DealerOut:
    dealers = await context.service.read(context.service.store.staff.dealers)
    member = next(d for d in dealers if d.name == name)
    return DealerOut(id=member.id, name=member.name, tables=list(member.tables), suspended=member.suspended)


@router.get("/dealers")
async def dealers(_: AdminUser, context: ContextDep) -> DealersOut:
    """Every dealer with the tables assigned."""
    found = await context.service.read(context.service.store.staff.dealers)
    return DealersOut(
        dealers=[DealerOut(id=d.id, name=d.name, tables=list(d.tables), suspended=d.suspended) for d in found]
    )


@router.post("/dealers", status_code=201)
async def create_dealer(body: DealerBody, admin: AdminUser, context: ContextDep) -> DealerOut:
    """Create a dealer with their own credentials, assigned to ``tables``."""
    name = check_name(body.name)
    tables = _known_tables(context, body.tables)
    digest = await context.off_loop(hash_password, body.password)
    member = await context.service.write(context.service.store.staff.create_dealer, name, digest, tables)
    await _audit(context, admin, "staff.dealer_created", dealer=member.name, tables=tables)
    return DealerOut(id=member.id, name=member.name, tables=list(member.tables), suspended=False)


@router.put("/dealers/{name}/tables")
async def assign_tables(name: Name, body: DealerTablesBody, admin: AdminUser, context: ContextDep) -> DealerOut:
    """Assign a dealer to exactly these tables."""
    dealer = await _user(context, name, Role.DEALER)
    tables = _known_tables(context, body.tables)
    await context.service.write(context.service.store.staff.set_tables, dealer.id, tables)
    await _audit(context, admin, "staff.dealer_tables", dealer=name, tables=tables)
    return await _dealer_out(context, name)


@router.get("/players")
async def players(
    _: AdminUser,
    context: ContextDep,
    query: Annotated[str | None, Query(min_length=1, max_length=40, description="Part of the name.")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**6)] = 0,
) -> PlayersOut:
    """The players by name (a page of them), with wallet, commission owed and suspension."""
    rows, total = await context.service.read(
        context.service.store.staff.players, query=query, limit=limit, offset=offset
    )
    return PlayersOut(
        players=[
            PlayerOut(
                id=r.id, name=r.name, wallet=r.wallet, owed=r.owed, suspended=r.suspended, created_at=r.created_at
            )
            for r in rows
        ],
        total=total,
    )


@router.get("/players/{name}/history")
async def player_history(
    name: Name, _: AdminUser, context: ContextDep, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> HistoryOut:
    """A player's last rounds, as the player sees them in ``GET /api/me/history``."""
    player = await _user(context, name, Role.PLAYER)
    service = context.service
    return HistoryOut(rounds=await service.read(service.store.rounds.history, player, limit=limit))


@router.post("/users/{name}/suspension")
async def suspend(name: Name, body: SuspendBody, admin: AdminUser, context: ContextDep) -> PlayerOut | DealerOut:
    """Suspend a player or a dealer (they cannot log in; their sessions end, in every process) or lift it."""
    found = await context.service.read(context.service.store.staff.user_named, name)
    if found is None or found[0].role is Role.ADMIN:
        raise Refusal(404, "player.not_found", f"no player or dealer named {name!r}", params={"name": name})
    user = found[0]
    await context.service.write(context.service.store.staff.set_suspended, user.id, body.suspended)
    if body.suspended:
        context.sessions.revoked(None, user.id)
    action = "staff.suspended" if body.suspended else "staff.reinstated"
    await _audit(context, admin, action, user=name, role=user.role.value, reason=body.reason)
    if user.role is Role.DEALER:
        return await _dealer_out(context, name)
    rows, _ = await context.service.read(context.service.store.staff.players, query=name, limit=200, offset=0)
    row = next(r for r in rows if r.name == name)
    return PlayerOut(
        id=row.id, name=row.name, wallet=row.wallet, owed=row.owed, suspended=row.suspended, created_at=row.created_at
    )
