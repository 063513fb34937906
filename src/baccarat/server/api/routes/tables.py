"""Tables: the lobby, one table, its stored events, the players' actions at it, and the entropy players
give to the client seed of its next shoe."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from baccarat.server.api.actions import Action
from baccarat.server.api.deps import ActionsDep, ContextDep, CurrentUser, TableDep
from baccarat.server.api.models import (
    BetBody,
    BetOut,
    CashOutBody,
    CashOutOut,
    EntropyBody,
    EntropyOut,
    EventsOut,
    HandOverBody,
    JoinBody,
    LeaveOut,
    LobbyOut,
    MeAtTable,
    RevealBody,
    SeatBody,
    SeatOut,
    TableDetail,
    TableState,
    VariantBody,
)
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.observer import messages
from baccarat.server.observer.views import seat_view
from baccarat.server.settings import Dealing, TableSpec

__all__ = ["router"]

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=ERRORS)

#: How many entropy strings one player may give to one shoe, and all players together.
ENTROPY_PER_PLAYER = 3
ENTROPY_PER_SHOE = 200


@router.get("")
async def lobby(context: ContextDep) -> LobbyOut:
    """The lobby: every table with its settings, state and current round."""
    await context.service.refresh_settings()
    specs = context.service.lobby.current()
    return LobbyOut.model_validate({"tables": [await context.table(spec, full=False) for spec in specs]})


@router.get("/{table_id}")
async def table(spec: TableDep, context: ContextDep) -> TableDetail:
    """One table: settings, bet menu with payouts, current round, roads and the shoe's commitment."""
    return TableDetail.model_validate(await context.table(spec, full=True))


