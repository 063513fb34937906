"""The websocket's messages: a scripted table's stored events turned into public and private
messages (one message per thing told, face-down cards hidden, nobody's money in public), every
message valid against its schema, the hub's fan-out (each user's messages to all of that user's
connections, one text for everyone), and docs/api.md in step with the schemas."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from tests.message_trace.plugin import check
from tests.server.conftest import betting_round, register
from tests.server.message_docs import API_DOC, GENERATED, documented, group, render

from baccarat.server import game
from baccarat.server.hub import Hub, PgListener, Subscriber
from baccarat.server.notes import NOTE_LIMIT, event_notes, private_notes, transient_note
from baccarat.server.observer import messages
from baccarat.server.observer.names import display_name
from baccarat.table import Table
from baccarat.table_config import DealSource, TableConfig
from baccarat.table_events import EVENT_TYPES, CoupSettled, RoundVoided, TableEvent

TABLE = "t"
#: Keys that hold money or what is one bettor's alone: never in a public message.
PRIVATE_KEYS = {"balance", "amount", "commission", "buy_in", "at_table", "commission_owed", "private", "settlements"}


class Journal:
    """Stores a table's events as the service does: table events and the round events of the
    runner, each a stored event (``id``, ``table``, ``round_id``, ``type``, ``ts`` and its payload)."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.stored: list[dict[str, Any]] = []
        self.round_id: int | None = None

    def table(self, events: list[TableEvent]) -> list[TableEvent]:
        for event in events:
            self._add(event.type, event.to_dict())
        return events

    def round(self, kind: str, payload: dict[str, Any]) -> None:
        self._add(kind, payload)

    def _add(self, kind: str, payload: dict[str, Any]) -> None:
        event_id = next(self.ids)
        self.stored.append(
            {"id": event_id, "table": TABLE, "round_id": self.round_id, "type": kind, "ts": float(event_id), **payload}
        )


def _settle_payload(settled: CoupSettled, table: Table) -> dict[str, Any]:
    cards = [settled.player[0], settled.banker[0], settled.player[1], settled.banker[1]]
    cards += list(settled.player[2:]) + list(settled.banker[2:])
    texts = [str(c) for c in cards]
    return {
        "number": 1,
        "result": {"cards": texts, **game.coup_from_cards(texts).to_dict()},
        "bets": len(settled.settlements),
        "returned": sum(s.returned for s in settled.settlements),
        "roads": {"bead_plate": [], "big_road": {}},
        "stats": {},
        "last": False,
        messages.PRIVATE_FIELD: messages.settled_private(settled, table.state.bettors),
    }


@pytest.fixture(scope="module")
def scripted() -> Journal:
    """Two rounds of a squeeze table (R23): one settled, one voided (R18), with joins, a cash-out and a leave."""
    table = Table(TableConfig(deal_source=DealSource.DEALER_ENTRY, min_bet=100, max_bet=10_000, squeeze=True))
    journal = Journal()
    journal.table(table.join("ann", balance=50_000, seat=1, now=1))
    journal.table(table.join("bob", balance=30_000, seat=2, now=1))
    journal.table(table.join("sam", balance=9_000, now=1))
    journal.round_id = 101
    journal.table(table.open_betting(now=2))
    journal.round("betting_opened", {"number": 1, "closes_at": 12.0, "betting_seconds": 10, "coup_in_shoe": 1})
    for name, bet, stake in (("ann", "banker", 2_000), ("bob", "player", 1_000), ("sam", "tie", 500)):
        journal.table(table.place_bet(name, bet, stake, now=3))
    closed = journal.table(table.close_betting(now=12))
    journal.round("betting_closed", {"number": 1, **messages.betting_closed_fields(closed), "bets": 3, "staked": 3_500})
    for card in ("4S", "KH", "5D", "QC"):  # Player 9, Banker 0: naturals, nobody draws
        journal.table(table.deal_card(card, now=13))
    journal.table(table.reveal("player", by="bob", now=14))
    events = journal.table(table.reveal("banker", by="ann", now=15))
    settled = next(e for e in events if isinstance(e, CoupSettled))
    journal.round("round_settled", _settle_payload(settled, table))
    journal.round_id = None
    journal.table(table.cash_out("ann", 1_000, now=16))
    journal.table(table.leave("bob", now=16))
    journal.round_id = 102
    journal.table(table.open_betting(now=17))
    journal.round("betting_opened", {"number": 2, "closes_at": 27.0, "betting_seconds": 10, "coup_in_shoe": 2})
    journal.table(table.place_bet("ann", "player", 3_000, now=18))
    voided = journal.table(table.void(reason="misdeal", now=19))[0]
    assert isinstance(voided, RoundVoided)
    private = messages.voided_private(voided, table.state.bettors)
    journal.round(
        "round_voided", {"number": 2, "reason": "misdeal", "refunded": 3_000, messages.PRIVATE_FIELD: private}
    )
    return journal


