"""The FastAPI application: REST under ``/api``, a websocket per table under ``/ws``, the browser table at ``/``.

The API is documented in ``docs/api.md`` and, live, at ``/docs`` (OpenAPI).
"""

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from baccarat.errors import BaccaratError, ProcedureError
from baccarat.road_stats import shoe_stats
from baccarat.roads import Scoreboard
from baccarat.server import game
from baccarat.server.auth import check_name, check_password, hash_password
from baccarat.server.fairness import recompute_cards, verify_round
from baccarat.server.schema import RoundStatus
from baccarat.server.service import Service, ServiceOptions, TableRunner, seat_view, table_public
from baccarat.server.settings import Dealing, TableSpec
from baccarat.server.store import Role, User
from baccarat.table import Table, TableError

__all__ = ["RateLimiter", "create_app"]

log = logging.getLogger("baccarat.server")

MAX_BODY = 16_384
MAX_WS_MESSAGE = 4_096
TOKEN_CACHE_SECONDS = 30.0
CLIENT_ID = r"^[A-Za-z0-9_.:-]{1,64}$"


class RateLimiter:
    """A token bucket: ``rate`` actions a second on average, bursts up to ``burst``.

    >>> bucket = RateLimiter(rate=1, burst=2)
    >>> bucket.allow(now=0.0), bucket.allow(now=0.0), bucket.allow(now=0.0), bucket.allow(now=1.0)
    (True, True, False, True)
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, *, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp: float | None = None

    def allow(self, *, now: float | None = None) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


# --- request and response bodies -----------------------------------------------------------------


class Credentials(BaseModel):
    """A name and password."""

    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")
    password: StrictStr = Field(min_length=8, max_length=128)


class BetBody(BaseModel):
    """A bet: the client's id for it (placing it twice places it once), the bet id and the stake."""

    model_config = ConfigDict(extra="forbid")
    client_id: StrictStr = Field(pattern=CLIENT_ID)
    bet: StrictStr = Field(min_length=1, max_length=40)
    stake: StrictInt = Field(gt=0, le=10**12)
    round_id: StrictInt | None = Field(default=None, gt=0, le=2**31)
    spot: StrictInt | None = Field(default=None, ge=1, le=14)


class JoinBody(BaseModel):
    """Come to the table: a seat (``None``: stand) and the money brought from the wallet (default: all of it)."""

    model_config = ConfigDict(extra="forbid")
    seat: StrictInt | None = Field(default=None, ge=1, le=14)
    buy_in: StrictInt | None = Field(default=None, ge=0, le=10**12)


class SeatBody(BaseModel):
    """A seat to take (R20)."""

    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(ge=1, le=14)


class CashOutBody(BaseModel):
    """How much to take back to the wallet (default: all that is available)."""

    model_config = ConfigDict(extra="forbid")
    amount: StrictInt | None = Field(default=None, gt=0, le=10**12)


class VariantBody(BaseModel):
    """The variant to play (R28): ``standard`` or ``no_commission`` where the table offers both."""

    model_config = ConfigDict(extra="forbid")
    variant: StrictStr = Field(min_length=1, max_length=40)


class RevealBody(BaseModel):
    """The side whose face-down cards to turn (R23)."""

    model_config = ConfigDict(extra="forbid")
    side: StrictStr = Field(pattern=r"^(player|banker)$")


class HandOverBody(BaseModel):
    """Hand a side's squeeze to another seated bettor with a bet (``to``), or to the dealer (``None``, R23)."""

    model_config = ConfigDict(extra="forbid")
    side: StrictStr = Field(pattern=r"^(player|banker)$")
    to: StrictStr | None = Field(default=None, min_length=1, max_length=40)


class CardBody(BaseModel):
    """One card entered by the dealer (R18): ``AS``, ``10h``…; ``position`` must be the one due if given."""

    model_config = ConfigDict(extra="forbid")
    card: StrictStr = Field(min_length=2, max_length=8)
    position: StrictStr | None = Field(default=None, max_length=12)
    face_up: bool = False


class VoidBody(BaseModel):
    """Why the round is voided."""

    model_config = ConfigDict(extra="forbid")
    reason: StrictStr = Field(default="voided by the house", min_length=1, max_length=200)


