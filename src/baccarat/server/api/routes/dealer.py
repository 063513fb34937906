"""The dealer's console (role ``dealer`` on the tables assigned, or the admin): a dealer-entry
table's round driven from the table side (R18). Open and close betting (a ``dealer_paced``
table waits for the dealer), enter each card as it comes out of the shoe (tapped, typed or from a
card reader), correct the last card before the next, void the round with a reason, record the cut
card and put a new shoe in play (R6). Every action is in the audit log with who made it.

A ``dealer_paced`` table that deals its own cards (``shoe``, ``pre_dealt``, ``continuous``) is run
from the same console for its pace only: the dealer opens and closes betting, turns a squeezed
side's cards (R23) and may void the round; the cards come from the table's own shoe, so entering,
correcting and burning cards, the cut card and a new shoe stay with dealer-entry tables."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from baccarat.server.api.actions import Action
from baccarat.server.api.deps import ActionsDep, ContextDep, CurrentUser, HouseUser, TableDep
from baccarat.server.api.models import (
    BurnBody,
    CardBody,
    CardsOut,
    CorrectBody,
    DealerCallOut,
    RevealBody,
    VoidBody,
    VoidIntent,
    VoidOut,
)
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.api.staff_models import ConsoleOut, DealerTableOut, MyTablesOut
from baccarat.server.settings import Dealing, TableSpec
from baccarat.server.store import Role

__all__ = ["router"]

router = APIRouter(prefix="/api/dealer", tags=["dealer"], responses=ERRORS)


def _entry_table(spec: TableSpec) -> TableSpec:
    """The table, if its cards are entered by the dealer (else 409 ``table.not_dealer_entry``)."""
    if spec.dealing is not Dealing.DEALER_ENTRY:
        detail = f"table {spec.id} deals its own cards (dealing = {spec.dealing.value})"
        raise Refusal(409, "table.not_dealer_entry", detail, params={"table": spec.id})
    return spec


def _dealers_table(spec: TableSpec) -> bool:
    """Whether a dealer runs the table: its cards are entered, or its dealer paces its rounds."""
    return spec.dealing is Dealing.DEALER_ENTRY or spec.dealer_paced


def _paced_table(spec: TableSpec) -> TableSpec:
    """The table, if a dealer runs it (else 409 ``table.not_dealer_paced``: it runs on its own timer)."""
    if not _dealers_table(spec):
        detail = f"table {spec.id} runs its rounds on its own timer (dealing = {spec.dealing.value}, not dealer_paced)"
        raise Refusal(409, "table.not_dealer_paced", detail, params={"table": spec.id})
    return spec


@router.get("/tables")
async def my_tables(user: CurrentUser, context: ContextDep) -> MyTablesOut:
    """The dealer-entry and dealer-paced tables the logged-in dealer may run (the admin: all of them)."""
    if user.role is Role.PLAYER:
        raise Refusal(403, "auth.forbidden", "the dealer's console needs the dealer role", params={"role": "dealer"})
    specs = [spec for spec in context.service.lobby.tables if _dealers_table(spec)]
    if user.role is Role.DEALER:
        assigned = await context.service.read(context.service.store.staff.tables_of, user.id)
        specs = [spec for spec in specs if spec.id in assigned]
    tables = [DealerTableOut(id=s.id, name=s.name, dealing=s.dealing.value, dealer_paced=s.dealer_paced) for s in specs]
    return MyTablesOut(tables=tables)


@router.get("/tables/{table_id}")
async def console(spec: TableDep, user: HouseUser, actions: ActionsDep) -> ConsoleOut:
    """The console's view: phase, round, the cards entered, the position due with its reason, the
    shoe, the totals on each spot and what to do next."""
    answer = await actions.performed(user, _paced_table(spec), Action.CONSOLE, None)
    return _console_out(spec, answer)


def _console_out(spec: TableSpec, view: dict[str, Any]) -> ConsoleOut:
    """The console's view as the route answers it: between rounds, a table with a shoe of its own
    (the server's, changed and burned by the server) has only betting to open next."""
    if spec.dealing is not Dealing.DEALER_ENTRY and view.get("next") in ("new_shoe", "burn"):
        view = {**view, "next": "open_betting"}
    return ConsoleOut.model_validate(view)


@router.post("/tables/{table_id}/open-betting", status_code=202)
async def open_betting(spec: TableDep, user: HouseUser, actions: ActionsDep) -> DealerCallOut:
    """Open the next round's betting on a ``dealer_paced`` table, whatever its dealing (it opens at
    once; ``betting_opened`` tells); it closes at the dealer's call or after ``betting_seconds``."""
    return DealerCallOut.model_validate(await actions.performed(user, _paced_table(spec), Action.OPEN_BETTING, None))


@router.post("/tables/{table_id}/close-betting", status_code=202)
async def close_betting(spec: TableDep, user: HouseUser, actions: ActionsDep) -> DealerCallOut:
    """Close betting now, before the betting time runs out (``betting_closed`` tells); a table with a
    shoe of its own then deals the coup from it."""
    return DealerCallOut.model_validate(await actions.performed(user, _paced_table(spec), Action.CLOSE_BETTING, None))


@router.post("/tables/{table_id}/cards")
async def enter_card(spec: TableDep, body: CardBody, user: HouseUser, actions: ActionsDep) -> CardsOut:
    """Enter the card that came out of the shoe (``AS``, ``TD``, ``10h``): it goes to the position due;
    a card for another position, or one the shoe holds no more of, is refused (R18)."""
    return CardsOut.model_validate(await actions.performed(user, _entry_table(spec), Action.CARD, body))


@router.post("/tables/{table_id}/cards/correct")
async def correct_card(spec: TableDep, body: CorrectBody, user: HouseUser, actions: ActionsDep) -> CardsOut:
    """Correct the last card entered, before the next is drawn (R18); the draw follows the correction."""
    return CardsOut.model_validate(await actions.performed(user, _entry_table(spec), Action.CORRECT, body))


@router.post("/tables/{table_id}/cut-card")
async def cut_card(spec: TableDep, user: HouseUser, actions: ActionsDep) -> ConsoleOut:
    """The cut card came out: the shoe ends after this coup or one more (R6)."""
    return ConsoleOut.model_validate(await actions.performed(user, _entry_table(spec), Action.CUT_CARD, None))


@router.post("/tables/{table_id}/burn")
async def burn(spec: TableDep, user: HouseUser, actions: ActionsDep, body: BurnBody | None = None) -> ConsoleOut:
    """Burn the new shoe's first cards by the table's method (R4): with method (b) the card turned
    (its value is how many are burned, the turned one included); before the shoe's first coup, once."""
    return ConsoleOut.model_validate(await actions.performed(user, _entry_table(spec), Action.BURN, body))


@router.post("/tables/{table_id}/reveal")
async def reveal(spec: TableDep, body: RevealBody, user: HouseUser, actions: ActionsDep) -> ConsoleOut:
    """Turn a side's face-down cards as the dealer: when no bettor squeezes it, or once the squeeze
    time is up (R23)."""
    await actions.performed(user, _paced_table(spec), Action.REVEAL, body)
    return _console_out(spec, await actions.performed(user, spec, Action.CONSOLE, None))


@router.post("/tables/{table_id}/new-shoe")
async def new_shoe(spec: TableDep, user: HouseUser, actions: ActionsDep) -> ConsoleOut:
    """Put a new shoe in play between coups (R6)."""
    return ConsoleOut.model_validate(await actions.performed(user, _entry_table(spec), Action.NEW_SHOE, None))


@router.post("/tables/{table_id}/void")
async def void(spec: TableDep, user: HouseUser, actions: ActionsDep, body: VoidBody | None = None) -> VoidOut:
    """Void the round in play (R18): every bet refunded in full; once a card is face up a reason is needed."""
    view = await actions.performed(user, _paced_table(spec), Action.CONSOLE, None)
    if view.get("round") is None:
        detail = f"no round is in play at table {spec.id}"
        raise Refusal(409, "round.not_in_progress", detail, rule="R18")
    intent = VoidIntent(round_id=int(view["round"]["id"]), reason=None if body is None else body.reason)
    return VoidOut.model_validate(await actions.performed(user, spec, Action.VOID, intent))