def _public(journal: Journal) -> list[dict[str, Any]]:
    return [m for m in map(messages.public, journal.stored) if m is not None]


def _private(journal: Journal) -> list[tuple[str, dict[str, Any]]]:
    return [pair for event in journal.stored for pair in messages.private(event)]


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def _valid(message: dict[str, Any]) -> bool:
    return bool(Draft202012Validator(messages.SCHEMAS[message["type"]]).is_valid(message))


def test_r23_public_messages_one_per_thing_told_with_face_down_cards_hidden(scripted: Journal) -> None:
    public = _public(scripted)
    assert [m["type"] for m in public] == [
        *["bettor_joined"] * 3,
        "betting_opened",
        "betting_closed",
        *["card_dealt"] * 4,
        *["card_revealed"] * 4,
        "round_settled",
        "cashed_out",
        "bettor_left",
        "betting_opened",
        "round_voided",
    ]
    closed = next(m for m in public if m["type"] == "betting_closed")
    masked = (display_name("bob"), display_name("ann"), 3_500)  # bettors are named by their display names
    assert (closed["player_squeezer"], closed["banker_squeezer"], closed["staked"]) == masked
    dealt = [m for m in public if m["type"] == "card_dealt"]
    assert all(m["card"] is None and m["face_down"] for m in dealt)
    assert [m["card"] for m in public if m["type"] == "card_revealed"] == ["4S", "5D", "KH", "QC"]
    settled = next(m for m in public if m["type"] == "round_settled")
    assert settled["result"]["winner"] == "player" and settled["bets"] == 3 and settled["round_id"] == 101
    # the stored kinds told by another message, and the bets, send nothing of their own
    told = {e["type"] for e in scripted.stored if messages.public(e) is None}
    assert told == {"ShoeChanged", "BettingOpened", "BetPlaced", "BettingClosed", "CoupSettled", "RoundVoided"}
    assert told <= set(messages.TOLD_BY)


def test_public_messages_carry_nobody_s_money(scripted: Journal) -> None:
    public = _public(scripted)
    assert not PRIVATE_KEYS & {key for m in public for key in _keys(m)}
    assert "30000" not in json.dumps(public)  # bob's buy-in


def test_r27_private_messages_tell_each_bettor_their_settlement_refunds_and_money(scripted: Journal) -> None:
    private = _private(scripted)
    kinds = [(name, m["type"]) for name, m in private]
    assert kinds == [
        ("ann", "my_join"),
        ("bob", "my_join"),
        ("sam", "my_join"),
        ("ann", "my_settlement"),
        ("bob", "my_settlement"),
        ("sam", "my_settlement"),
        ("ann", "my_cash_out"),
        ("bob", "my_leave"),
        ("ann", "my_refund"),
    ]
    by = {(name, m["type"]): m for name, m in private}
    assert by[("bob", "my_join")]["buy_in"] == 30_000
    ann = by[("ann", "my_settlement")]
    assert ann["bets"] == [
        {
            "bet": "banker",
            "stake": 2_000,
            "result": "lose",
            "paid": 0,
            "commission": 0,
            "owed": 0,
            "returned": 0,
            "level": "",
        }
    ]
    assert (ann["returned"], ann["at_table"], ann["commission_owed"], ann["round_id"]) == (0, 48_000, 0, 101)
    bob = by[("bob", "my_settlement")]
    assert (bob["bets"][0]["result"], bob["bets"][0]["paid"], bob["returned"], bob["at_table"]) == (
        "win",
        1_000,
        2_000,
        31_000,
    )
    assert by[("sam", "my_settlement")]["at_table"] == 8_500
    assert (by[("ann", "my_cash_out")]["amount"], by[("bob", "my_leave")]["amount"]) == (1_000, 31_000)
    refund = by[("ann", "my_refund")]
    assert refund["refunds"] == [{"bet": "player", "stake": 3_000}] and refund["refunded"] == 3_000
    assert refund["at_table"] == 47_000 and refund["round_id"] == 102


