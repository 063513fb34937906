"""The bulk statements of the journal's hot paths give the same rows on SQLite (``executemany``,
``VALUES`` lists) and PostgreSQL (each column one array: a statement of the same text whatever the
number of rows), including ``NULL``, non-ASCII values and strings that PostgreSQL's array literals must quote and the fallback for a column of ``NULL``s."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, text

from baccarat.server.bulk import add_to_column, execute_values, insert_rows, next_ids

ROWS: list[tuple[Any, ...]] = [
    (1, 10, "莊 banker", 0.5, True, None),
    (2, -20, "閒", 1, False, 3),
    (3, 2**40, "", 2.25, True, None),
    (5, 0, 'say "hi", {a} \\ NULL', 1e-300, False, 0),
    (6, 0, "NULL", 0.1, False, None),
]


def test_bulk_statements_store_the_same_rows_on_each_database(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "CREATE TABLE bulk_t (id INTEGER PRIMARY KEY, v BIGINT, s VARCHAR(40), f FLOAT, b BOOLEAN, n INTEGER)"
                )
            )
            insert_rows(conn, "bulk_t", ("id", "v", "s", "f", "b", "n"), ROWS)
            insert_rows(conn, "bulk_t", ("id", "v", "s", "f", "b", "n"), [(4, 0, "x", 0.0, False, None)])  # NULLs only
            found = execute_values(
                conn,
                "SELECT bulk_t.id FROM {values} CROSS JOIN bulk_t WHERE bulk_t.id = s.column1 AND bulk_t.s = s.column2 "
                "AND bulk_t.v > ? ORDER BY bulk_t.id",
                [(1, "莊 banker"), (2, "閒"), (3, "no"), (4, "x")],
                after=[-100],
            )
            assert found is not None and [r[0] for r in found] == [1, 2, 4]
            add_to_column(conn, "bulk_t", "v", {3: -1, 1: 5, 2: 0})
            stored = conn.execute(text("SELECT id, v, s, f, b, n FROM bulk_t ORDER BY id")).all()
        assert [tuple(r) for r in stored] == [
            (1, 15, "莊 banker", 0.5, True, None),
            (2, -20, "閒", 1.0, False, 3),
            (3, 2**40 - 1, "", 2.25, True, None),
            (4, 0, "x", 0.0, False, None),
            (5, 0, 'say "hi", {a} \\ NULL', 1e-300, False, 0),
            (6, 0, "NULL", 0.1, False, None),
        ]
    finally:
        engine.dispose()


def test_new_ids_follow_the_stored_rows(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            serial = "SERIAL" if conn.dialect.name == "postgresql" else "INTEGER"
            conn.execute(text(f"CREATE TABLE bulk_ids (id {serial} PRIMARY KEY, v INTEGER)"))
            insert_rows(conn, "bulk_ids", ("v",), [(1,), (2,)])
            ids = next_ids(conn, "bulk_ids", 3)
            insert_rows(conn, "bulk_ids", ("id", "v"), [(i, 0) for i in ids])
            stored = conn.execute(text("SELECT id FROM bulk_ids ORDER BY id")).scalars().all()
        assert len(set(ids)) == 3 and ids == sorted(ids) and min(ids) > 2 and stored == [1, 2, *ids]
    finally:
        engine.dispose()
