"""The house's actions (role ``admin``): open and close tables, change the shoe, void a round,
enter a dealer-entry table's cards (R18), check the ledger, read the audit log. Every action and
settings change is recorded in the audit log with who made it (the table actions by
:class:`baccarat.server.api.actions.TableActions`, the settings changes here)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from baccarat.errors import InputError
from baccarat.server.api.actions import Action
from baccarat.server.api.deps import ActionsDep, AdminUser, ContextDep, RoundId, TableDep
from baccarat.server.api.models import (
    AuditOut,
    CardBody,
    CardsOut,
    FlagsOut,
    LedgerOut,
    TableSettingsBody,
    TableSettingsOut,
    VoidBody,
    VoidIntent,
    VoidOut,
)
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.observer.views import FINISHED
from baccarat.server.settings import Dealing, TableSpec
from baccarat.server.store import User
from baccarat.server.store.audit import AuditEntry

__all__ = ["router"]

router = APIRouter(prefix="/api/admin", tags=["admin"], responses=ERRORS)


async def _audit(context: ContextDep, admin: User, action: str, table_id: str, **detail: Any) -> None:
    entry = AuditEntry(
        actor=admin.name,
        actor_id=admin.id,
        role=admin.role.value,
        action=action,
        status=200,
        table_id=table_id,
        detail=detail,
    )
    await context.service.write(context.service.store.audit.record, entry)


@router.post("/tables/{table_id}/open")
async def open_table(spec: TableDep, admin: AdminUser, context: ContextDep) -> FlagsOut:
    """Open a table: rounds start."""
    context.service.publish(
        await context.service.write(context.service.store.tables.set_table_flags, spec.id, is_open=True)
    )
    await _audit(context, admin, "settings.open", spec.id, open=True)
    return FlagsOut(ok=True, open=True)


@router.post("/tables/{table_id}/close")
async def close_table(spec: TableDep, admin: AdminUser, context: ContextDep) -> FlagsOut:
    """Close a table: the round in play finishes, no new round starts."""
    context.service.publish(
        await context.service.write(context.service.store.tables.set_table_flags, spec.id, is_open=False)
    )
    await _audit(context, admin, "settings.close", spec.id, open=False)
    return FlagsOut(ok=True, open=False)


@router.post("/tables/{table_id}/change-shoe")
async def change_shoe(spec: TableDep, admin: AdminUser, context: ContextDep) -> FlagsOut:
    """Change the shoe before the next round (the current shoe ends and its seed is revealed)."""
    if spec.dealing is Dealing.DEALER_ENTRY:
        raise Refusal(409, "table.no_server_shoe", "a dealer-entry table has no server shoe", params={"table": spec.id})
    context.service.publish(
        await context.service.write(context.service.store.tables.set_table_flags, spec.id, change_shoe=True)
    )
    await _audit(context, admin, "settings.change_shoe", spec.id, change_shoe=True)
    return FlagsOut(ok=True)


@router.put("/tables/{table_id}/settings")
async def change_settings(
    spec: TableDep, body: TableSettingsBody, admin: AdminUser, context: ContextDep
) -> TableSettingsOut:
    """Change a table's limits or timing (the fields sent; ``null`` restores the tables file's): in
    force from the next round, in every process; audited with the settings before and after."""
    service = context.service
    await service.refresh_settings(force=True)
    before = dict(service.lobby.changes.get(spec.id, {}))
    changes = {**before, **body.model_dump(exclude_unset=True)}
    changes = {k: v for k, v in changes.items() if v is not None}
    base = next(s for s in service.lobby.tables if s.id == spec.id)
    try:
        changed = base.with_settings(changes)
    except InputError as error:
        raise Refusal(400, "config.invalid", error.message, params={"setting": ",".join(sorted(changes))}) from None
    service.publish(await service.write(service.store.tables.set_table_settings, spec.id, changes))
    service.lobby.changes[spec.id] = changes
    await _audit(context, admin, "settings.changed", spec.id, before=before, after=changes)
    return TableSettingsOut(table=spec.id, settings=_settable(changed), changes=changes)


@router.get("/tables/{table_id}/settings")
async def settings(spec: TableDep, _: AdminUser, context: ContextDep) -> TableSettingsOut:
    """A table's settings now and the house's changes to them."""
    return TableSettingsOut(
        table=spec.id, settings=_settable(spec), changes=context.service.lobby.changes.get(spec.id, {})
    )


def _settable(spec: TableSpec) -> dict[str, float | int]:
    return {name: getattr(spec, name) for name in TableSpec.SETTABLE}


@router.post("/rounds/{round_id}/void")
async def void_round(
    round_id: RoundId, admin: AdminUser, context: ContextDep, actions: ActionsDep, body: VoidBody | None = None
) -> VoidOut:
    """Void a round in flight (R18): every bet is refunded in full. Once a card of the coup is face up
    the void needs a ``reason`` (``void.reason_required`` without one); every void is in the audit log."""
    reason = body.reason if body is not None else None
    service = context.service
    row = await service.read(service.store.rounds.round_row, round_id)
    if row is None:
        raise Refusal(404, "round.not_found", f"no round {round_id}", params={"round": round_id})
    if row["status"] in FINISHED:
        detail = f"round {round_id} is already {row['status']}"
        raise Refusal(409, "round.finished", detail, params={"round": round_id, "status": row["status"]})
    spec = service.lobby.table(str(row["table_id"]))
    if spec is None:
        raise Refusal(404, "table.not_found", f"no table {row['table_id']!r}", params={"table": row["table_id"]})
    answer = await actions.performed(admin, spec, Action.VOID, VoidIntent(round_id=round_id, reason=reason))
    return VoidOut.model_validate(answer)


@router.post("/tables/{table_id}/cards")
async def enter_card(spec: TableDep, body: CardBody, admin: AdminUser, actions: ActionsDep) -> CardsOut:
    """Enter the next card of a dealer-entry round after betting closed (R18); a card not due is refused."""
    if spec.dealing is not Dealing.DEALER_ENTRY:
        detail = f"table {spec.id} deals its own cards (dealing = {spec.dealing.value})"
        raise Refusal(409, "table.not_dealer_entry", detail, params={"table": spec.id})
    return CardsOut.model_validate(await actions.performed(admin, spec, Action.CARD, body))


@router.get("/audit")
async def audit(
    _: AdminUser,
    context: ContextDep,
    before: Annotated[
        int | None, Query(ge=1, le=2**62, description="Entries with ids below this (the `next` of a page).")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    table: Annotated[str | None, Query(min_length=1, max_length=40, description="Only this table's entries.")] = None,
) -> AuditOut:
    """The audit log, newest first: every house action (open, close, change the shoe, void, card
    entry, a dealer's reveal) with who, what, when, why and the answer's status, a page at a time."""
    page = await context.service.read(context.service.store.audit.page, before=before, limit=limit, table_id=table)
    return AuditOut.model_validate(page)


@router.get("/ledger")
async def ledger(_: AdminUser, context: ContextDep) -> LedgerOut:
    """Check the ledger's invariants (sum zero, balances equal entries, every bet settled once)."""
    report = await context.service.read(context.service.store.ledger.check_ledger)
    return LedgerOut(
        ok=report.ok,
        total=report.total,
        mismatched_accounts=list(report.mismatched_accounts),
        open_bets_in_finished_rounds=report.open_bets_in_closed_rounds,
        bets_with_wrong_entries=report.bets_with_wrong_entries,
        in_play_mismatch=report.in_play_mismatch,
    )
