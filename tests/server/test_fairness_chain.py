"""The fairness chain (R37): each finished round's record (cards, result, every payout) hashed into a
chain from the commitment published before the shoe, checked against that commitment; the client
seed made from the players' entropy given after the commitment was published."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from tests.server.conftest import admin, betting_round, register

from baccarat.rng import commitment_of
from baccarat.server.chain import client_seed_of, digest_of, link_of
from baccarat.server.clock import ManualClock
from baccarat.server.db import make_engine, migrate
from baccarat.server.schema import bets, rounds, shoes
from baccarat.server.store import Role, Store

SEED_ARGS = {"config": {}, "server_seed": "f" * 64, "client_seed": "ignored", "commitment": commitment_of("f" * 64)}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    engine = make_engine(f"sqlite:///{tmp_path}/s.db")
    migrate(engine)
    store = Store(engine)
    store.tables.ensure_tables(["t"], open_by_default={})
    try:
        yield store
    finally:
        engine.dispose()


def test_player_entropy_changes_the_client_seed(store: Store) -> None:
    first_id, first = store.shoes.start_shoe(table_id="t", **SEED_ARGS)
    assert first["entropy"] == [] and first["client_seed"] == client_seed_of("t", 1, SEED_ARGS["commitment"], [])
    upcoming = store.shoes.next_commitment("t")
    assert upcoming["commitment"] == first["next_commitment"] and upcoming["entropy"] == []
    user = store.accounts.create_user(name="ann", password_hash="x", role=Role.PLAYER, starting_balance=0)
    given = store.shoes.contribute("t", user.id, "lucky-7", per_user=2, per_shoe=10)
    assert given["entropy"] == ["lucky-7"] and given["commitment"] == upcoming["commitment"]
    second_id, second = store.shoes.start_shoe(table_id="t", **SEED_ARGS)
    # the second shoe deals from the seed committed to while the first was in play, not the one passed in
    assert second["commitment"] == upcoming["commitment"] != SEED_ARGS["commitment"]
    assert second["entropy"] == ["lucky-7"]
    with_entropy = client_seed_of("t", 2, upcoming["commitment"], ["lucky-7"])
    assert second["client_seed"] == with_entropy != client_seed_of("t", 2, upcoming["commitment"], [])
    server_seed, client_seed = store.shoes.seeds(second_id)
    assert commitment_of(server_seed) == upcoming["commitment"] and client_seed == with_entropy
    assert store.shoes.seeds(first_id) == (SEED_ARGS["server_seed"], first["client_seed"])


def test_a_player_gives_a_bounded_amount_of_entropy(store: Store) -> None:
    user = store.accounts.create_user(name="bob", password_hash="x", role=Role.PLAYER, starting_balance=0)
    assert "refused" not in store.shoes.contribute("t", user.id, "a", per_user=1, per_shoe=5)
    assert store.shoes.contribute("t", user.id, "b", per_user=1, per_shoe=5)["refused"] == 1
    assert store.shoes.next_commitment("t")["entropy"] == ["a"]


def _play_a_round(client: TestClient, clock: ManualClock, headers: dict[str, str]) -> tuple[int, str]:
    """A round of macau with a Banker and a Player bet, settled; its id and the shoe's commitment as
    published before the round's first bet."""
    current = betting_round(client, "macau", left=1.0)
    published = client.get("/api/tables/macau").json()["shoe"]["commitment"]
    for client_id, bet in (("b1", "banker"), ("p1", "player")):
        body = {"client_id": client_id, "bet": bet, "stake": 1000}
        assert client.post("/api/tables/macau/bets", json=body, headers=headers).status_code == 201
    clock.run_until(lambda: client.get(f"/api/rounds/{current['id']}").json()["status"] == "settled")
    return int(current["id"]), published


def _revealed(client: TestClient, clock: ManualClock, round_id: int) -> dict[str, Any]:
    assert client.post("/api/admin/tables/macau/change-shoe", headers=admin(client)).status_code == 200
    clock.run_until(lambda: client.get(f"/api/rounds/{round_id}").json()["proof"]["server_seed"])
    proof = client.get(f"/api/rounds/{round_id}").json()["proof"]
    assert isinstance(proof, dict)
    return proof


