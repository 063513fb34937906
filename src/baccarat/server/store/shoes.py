"""Shoes: each one's provably fair seeds (the server seed secret until the shoe ends), its coups
and its settled results."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from baccarat.server.schema import RoundStatus, ShoeStatus, rounds, shoes
from baccarat.server.store.base import Database
from baccarat.server.store.tables import Tables

__all__ = ["Shoes"]


class Shoes:
    """The shoes of the tables, and what the fairness proof of a round reads."""

    def __init__(self, db: Database, tables: Tables) -> None:
        self.db = db
        self.tables = tables

    def active_shoe(self, table_id: str) -> dict[str, Any] | None:
        """The table's shoe in play, with its (still secret) seed, or ``None``."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(shoes).where(shoes.c.table_id == table_id, shoes.c.status == ShoeStatus.ACTIVE.value)
            ).first()
        return None if row is None else dict(row._mapping)

    def shoe_row(self, shoe_id: int) -> dict[str, Any] | None:
        """A shoe's stored row (its server seed whatever its status: reveal it only once the shoe ended)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(shoes).where(shoes.c.id == shoe_id)).first()
        return None if row is None else dict(row._mapping)

    def shoe_results(self, shoe_id: int) -> list[list[str]]:
        """The cards of every settled round of a shoe, in order (to rebuild the roads)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(rounds.c.result)
                .where(rounds.c.shoe_id == shoe_id, rounds.c.status == RoundStatus.SETTLED.value)
                .order_by(rounds.c.id)
            ).all()
        return [list(json.loads(r[0])["cards"]) for r in rows if r[0]]

    def start_shoe(
        self,
        *,
        table_id: str,
        config: dict[str, Any],
        server_seed: str,
        client_seed: str,
        commitment: str,
    ) -> tuple[int, dict[str, Any]]:
        """Record a new shoe and publish its commitment; returns (shoe id, event)."""
        with self.db.engine.begin() as conn:
            number = (
                conn.execute(select(func.max(shoes.c.number)).where(shoes.c.table_id == table_id)).scalar() or 0
            ) + 1
            shoe_id = conn.execute(
                insert(shoes)
                .values(
                    table_id=table_id,
                    number=number,
                    first_shoe_number=1,
                    config=json.dumps(config),
                    server_seed=server_seed,
                    client_seed=client_seed,
                    commitment=commitment,
                    status=ShoeStatus.ACTIVE.value,
                    coups=0,
                    started_at=time.time(),
                )
                .returning(shoes.c.id)
            ).scalar_one()
            event = self.tables.event(
                conn,
                table_id=table_id,
                kind="shoe_started",
                payload={"shoe": number, "commitment": commitment, "client_seed": client_seed, "config": config},
            )
        return shoe_id, event

    def count_coup(self, conn: Connection, shoe_id: int) -> int:
        """Count one more coup dealt from the shoe; returns the coup's number in the shoe."""
        conn.execute(update(shoes).where(shoes.c.id == shoe_id).values(coups=shoes.c.coups + 1))
        return int(conn.execute(select(shoes.c.coups).where(shoes.c.id == shoe_id)).scalar_one())

    def end_shoe(self, shoe_id: int, *, reason: str) -> dict[str, Any] | None:
        """End a shoe and reveal its server seed; ``None`` if it had already ended."""
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(shoes)
                .where(shoes.c.id == shoe_id, shoes.c.status == ShoeStatus.ACTIVE.value)
                .values(status=ShoeStatus.ENDED.value, ended_at=time.time())
            )
            if done.rowcount != 1:
                return None
            row = conn.execute(select(shoes).where(shoes.c.id == shoe_id)).one()._mapping
            self.tables.shoe_changed(conn, row["table_id"])
            return self.tables.event(
                conn,
                table_id=row["table_id"],
                kind="shoe_ended",
                payload={
                    "shoe": row["number"],
                    "commitment": row["commitment"],
                    "server_seed": row["server_seed"],
                    "client_seed": row["client_seed"],
                    "coups": row["coups"],
                    "reason": reason,
                },
            )