class VoidIntent(VoidBody):
    """A void passed on to the table's process: the round and the reason."""

    round_id: StrictInt = Field(gt=0, le=2**31)


class ErrorBody(BaseModel):
    """An error: what was wrong and how to fix it."""

    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in (
        (400, "Bad input (the reason says what to fix)"),
        (401, "Not logged in"),
        (403, "Not allowed"),
        (404, "No such table or round"),
        (409, "Not possible now (betting closed, insufficient balance, …)"),
        (413, "Request too large"),
        (429, "Too many requests"),
        (503, "The table's process did not answer (try again)"),
    )
}


@dataclass(frozen=True, slots=True)
class _Cached:
    user: User
    at: float


class _Auth:
    """Session tokens to users, cached briefly in memory."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.cache: dict[str, _Cached] = {}

    async def user(self, token: str | None) -> User | None:
        if not token or len(token) > 200:
            return None
        hit = self.cache.get(token)
        if hit is not None and time.monotonic() - hit.at < TOKEN_CACHE_SECONDS:
            return hit.user
        user = await self.service.read(self.service.store.user_for_token, token)
        if user is None:
            self.cache.pop(token, None)
            return None
        if len(self.cache) > 50_000:
            self.cache.clear()
        self.cache[token] = _Cached(user, time.monotonic())
        return user


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def _error_status(error: BaccaratError) -> int:
    return 409 if isinstance(error, ProcedureError) else 400


def _reason(error: BaccaratError) -> str:
    """An error's text for a client: what was wrong, how to fix it, and the rule it enforces."""
    rule = error.rule if isinstance(error, TableError) else None
    text = str(error)
    return f"{text} [{rule}]" if rule and rule not in text else text