def test_every_table_event_has_a_message_or_is_told_by_one() -> None:
    has_own = set(messages._TABLE_EVENTS)
    told = {kind for kind in messages.TOLD_BY if kind in EVENT_TYPES}
    assert has_own | told == set(EVENT_TYPES) and not has_own & told
    assert all(target in messages.SCHEMAS for target in messages.TOLD_BY.values())


def _replies() -> list[dict[str, Any]]:
    user = {
        "id": 1,
        "name": "ann",
        "role": "player",
        "balance": 100,
        "wallet": 60,
        "at_tables": {TABLE: 40},
        "commission_owed": 0,
    }
    bet = {"id": 5, "round_id": 101, "client_id": "c1", "bet": "banker", "stake": 100, "status": "accepted"}
    state = {"phase": "betting", "bettors": [], "bets": [], "cards": {}, "squeezers": {}}
    problem = {"code": "limit.min", "rule": "R21", "params": {"stake": 50}, "detail": "too small [R21]"}
    return [
        messages.snapshot(TABLE, {"id": TABLE, "bets": [], "table": state}),
        messages.authenticated(user, "a"),
        messages.balance(user, 3),
        messages.pong("p"),
        messages.state(state),
        messages.bet_ack(201, {"bet": bet, "balance": 99_900, "at_table": 9_900, "duplicate": False}, 7),
        messages.action_ok("join", {"at_table": True, "seat": None, "balance": 40}, "j", status=201),
        messages.action_ok("leave", {"amount": 40, "commission": 0, "at_table": False}),
        messages.action_ok("reveal", state),
        messages.error(400, problem, 8),
        messages.error(503, {"detail": "try again"}),
        messages.my_bet(TABLE, bet, 99_900),
        messages.countdown(
            table=TABLE, round_id=101, seconds_left=3.5, totals={"banker": 100}, exposure=100, players=1
        ),
    ]


def test_every_message_is_valid_against_its_schema(scripted: Journal) -> None:
    sent = _public(scripted) + [m for _, m in _private(scripted)] + _replies()
    invalid = [m for m in sent if not _valid(m)]
    assert not invalid
    assert {m["type"] for m in sent} <= set(messages.SCHEMAS)


def test_the_schemas_catch_a_missing_or_misnamed_field(scripted: Journal) -> None:
    for schema in messages.SCHEMAS.values():
        Draft202012Validator.check_schema(schema)
    assert all(s["title"] == kind and s["properties"]["type"]["const"] == kind for kind, s in messages.SCHEMAS.items())
    settlement = next(m for _, m in _private(scripted) if m["type"] == "my_settlement")
    renamed = {("at_tabel" if k == "at_table" else k): v for k, v in settlement.items()}
    dealt = next(m for m in _public(scripted) if m["type"] == "card_dealt")
    for broken in (
        renamed,
        {k: v for k, v in dealt.items() if k != "card"},
        dealt | {"card": "1Z"},
        dealt | {"balance": 5},
    ):
        assert not _valid(broken), broken
    assert not _valid(messages.error(400, {"code": "Not A Code", "detail": "x"}))
    with pytest.raises(ValueError, match="not a reply"):
        messages.reply("bet_ok", None)


# --- the hub --------------------------------------------------------------------------------------


