"""Every message a table's websocket sends, made here and nowhere else, each with its JSON Schema.

One vocabulary, one convention: every ``type`` is snake_case. Three families:

* **public** messages, sent to everyone who follows the table: :func:`public` makes them from the
  stored events (the service's round events and the table's own events, :mod:`baccarat.table_events`),
  and :func:`countdown` the one that is not stored. Where a table event and a round event tell the
  same thing in the same transaction (``BettingOpened`` and ``betting_opened``, ``BettingClosed``
  and ``betting_closed``, ``CoupSettled`` and ``round_settled``, ``RoundVoided`` and
  ``round_voided``, each ``CardDealt`` and ``card_entered``; ``ShoeChanged`` is told by
  ``shoe_started``) one message is sent, which carries what both said. Cards lying face down are ``null``; no public message carries a bettor's money.
  A public message names a bettor only by the masked display name (:func:`display_name`).
* **private** messages (``my_…``), sent to every connection of one user: :func:`private` makes them
  from the stored events (a bettor's settlement, refunds, buy-in, cash-out), :func:`my_bet` the
  accepted bet with the bettor's balance.
* **replies** to what one connection sent: :func:`reply` and the builders named after them
  (:func:`authenticated`, :func:`bet_ack`, :func:`action_ok`, :func:`error`, …). A reply carries the
  ``ref`` the client sent (``null`` when none).

:func:`encode` turns a message into the text sent (once per message, whatever the number of
connections it goes to). :data:`SCHEMAS` holds a JSON Schema (draft 2020-12) per message type; the
websocket section of ``docs/api.md`` lists them.

>>> stored = {"id": 7, "table": "macau", "round_id": 3, "type": "CardDealt", "ts": 1.5, "at": 1.5,
...           "round": 3, "position": "player_1", "card": "9H", "face_down": True, "exposed": False}
>>> public(stored)
{'type': 'card_dealt', 'id': 7, 'table': 'macau', 'round_id': 3, 'ts': 1.5, 'position': 'player_1',
 'card': None, 'face_down': True, 'exposed': False}
>>> encode(error(409, {"code": "betting.closed", "rule": None, "params": {}, "detail": "betting is closed"}, 4))
'{"type":"error","status":409,"ref":4,"code":"betting.closed","rule":null,"params":{},"detail":"betting is closed"}'
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from baccarat.bets import BetKind
from baccarat.coup import Position, Side, Winner
from baccarat.error_codes import CODE_BY_STATUS
from baccarat.server.observer.names import display_name
from baccarat.settlement import BetResult
from baccarat.table_events import BettingClosed, CoupSettled, RoundVoided, TableEvent, event_from_dict

__all__ = [
    "ACTIONS",
    "DIALECT",
    "PRIVATE_FIELD",
    "SCHEMAS",
    "TOLD_BY",
    "Message",
    "Ref",
    "action_ok",
    "authenticated",
    "balance",
    "bet_ack",
    "betting_closed_fields",
    "countdown",
    "encode",
    "error",
    "my_bet",
    "play_reminder",
    "pong",
    "private",
    "public",
    "reply",
    "settled_private",
    "snapshot",
    "state",
    "voided_private",
]

Message = dict[str, Any]
#: The ``ref`` a client may send with a message, echoed in the reply.
Ref = str | int | None

#: The JSON Schema dialect of :data:`SCHEMAS`.
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: The field of a stored round event (``round_settled``, ``round_voided``) that holds, per bettor,
#: what only that bettor may see; no public message carries it.
PRIVATE_FIELD = "private"

#: The table actions a client sends, each answered ``<action>_ok`` (a bet is answered ``bet_ack``).
ACTIONS = ("join", "sit", "leave", "cash_out", "switch_variant", "reveal", "hand_over")


def encode(message: Message) -> str:
    """The text of a message as sent: compact JSON, UTF-8 as it is.

    >>> encode({"type": "pong", "ref": None, "ts": 1.0})
    '{"type":"pong","ref":null,"ts":1.0}'
    """
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


# --- public messages ---------------------------------------------------------------------------

#: The public message of each table event that has one: its type and the fields it keeps.
_TABLE_EVENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "BettorJoined": ("bettor_joined", ("bettor", "seat", "variant")),
    "BettorSat": ("bettor_sat", ("bettor", "seat")),
    "BettorLeft": ("bettor_left", ("bettor",)),
    "CashedOut": ("cashed_out", ("bettor",)),
    "FundsAdded": ("funds_added", ("bettor",)),
    "VariantSwitched": ("variant_switched", ("bettor", "variant")),
    "CutCardOut": ("cut_card_out", ("shoe_number", "coup_number")),
    "CardDealt": ("card_dealt", ("position", "card", "face_down", "exposed")),
    "CardCorrected": ("card_corrected", ("position", "card", "replaced", "face_down")),
    "ShoeBurned": ("shoe_burned", ("shoe_number", "count", "card")),
    "CardRevealed": ("card_revealed", ("position", "card", "by")),
    "SqueezeHandedOver": ("squeeze_handed_over", ("side", "bettor", "to")),
}

#: The fields of a public message that name a bettor (shown by the display name).
_NAMED = ("bettor", "to", "by", "player_squeezer", "banker_squeezer")

#: The stored events that have no message of their own, and the message that tells what they tell.
TOLD_BY: dict[str, str] = {
    "ShoeChanged": "shoe_started",
    "BettingOpened": "betting_opened",
    "BettingClosed": "betting_closed",
    "CoupSettled": "round_settled",
    "RoundVoided": "round_voided",
    "card_entered": "card_dealt",
    "BetPlaced": "my_bet",
    "BetCancelled": "state",
    "BetSwitched": "state",
}

#: The public fields of each round event the service stores: (always sent, sent when stored).
_ROUND_EVENTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "shoe_started": (("shoe", "commitment", "client_seed", "config"), ("entropy", "next_commitment")),
    "shoe_ended": (("shoe", "commitment", "server_seed", "client_seed", "coups", "reason"), ("chain_head",)),
    "table_changed": ((), ("open", "change_shoe", "settings")),
    "betting_opened": (("number", "closes_at", "betting_seconds", "coup_in_shoe"), ("layout",)),
    "betting_closed": (("number", "bets", "staked", "player_squeezer", "banker_squeezer"), ()),
    "round_settled": (("number", "result", "roads", "stats", "bets", "returned", "last"), ("chain_link",)),
    "round_voided": (("number", "reason", "refunded"), ("cards", "chain_link")),
}


def _stored(kind: str, event: Mapping[str, Any]) -> Message:
    """The head of a message made from a stored event: its type, the event id, table, round and time."""
    return {
        "type": kind,
        "id": event["id"],
        "table": event["table"],
        "round_id": event.get("round_id"),
        "ts": event["ts"],
    }


def public(event: Mapping[str, Any]) -> Message | None:
    """The public message of a stored event (``None``: the public does not see it, or another
    message tells it).

    ``event`` is a stored event as the store gives it: ``id``, ``table``, ``round_id``, ``type``
    (the stored kind), ``ts`` and its payload. Only the fields listed for each message are sent.

    >>> public({"id": 9, "table": "t", "round_id": None, "type": "BettorJoined", "ts": 2.0, "at": 2.0,
    ...         "bettor": "ann", "balance": 5000, "seat": 3, "variant": "macau"})
    {'type': 'bettor_joined', 'id': 9, 'table': 't', 'round_id': None, 'ts': 2.0, 'bettor': 'a***4991', 'seat': 3,
     'variant': 'macau'}
    >>> public({"id": 10, "table": "t", "round_id": 1, "type": "BetPlaced", "ts": 2.0}) is None
    True
    """
    kind = str(event.get("type"))
    table_event = _TABLE_EVENTS.get(kind)
    if table_event is not None:
        name, fields = table_event
        data = event_from_dict(dict(event)).public_dict()  # face-down cards as None
        return _masked(_stored(name, event) | {field: data[field] for field in fields})
    round_event = _ROUND_EVENTS.get(kind)
    if round_event is None:
        return None
    always, given = round_event
    message = _stored(kind, event) | {field: event.get(field) for field in always}
    return _masked(message | {field: event[field] for field in given if field in event})


def _masked(message: Message) -> Message:
    """The message with every bettor it names shown by the display name."""
    for field in _NAMED:
        if field in message:
            message[field] = display_name(message[field])
    return message


def countdown(
    *,
    table: str,
    round_id: int,
    seconds_left: float,
    totals: Mapping[str, int],
    exposure: int,
    players: int,
    ts: float | None = None,
) -> Message:
    """The countdown while betting is open (not stored; about once a second): the seconds left, the
    stake on each bet, the Banker less Player exposure (R21) and the number of bettors at the table.

    >>> countdown(table="t", round_id=4, seconds_left=2.5, totals={"banker": 300}, exposure=300, players=2, ts=9.0)
    {'type': 'countdown', 'table': 't', 'round_id': 4, 'ts': 9.0, 'seconds_left': 2.5, 'totals': {'banker': 300},
     'exposure': 300, 'players': 2}
    """
    return {
        "type": "countdown",
        "table": table,
        "round_id": round_id,
        "ts": time.time() if ts is None else ts,
        "seconds_left": seconds_left,
        "totals": dict(totals),
        "exposure": exposure,
        "players": players,
    }


def play_reminder(
    *, table: str, minutes_played: int, every_minutes: int, lost_today: int, daily_loss_limit: int | None, ts: float
) -> Message:
    """A player's play-time reminder (not stored): how long they have played, and today's loss.

    >>> play_reminder(table="t", minutes_played=60, every_minutes=30, lost_today=500, daily_loss_limit=None, ts=1.0)
    {'type': 'my_play_reminder', 'table': 't', 'ts': 1.0, 'minutes_played': 60, 'every_minutes': 30, 'lost_today': 500,
     'daily_loss_limit': None}
    """
    return {
        "type": "my_play_reminder",
        "table": table,
        "ts": ts,
        "minutes_played": minutes_played,
        "every_minutes": every_minutes,
        "lost_today": lost_today,
        "daily_loss_limit": daily_loss_limit,
    }


def betting_closed_fields(events: Iterable[TableEvent]) -> dict[str, Any]:
    """What the table's ``BettingClosed`` adds to the stored ``betting_closed``: who squeezes each side (R23)."""
    for event in events:
        if isinstance(event, BettingClosed):
            return {"player_squeezer": event.player_squeezer, "banker_squeezer": event.banker_squeezer}
    return {"player_squeezer": None, "banker_squeezer": None}