def create_app(options: ServiceOptions) -> FastAPI:
    """The application for one server process (its lifespan migrates the database and runs the tables)."""
    service = Service(options)
    auth = _Auth(service)
    http_buckets: dict[str, RateLimiter] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, service.prepare)
        lobby = options.lobby
        if lobby.admin_password:
            await service.read(
                service.store.create_user,
                name="admin",
                password_hash=hash_password(lobby.admin_password),
                role=Role.ADMIN,
                starting_balance=0,
                replace_admin=True,
            )
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="baccarat table service",
        version="0.1.0",
        description="Macau baccarat tables: accounts, play-money wallets on a double-entry ledger, live tables.",
        lifespan=lifespan,
    )
    app.state.service = service

    @app.exception_handler(BaccaratError)
    async def _baccarat_error(_: Request, error: BaccaratError) -> JSONResponse:
        return JSONResponse({"detail": _reason(error)}, status_code=_error_status(error))

    @app.middleware("http")
    async def _limits(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return JSONResponse({"detail": f"request body over {MAX_BODY} bytes"}, status_code=413)
        key = request.headers.get("authorization") or (request.client.host if request.client else "?")
        bucket = http_buckets.get(key)
        if bucket is None:
            if len(http_buckets) > 10_000:
                http_buckets.clear()
            bucket = http_buckets[key] = RateLimiter(rate=options.http_requests_per_second, burst=options.http_burst)
        if not bucket.allow():
            return JSONResponse({"detail": "too many requests; slow down"}, status_code=429)
        return await call_next(request)

    # --- dependencies ---------------------------------------------------------------------------

    async def current_user(authorization: Annotated[str | None, Header()] = None) -> User:
        user = await auth.user(_bearer(authorization))
        if user is None:
            raise HTTPException(401, "log in first: send Authorization: Bearer <token>")
        return user

    async def admin_user(user: Annotated[User, Depends(current_user)]) -> User:
        if user.role is not Role.ADMIN:
            raise HTTPException(403, "this action needs the admin role")
        return user

    TableId = Annotated[str, PathParam(max_length=40)]

    def table_spec(table_id: str) -> TableSpec:
        spec = options.lobby.table(table_id)
        if spec is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return spec

    async def user_view(user: User) -> dict[str, Any]:
        wallet, owed = await service.read(service.store.balances, user)
        purses = await service.read(service.store.purses, user)
        return {
            "id": user.id,
            "name": user.name,
            "role": user.role.value,
            "balance": wallet + sum(purses.values()),
            "wallet": wallet,
            "at_tables": purses,
            "commission_owed": owed,
        }

    # --- accounts -------------------------------------------------------------------------------

    @app.post("/api/auth/register", status_code=201, responses=ERRORS, tags=["accounts"])
    async def register(body: Credentials) -> dict[str, Any]:
        """Create a player account with a play-money wallet; returns a session token."""
        check_name(body.name)
        if body.name.lower() == "admin":
            raise HTTPException(409, "the name 'admin' is reserved")
        digest = await asyncio.get_running_loop().run_in_executor(None, hash_password, body.password)
        user = await service.write(
            service.store.create_user,
            name=body.name,
            password_hash=digest,
            role=Role.PLAYER,
            starting_balance=options.lobby.starting_balance,
        )
        token = await service.write(service.store.new_session, user)
        return {"token": token, "user": await user_view(user)}

    @app.post("/api/auth/login", responses=ERRORS, tags=["accounts"])
    async def login(body: Credentials) -> dict[str, Any]:
        """Log in; returns a session token (send it as ``Authorization: Bearer <token>``)."""
        found = await service.read(service.store.password_hash_of, body.name)
        digest = found[1] if found else hash_password("x" * 8)
        ok = await asyncio.get_running_loop().run_in_executor(None, check_password, digest, body.password)
        if found is None or not ok:
            raise HTTPException(401, "wrong name or password")
        token = await service.write(service.store.new_session, found[0])
        return {"token": token, "user": await user_view(found[0])}

    @app.post("/api/auth/logout", responses=ERRORS, tags=["accounts"])
    async def logout(
        user: Annotated[User, Depends(current_user)], authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """End the session."""
        token = _bearer(authorization) or ""
        auth.cache.pop(token, None)
        await service.write(service.store.end_session, token)
        return {"ok": True}

    @app.get("/api/me", responses=ERRORS, tags=["accounts"])
    async def me(user: Annotated[User, Depends(current_user)]) -> dict[str, Any]:
        """The logged-in user: name, role, wallet balance and commission owed (minor units)."""
        return await user_view(user)

    @app.get("/api/me/history", responses=ERRORS, tags=["accounts"])
    async def history(
        user: Annotated[User, Depends(current_user)], limit: Annotated[int, Query(ge=1, le=100)] = 20
    ) -> dict[str, Any]:
        """The user's last rounds: cards, bets, payouts, wallet balance before and after."""
        return {"rounds": await service.read(service.store.history, user, limit=limit)}

    # --- tables ---------------------------------------------------------------------------------

    async def round_public(row: dict[str, Any] | None) -> dict[str, Any] | None:
        if row is None:
            return None
        finished = row["status"] in (RoundStatus.SETTLED.value, RoundStatus.VOIDED.value)
        view: dict[str, Any] = {
            "id": row["id"],
            "table": row["table_id"],
            "number": row["number"],
            "status": row["status"],
            "opened_at": row["opened_at"],
            "closes_at": row["closes_at"],
            "coup_in_shoe": row["coup_in_shoe"],
            "layout": json.loads(row["layout"]) if row["layout"] else None,
            "result": json.loads(row["result"]) if row["result"] else None,
            "void_reason": row["void_reason"],
            "entered": json.loads(row["entered"]) if row["entered"] else None,
        }
        if finished and row["cards"]:
            view["cards"] = json.loads(row["cards"])
        if row["status"] == RoundStatus.BETTING.value:
            view["totals"] = await service.read(service.store.round_totals, int(row["id"]))
        return view

    def board_of(table_id: str) -> Scoreboard:
        shoe = service.store.active_shoe(table_id)
        board = Scoreboard()
        if shoe is not None:
            for cards in service.shoe_results(int(shoe["id"])):
                board.add(game.coup_from_cards(cards))
        return board

    replicas: dict[str, tuple[int, float, Table]] = {}

    async def table_of(spec: TableSpec) -> Table:
        """The table's state: this process's own, or a copy rebuilt from the database (its snapshot and
        the events after it) when the table's newest event changes."""
        runner = service.runners.get(spec.id)
        if runner is not None and runner.table is not None and runner.leader:
            return runner.table
        cached = replicas.get(spec.id)
        if cached is not None and time.monotonic() - cached[1] < 1.0:
            return cached[2]
        last = await service.read(service.store.last_event_id, spec.id)
        if cached is not None and cached[0] == last:
            replicas[spec.id] = (last, time.monotonic(), cached[2])
            return cached[2]
        table = (await service.load_table(spec.id, spec.table_config())).table
        replicas[spec.id] = (last, time.monotonic(), table)
        return table

    async def table_view(spec: TableSpec, *, full: bool) -> dict[str, Any]:
        is_open, change_shoe, _ = await service.read(service.store.table_flags, spec.id)
        shoe = await service.read(service.store.active_shoe, spec.id)
        view = spec.to_dict() | {
            "open": is_open,
            "change_shoe_requested": change_shoe,
            "shoe": None
            if shoe is None
            else {"number": shoe["number"], "commitment": shoe["commitment"], "client_seed": shoe["client_seed"]},
            "round": await round_public(await service.read(service.store.current_round, spec.id)),
        }
        table = await table_of(spec)
        view["players"] = len(table.state.bettors)
        if full:
            config = spec.table_config()
            view["bets"] = game.menu(spec.variant, config=config)
            view["variants"] = {name: game.menu(name, config=config) for name in config.variants}
            view["table"] = table_public(table, config)
            board = await service.read(board_of, spec.id)
            view["roads"] = board.to_dict()
            view["stats"] = shoe_stats(board).to_dict()
        return view

    @app.get("/api/tables", tags=["tables"])
    async def tables() -> dict[str, Any]:
        """The lobby: every table with its settings, state and current round."""
        return {"tables": [await table_view(spec, full=False) for spec in options.lobby.tables]}

    @app.get("/api/tables/{table_id}", responses=ERRORS, tags=["tables"])
    async def table(table_id: TableId) -> dict[str, Any]:
        """One table: settings, bet menu with payouts, current round, roads and the shoe's commitment."""
        return await table_view(table_spec(table_id), full=True)

    @app.get("/api/tables/{table_id}/events", responses=ERRORS, tags=["tables"])
    async def table_events(
        table_id: TableId,
        after: Annotated[int, Query(ge=0, le=2**62)] = 0,
        limit: Annotated[int, Query(ge=1, le=500)] = 200,
    ) -> dict[str, Any]:
        """Stored events of a table after event id ``after`` (to catch up after a reconnect)."""
        table_spec(table_id)
        return {"events": await service.read(service.store.events_since, table_id, after, limit=limit)}

    async def place_bet(runner: TableRunner, user: User, body: BetBody) -> tuple[int, dict[str, Any]]:
        placed = await runner.place_bet(
            user, client_id=body.client_id, bet=body.bet, stake=body.stake, round_id=body.round_id, spot=body.spot
        )
        if placed.bet is None:
            return 409, {"detail": "the bet could not be found; retry"}
        return (200 if placed.duplicate else 201), {
            "bet": placed.bet,
            "duplicate": placed.duplicate,
            "balance": placed.balance,
        }

    async def perform_here(runner: TableRunner, user: User, body: BaseModel | None) -> tuple[int, dict[str, Any]]:
        """Apply an action to a table this process runs: (HTTP status, answer)."""
        if isinstance(body, BetBody):
            return await place_bet(runner, user, body)
        if isinstance(body, JoinBody):
            return 201, await runner.join(user, seat=body.seat, buy_in=body.buy_in)
        if isinstance(body, SeatBody):
            return 200, await runner.sit(user, body.seat)
        if isinstance(body, CashOutBody):
            return 200, await runner.cash_out(user, body.amount)
        if isinstance(body, VariantBody):
            return 200, await runner.switch_variant(user, body.variant)
        if isinstance(body, RevealBody):
            return 200, await runner.reveal(None if user.role is Role.ADMIN else user, body.side)
        if isinstance(body, HandOverBody):
            return 200, await runner.hand_over(user, body.side, body.to)
        if isinstance(body, CardBody):
            return 200, await runner.enter_card(body.card, position=body.position, face_up=body.face_up)
        if isinstance(body, VoidIntent):
            return 200, {"ok": True, "refunded": await runner.void(body.round_id, body.reason)}
        return 200, await runner.leave(user)

    async def perform(user: User, spec: TableSpec, kind: str, body: BaseModel | None) -> tuple[int, dict[str, Any]]:
        """Apply an action to a table: here when this process runs it, else by the process that does."""
        runner = service.runners.get(spec.id)
        if runner is not None and runner.table is not None and runner.leader:
            return await perform_here(runner, user, body)
        fields = {} if body is None else body.model_dump(mode="json")
        return await service.forward(spec.id, user, kind, fields)

    async def performed(user: User, spec: TableSpec, kind: str, body: BaseModel | None) -> dict[str, Any]:
        """:func:`perform` for an HTTP endpoint: the answer, or its refusal raised."""
        status, payload = await perform(user, spec, kind, body)
        if status >= 400:
            raise HTTPException(status, str(payload.get("detail", "refused")))
        return payload

    INTENT_BODIES: dict[str, type[BaseModel] | None] = {
        "bet": BetBody,
        "join": JoinBody,
        "sit": SeatBody,
        "leave": None,
        "cash_out": CashOutBody,
        "switch_variant": VariantBody,
        "reveal": RevealBody,
        "hand_over": HandOverBody,
        "card": CardBody,
        "void": VoidIntent,
    }

    async def handle_intent(user: User, table_id: str, kind: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Apply an intent another process stored for a table this process runs."""
        spec = options.lobby.table(table_id)
        if spec is None or kind not in INTENT_BODIES:
            return 400, {"detail": f"no table {table_id!r} or no action {kind!r}"}
        runner = service.runners.get(spec.id)
        if runner is None or runner.table is None or not runner.leader:
            return 503, {"detail": "the table is moving to another process; try again"}
        model = INTENT_BODIES[kind]
        try:
            body = model.model_validate(fields) if model is not None else None
            return await perform_here(runner, user, body)
        except ValidationError as error:
            return 422, {"detail": str(error)}
        except HTTPException as error:
            return error.status_code, {"detail": str(error.detail)}
        except BaccaratError as error:
            return _error_status(error), {"detail": _reason(error)}

    service.intent_handler = handle_intent

    @app.post("/api/tables/{table_id}/bets", status_code=201, responses=ERRORS, tags=["tables"])
    async def bet(table_id: TableId, body: BetBody, user: Annotated[User, Depends(current_user)]) -> JSONResponse:
        """Place a bet on the round now betting (or on ``round_id``). Placing the same ``client_id`` twice places it once
        (the second answer is 200 with ``duplicate: true``)."""
        status, payload = await perform(user, table_spec(table_id), "bet", body)
        return JSONResponse(payload, status_code=status)

    Player = Annotated[User, Depends(current_user)]

    @app.post("/api/tables/{table_id}/join", status_code=201, responses=ERRORS, tags=["tables"])
    async def join(table_id: TableId, body: JoinBody, user: Player) -> dict[str, Any]:
        """Come to the table seated (``seat``) or standing, bringing ``buy_in`` from the wallet (default: all)."""
        return await performed(user, table_spec(table_id), "join", body)

    @app.post("/api/tables/{table_id}/sit", responses=ERRORS, tags=["tables"])
    async def sit(table_id: TableId, body: SeatBody, user: Player) -> dict[str, Any]:
        """Take a free seat (from standing, another seat, or joining the table), with no bet open (R20)."""
        return await performed(user, table_spec(table_id), "sit", body)

    @app.post("/api/tables/{table_id}/leave", responses=ERRORS, tags=["tables"])
    async def leave(table_id: TableId, user: Player) -> dict[str, Any]:
        """Leave the table with no bet open: the commission owed is paid (R27), the rest goes back to the wallet."""
        return await performed(user, table_spec(table_id), "leave", None)

    @app.post("/api/tables/{table_id}/cash-out", responses=ERRORS, tags=["tables"])
    async def cash_out(table_id: TableId, user: Player, body: CashOutBody | None = None) -> dict[str, Any]:
        """Pay the commission owed (R27) and take ``amount`` (default: all available) back to the wallet."""
        return await performed(user, table_spec(table_id), "cash_out", body or CashOutBody())

    @app.post("/api/tables/{table_id}/variant", responses=ERRORS, tags=["tables"])
    async def switch_variant(table_id: TableId, body: VariantBody, user: Player) -> dict[str, Any]:
        """Switch between standard and no-commission play with no bet open (R28)."""
        return await performed(user, table_spec(table_id), "switch_variant", body)

    @app.post("/api/tables/{table_id}/reveal", responses=ERRORS, tags=["tables"])
    async def reveal(table_id: TableId, body: RevealBody, user: Player) -> dict[str, Any]:
        """Turn the face-down cards of a side you squeeze (R23); the admin turns them for the dealer."""
        return await performed(user, table_spec(table_id), "reveal", body)

    @app.post("/api/tables/{table_id}/hand-over", responses=ERRORS, tags=["tables"])
    async def hand_over(table_id: TableId, body: HandOverBody, user: Player) -> dict[str, Any]:
        """Hand the squeeze of a side to another seated bettor with a bet, or to the dealer (R23)."""
        return await performed(user, table_spec(table_id), "hand_over", body)

    @app.get("/api/tables/{table_id}/me", responses=ERRORS, tags=["tables"])
    async def me_at_table(table_id: TableId, user: Player) -> dict[str, Any]:
        """The logged-in user at this table: seat, balance, available, commission owed, variant, bets."""
        table = await table_of(table_spec(table_id))
        view = seat_view(table, user.name)
        if not view["at_table"]:
            return view
        return view | {
            "bets": [
                {"bet": b.kind.value, "stake": b.stake, "spot": b.spot, "carried": b.carried}
                for b in table.bets_of(user.name)
            ],
        }

    # --- rounds and fairness --------------------------------------------------------------------

    def round_proof(round_id: int) -> dict[str, Any] | None:
        row = service.store.round_row(round_id)
        if row is None:
            return None
        proof: dict[str, Any] = {"round_id": round_id, "table": row["table_id"], "status": row["status"]}
        if row["shoe_id"] is None:
            return proof | {"detail": "a dealer-entry round has no shoe seed"}
        from sqlalchemy import select

        from baccarat.server.schema import ShoeStatus, shoes

        with service.engine.connect() as conn:
            shoe = conn.execute(select(shoes).where(shoes.c.id == row["shoe_id"])).one()._mapping
        revealed = shoe["status"] == ShoeStatus.ENDED.value
        finished = row["status"] in (RoundStatus.SETTLED.value, RoundStatus.VOIDED.value)
        proof |= {
            "shoe": shoe["number"],
            "commitment": shoe["commitment"],
            "client_seed": shoe["client_seed"],
            "server_seed": shoe["server_seed"] if revealed else None,
            "config": json.loads(shoe["config"]),
            "first_shoe_number": shoe["first_shoe_number"],
            "coup_in_shoe": row["coup_in_shoe"],
            "cards": json.loads(row["cards"])["cards"] if finished and row["cards"] else None,
        }
        return proof

    @app.get("/api/rounds/{round_id}", responses=ERRORS, tags=["rounds"])
    async def round_(round_id: Annotated[int, PathParam(ge=1, le=2**31)]) -> dict[str, Any]:
        """A round: status, result and cards once finished, and its fairness proof (seed once revealed)."""
        view = await round_public(await service.read(service.store.round_row, round_id))
        if view is None:
            raise HTTPException(404, f"no round {round_id}")
        view["proof"] = await service.read(round_proof, round_id)
        return view

    @app.get("/api/rounds/{round_id}/verify", responses=ERRORS, tags=["rounds"])
    async def verify(round_id: Annotated[int, PathParam(ge=1, le=2**31)]) -> dict[str, Any]:
        """Recompute the round's cards from the revealed shoe seed and say whether they match."""
        proof = await service.read(round_proof, round_id)
        if proof is None:
            raise HTTPException(404, f"no round {round_id}")
        if proof.get("server_seed") is None or proof.get("cards") is None:
            raise HTTPException(409, "the shoe's server seed is not revealed yet: verify after the shoe ends")
        result = verify_round(proof)
        return {"ok": result.ok, "reason": result.reason, "proof": proof, "recomputed": recompute_cards(proof)}

    # --- admin ----------------------------------------------------------------------------------

    Admin = Annotated[User, Depends(admin_user)]

    @app.post("/api/admin/tables/{table_id}/open", responses=ERRORS, tags=["admin"])
    async def admin_open(table_id: TableId, _: Admin) -> dict[str, Any]:
        """Open a table: rounds start."""
        table_spec(table_id)
        await service.write(service.store.set_table_flags, table_id, is_open=True)
        return {"ok": True, "open": True}

    @app.post("/api/admin/tables/{table_id}/close", responses=ERRORS, tags=["admin"])
    async def admin_close(table_id: TableId, _: Admin) -> dict[str, Any]:
        """Close a table: the round in play finishes, no new round starts."""
        table_spec(table_id)
        await service.write(service.store.set_table_flags, table_id, is_open=False)
        return {"ok": True, "open": False}

    @app.post("/api/admin/tables/{table_id}/change-shoe", responses=ERRORS, tags=["admin"])
    async def admin_change_shoe(table_id: TableId, _: Admin) -> dict[str, Any]:
        """Change the shoe before the next round (the current shoe ends and its seed is revealed)."""
        spec = table_spec(table_id)
        if spec.dealing is Dealing.DEALER_ENTRY:
            raise HTTPException(409, "a dealer-entry table has no server shoe")
        await service.write(service.store.set_table_flags, table_id, change_shoe=True)
        return {"ok": True}

    @app.post("/api/admin/rounds/{round_id}/void", responses=ERRORS, tags=["admin"])
    async def admin_void(
        round_id: Annotated[int, PathParam(ge=1, le=2**31)], admin: Admin, body: VoidBody | None = None
    ) -> dict[str, Any]:
        """Void a round in flight (R18): every bet is refunded in full."""
        reason = body.reason if body is not None else "voided by the house"
        row = await service.read(service.store.round_row, round_id)
        if row is None:
            raise HTTPException(404, f"no round {round_id}")
        if row["status"] not in (RoundStatus.BETTING.value, RoundStatus.CLOSED.value):
            raise HTTPException(409, f"round {round_id} is already {row['status']}")
        spec = table_spec(str(row["table_id"]))
        return await performed(admin, spec, "void", VoidIntent(round_id=round_id, reason=reason))

    @app.post("/api/admin/tables/{table_id}/cards", responses=ERRORS, tags=["admin"])
    async def admin_card(table_id: TableId, body: CardBody, admin: Admin) -> dict[str, Any]:
        """Enter the next card of a dealer-entry round after betting closed (R18); a card not due is refused."""
        spec = table_spec(table_id)
        if spec.dealing is not Dealing.DEALER_ENTRY:
            raise HTTPException(409, f"table {table_id} deals its own cards (dealing = {spec.dealing.value})")
        return await performed(admin, spec, "card", body)

    @app.get("/api/admin/ledger", responses=ERRORS, tags=["admin"])
    async def admin_ledger(_: Admin) -> dict[str, Any]:
        """Check the ledger's invariants (sum zero, balances equal entries, every bet settled once)."""
        report = await service.read(service.store.check_ledger)
        return {
            "ok": report.ok,
            "total": report.total,
            "mismatched_accounts": list(report.mismatched_accounts),
            "open_bets_in_finished_rounds": report.open_bets_in_closed_rounds,
            "bets_with_wrong_entries": report.bets_with_wrong_entries,
            "in_play_mismatch": report.in_play_mismatch,
        }

    # --- websocket ------------------------------------------------------------------------------

    ACTIONS: dict[str, type[BaseModel] | None] = {
        "bet": BetBody,
        "join": JoinBody,
        "sit": SeatBody,
        "leave": None,
        "cash_out": CashOutBody,
        "switch_variant": VariantBody,
        "reveal": RevealBody,
        "hand_over": HandOverBody,
    }

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        """Follow a table (see docs/api.md): a snapshot, then every event; bets and auth as messages."""
        await websocket.accept()
        spec = options.lobby.table(table_id)
        if spec is None:
            await websocket.send_json({"type": "error", "status": 404, "detail": f"no table {table_id!r}"})
            await websocket.close(code=4404)
            return
        subscriber = service.hub.subscribe(table_id)
        bucket = RateLimiter(rate=options.ws_messages_per_second, burst=options.ws_burst)
        user: User | None = None
        refused = 0
        send_lock = asyncio.Lock()

        async def send(message: dict[str, Any] | str) -> None:
            text = (
                message if isinstance(message, str) else json.dumps(message, separators=(",", ":"), ensure_ascii=False)
            )
            async with send_lock:
                await websocket.send_text(text)

        async def pump() -> None:
            while True:
                text = await subscriber.queue.get()
                await send(text)

        try:
            await send({"type": "snapshot", "table": table_id, "state": await table_view(spec, full=True)})
        except Exception:
            service.hub.unsubscribe(subscriber)
            return
        pump_task = asyncio.create_task(pump())

        async def handle(message: Any) -> dict[str, Any] | None:
            nonlocal user
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                return {"type": "error", "status": 400, "detail": 'send a JSON object with a "type"'}
            kind = message["type"]
            ref = message.get("ref") if isinstance(message.get("ref"), str | int) else None
            if kind == "ping":
                return {"type": "pong", "ref": ref, "ts": time.time()}
            if kind == "auth":
                token = message.get("token")
                user = await auth.user(token if isinstance(token, str) else None)
                if user is None:
                    return {"type": "error", "status": 401, "ref": ref, "detail": "invalid or expired token"}
                return {"type": "authenticated", "ref": ref, "user": await user_view(user)}
            if kind == "balance":
                if user is None:
                    return {"type": "error", "status": 401, "ref": ref, "detail": "send auth first"}
                return {"type": "balance", "ref": ref, "user": await user_view(user)}
            if kind == "state":
                return {"type": "state", "ref": ref, "state": table_public(await table_of(spec), spec.table_config())}
            if kind in ACTIONS:
                if user is None:
                    return {"type": "error", "status": 401, "ref": ref, "detail": "send auth first"}
                fields = {k: v for k, v in message.items() if k not in ("type", "ref")}
                try:
                    model = ACTIONS[kind]
                    body = model.model_validate(fields) if model is not None else None
                except ValidationError as error:
                    first = error.errors()[0]
                    where = ".".join(str(p) for p in first.get("loc", ()))
                    return {"type": "error", "status": 422, "ref": ref, "detail": f"{where}: {first.get('msg', error)}"}
                try:
                    status, payload = await perform(user, spec, kind, body)
                except HTTPException as error:
                    return {"type": "error", "status": error.status_code, "ref": ref, "detail": str(error.detail)}
                except BaccaratError as error:
                    return {"type": "error", "status": _error_status(error), "ref": ref, "detail": _reason(error)}
                if status >= 400:
                    return {"type": "error", "status": status, "ref": ref, **payload}
                if kind == "bet":
                    return {"type": "bet_ack", "ref": ref, "status": status, **payload}
                return {"type": f"{kind}_ok", "ref": ref, "status": 200, **payload}
            return {"type": "error", "status": 400, "ref": ref, "detail": f"unknown message type {kind!r}"}

        try:
            while True:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                data = raw.get("text")
                if data is None:
                    data_bytes = raw.get("bytes") or b""
                    if len(data_bytes) > MAX_WS_MESSAGE:
                        await send({"type": "error", "status": 413, "detail": "message too large"})
                        await websocket.close(code=1009)
                        break
                    data = data_bytes.decode("utf-8", errors="replace")
                if len(data) > MAX_WS_MESSAGE:
                    await send({"type": "error", "status": 413, "detail": f"message over {MAX_WS_MESSAGE} bytes"})
                    await websocket.close(code=1009)
                    break
                if not bucket.allow():
                    refused += 1
                    if refused > 200:
                        await websocket.close(code=1008)
                        break
                    await send({"type": "error", "status": 429, "detail": "too many messages; slow down"})
                    continue
                try:
                    message = json.loads(data)
                except ValueError:
                    await send({"type": "error", "status": 400, "detail": "not valid JSON"})
                    continue
                reply = await handle(message)
                if reply is not None:
                    await send(reply)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket for table %s failed", table_id)
        finally:
            service.hub.unsubscribe(subscriber)
            pump_task.cancel()
            with contextlib.suppress(BaseException):
                await pump_task
            if websocket.application_state is not WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    # --- the browser table ----------------------------------------------------------------------

    from baccarat.server.lab import router as lab_router

    app.include_router(lab_router)
    web = Path(str(resources.files("baccarat").joinpath("web")))
    if web.is_dir():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