def test_the_hub_sends_each_user_s_messages_to_all_their_connections_and_one_text_to_all(scripted: Journal) -> None:
    hub = Hub()
    ann_tab, ann_phone, bob, guest = (hub.subscribe(TABLE) for _ in range(4))
    hub.authenticate(ann_tab, "ann")
    hub.authenticate(ann_phone, "ann")
    hub.authenticate(bob, "bob")
    elsewhere = hub.subscribe("other")
    hub.authenticate(elsewhere, "ann")
    settled = next(e for e in scripted.stored if e["type"] == "round_settled")
    hub.deliver(settled)
    texts = {
        name: [s.queue.get_nowait().text for _ in range(s.queue.qsize())]
        for name, s in (
            ("tab", ann_tab),
            ("phone", ann_phone),
            ("bob", bob),
            ("guest", guest),
            ("elsewhere", elsewhere),
        )
    }
    assert [len(texts[k]) for k in ("tab", "phone", "bob", "guest", "elsewhere")] == [2, 2, 2, 1, 0]
    assert texts["tab"][0] is texts["guest"][0] is texts["bob"][0]  # encoded once for everyone
    assert texts["tab"][1] is texts["phone"][1] and '"type":"my_settlement"' in texts["tab"][1]
    assert '"at_table":48000' in texts["tab"][1] and '"at_table":31000' in texts["bob"][1]
    assert '"private"' not in texts["guest"][0]
    # a connection that logs in as someone else, or goes, hears no more of ann's
    hub.authenticate(ann_phone, "bob")
    hub.unsubscribe(ann_tab)
    bet = {"id": 1, "round_id": 101, "client_id": "c1", "bet": "tie", "stake": 100, "status": "accepted"}
    hub.tell(TABLE, [("ann", messages.my_bet(TABLE, bet, 10))])
    assert (ann_tab.queue.qsize(), ann_phone.queue.qsize(), hub.connections(TABLE, "ann")) == (0, 0, 0)
    assert hub.connections(TABLE, "bob") == 2


@pytest.fixture
def ann_listening() -> Iterator[tuple[Hub, asyncio.AbstractEventLoop, Subscriber]]:
    """A hub on a loop of its own, and ann's one connection to the table."""
    hub = Hub()
    loop = asyncio.new_event_loop()
    try:
        hub.loop = loop
        ann = hub.subscribe(TABLE)
        hub.authenticate(ann, "ann")
        yield hub, loop, ann
    finally:
        loop.close()


def test_private_messages_travel_between_processes_as_json_notes(
    ann_listening: tuple[Hub, asyncio.AbstractEventLoop, Subscriber],
) -> None:
    hub, loop, ann = ann_listening
    bet = {"id": 9, "round_id": 101, "client_id": "c" * 64, "bet": "banker", "stake": 100, "status": "accepted"}
    many = [("ann", messages.my_bet(TABLE, bet | {"id": n}, 1_000 - n)) for n in range(60)]
    notes = private_notes(TABLE, many)
    assert len(notes) > 1 and all(len(note.encode()) <= 7000 for note in notes)
    listener = PgListener(conninfo="", channel="c", fetch=lambda _: [], hub=hub)
    for note in notes:
        listener.handle(note)
    tick = messages.countdown(table=TABLE, round_id=101, seconds_left=1.0, totals={}, exposure=0, players=1)
    listener.handle(json.dumps(tick))
    loop.run_until_complete(asyncio.sleep(0))
    got = [ann.queue.get_nowait().text for _ in range(ann.queue.qsize())]
    assert len(got) == 61 and got[:60] == [messages.encode(m) for _, m in many] and '"countdown"' in got[60]


def test_a_process_skips_the_private_notes_it_sent_itself(
    ann_listening: tuple[Hub, asyncio.AbstractEventLoop, Subscriber],
) -> None:
    hub, loop, ann = ann_listening
    bet = {"id": 9, "round_id": 101, "client_id": "c1", "bet": "banker", "stake": 100, "status": "accepted"}
    mine = [("ann", messages.my_bet(TABLE, bet, 900))]
    listener = PgListener(conninfo="", channel="c", fetch=lambda _: [], hub=hub, sender="this:1")
    for sender in ("this:1", "other:2", None):
        for note in private_notes(TABLE, mine, sender=sender):
            listener.handle(note)
    loop.run_until_complete(asyncio.sleep(0))
    assert ann.queue.qsize() == 2  # from the other process, and from a sender that gave no name