# --- private messages --------------------------------------------------------------------------


class Purse(Protocol):
    """A bettor's money at the table, as the table holds it (:class:`baccarat.table.TableBettor`)."""

    @property
    def balance(self) -> int: ...

    @property
    def owed(self) -> int: ...


def _money(name: str, bettors: Mapping[str, Purse]) -> dict[str, Any]:
    found = bettors.get(name)
    return {"at_table": 0 if found is None else found.balance, "commission_owed": 0 if found is None else found.owed}


def settled_private(settled: CoupSettled, bettors: Mapping[str, Purse]) -> dict[str, dict[str, Any]]:
    """The :data:`PRIVATE_FIELD` of a ``round_settled``: per bettor, how each bet settled and the
    money at the table after (``bettors``: the table's bettors once the coup is settled)."""
    out: dict[str, dict[str, Any]] = {}
    for s in settled.settlements:
        entry = out.get(s.bettor)
        if entry is None:
            entry = out[s.bettor] = {"bets": [], **_money(s.bettor, bettors)}
        entry["bets"].append(
            {
                "bet": s.kind.value,
                "stake": s.stake,
                "result": s.result.value,
                "paid": s.paid,
                "commission": s.commission,
                "owed": s.owed,
                "returned": s.returned,
                "level": s.level,
            }
        )
    return out


