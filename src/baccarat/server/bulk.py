"""Bulk statements for the hot paths of the journal (thousands of bets a second).

SQLAlchemy Core turns each row of an ``executemany`` into bound parameters in Python, which costs
about as much as the database's own work; these helpers hand rows of plain tuples to the driver's
``executemany`` through :meth:`sqlalchemy.Connection.exec_driver_sql` (same connection, same
transaction), with the placeholder style of the dialect (``?`` for SQLite, ``%s`` for psycopg).

>>> from sqlalchemy import create_engine, text
>>> engine = create_engine("sqlite://")
>>> with engine.begin() as conn:
...     _ = conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)"))
...     insert_rows(conn, "t", ("id", "v"), [(1, 10), (2, 20)])
...     update_rows(conn, "UPDATE t SET v = v + ? WHERE id = ?", [(5, 1), (7, 2)])
...     next_ids(conn, "t", 2)
...     conn.execute(text("SELECT v FROM t ORDER BY id")).scalars().all()
[3, 4]
[15, 27]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, CursorResult

__all__ = ["execute_values", "insert_rows", "next_ids", "sql_of", "update_rows"]


#: The most parameters of one multi-row statement (PostgreSQL allows 65,535).
PARAMETERS = 30_000


def sql_of(conn: Connection, statement: str) -> str:
    """``statement`` written with ``?`` placeholders, in the driver's own style."""
    if conn.dialect.paramstyle in ("format", "pyformat"):
        return statement.replace("?", "%s")
    return statement


def insert_rows(conn: Connection, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
    """``INSERT`` every row (tuples in the order of ``columns``): with SQLite one ``executemany``
    (the driver loops in C); with PostgreSQL a few statements of many rows each (``VALUES (…),
    (…)``), since its driver sends each row of an ``executemany`` as a statement of its own for
    the server to run."""
    if not rows:
        return
    quote = conn.dialect.identifier_preparer.quote
    names = ", ".join(quote(c) for c in columns)
    marks = "(" + ", ".join("?" for _ in columns) + ")"
    head = f"INSERT INTO {quote(table)} ({names}) VALUES "
    if conn.dialect.name != "postgresql":
        conn.exec_driver_sql(sql_of(conn, head + marks), list(rows))
        return
    step = max(1, PARAMETERS // len(columns))
    for start in range(0, len(rows), step):
        chunk = rows[start : start + step]
        conn.exec_driver_sql(sql_of(conn, head + ", ".join(marks for _ in chunk)), tuple(v for r in chunk for v in r))


def update_rows(conn: Connection, statement: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """Run one statement (``?`` placeholders) for every row with one ``executemany``."""
    if rows:
        conn.exec_driver_sql(sql_of(conn, statement), list(rows))


def execute_values(
    conn: Connection,
    statement: str,
    rows: Sequence[tuple[Any, ...]],
    *,
    before: Sequence[Any] = (),
    after: Sequence[Any] = (),
) -> CursorResult[Any] | None:
    """Run ``statement`` once with ``{values}`` replaced by ``(VALUES (?, …), …) AS s``: a list of
    rows to join to (SQLite and PostgreSQL both name its columns ``s.column1``, ``s.column2``, …).
    ``before`` and ``after`` are the parameters of the ``?`` before and after the list. Returns the
    statement's result (``None`` without rows).

    >>> from sqlalchemy import create_engine, text
    >>> engine = create_engine("sqlite://")
    >>> with engine.begin() as conn:
    ...     _ = conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)"))
    ...     insert_rows(conn, "t", ("id", "v"), [(1, 10), (2, 20), (3, 30)])
    ...     _ = execute_values(conn, "UPDATE t SET v = s.column2 FROM {values} WHERE t.id = s.column1 AND t.v < ?",
    ...                        [(1, 11), (3, 33)], after=[25])
    ...     conn.execute(text("SELECT v FROM t ORDER BY id")).scalars().all()
    [11, 20, 30]
    """
    if not rows:
        return None
    marks = "(" + ", ".join("?" for _ in rows[0]) + ")"
    sql = statement.replace("{values}", f"(VALUES {', '.join(marks for _ in rows)}) AS s")
    return conn.exec_driver_sql(sql_of(conn, sql), (*before, *(v for r in rows for v in r), *after))


def next_ids(conn: Connection, table: str, count: int) -> list[int]:
    """``count`` new primary keys for ``table``, in increasing order, for rows inserted with their ids.

    PostgreSQL takes them from the column's sequence (safe with concurrent writers). SQLite takes
    the next numbers after the largest id: call it only after the transaction has written (SQLite
    then holds the database's one write lock until commit, so no other writer can take them).
    """
    if count <= 0:
        return []
    if conn.dialect.name == "postgresql":
        rows = conn.exec_driver_sql(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", (table, count)
        ).all()
        return sorted(int(r[0]) for r in rows)
    quote = conn.dialect.identifier_preparer.quote
    top = conn.exec_driver_sql(f"SELECT coalesce(max(id), 0) FROM {quote(table)}").scalar()
    start = int(top or 0) + 1
    return list(range(start, start + count))