def test_the_events_of_one_commit_travel_in_one_note_read_in_one_query(
    ann_listening: tuple[Hub, asyncio.AbstractEventLoop, Subscriber],
) -> None:
    hub, loop, ann = ann_listening
    stored = {
        7: {"id": 7, "table": TABLE, "round_id": 101, "type": "betting_closed", "ts": 1.0, "number": 1}
        | {"bets": 2, "staked": 300},
        8: {"id": 8, "table": TABLE, "round_id": 101, "type": "table_changed", "ts": 1.0, "open": False},
    }
    asked: list[list[int]] = []

    def fetch(ids: list[int]) -> list[dict[str, Any]]:
        asked.append(ids)
        return [stored[i] for i in ids if i in stored]

    listener = PgListener(conninfo="", channel="c", fetch=fetch, hub=hub, sender="this:1")
    notes = event_notes([7, 8], sender="other:2")
    assert notes == ['{"from":"other:2","events":[7,8]}']
    listener.handle(event_notes([7, 8], sender="this:1")[0])  # its own: delivered already, not read
    listener.handle(notes[0])
    loop.run_until_complete(asyncio.sleep(0))
    assert asked == [[7, 8]]  # one read for the note
    got = [json.loads(ann.queue.get_nowait().text) for _ in range(ann.queue.qsize())]
    assert [m["type"] for m in got] == ["betting_closed", "table_changed"]
    # a countdown from another process reaches the clients without the note's sender
    tick = messages.countdown(table=TABLE, round_id=101, seconds_left=1.0, totals={}, exposure=0, players=1)
    note = transient_note(tick, sender="other:2")
    assert note is not None and note.startswith('{"from":"other:2",')
    listener.handle(note)
    loop.run_until_complete(asyncio.sleep(0))
    assert json.loads(ann.queue.get_nowait().text) == json.loads(messages.encode(tick))


def test_long_lists_of_event_ids_are_split_into_notes_postgresql_takes() -> None:
    ids = list(range(10**9, 10**9 + 3000))
    notes = event_notes(ids, sender="host:123:abcd")
    assert len(notes) > 1 and all(len(n.encode()) <= NOTE_LIMIT for n in notes)
    assert [i for n in notes for i in json.loads(n)["events"]] == ids


# --- a running table: every connection of a user ------------------------------------------------------


def _until(ws: Any, wanted: Any, seen: list[dict[str, Any]], *, limit: int = 500) -> dict[str, Any]:
    """Read messages (into ``seen``) until one for which ``wanted(message)`` holds."""
    for _ in range(limit):
        message = ws.receive_json()
        seen.append(message)
        if wanted(message):
            return dict(message)
    raise AssertionError("the message did not come")


def test_each_user_s_bets_and_payouts_reach_every_connection_of_that_user(make_client: Any, db_url: str) -> None:
    client = make_client(db_url, betting=5.0)  # on the real clock: room for two REST bets on a loaded machine
    users = {"ann": register(client, "ann"), "bob": register(client, "bob")}
    with (
        client.websocket_connect("/ws/tables/macau") as tab,
        client.websocket_connect("/ws/tables/macau") as phone,
        client.websocket_connect("/ws/tables/macau") as other,
    ):
        seen: dict[str, list[dict[str, Any]]] = {"tab": [], "phone": [], "other": []}
        for key, ws, name in (("tab", tab, "ann"), ("phone", phone, "ann"), ("other", other, "bob")):
            assert ws.receive_json()["type"] == "snapshot"
            ws.send_json({"type": "auth", "token": users[name]["Authorization"][7:], "ref": key})
            _until(ws, lambda m: m["type"] == "authenticated", seen[key])
        current = betting_round(client, "macau", left=3.0)
        stakes = {"ann": 1_000, "bob": 300}
        for name, stake in stakes.items():
            body = {"client_id": f"{name}-1", "bet": "tie", "stake": stake, "round_id": current["id"]}
            placed = client.post("/api/tables/macau/bets", json=body, headers=users[name])  # REST: no socket asked
            assert placed.status_code == 201, placed.text
        ann_bets = set()
        for key, ws in (("tab", tab), ("phone", phone)):  # both of ann's connections hear of her bet and payout
            mine = _until(ws, lambda m: m["type"] == "my_bet", seen[key])
            assert mine["bet"]["client_id"] == "ann-1" and mine["at_table"] == 100_000 - 1_000
            ann_bets.add(mine["bet"]["id"])
            paid = _until(ws, lambda m: m["type"] == "my_settlement", seen[key])
            assert paid["round_id"] == current["id"] and [b["stake"] for b in paid["bets"]] == [1_000]
            assert paid["at_table"] == 100_000 - 1_000 + paid["returned"]
        assert len(ann_bets) == 1
        theirs = _until(other, lambda m: m["type"] == "my_settlement", seen["other"])
        assert [b["stake"] for b in theirs["bets"]] == [300]
    # nobody heard another's private messages, and nothing public told anyone's bet or money
    assert {m["bet"]["client_id"] for m in seen["other"] if m["type"] == "my_bet"} == {"bob-1"}
    for key in ("tab", "phone"):
        assert {m["bet"]["client_id"] for m in seen[key] if m["type"] == "my_bet"} == {"ann-1"}
    public = {kind for kind in messages.SCHEMAS if group(kind) == 0}
    for message in (m for ms in seen.values() for m in ms):
        assert _valid(message), message
        assert message["type"] not in public or not PRIVATE_KEYS & set(_keys(message)), message