@router.get("/{table_id}/events")
async def events(
    spec: TableDep,
    context: ContextDep,
    after: Annotated[int, Query(ge=0, le=2**62)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 200,
) -> EventsOut:
    """Stored public messages of a table after event id ``after`` (to catch up after a reconnect)."""
    service = context.service
    stored = await service.read(service.store.tables.events_since, spec.id, after, limit=limit)
    last = int(stored[-1]["id"]) if stored else None
    return EventsOut(events=[m for m in map(messages.public, stored) if m is not None], last=last)


def _server_shoe(spec: TableSpec) -> None:
    if spec.dealing is Dealing.DEALER_ENTRY:
        raise Refusal(409, "table.no_server_shoe", "a dealer-entry table has no server shoe", params={"table": spec.id})


@router.get("/{table_id}/entropy")
async def next_shoe(spec: TableDep, context: ContextDep) -> EntropyOut:
    """The commitment of the table's next shoe, published before it starts, and the entropy players
    gave to its client seed so far (docs/security.md, "Fairness chain")."""
    _server_shoe(spec)
    service = context.service
    return EntropyOut.model_validate(await service.write(service.store.shoes.next_commitment, spec.id))


@router.post("/{table_id}/entropy", status_code=201)
async def contribute(spec: TableDep, body: EntropyBody, user: CurrentUser, context: ContextDep) -> EntropyOut:
    """Give entropy to the client seed of the table's next shoe, whose commitment is already published:
    the house cannot know it when it commits (at most 3 per player and 200 per shoe)."""
    _server_shoe(spec)
    service = context.service
    answer = await service.write(
        service.store.shoes.contribute,
        spec.id,
        user.id,
        body.entropy,
        per_user=ENTROPY_PER_PLAYER,
        per_shoe=ENTROPY_PER_SHOE,
    )
    if "refused" in answer:
        raise Refusal(
            409,
            "entropy.limit",
            f"the next shoe has all the entropy it takes from you ({ENTROPY_PER_PLAYER}) or from all ({ENTROPY_PER_SHOE})",
            params={"table": spec.id, "per_player": ENTROPY_PER_PLAYER, "per_shoe": ENTROPY_PER_SHOE},
        )
    return EntropyOut.model_validate(answer)


@router.post(
    "/{table_id}/bets",
    status_code=201,
    response_model=BetOut,
    responses={200: {"model": BetOut, "description": "The same client id again: the stored bet"}},
)
async def bet(spec: TableDep, body: BetBody, user: CurrentUser, actions: ActionsDep) -> JSONResponse:
    """Place a bet on the round now betting (or on ``round_id``). Placing the same ``client_id`` twice
    places it once (the second answer is 200 with ``duplicate: true``)."""
    status, payload = await actions.perform(user, spec, Action.BET, body)
    if status < 400:
        payload = BetOut.model_validate(payload).model_dump(mode="json")
    return JSONResponse(payload, status_code=status)


@router.post("/{table_id}/join", status_code=201)
async def join(spec: TableDep, body: JoinBody, user: CurrentUser, actions: ActionsDep) -> SeatOut:
    """Come to the table seated (``seat``) or standing, bringing ``buy_in`` from the wallet (default: all)."""
    return SeatOut.model_validate(await actions.performed(user, spec, Action.JOIN, body))


@router.post("/{table_id}/sit")
async def sit(spec: TableDep, body: SeatBody, user: CurrentUser, actions: ActionsDep) -> SeatOut:
    """Take a free seat (from standing, another seat, or joining the table), with no bet open (R20)."""
    return SeatOut.model_validate(await actions.performed(user, spec, Action.SIT, body))


@router.post("/{table_id}/leave")
async def leave(spec: TableDep, user: CurrentUser, actions: ActionsDep) -> LeaveOut:
    """Leave the table with no bet open: the commission owed is paid (R27), the rest goes back to the wallet."""
    return LeaveOut.model_validate(await actions.performed(user, spec, Action.LEAVE, None))


@router.post("/{table_id}/cash-out")
async def cash_out(
    spec: TableDep, user: CurrentUser, actions: ActionsDep, body: CashOutBody | None = None
) -> CashOutOut:
    """Pay the commission owed (R27) and take ``amount`` (default: all available) back to the wallet."""
    answer = await actions.performed(user, spec, Action.CASH_OUT, body or CashOutBody())
    return CashOutOut.model_validate(answer)


@router.post("/{table_id}/variant")
async def switch_variant(spec: TableDep, body: VariantBody, user: CurrentUser, actions: ActionsDep) -> SeatOut:
    """Switch between standard and no-commission play with no bet open (R28)."""
    return SeatOut.model_validate(await actions.performed(user, spec, Action.SWITCH_VARIANT, body))


@router.post("/{table_id}/reveal")
async def reveal(spec: TableDep, body: RevealBody, user: CurrentUser, actions: ActionsDep) -> TableState:
    """Turn the face-down cards of a side you squeeze (R23); the admin turns them for the dealer."""
    return TableState.model_validate(await actions.performed(user, spec, Action.REVEAL, body))


@router.post("/{table_id}/hand-over")
async def hand_over(spec: TableDep, body: HandOverBody, user: CurrentUser, actions: ActionsDep) -> TableState:
    """Hand the squeeze of a side to another seated bettor with a bet, or to the dealer (R23)."""
    return TableState.model_validate(await actions.performed(user, spec, Action.HAND_OVER, body))


@router.get("/{table_id}/me")
async def me_at_table(spec: TableDep, user: CurrentUser, context: ContextDep) -> MeAtTable:
    """The logged-in user at this table: seat, balance, available, commission owed, variant, bets,
    and the face-down cards they squeeze (R23), theirs alone to see."""
    table = await context.table_of(spec)
    view: dict[str, Any] = seat_view(table, user.name)
    if view["at_table"]:
        view["bets"] = [
            {"bet": b.kind.value, "stake": b.stake, "spot": b.spot, "carried": b.carried}
            for b in table.bets_of(user.name)
        ]
        view["squeeze"] = table.squeeze_cards(user.name)
    return MeAtTable.model_validate(view)
