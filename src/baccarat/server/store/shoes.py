"""Shoes: each one's provably fair seeds (the server seed secret until the shoe ends), its coups
and its settled results; the next shoe's commitment, published ahead, and the players' entropy for it."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from baccarat.rng import commitment_of
from baccarat.server.chain import client_seed_of
from baccarat.server.schema import RoundStatus, ShoeStatus, events, rounds, seed_commitments, seed_entropy, shoes
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

    def entry_shoe_results(self, table_id: str) -> list[list[str]]:
        """The cards of every settled round of a dealer-entry table's physical shoe in play (the rounds
        opened after its last ``ShoeChanged``), in order: its roads, as the server's shoes have theirs."""
        with self.db.engine.connect() as conn:
            changed = conn.execute(
                select(func.max(events.c.id)).where(events.c.table_id == table_id, events.c.kind == "ShoeChanged")
            ).scalar()
            opened = select(events.c.round_id).where(
                events.c.table_id == table_id, events.c.kind == "BettingOpened", events.c.id > (changed or 0)
            )
            rows = conn.execute(
                select(rounds.c.result)
                .where(
                    rounds.c.table_id == table_id,
                    rounds.c.shoe_id.is_(None),
                    rounds.c.status == RoundStatus.SETTLED.value,
                    rounds.c.id.in_(opened.scalar_subquery()),
                )
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
        """Record a new shoe and publish its commitment; returns (shoe id, event).

        The shoe takes the table's commitment published ahead (:meth:`next_commitment`) and its
        server seed when there is one (``server_seed`` and ``commitment`` otherwise: the table's first
        shoe); its client seed is made from that commitment and the players' entropy contributed since
        (:func:`baccarat.server.chain.client_seed_of`; ``client_seed`` is not used). The commitment of
        the shoe after it is published with it. The seeds the shoe deals from are :meth:`seeds`.
        """
        del client_seed
        with self.db.engine.begin() as conn:
            number = (
                conn.execute(select(func.max(shoes.c.number)).where(shoes.c.table_id == table_id)).scalar() or 0
            ) + 1
            server_seed, commitment = self._take_pending(conn, table_id) or (server_seed, commitment)
            entropy = self._entropy(conn, table_id, commitment)
            seed = client_seed_of(table_id, number, commitment, entropy)
            shoe_id = conn.execute(
                insert(shoes)
                .values(
                    table_id=table_id,
                    number=number,
                    first_shoe_number=1,
                    config=json.dumps(config),
                    server_seed=server_seed,
                    client_seed=seed,
                    commitment=commitment,
                    status=ShoeStatus.ACTIVE.value,
                    coups=0,
                    started_at=time.time(),
                    entropy=json.dumps(entropy),
                )
                .returning(shoes.c.id)
            ).scalar_one()
            upcoming = self._publish_next(conn, table_id)
            payload = {"shoe": number, "commitment": commitment, "client_seed": seed, "config": config}
            event = self.tables.event(
                conn,
                table_id=table_id,
                kind="shoe_started",
                payload=payload | {"entropy": entropy, "next_commitment": upcoming},
            )
        return shoe_id, event

    def seeds(self, shoe_id: int) -> tuple[str, str]:
        """The server seed and client seed a shoe deals from."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(shoes.c.server_seed, shoes.c.client_seed).where(shoes.c.id == shoe_id)).one()
        return str(row[0]), str(row[1])

    def next_commitment(self, table_id: str) -> dict[str, Any]:
        """The commitment of the table's next shoe (published now if none is) and the entropy given to it."""
        query = select(seed_commitments.c.commitment, seed_commitments.c.published_at).where(
            seed_commitments.c.table_id == table_id
        )
        for attempt in range(2):
            try:
                with self.db.engine.begin() as conn:
                    row = conn.execute(query).first()
                    if row is None:
                        self._publish_next(conn, table_id)
                        row = conn.execute(query).one()
                    entropy = self._entropy(conn, table_id, str(row[0]))
                break
            except IntegrityError:  # published meanwhile by another transaction: read that one
                if attempt:
                    raise
        assert row is not None
        return {"table": table_id, "commitment": str(row[0]), "published_at": float(row[1]), "entropy": entropy}

    def contribute(self, table_id: str, user_id: int, entropy: str, *, per_user: int, per_shoe: int) -> dict[str, Any]:
        """Add a player's entropy to the client seed of the table's next shoe; returns
        :meth:`next_commitment` with it, or ``{"refused": count}`` when the player (or the shoe) has
        given as many as allowed."""
        pending = self.next_commitment(table_id)
        with self.db.engine.begin() as conn:
            given = conn.execute(
                select(func.count(), func.count().filter(seed_entropy.c.user_id == user_id)).where(
                    seed_entropy.c.table_id == table_id, seed_entropy.c.commitment == pending["commitment"]
                )
            ).one()
            if int(given[1]) >= per_user or int(given[0]) >= per_shoe:
                return pending | {"refused": int(given[1]) if int(given[1]) >= per_user else int(given[0])}
            conn.execute(
                insert(seed_entropy).values(
                    table_id=table_id,
                    commitment=pending["commitment"],
                    user_id=user_id,
                    entropy=entropy,
                    created_at=time.time(),
                )
            )
        return self.next_commitment(table_id)

    def _take_pending(self, conn: Connection, table_id: str) -> tuple[str, str] | None:
        row = conn.execute(
            select(seed_commitments.c.server_seed, seed_commitments.c.commitment).where(
                seed_commitments.c.table_id == table_id
            )
        ).first()
        if row is None:
            return None
        conn.execute(delete(seed_commitments).where(seed_commitments.c.table_id == table_id))
        return str(row[0]), str(row[1])

    def _publish_next(self, conn: Connection, table_id: str) -> str:
        """Draw and commit to the server seed of the table's next shoe; returns its commitment."""
        seed = secrets.token_hex(32)
        commitment = commitment_of(seed)
        conn.execute(
            insert(seed_commitments).values(
                table_id=table_id, server_seed=seed, commitment=commitment, published_at=time.time()
            )
        )
        return commitment

    def _entropy(self, conn: Connection, table_id: str, commitment: str) -> list[str]:
        return [
            str(e)
            for e in conn.execute(
                select(seed_entropy.c.entropy)
                .where(seed_entropy.c.table_id == table_id, seed_entropy.c.commitment == commitment)
                .order_by(seed_entropy.c.id)
            ).scalars()
        ]

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
                    "chain_head": row["chain_head"] or row["commitment"],
                },
            )