def test_the_session_check_finds_every_message_that_breaks_its_schema(tmp_path: Path) -> None:
    good = messages.encode(messages.pong("p", ts=1.0))
    lines = [good, good, json.dumps({"type": "pong", "ref": None}), json.dumps({"type": "teleported"})]
    (tmp_path / "1.jsonl").write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    (tmp_path / "2.jsonl").write_text(lines[3] + "\n", encoding="utf-8")
    checked, problems = check(tmp_path)
    assert checked == 3 and len(problems) == 2
    assert any("'ts' is a required property" in p for p in problems) and any("teleported" in p for p in problems)


# --- docs/api.md ------------------------------------------------------------------------------------


def test_the_docs_list_every_message_with_its_schema() -> None:
    text = API_DOC.read_text(encoding="utf-8")
    assert documented(text) == render(), "docs/api.md is out of date: run .venv/bin/python -m tests.server.message_docs"
    assert text.count("<!-- messages:begin -->") == 1 and text.index("<!-- messages:begin -->") < text.index(GENERATED)
    assert all(f"#### `{kind}`" in text for kind in messages.SCHEMAS)


def test_a_bet_over_the_websocket_is_answered_by_its_my_bet_then_its_ack(make_client: Any, db_url: str) -> None:
    """The connection that placed a bet gets the bet's ``my_bet`` and then its ``bet_ack``, one after
    the other (written together); another connection of the same user gets the ``my_bet``."""
    client = make_client(db_url, betting=5.0)
    ann = register(client, "ann")
    with client.websocket_connect("/ws/tables/macau") as tab, client.websocket_connect("/ws/tables/macau") as phone:
        seen: dict[str, list[dict[str, Any]]] = {"tab": [], "phone": []}
        for key, ws in (("tab", tab), ("phone", phone)):
            assert ws.receive_json()["type"] == "snapshot"
            ws.send_json({"type": "auth", "token": ann["Authorization"][7:], "ref": key})
            _until(ws, lambda m: m["type"] == "authenticated", seen[key])
        current = betting_round(client, "macau", left=3.0)
        bet = {"type": "bet", "client_id": "w1", "bet": "player", "stake": 500, "round_id": current["id"], "ref": 7}
        tab.send_json(bet)
        mine = _until(tab, lambda m: m["type"] in ("my_bet", "bet_ack"), seen["tab"])
        assert mine["type"] == "my_bet" and mine["bet"]["client_id"] == "w1"
        ack = tab.receive_json()
        assert ack["type"] == "bet_ack" and ack["ref"] == 7 and ack["bet"]["id"] == mine["bet"]["id"]
        assert _until(phone, lambda m: m["type"] == "my_bet", seen["phone"])["bet"]["id"] == mine["bet"]["id"]
        tab.send_json(bet | {"ref": 8})  # sent again: answered by the stored bet, nothing new to hear of
        again = _until(tab, lambda m: m["type"] in ("my_bet", "bet_ack"), seen["tab"])
        assert again["type"] == "bet_ack" and again["ref"] == 8 and again["duplicate"] is True