def test_a_round_verifies_against_the_published_commitment_and_its_chain(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/c.db", betting=2.0)
    round_id, published = _play_a_round(client, clock, register(client, "cyd"))
    proof = _revealed(client, clock, round_id)
    verdict = client.get(f"/api/rounds/{round_id}/verify?commitment={published}").json()
    assert verdict["ok"] is True, verdict
    # the chain runs from the commitment: link k is sha256(link k-1 + digest k)
    previous = published
    for entry in proof["chain"]:
        assert entry["link"] == link_of(previous, entry["digest"])
        previous = entry["link"]
    assert proof["chain"][-1]["digest"] == digest_of(proof["record"]) and proof["chain_link"] == previous
    record = json.loads(proof["record"])
    assert sorted(b["bet"] for b in record["bets"]) == ["banker", "player"]
    assert record["result"]["winner"] == client.get(f"/api/rounds/{round_id}").json()["result"]["winner"]
    # the published settled message carries the same link
    events = client.get("/api/tables/macau/events?limit=500").json()["events"]
    settled = [e for e in events if e["type"] == "round_settled" and e["round_id"] == round_id]
    assert settled[0]["chain_link"] == proof["chain_link"]
    other = "0" * 64
    wrong = client.get(f"/api/rounds/{round_id}/verify?commitment={other}").json()
    assert wrong["ok"] is False and "published commitment" in wrong["reason"]
    assert client.get(f"/api/rounds/{round_id}/verify").status_code == 422  # the commitment is required


def _tamper(db: str, statement: Any) -> None:
    engine = make_engine(db)
    with engine.begin() as conn:
        conn.execute(statement)
    engine.dispose()


@pytest.mark.parametrize("change", ["winner", "payout", "shoe"])
def test_a_changed_winner_payout_or_shoe_fails_verification(
    make_client: Any, tmp_path: Path, clock: ManualClock, change: str
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    client = make_client(db, betting=2.0)
    round_id, published = _play_a_round(client, clock, register(client, "dan"))
    proof = _revealed(client, clock, round_id)
    result = client.get(f"/api/rounds/{round_id}").json()["result"]
    if change == "winner":
        forged = dict(result, winner="tie" if result["winner"] != "tie" else "banker")
        _tamper(db, update(rounds).where(rounds.c.id == round_id).values(result=json.dumps(forged)))
    elif change == "payout":
        _tamper(db, update(bets).where(bets.c.round_id == round_id).values(paid=bets.c.stake * 5))
    else:  # a new server seed with a commitment that matches it, and the client seed made to match too
        seed = "e" * 64
        new_client_seed = client_seed_of("macau", int(proof["shoe"]), commitment_of(seed), proof["entropy"])
        _tamper(
            db,
            update(shoes)
            .where(shoes.c.commitment == published)
            .values(server_seed=seed, commitment=commitment_of(seed), client_seed=new_client_seed),
        )
    verdict = client.get(f"/api/rounds/{round_id}/verify?commitment={published}").json()
    assert verdict["ok"] is False, verdict
    expected = {
        "winner": "is not the one the chain holds",
        "payout": "is not the one the chain holds",
        "shoe": "does not match the published commitment",
    }[change]
    assert expected in verdict["reason"]


def test_the_migration_upgrades_an_older_database_and_back(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import inspect, text

    from baccarat.server.db import _alembic_config

    engine = make_engine(f"sqlite:///{tmp_path}/old.db")
    config = _alembic_config()
    with engine.connect() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0004")
        conn.execute(
            text(
                "INSERT INTO shoes (table_id, number, first_shoe_number, config, server_seed, client_seed, commitment,"
                " status, coups, started_at) VALUES ('t', 1, 1, '{}', 's', 'c', 'h', 'ended', 0, 1.0)"
            )
        )
        conn.commit()
    migrate(engine)
    columns = {c["name"] for c in inspect(engine).get_columns("rounds")}
    assert {"record_digest", "chain_link"} <= columns
    assert {"audit_log", "seed_commitments", "seed_entropy"} <= set(inspect(engine).get_table_names())
    store = Store(engine)
    row = store.shoes.shoe_row(1)
    assert row is not None and (row["commitment"], row["chain_head"], row["entropy"]) == ("h", None, None)
    with engine.connect() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0004")
        conn.commit()
    assert "audit_log" not in set(inspect(engine).get_table_names())
    engine.dispose()


def test_players_give_entropy_to_the_next_shoe_over_rest(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/e.db", betting=2.0)
    eve = register(client, "eve")
    betting_round(client, "macau", left=0.5)
    upcoming = client.get("/api/tables/macau/entropy").json()
    current = client.get("/api/tables/macau").json()["shoe"]
    assert upcoming["commitment"] != current["commitment"] and upcoming["entropy"] == []
    assert client.post("/api/tables/macau/entropy", json={"entropy": "x"}).status_code == 401
    for n in range(3):
        given = client.post("/api/tables/macau/entropy", json={"entropy": f"eve-{n}"}, headers=eve)
        assert given.status_code == 201, given.text
    assert given.json()["entropy"] == ["eve-0", "eve-1", "eve-2"]
    refused = client.post("/api/tables/macau/entropy", json={"entropy": "more"}, headers=eve)
    assert refused.status_code == 409 and refused.json()["code"] == "entropy.limit"
    assert client.post("/api/tables/macau/entropy", json={"entropy": "has space"}, headers=eve).status_code == 422
    assert client.get("/api/tables/live/entropy").json()["code"] == "table.no_server_shoe"
    assert client.post("/api/admin/tables/macau/change-shoe", headers=admin(client)).status_code == 200
    clock.run_until(lambda: client.get("/api/tables/macau").json()["shoe"]["commitment"] == upcoming["commitment"])
    shoe = client.get("/api/tables/macau").json()["shoe"]
    expected = client_seed_of("macau", shoe["number"], upcoming["commitment"], ["eve-0", "eve-1", "eve-2"])
    assert shoe["client_seed"] == expected
    assert client.get("/api/tables/macau/entropy").json()["commitment"] not in (
        upcoming["commitment"],
        current["commitment"],
    )
