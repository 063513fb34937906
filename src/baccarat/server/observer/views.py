"""What a client observes of a table, as REST views: the lobby card, the table, a round, a seat, a user.

These are pure functions of what is stored and of the table's state machine: nothing here reads
the database (the routes gather the data, :mod:`baccarat.server.api.context` caches it). The
websocket's messages come from :mod:`baccarat.server.observer.messages`; the websocket's
``snapshot`` and ``state`` carry the views made here.

The public never sees another bettor's user name, money or bets: a bettor is shown by a masked display
name (:func:`baccarat.server.observer.names.display_name`) and the bets on the table only as totals per
spot. A user's own seat, money and bets come from ``GET /api/tables/{id}/me`` and the ``my_*`` messages.
"""

from __future__ import annotations

import json
from typing import Any

from baccarat.road_stats import shoe_stats
from baccarat.roads import Scoreboard
from baccarat.server import game
from baccarat.server.observer.names import display_name
from baccarat.server.schema import RoundStatus
from baccarat.server.settings import TableSpec
from baccarat.table import Table
from baccarat.table_config import TableConfig

__all__ = [
    "FINISHED",
    "public_bettors",
    "round_view",
    "seat_view",
    "spot_totals",
    "table_public",
    "table_view",
    "user_view",
]

#: The statuses of a round that is over.
FINISHED = frozenset({RoundStatus.SETTLED.value, RoundStatus.VOIDED.value})


def _json(text: str | None) -> Any:
    return json.loads(text) if text else None


def round_view(row: dict[str, Any], *, totals: dict[str, int] | None = None) -> dict[str, Any]:
    """A stored round as the public sees it: its cards only once it is over, the totals while betting."""
    view: dict[str, Any] = {
        "id": row["id"],
        "table": row["table_id"],
        "number": row["number"],
        "status": row["status"],
        "opened_at": row["opened_at"],
        "closes_at": row["closes_at"],
        "coup_in_shoe": row["coup_in_shoe"],
        "layout": _json(row["layout"]),
        "result": _json(row["result"]),
        "void_reason": row["void_reason"],
        "entered": _json(row["entered"]),
    }
    if row["status"] in FINISHED and row["cards"]:
        view["cards"] = _json(row["cards"])
    if totals is not None and row["status"] == RoundStatus.BETTING.value:
        view["totals"] = totals
    return view


def seat_view(table: Table, name: str) -> dict[str, Any]:
    """Where a user stands at a table: seat, money at the table, commission owed, variant."""
    found = table.state.bettors.get(name)
    if found is None:
        return {"at_table": False}
    return {
        "at_table": True,
        "seat": found.seat,
        "balance": found.balance,
        "available": found.available,
        "owed": found.owed,
        "variant": found.variant,
    }


def public_bettors(bettors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bettors of a public state as the public sees them: display name, seat and variant, no money."""
    return [{"id": display_name(b["id"]), "seat": b["seat"], "variant": b["variant"]} for b in bettors]


def spot_totals(placed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bets of a public state as the public sees them: per spot (``None``: the bettor's own seat)
    and bet, the total stake and the number of bets, with no bettor."""
    totals: dict[tuple[int | None, str], list[int]] = {}
    for bet in placed:
        entry = totals.setdefault((bet.get("spot"), str(bet["bet"])), [0, 0])
        entry[0] += int(bet["stake"])
        entry[1] += 1
    return [
        {"spot": spot, "bet": kind, "stake": stake, "count": count}
        for (spot, kind), (stake, count) in sorted(totals.items(), key=lambda item: (item[0][0] or 0, item[0][1]))
    ]


def table_public(table: Table, config: TableConfig) -> dict[str, Any]:
    """A table's public state with its seats (``seats``: seat number to the bettor's display name,
    ``None`` when free): no bettor's name, money or own bets (see the module doc)."""
    state = table.public_state()
    state["bettors"] = public_bettors(state["bettors"])
    state["bets"] = spot_totals(state["bets"])
    state["squeezers"] = {side: display_name(who) for side, who in state["squeezers"].items()}
    state["seats"] = [{"seat": n, "bettor": display_name(table.seat_of(n))} for n in range(1, config.seats + 1)]
    state["players"] = len(table.state.bettors)
    state["reveal_deadline"] = (
        table.state.reveal_since + config.squeeze_seconds if table.reveal_due is not None else None
    )
    return state


def _shoe(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"number": row["number"], "commitment": row["commitment"], "client_seed": row["client_seed"]}


def table_view(
    spec: TableSpec,
    *,
    flags: tuple[bool, bool],
    shoe: dict[str, Any] | None,
    round_: dict[str, Any] | None,
    table: Table,
    board: Scoreboard | None = None,
) -> dict[str, Any]:
    """A table: the lobby's card (settings, ``open``, shoe, round, players), and with ``board`` the
    full view (bet menus of each variant, the public state, the roads and statistics)."""
    is_open, change_shoe = flags
    view = spec.to_dict() | {
        "open": is_open,
        "change_shoe_requested": change_shoe,
        "shoe": _shoe(shoe),
        "round": round_,
        "players": len(table.state.bettors),
    }
    if board is not None:
        config = spec.table_config()
        view["bets"] = game.menu(spec.variant, config=config)
        view["variants"] = {name: game.menu(name, config=config) for name in config.variants}
        view["table"] = table_public(table, config)
        view["roads"] = board.to_dict()
        view["stats"] = shoe_stats(board).to_dict()
    return view


def user_view(user_id: int, name: str, role: str, *, wallet: int, owed: int, purses: dict[str, int]) -> dict[str, Any]:
    """A user's own account: all their money is the wallet plus what is at each table."""
    return {
        "id": user_id,
        "name": name,
        "display_name": display_name(name),
        "role": role,
        "balance": wallet + sum(purses.values()),
        "wallet": wallet,
        "at_tables": purses,
        "commission_owed": owed,
    }