def voided_private(voided: RoundVoided, bettors: Mapping[str, Purse]) -> dict[str, dict[str, Any]]:
    """The :data:`PRIVATE_FIELD` of a ``round_voided``: per bettor, the stakes refunded (R18) and the
    money at the table after."""
    out: dict[str, dict[str, Any]] = {}
    for refund in voided.refunds:
        entry = out.get(refund.bettor)
        if entry is None:
            entry = out[refund.bettor] = {"refunds": [], **_money(refund.bettor, bettors)}
        entry["refunds"].append({"bet": refund.kind.value, "stake": refund.stake})
    return out


def _my_settlement(event: Mapping[str, Any], mine: Mapping[str, Any]) -> Message:
    bets = [dict(b) for b in mine.get("bets", ())]
    return _stored("my_settlement", event) | {
        "number": event.get("number"),
        "bets": bets,
        "returned": sum(int(b["returned"]) for b in bets),
        "at_table": mine.get("at_table"),
        "commission_owed": mine.get("commission_owed"),
    }


def _my_refund(event: Mapping[str, Any], mine: Mapping[str, Any]) -> Message:
    refunds = [dict(r) for r in mine.get("refunds", ())]
    return _stored("my_refund", event) | {
        "number": event.get("number"),
        "refunds": refunds,
        "refunded": sum(int(r["stake"]) for r in refunds),
        "at_table": mine.get("at_table"),
        "commission_owed": mine.get("commission_owed"),
    }


