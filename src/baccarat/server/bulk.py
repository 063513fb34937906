"""Bulk statements for the hot paths of the journal (thousands of bets a second).

SQLAlchemy Core turns each row of an ``executemany`` into bound parameters in Python, which costs
about as much as the database's own work; these helpers hand rows of plain tuples to the driver
through :meth:`sqlalchemy.Connection.exec_driver_sql` (same connection, same transaction), with the
placeholder style of the dialect (``?`` for SQLite, ``%s`` for psycopg): SQLite's ``executemany``
loops in C; PostgreSQL gets each column as one array (:func:`pg_arrays`), so that a statement's text
is the same whatever the number of rows and the server prepares it once, and a group of statements
whose answers nobody reads goes in one round trip (:func:`pipelined`).

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

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, CursorResult

__all__ = [
    "IdReserve",
    "add_to_column",
    "execute_values",
    "insert_rows",
    "later",
    "next_ids",
    "pg_array_literal",
    "pg_arrays",
    "pipelined",
    "sql_of",
    "update_rows",
]


#: The most parameters of one multi-row statement (PostgreSQL allows 65,535).
PARAMETERS = 30_000


def sql_of(conn: Connection, statement: str) -> str:
    """``statement`` written with ``?`` placeholders, in the driver's own style."""
    if conn.dialect.paramstyle in ("format", "pyformat"):
        return statement.replace("?", "%s")
    return statement


