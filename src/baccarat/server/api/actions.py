"""A table action on its way to the table: applied here when this process runs the table, else
passed on to the process that does (an intent) and its answer awaited.

Every action has one kind (:class:`Action`), one body model and one handler; REST, the websocket
and another process's intents all go through :meth:`TableActions.perform`, so an action has the
same answer (status and body, or refusal) whichever way it came. Every action of the house (the
admin's, and the dealer's: entering a card, voiding a round) is recorded in the audit log there, with
its actor and its answer, once whichever way it came.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ValidationError

from baccarat.errors import BaccaratError
from baccarat.server.api.models import (
    BetBody,
    BurnBody,
    CardBody,
    CashOutBody,
    CorrectBody,
    HandOverBody,
    JoinBody,
    RevealBody,
    SeatBody,
    VariantBody,
    VoidIntent,
)
from baccarat.server.api.problems import Refusal, problem_of, validation_problem
from baccarat.server.responsible import Responsible
from baccarat.server.service import Service, TableRunner
from baccarat.server.settings import TableSpec
from baccarat.server.store import Role, User
from baccarat.server.store.audit import AuditEntry

__all__ = [
    "DEFAULT_VOID_REASON",
    "HOUSE_ACTIONS",
    "PLAYER_ACTIONS",
    "Action",
    "Answer",
    "TableActions",
    "exposed_cards",
]

#: An action's answer: the HTTP status and the body (a refusal's body for a status of 400 or more).
Answer = tuple[int, dict[str, Any]]


class Action(StrEnum):
    """What can be done at a table (the websocket's message type and the intent's kind)."""

    BET = "bet"
    JOIN = "join"
    SIT = "sit"
    LEAVE = "leave"
    CASH_OUT = "cash_out"
    SWITCH_VARIANT = "switch_variant"
    REVEAL = "reveal"
    HAND_OVER = "hand_over"
    CARD = "card"
    CORRECT = "correct_card"
    OPEN_BETTING = "open_betting"
    CLOSE_BETTING = "close_betting"
    CUT_CARD = "cut_card"
    BURN = "burn"
    NEW_SHOE = "new_shoe"
    CONSOLE = "console"
    VOID = "void"


#: Each action's body (``None``: it takes none).
BODIES: dict[Action, type[BaseModel] | None] = {
    Action.BET: BetBody,
    Action.JOIN: JoinBody,
    Action.SIT: SeatBody,
    Action.LEAVE: None,
    Action.CASH_OUT: CashOutBody,
    Action.SWITCH_VARIANT: VariantBody,
    Action.REVEAL: RevealBody,
    Action.HAND_OVER: HandOverBody,
    Action.CARD: CardBody,
    Action.CORRECT: CorrectBody,
    Action.OPEN_BETTING: None,
    Action.CLOSE_BETTING: None,
    Action.CUT_CARD: None,
    Action.BURN: BurnBody,
    Action.NEW_SHOE: None,
    Action.CONSOLE: None,
    Action.VOID: VoidIntent,
}

#: The actions a player may send over the websocket (the others are the house's, over REST).
#: The dealer's actions: recorded in the audit log whoever sends them.
HOUSE_ACTIONS = frozenset(
    {
        Action.CARD,
        Action.CORRECT,
        Action.OPEN_BETTING,
        Action.CLOSE_BETTING,
        Action.CUT_CARD,
        Action.BURN,
        Action.NEW_SHOE,
        Action.VOID,
        Action.CONSOLE,
    }
)

#: The house's reads: not recorded in the audit log.
READS = frozenset({Action.CONSOLE})

#: The actions a player may send over the websocket (the others are the house's, over REST).
PLAYER_ACTIONS = frozenset(BODIES) - HOUSE_ACTIONS

#: What a void says when the house gives no reason (only before any card of the coup is face up).
DEFAULT_VOID_REASON = "voided by the house"

Handler = Callable[[TableRunner, User, Any], Awaitable[Answer]]


async def _bet(runner: TableRunner, user: User, body: BetBody) -> Answer:
    placed = await runner.place_bet(
        user, client_id=body.client_id, bet=body.bet, stake=body.stake, round_id=body.round_id, spot=body.spot
    )
    if placed.bet is None:
        raise Refusal(409, "bet.not_found", "the bet could not be found; retry")
    status = 200 if placed.duplicate else 201
    answer = {"bet": placed.bet, "duplicate": placed.duplicate, "balance": placed.balance}
    return status, answer | {"at_table": None if placed.duplicate else placed.at_table}


async def _join(runner: TableRunner, user: User, body: JoinBody) -> Answer:
    return 201, await runner.join(user, seat=body.seat, buy_in=body.buy_in)


async def _sit(runner: TableRunner, user: User, body: SeatBody) -> Answer:
    return 200, await runner.sit(user, body.seat)


async def _leave(runner: TableRunner, user: User, _: None) -> Answer:
    return 200, await runner.leave(user)


async def _cash_out(runner: TableRunner, user: User, body: CashOutBody | None) -> Answer:
    return 200, await runner.cash_out(user, None if body is None else body.amount)


async def _switch_variant(runner: TableRunner, user: User, body: VariantBody) -> Answer:
    return 200, await runner.switch_variant(user, body.variant)


async def _reveal(runner: TableRunner, user: User, body: RevealBody) -> Answer:
    return 200, await runner.reveal(None if user.role in (Role.ADMIN, Role.DEALER) else user, body.side)


async def _hand_over(runner: TableRunner, user: User, body: HandOverBody) -> Answer:
    return 200, await runner.hand_over(user, body.side, body.to)


async def _card(runner: TableRunner, _: User, body: CardBody) -> Answer:
    return 200, await runner.enter_card(body.card, position=body.position, face_up=body.face_up)


def exposed_cards(runner: TableRunner) -> list[str]:
    """The positions of the coup being dealt whose card is face up (none between coups)."""
    table = runner.table
    if table is None:
        return []
    state = table.state
    return sorted(p.value for p in state.coup.cards if p not in state.face_down)


async def _void(runner: TableRunner, _: User, body: VoidIntent) -> Answer:
    exposed = exposed_cards(runner)
    if exposed and body.reason is None:
        raise Refusal(
            422,
            "void.reason_required",
            f"cards are face up ({', '.join(exposed)}): say why the round is voided",
            rule="R18",
            params={"round": body.round_id, "exposed": exposed},
        )
    refunded = await runner.void(body.round_id, body.reason or DEFAULT_VOID_REASON)
    return 200, {"ok": True, "refunded": refunded, "exposed": exposed}


async def _correct(runner: TableRunner, _: User, body: CorrectBody) -> Answer:
    return 200, await runner.correct_card(body.card)


async def _open_betting(runner: TableRunner, _: User, __: None) -> Answer:
    return 202, runner.ask_open_betting()


async def _close_betting(runner: TableRunner, _: User, __: None) -> Answer:
    return 202, runner.ask_close_betting()


async def _cut_card(runner: TableRunner, _: User, __: None) -> Answer:
    return 200, await runner.mark_cut_card()


async def _burn(runner: TableRunner, _: User, body: BurnBody | None) -> Answer:
    return 200, await runner.burn(None if body is None else body.card)


async def _new_shoe(runner: TableRunner, _: User, __: None) -> Answer:
    return 200, await runner.new_shoe()


async def _console(runner: TableRunner, _: User, __: None) -> Answer:
    return 200, runner.dealer_view()


HANDLERS: dict[Action, Handler] = {
    Action.BET: _bet,
    Action.JOIN: _join,
    Action.SIT: _sit,
    Action.LEAVE: _leave,
    Action.CASH_OUT: _cash_out,
    Action.SWITCH_VARIANT: _switch_variant,
    Action.REVEAL: _reveal,
    Action.HAND_OVER: _hand_over,
    Action.CARD: _card,
    Action.CORRECT: _correct,
    Action.OPEN_BETTING: _open_betting,
    Action.CLOSE_BETTING: _close_betting,
    Action.CUT_CARD: _cut_card,
    Action.BURN: _burn,
    Action.NEW_SHOE: _new_shoe,
    Action.CONSOLE: _console,
    Action.VOID: _void,
}


def refused(error: Exception) -> Answer:
    """A refusal as an answer (status, body)."""
    if isinstance(error, BaccaratError | Refusal):
        return problem_of(error)
    if isinstance(error, ValidationError):
        return 422, validation_problem(error)
    raise error


class TableActions:
    """Applies actions to the tables of one service (and serves the intents other processes store)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        service.intent_handler = self.from_intent
        self.responsible = Responsible(service)

    def _runner(self, table_id: str) -> TableRunner | None:
        runner = self.service.runners.get(table_id)
        if runner is not None and runner.table is not None and runner.leader:
            return runner
        return None

    async def _here(self, runner: TableRunner, user: User, action: Action, body: BaseModel | None) -> Answer:
        try:
            if isinstance(body, BetBody):
                await self.responsible.check_bet(user, body.stake)
            return await HANDLERS[action](runner, user, body)
        except (BaccaratError, Refusal) as error:
            return refused(error)

    async def perform(self, user: User, spec: TableSpec, action: Action, body: BaseModel | None) -> Answer:
        """Apply an action: here when this process runs the table, else by the process that does; an
        action of the house is recorded in the audit log with its answer."""
        runner = self._runner(spec.id)
        fields = {} if body is None else body.model_dump(mode="json")
        if runner is not None:
            answer = await self._here(runner, user, action, body)
        else:
            answer = await self.service.forward(spec.id, user, action.value, fields)
        if (user.role is not Role.PLAYER or action in HOUSE_ACTIONS) and action not in READS:
            await self._audit(user, spec, action, fields, answer)
        return answer

    async def _audit(self, user: User, spec: TableSpec, action: Action, fields: dict[str, Any], answer: Answer) -> None:
        status, payload = answer
        detail = {k: v for k, v in fields.items() if k not in ("reason", "round_id")}
        if action is Action.VOID:
            exposed = payload.get("exposed") or (payload.get("params") or {}).get("exposed") or []
            detail |= {"exposed": list(exposed), "refunded": payload.get("refunded")}
        if status >= 400:
            detail["refused"] = payload.get("code")
        entry = AuditEntry(
            actor=user.name,
            actor_id=user.id,
            role=user.role.value,
            action=f"table.{action.value}",
            status=status,
            table_id=spec.id,
            round_id=fields.get("round_id"),
            reason=fields.get("reason") or (DEFAULT_VOID_REASON if action is Action.VOID and status < 400 else None),
            detail=detail,
        )
        await self.service.write(self.service.store.audit.record, entry)

    async def performed(self, user: User, spec: TableSpec, action: Action, body: BaseModel | None) -> dict[str, Any]:
        """:meth:`perform` for a REST route: the answer's body, or its refusal raised."""
        status, payload = await self.perform(user, spec, action, body)
        if status >= 400:
            raise Refusal(
                status,
                str(payload.get("code", "procedure.not_now")),
                str(payload.get("detail", "refused")),
                rule=payload.get("rule"),
                params=payload.get("params") or {},
            )
        return payload

    async def from_intent(self, user: User, table_id: str, kind: str, fields: dict[str, Any]) -> Answer:
        """Apply an intent another process stored for a table this process runs."""
        spec = self.service.lobby.table(table_id)
        if spec is None or kind not in set(Action):
            detail = f"no table {table_id!r} or no action {kind!r}"
            return refused(Refusal(400, "request.unknown_type", detail, params={"table": table_id, "action": kind}))
        runner = self._runner(spec.id)
        if runner is None:
            return refused(Refusal(503, "table.unavailable", "the table is moving to another process; try again"))
        action = Action(kind)
        model = BODIES[action]
        try:
            body = model.model_validate(fields) if model is not None else None
        except ValidationError as error:
            return refused(error)
        return await self._here(runner, user, action, body)