#: The private message of each table event that moves a bettor's money: its type and its fields
#: (the message's field, the event's field).
_MONEY_EVENTS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "BettorJoined": ("my_join", (("seat", "seat"), ("variant", "variant"), ("buy_in", "balance"))),
    "FundsAdded": ("my_funds", (("amount", "amount"),)),
    "CashedOut": ("my_cash_out", (("amount", "amount"), ("commission", "commission"))),
    "BettorLeft": ("my_leave", (("amount", "amount"), ("commission", "commission"))),
}

_ROUND_PRIVATE: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], Message]] = {
    "round_settled": _my_settlement,
    "round_voided": _my_refund,
}


def private(event: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """The private messages of a stored event: ``(bettor name, message)`` for each bettor it concerns.

    A settled round tells each bettor how their bets settled and their money at the table after; a
    voided round their refunds; joining, adding funds, cashing out and leaving the money moved.

    >>> private({"id": 11, "table": "t", "round_id": None, "type": "CashedOut", "ts": 3.0, "at": 3.0,
    ...          "bettor": "ann", "amount": 900, "commission": 100})
    [('ann', {'type': 'my_cash_out', 'id': 11, 'table': 't', 'round_id': None, 'ts': 3.0, 'amount': 900,
              'commission': 100})]
    """
    kind = str(event.get("type"))
    make = _ROUND_PRIVATE.get(kind)
    if make is not None:
        mine: Mapping[str, Mapping[str, Any]] = event.get(PRIVATE_FIELD) or {}
        return [(str(name), make(event, entry)) for name, entry in mine.items()]
    money = _MONEY_EVENTS.get(kind)
    if money is None:
        return []
    name, fields = money
    return [(str(event["bettor"]), _stored(name, event) | {field: event[source] for field, source in fields})]


def my_bet(
    table: str, bet: Mapping[str, Any], balance: int | None, *, at_table: int | None = None, ts: float | None = None
) -> Message:
    """A bet the table accepted, for every connection of its bettor: the stored bet (as in
    ``bet_ack``), the bettor's balance after it (as in ``bet_ack``: the wallet and the money at the
    tables) and their money at this table after it."""
    return {
        "type": "my_bet",
        "table": table,
        "round_id": bet.get("round_id"),
        "ts": time.time() if ts is None else ts,
        "bet": dict(bet),
        "balance": balance,
        "at_table": at_table,
    }


# --- replies -----------------------------------------------------------------------------------

#: The replies a connection gets to what it sent.
_REPLIES = frozenset(
    {"snapshot", "authenticated", "balance", "pong", "state", "bet_ack", *(f"{a}_ok" for a in ACTIONS)}
)


def reply(kind: str, ref: Ref, **fields: Any) -> Message:
    """A reply of type ``kind`` carrying the client's ``ref`` (``error`` has :func:`error`).

    >>> reply("pong", "r1", ts=5.0)
    {'type': 'pong', 'ref': 'r1', 'ts': 5.0}
    """
    if kind not in _REPLIES:
        raise ValueError(f"{kind!r} is not a reply (replies: {', '.join(sorted(_REPLIES))})")
    return {"type": kind, "ref": ref, **fields}


def snapshot(table: str, view: Mapping[str, Any]) -> Message:
    """The first message of a connection: the table as ``GET /api/tables/{id}`` shows it."""
    return reply("snapshot", None, table=table, state=dict(view))


def authenticated(user: Mapping[str, Any], ref: Ref = None) -> Message:
    """The answer to ``auth``: the user as ``GET /api/me`` shows them."""
    return reply("authenticated", ref, user=dict(user))


def balance(user: Mapping[str, Any], ref: Ref = None) -> Message:
    """The answer to ``balance``: the user as ``GET /api/me`` shows them."""
    return reply("balance", ref, user=dict(user))


def pong(ref: Ref = None, *, ts: float | None = None) -> Message:
    """The answer to ``ping``: the server's time."""
    return reply("pong", ref, ts=time.time() if ts is None else ts)


def state(view: Mapping[str, Any], ref: Ref = None) -> Message:
    """The answer to ``state``: the table's public state."""
    return reply("state", ref, state=dict(view))


def bet_ack(status: int, answer: Mapping[str, Any], ref: Ref = None) -> Message:
    """The answer to ``bet`` (201: placed; 200: the same ``client_id`` again): ``bet``, ``balance``, ``duplicate``."""
    return reply("bet_ack", ref, status=status, **answer)


def action_ok(action: str, answer: Mapping[str, Any], ref: Ref = None, *, status: int = 200) -> Message:
    """The answer to a table action (``join`` … ``hand_over``): ``<action>_ok`` with the REST answer."""
    return reply(f"{action}_ok", ref, status=status, **answer)


def error(status: int, problem: Mapping[str, Any], ref: Ref = None) -> Message:
    """A refusal: the HTTP status it would have on REST, the ``ref``, and the problem
    (``code``, ``rule``, ``params``, ``detail``: :meth:`baccarat.errors.BaccaratError.problem`).

    >>> error(503, {"detail": "the table's process did not answer; try again"})["code"]
    'table.unavailable'
    """
    return {
        "type": "error",
        "status": status,
        "ref": ref,
        "code": problem.get("code") or CODE_BY_STATUS.get(status, "request.invalid"),
        "rule": problem.get("rule"),
        "params": dict(problem.get("params") or {}),
        "detail": str(problem.get("detail", "")),
    }


# --- schemas -----------------------------------------------------------------------------------

_INT: dict[str, Any] = {"type": "integer"}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
_NUM: dict[str, Any] = {"type": "number"}
_STR: dict[str, Any] = {"type": "string"}
_BOOL: dict[str, Any] = {"type": "boolean"}
_OBJ: dict[str, Any] = {"type": "object"}
_REF: dict[str, Any] = {"type": ["string", "integer", "null"], "description": "the client's ref, echoed"}
_CARD: dict[str, Any] = {"type": "string", "pattern": "^[2-9TJQKA][SHDC]$"}
_BET_KIND: dict[str, Any] = {"enum": [k.value for k in BetKind]}
_POSITION: dict[str, Any] = {"enum": [p.value for p in Position]}
_SIDE: dict[str, Any] = {"enum": [s.value for s in Side]}


def _null(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _list(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None, *, extra: bool = True) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": required | (optional or {}),
        "required": list(required),
        "additionalProperties": extra,
    }


#: The head of a message made from a stored event.
_STORED_HEAD = {"id": _INT, "table": _STR, "round_id": _null(_INT), "ts": _NUM}

_USER = _object(
    {
        "id": _INT,
        "name": _STR,
        "role": _STR,
        "balance": _INT,
        "wallet": _INT,
        "at_tables": _OBJ,
        "commission_owed": _INT,
    }
)
_BET_VIEW = _object(
    {"id": _null(_INT), "round_id": _null(_INT), "client_id": _STR, "bet": _BET_KIND, "stake": _INT, "status": _STR}
)
_RESULT = _object(
    {
        "cards": _list(_CARD),
        "player": _object({"cards": _list(_CARD), "total": _INT}),
        "banker": _object({"cards": _list(_CARD), "total": _INT}),
        "winner": {"enum": [w.value for w in Winner]},
        "natural": _BOOL,
        "player_pair": _BOOL,
        "banker_pair": _BOOL,
    },
    {
        # why each hand drew or stood (R12–R15): a code and its params, and the English text
        "explained": _list(_object({"code": _STR, "params": _OBJ, "text": _STR})),
    },
)
_PUBLIC_STATE = _object({"phase": _STR, "bettors": _list(_OBJ), "bets": _list(_OBJ), "cards": _OBJ, "squeezers": _OBJ})
_SEAT_VIEW = _object({"at_table": _BOOL}, {"seat": _null(_INT), "balance": _INT, "available": _INT, "owed": _INT})
_MONEY = {"at_table": _INT, "commission_owed": _INT}


def _schema(
    kind: str, description: str, fields: dict[str, Any], optional: dict[str, Any] | None = None
) -> dict[str, Any]:
    body = _object({"type": {"const": kind}} | fields, optional, extra=False)
    return {"$schema": DIALECT, "title": kind, "description": description} | body


def _public_schemas() -> dict[str, dict[str, Any]]:
    h = _STORED_HEAD
    return {
        "shoe_started": _schema(
            "shoe_started",
            "A new provably fair shoe (R37): the SHA-256 commitment of its server seed, the client seed, its settings; "
            "`entropy`: the players' contributions the client seed was made from, `next_commitment`: the commitment of "
            "the next shoe, to which players may now contribute.",
            h | {"shoe": _INT, "commitment": _STR, "client_seed": _STR, "config": _OBJ},
            {"entropy": _list(_STR), "next_commitment": _STR},
        ),
        "shoe_ended": _schema(
            "shoe_ended",
            "The shoe ended: its server seed revealed, so that anyone can deal it again and check every coup; "
            "`chain_head`: the fairness chain's last link.",
            h
            | {
                "shoe": _INT,
                "commitment": _STR,
                "server_seed": _STR,
                "client_seed": _STR,
                "coups": _INT,
                "reason": _STR,
            },
            {"chain_head": _STR},
        ),
        "table_changed": _schema(
            "table_changed",
            "The admin opened or closed the table (`open`), asked for a new shoe (`change_shoe`), or changed its "
            "settings (`settings`: the house's changes over the tables file, in force from the next round).",
            h,
            {"open": _BOOL, "change_shoe": _BOOL, "settings": _OBJ},
        ),
        "betting_opened": _schema(
            "betting_opened",
            "Betting is open on round `round_id` (number `number`) until `closes_at`; pre-dealt tables (R19) add the "
            "face-down `layout` and its commitment.",
            h | {"number": _INT, "closes_at": _NUM, "betting_seconds": _NUM, "coup_in_shoe": _null(_INT)},
            {"layout": _OBJ},
        ),
        "countdown": _schema(
            "countdown",
            "While betting is open, about once a second (not stored): the seconds left, the stake on each bet "
            "(`totals`), the Banker less Player exposure (R21) and the number of bettors at the table.",
            {
                "table": _STR,
                "round_id": _INT,
                "ts": _NUM,
                "seconds_left": _NUM,
                "totals": {"type": "object", "additionalProperties": _INT},
                "exposure": _INT,
                "players": _COUNT,
            },
        ),
        "betting_closed": _schema(
            "betting_closed",
            "No more bets: how many were placed and their total stake, and who squeezes each side (R23; `null`: "
            "the dealer).",
            h
            | {
                "number": _INT,
                "bets": _COUNT,
                "staked": _COUNT,
                "player_squeezer": _null(_STR),
                "banker_squeezer": _null(_STR),
            },
        ),
        **_deal_schemas(),
    }


def _deal_schemas() -> dict[str, dict[str, Any]]:
    h = _STORED_HEAD
    return {
        "card_dealt": _schema(
            "card_dealt",
            "A card went to `position`; `card` is `null` while it lies face down for its squeezer (R23); `exposed`: it "
            "came out of the shoe face up (R9).",
            h | {"position": _POSITION, "card": _null(_CARD), "face_down": _BOOL, "exposed": _BOOL},
        ),
        "shoe_burned": _schema(
            "shoe_burned",
            "A dealer-entry table's new shoe was burned by its method (R4): `count` cards in all; `card`: the one "
            "turned face up by method (b) (`null` for the other methods).",
            h | {"shoe_number": _COUNT, "count": _COUNT, "card": _null(_CARD)},
        ),
        "card_corrected": _schema(
            "card_corrected",
            "The dealer corrected the last card entered, before the next was drawn (R18): `position` holds `card` "
            "instead of `replaced` (both `null` while the card lies face down for its squeezer).",
            h | {"position": _POSITION, "card": _null(_CARD), "replaced": _null(_CARD), "face_down": _BOOL},
        ),
        "card_revealed": _schema(
            "card_revealed",
            "A face-down card was turned, by the squeezer `by` (`null`: the dealer).",
            h | {"position": _POSITION, "card": _CARD, "by": _null(_STR)},
        ),
        "squeeze_handed_over": _schema(
            "squeeze_handed_over",
            "The squeezer of `side` handed the squeeze to `to` (`null`: the dealer).",
            h | {"side": _SIDE, "bettor": _STR, "to": _null(_STR)},
        ),
        "round_settled": _schema(
            "round_settled",
            "The coup is over: its `result` (cards in deal order and `CoupResult.to_dict()`), the roads, the shoe's "
            "statistics, how many bets settled and the total returned; `last`: the shoe's last coup (R6); "
            "`chain_link`: the shoe's fairness chain after this round's record.",
            h
            | {
                "number": _INT,
                "result": _RESULT,
                "roads": _object({"bead_plate": {}, "big_road": {}}),
                "stats": _OBJ,
                "bets": _COUNT,
                "returned": _COUNT,
                "last": _BOOL,
            },
            {"chain_link": _STR},
        ),
        "round_voided": _schema(
            "round_voided",
            "The round was voided (R18): every bet returned in full (`refunded` in all); `cards`: the cards it spent.",
            h | {"number": _INT, "reason": _STR, "refunded": _COUNT},
            {"cards": _OBJ, "chain_link": _STR},
        ),
        "cut_card_out": _schema(
            "cut_card_out", "The cut card came out (R6).", h | {"shoe_number": _INT, "coup_number": _INT}
        ),
        **_bettor_schemas(),
    }


def _bettor_schemas() -> dict[str, dict[str, Any]]:
    h = _STORED_HEAD
    return {
        "bettor_joined": _schema(
            "bettor_joined",
            "A bettor came to the table, seated (`seat`) or standing (`null`).",
            h | {"bettor": _STR, "seat": _null(_INT), "variant": _STR},
        ),
        "bettor_sat": _schema("bettor_sat", "A bettor took a seat (R20).", h | {"bettor": _STR, "seat": _INT}),
        "bettor_left": _schema("bettor_left", "A bettor left the table.", h | {"bettor": _STR}),
        "cashed_out": _schema("cashed_out", "A bettor took money from the table.", h | {"bettor": _STR}),
        "funds_added": _schema("funds_added", "A bettor brought more money to the table.", h | {"bettor": _STR}),
        "variant_switched": _schema(
            "variant_switched", "A bettor switched variant (R28).", h | {"bettor": _STR, "variant": _STR}
        ),
    }


def _private_schemas() -> dict[str, dict[str, Any]]:
    h = _STORED_HEAD
    settled_bet = _object(
        {
            "bet": _BET_KIND,
            "stake": _COUNT,
            "result": {"enum": [r.value for r in BetResult]},
            "paid": _INT,
            "commission": _COUNT,
            "owed": _COUNT,
            "returned": _COUNT,
            "level": _STR,
        },
        extra=False,
    )
    return {
        "my_bet": _schema(
            "my_bet",
            "To every connection of the bettor: a bet the table accepted (`bet` as in `bet_ack`), the bettor's "
            "`balance` after it (as in `bet_ack`) and their money at this table after it (`at_table`). The same "
            "`bet.id` may come again: it is one bet.",
            {
                "table": _STR,
                "round_id": _null(_INT),
                "ts": _NUM,
                "bet": _BET_VIEW,
                "balance": _null(_INT),
                "at_table": _null(_INT),
            },
        ),
        "my_settlement": _schema(
            "my_settlement",
            "To every connection of the bettor, once a round settles: each of their bets' result, payout, "
            "commission (R27: `owed` in the commission box) and the amount returned, the total returned, and their "
            "money at the table after (`at_table`, `commission_owed`).",
            h | {"number": _INT, "bets": _list(settled_bet), "returned": _COUNT} | _MONEY,
        ),
        "my_refund": _schema(
            "my_refund",
            "To every connection of the bettor, once a round is voided (R18): their stakes refunded and their money "
            "at the table after.",
            h
            | {
                "number": _INT,
                "refunds": _list(_object({"bet": _BET_KIND, "stake": _COUNT}, extra=False)),
                "refunded": _COUNT,
            }
            | _MONEY,
        ),
        "my_join": _schema(
            "my_join",
            "To every connection of the bettor: they came to the table with `buy_in` from the wallet.",
            h | {"seat": _null(_INT), "variant": _STR, "buy_in": _COUNT},
        ),
        "my_funds": _schema(
            "my_funds",
            "To every connection of the bettor: they brought `amount` more to the table.",
            h | {"amount": _COUNT},
        ),
        "my_cash_out": _schema(
            "my_cash_out",
            "To every connection of the bettor: they took `amount` back to the wallet after paying the commission box "
            "`commission` (R27).",
            h | {"amount": _COUNT, "commission": _COUNT},
        ),
        "my_play_reminder": _schema(
            "my_play_reminder",
            "To a connection of a player who set a play-time reminder, every `every_minutes` of their session (not "
            "stored): how long they have played, what they lost today (UTC) and their daily loss limit (`null`: none).",
            {
                "table": _STR,
                "ts": _NUM,
                "minutes_played": _COUNT,
                "every_minutes": _COUNT,
                "lost_today": _INT,
                "daily_loss_limit": _null(_INT),
            },
        ),
        "my_leave": _schema(
            "my_leave",
            "To every connection of the bettor: they left, taking `amount` back to the wallet after paying the "
            "commission box `commission` (R27).",
            h | {"amount": _COUNT, "commission": _COUNT},
        ),
    }


def _reply_schema(kind: str, description: str, fields: dict[str, Any], *, extra: bool = False) -> dict[str, Any]:
    body = _object({"type": {"const": kind}, "ref": _REF} | fields, extra=extra)
    return {"$schema": DIALECT, "title": kind, "description": description} | body


def _reply_schemas() -> dict[str, dict[str, Any]]:
    status = {"type": "integer", "enum": [200, 201]}
    answers = {
        "join": ("come to the table (201)", _SEAT_VIEW),
        "sit": ("take a seat", _SEAT_VIEW),
        "leave": ("leave: the money taken back and the commission paid", _object({"amount": _INT, "commission": _INT})),
        "cash_out": (
            "cash out: the money taken back and the commission paid",
            _object({"amount": _INT, "commission": _INT}),
        ),
        "switch_variant": ("switch variant (R28)", _SEAT_VIEW),
        "reveal": ("turn a side's cards (R23): the table's public state", _PUBLIC_STATE),
        "hand_over": ("hand the squeeze over (R23): the table's public state", _PUBLIC_STATE),
    }
    actions = {}
    for action, (what, answer) in answers.items():
        kind = f"{action}_ok"
        body = _reply_schema(
            kind, f"The answer to `{action}`: {what}, as the REST answer.", {"status": status}, extra=True
        )
        body["properties"] |= answer["properties"]
        body["required"] += answer["required"]
        actions[kind] = body
    snapshot = _reply_schema(
        "snapshot",
        "The first message of every connection: the table as `GET /api/tables/{id}` shows it.",
        {"table": _STR, "state": _object({"id": _STR, "bets": _list(_OBJ), "table": _PUBLIC_STATE})},
    )
    snapshot["required"].remove("ref")
    return {
        "snapshot": snapshot,
        "authenticated": _reply_schema(
            "authenticated", "The answer to `auth`: the user as `GET /api/me`.", {"user": _USER}
        ),
        "balance": _reply_schema("balance", "The answer to `balance`: the user as `GET /api/me`.", {"user": _USER}),
        "pong": _reply_schema("pong", "The answer to `ping`: the server's time.", {"ts": _NUM}),
        "state": _reply_schema("state", "The answer to `state`: the table's public state.", {"state": _PUBLIC_STATE}),
        "bet_ack": _reply_schema(
            "bet_ack",
            "The answer to `bet` once it is durably stored: 201 placed, 200 the same `client_id` again "
            "(`duplicate`, the stored bet); `balance`: the bettor's after it; `at_table`: their money at this "
            "table after it (`null` for a duplicate).",
            {"status": status, "bet": _BET_VIEW, "balance": _null(_INT), "at_table": _null(_INT), "duplicate": _BOOL},
        ),
        **actions,
        "error": _reply_schema(
            "error",
            "A refusal: the HTTP status it has on REST and the problem (`code` to translate by, the `rule` of docs/rules.md, "
            "the `params` it names, the English `detail`).",
            {
                "status": {"type": "integer", "minimum": 400, "maximum": 599},
                "code": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$"},
                "rule": _null({"type": "string", "pattern": "^R[0-9]+$"}),
                "params": _OBJ,
                "detail": _STR,
            },
        ),
    }


#: A JSON Schema (draft 2020-12) of every message the websocket sends, by ``type``.
SCHEMAS: dict[str, dict[str, Any]] = _public_schemas() | _private_schemas() | _reply_schemas()