def insert_rows(conn: Connection, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
    """``INSERT`` every row (tuples in the order of ``columns``): with SQLite one ``executemany``
    (the driver loops in C); with PostgreSQL one statement that takes each column as an array
    (``SELECT * FROM unnest(…)``): its text is the same whatever the number of rows, so the server
    prepares it once instead of parsing and planning a statement of thousands of parameters each
    time (a column whose type cannot be told, every value ``NULL``, falls back to ``VALUES (…), (…)``)."""
    if not rows:
        return
    quote = conn.dialect.identifier_preparer.quote
    names = ", ".join(quote(c) for c in columns)
    head = f"INSERT INTO {quote(table)} ({names}) "
    if conn.dialect.name != "postgresql":
        marks = "(" + ", ".join("?" for _ in columns) + ")"
        conn.exec_driver_sql(sql_of(conn, head + "VALUES " + marks), list(rows))
        return
    arrays = pg_arrays(rows)
    if arrays is not None:
        conn.exec_driver_sql(head + "SELECT * FROM " + arrays[0], arrays[1])
        return
    marks = "(" + ", ".join("%s" for _ in columns) + ")"
    step = max(1, PARAMETERS // len(columns))
    for start in range(0, len(rows), step):
        chunk = rows[start : start + step]
        conn.exec_driver_sql(head + "VALUES " + ", ".join(marks for _ in chunk), tuple(v for r in chunk for v in r))


def pg_arrays(rows: Sequence[tuple[Any, ...]]) -> tuple[str, tuple[str, ...]] | None:
    r"""Rows as PostgreSQL arrays, a parameter a column: ``unnest(%s::bigint[], …) AS s(column1, …)``
    and each column written as an array literal (:func:`pg_array_literal`), or ``None`` when a
    column's type cannot be told from its values (all ``NULL``, or of types that do not go together).

    >>> pg_arrays([(1, "a", 0.5, None), (2, 'b "c"', 1, True)])
    ('unnest(%s::bigint[], %s::text[], %s::float8[], %s::boolean[]) AS s(column1, column2, column3, column4)',
     ('{1,2}', '{"a","b \\"c\\""}', '{0.5,1.0}', '{NULL,t}'))
    >>> pg_arrays([(1, None)]) is None
    True
    """
    columns = tuple(list(column) for column in zip(*rows, strict=True))
    types = [_pg_type(column) for column in columns]
    if any(t is None for t in types):
        return None
    literals = tuple(pg_array_literal(column, t) for column, t in zip(columns, types, strict=True) if t is not None)
    casts = ", ".join(f"%s::{t}[]" for t in types)
    names = ", ".join(f"column{n}" for n in range(1, len(types) + 1))
    return f"unnest({casts}) AS s({names})", literals


def pg_array_literal(values: Sequence[Any], pg_type: str) -> str:
    r"""A one-dimensional PostgreSQL array literal of ``values`` of one type (``bigint``, ``float8``,
    ``boolean`` or ``text``; ``None`` is ``NULL``), built with string joins: the driver's own list
    adapter visits each value in Python and escapes each string with a regular expression, which
    cost as much as all the rest of a group commit of bets.

    >>> pg_array_literal([1, None, -2], "bigint"), pg_array_literal([0.1, 1e300, None], "float8")
    ('{1,NULL,-2}', '{0.1,1e+300,NULL}')
    >>> pg_array_literal(["a b", "莊"], "text"), pg_array_literal([], "bigint")
    ('{"a b","莊"}', '{}')
    >>> print(pg_array_literal(['a,b', 'say "hi"', 'back\\slash', 'NULL', '', None], "text"))
    {"a,b","say \"hi\"","back\\slash","NULL","",NULL}
    """
    if not values:
        return "{}"
    if None not in values:  # the usual case, joined at once
        if pg_type == "bigint":
            return "{" + ",".join(map(str, map(int, values))) + "}"
        if pg_type == "text":
            joined = '","'.join(values)
            if "\\" not in joined and '"' not in joined:
                return '{"' + joined + '"}'
    if pg_type == "text":
        items = ["NULL" if v is None else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values]
    elif pg_type == "boolean":
        items = ["NULL" if v is None else "t" if v else "f" for v in values]
    elif pg_type == "float8":
        items = ["NULL" if v is None else repr(float(v)) for v in values]
    else:
        items = ["NULL" if v is None else str(int(v)) for v in values]
    return "{" + ",".join(items) + "}"


def _pg_type(values: list[Any]) -> str | None:
    """The PostgreSQL type of a column's values (``None``: every one ``NULL``, or no one type)."""
    kinds = {type(v) for v in values if v is not None}
    if not kinds:
        return None
    if kinds <= {bool}:
        return "boolean"
    if kinds <= {int}:
        return "bigint"
    if kinds <= {int, float}:
        return "float8"
    if kinds <= {str}:
        return "text"
    return None


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
    """Run ``statement`` once with ``{values}`` replaced by a list of rows to join to, named ``s``
    with columns ``s.column1``, ``s.column2``, …: ``(VALUES (?, …), …) AS s`` with SQLite, and with
    PostgreSQL the rows as arrays (:func:`pg_arrays`: a statement of the same text whatever the
    number of rows, which the server prepares once). ``before`` and ``after`` are the parameters of
    the ``?`` before and after the list. Returns the statement's result (``None`` without rows).

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
    arrays = pg_arrays(rows) if conn.dialect.name == "postgresql" else None
    if arrays is not None:
        sql = sql_of(conn, statement).replace("{values}", arrays[0])
        return conn.exec_driver_sql(sql, (*before, *arrays[1], *after))
    marks = "(" + ", ".join("?" for _ in rows[0]) + ")"
    sql = statement.replace("{values}", f"(VALUES {', '.join(marks for _ in rows)}) AS s")
    return conn.exec_driver_sql(sql_of(conn, sql), (*before, *(v for r in rows for v in r), *after))


def add_to_column(conn: Connection, table: str, column: str, deltas: dict[int, int]) -> None:
    """Add ``deltas[id]`` to ``column`` of each row of ``table`` by id, the rows locked in the order
    of their ids (one lock order for every writer): with SQLite one ``executemany``; with PostgreSQL
    one statement, which locks the rows in that order first.

    >>> from sqlalchemy import create_engine, text
    >>> engine = create_engine("sqlite://")
    >>> with engine.begin() as conn:
    ...     _ = conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)"))
    ...     insert_rows(conn, "t", ("id", "v"), [(1, 10), (2, 20)])
    ...     add_to_column(conn, "t", "v", {2: 7, 1: -5, 3: 0})
    ...     conn.execute(text("SELECT v FROM t ORDER BY id")).scalars().all()
    [5, 27]
    """
    rows = [(delta, key) for key, delta in sorted(deltas.items()) if delta]
    if not rows:
        return
    quote = conn.dialect.identifier_preparer.quote
    t, c = quote(table), quote(column)
    if conn.dialect.name != "postgresql":
        conn.exec_driver_sql(f"UPDATE {t} SET {c} = {c} + ? WHERE id = ?", rows)
        return
    conn.exec_driver_sql(
        f"WITH s AS MATERIALIZED (SELECT * FROM unnest(%s::bigint[], %s::bigint[]) AS s(delta, id)), "
        f"locked AS MATERIALIZED (SELECT {t}.id FROM {t} JOIN s ON {t}.id = s.id ORDER BY {t}.id FOR UPDATE OF {t}) "
        f"UPDATE {t} SET {c} = {t}.{c} + s.delta FROM s "
        f"WHERE {t}.id = s.id AND (SELECT count(*) FROM locked) = (SELECT count(*) FROM s)",
        (pg_array_literal([d for d, _ in rows], "bigint"), pg_array_literal([k for _, k in rows], "bigint")),
    )


def next_ids(conn: Connection, table: str, count: int) -> list[int]:
    """``count`` new primary keys for ``table``, in increasing order, for rows inserted with their ids.

    PostgreSQL takes them from the column's sequence (safe with concurrent writers). SQLite takes
    the next numbers after the largest id: call it only after the transaction has written (SQLite
    then holds the database's one write lock until commit, so no other writer can take them).
    """
    if count <= 0:
        return []
    if conn.dialect.name == "postgresql":
        rows = conn.exec_driver_sql(_NEXTVAL, (table, count)).all()
        return sorted(int(r[0]) for r in rows)
    quote = conn.dialect.identifier_preparer.quote
    top = conn.exec_driver_sql(f"SELECT coalesce(max(id), 0) FROM {quote(table)}").scalar()
    start = int(top or 0) + 1
    return list(range(start, start + count))


#: ``Connection.info`` key set while a pipeline of :func:`pipelined` is open on the connection.
_PIPELINED = "baccarat.pipelined"


@contextlib.contextmanager
def pipelined(conn: Connection) -> Iterator[None]:
    """With PostgreSQL, send the statements of the block without waiting for each one's answer
    (psycopg's pipeline mode): the server answers them together, when a result is read or the block
    ends, in one round trip instead of one each. A statement's error is raised then, as the
    driver's own error. Inside a pipeline already open on the connection, the block joins it
    (the outer block's end sends them all). Nothing changes with SQLite.

    No statement of the block may read a result through SQLAlchemy (which finds none until the
    pipeline has synced); a driver cursor's rows can be read once the block has ended.

    >>> from sqlalchemy import create_engine
    >>> with create_engine("sqlite://").begin() as conn, pipelined(conn):
    ...     conn.exec_driver_sql("SELECT 1").scalar()
    1
    """
    if conn.dialect.name != "postgresql" or conn.info.get(_PIPELINED):
        yield
        return
    driver = conn.connection.driver_connection
    conn.info[_PIPELINED] = True
    try:
        with driver.pipeline():  # type: ignore[union-attr]
            yield
    finally:
        conn.info.pop(_PIPELINED, None)


def later(conn: Connection, statement: str, params: Sequence[Any] | Mapping[str, Any]) -> Any:
    """Send ``statement`` (in the driver's placeholder style) on a driver cursor of ``conn``, in the pipeline in
    progress: the cursor, whose rows can be read once the pipeline has synced (PostgreSQL only)."""
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    cursor.execute(statement, params)
    return cursor


class IdReserve:
    """New primary keys of one PostgreSQL table taken from its sequence ahead of need, in
    increasing order, for one writer whose rows must follow one another in id order (the process
    that runs a table): the next ids are asked for in the same round trip as the rows that use the
    last (:meth:`refill_later`), so that a write needs no round trip of its own for its ids.

    A sequence never hands a number out twice, so ids held stay safe to use in a later transaction,
    even after a failed one (numbers never used are gaps). Another writer takes numbers after those
    held, so :meth:`clear` when this writer may have stopped writing for a while (the table's
    lease lost and taken again): rows written by another writer meanwhile would otherwise come
    after rows written later.
    """

    def __init__(self, table: str, *, ahead: int = 64) -> None:
        self.table = table
        #: how many ids at least are kept in hand after a refill
        self.ahead = ahead
        self._ids: list[int] = []
        self._pending: Any = None

    def __len__(self) -> int:
        return len(self._ids)

    def ensure(self, conn: Connection, count: int) -> None:
        """Hold at least ``count`` ids (asking the sequence now only if fewer are held); call it
        outside a pipeline, so that :meth:`take` then needs no round trip."""
        self._collect()
        if len(self._ids) < count:
            self._ids += next_ids(conn, self.table, count - len(self._ids))

    def take(self, conn: Connection, count: int) -> list[int]:
        """``count`` ids, the lowest held first."""
        self.ensure(conn, count)
        taken, self._ids = self._ids[:count], self._ids[count:]
        return taken

    def refill_later(self, conn: Connection, used: int) -> None:
        """Ask, in the pipeline in progress, for ids enough to hold twice ``used`` (or
        :attr:`ahead`), read at the next :meth:`ensure` once the pipeline has synced."""
        want = max(2 * used, self.ahead) - len(self._ids)
        if self._pending is None and want > 0:
            self._pending = later(conn, _NEXTVAL, (self.table, want))

    def clear(self) -> None:
        """Forget every id held or asked for."""
        self._ids, self._pending = [], None

    def _collect(self) -> None:
        cursor, self._pending = self._pending, None
        if cursor is None:
            return
        try:
            fresh = [int(row[0]) for row in cursor.fetchall()]
        except Exception:  # the transaction failed before the ids were read: ask again
            return
        finally:
            cursor.close()
        self._ids = sorted(self._ids + fresh)


_NEXTVAL = "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)"
