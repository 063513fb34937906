"""The fairness chain of a shoe (R37): every finished round's record hashed into a chain that starts at
the shoe's commitment, and the shoe's client seed made from the players' entropy.

A round's *record* is canonical JSON (keys sorted, no spaces, ASCII) of what the round settled: its
number and place in the shoe, its status, its cards, its result and every bet's payout. Its *digest* is
the SHA-256 of that text; its *link* is the SHA-256 of the previous link followed by the digest (both
as lowercase hex), the first previous link being the commitment published before the shoe's first bet:

    link(0) = commitment
    link(k) = sha256_hex(link(k-1) + sha256_hex(record(k)))

The shoe's client seed is ``<table>:<shoe number>:`` followed by the SHA-256 of the commitment and
every entropy string the players contributed after it was published, one per line, in order.

>>> seed = client_seed_of("macau", 2, "ab" * 32, ["lucky", "7"])
>>> seed.startswith("macau:2:") and seed != client_seed_of("macau", 2, "ab" * 32, ["lucky"])
True
>>> link_of("ab" * 32, digest_of('{"round":1}')) == sha256_hex("ab" * 32 + sha256_hex('{"round":1}'))
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "BET_COLUMNS",
    "bet_record",
    "canonical",
    "client_seed_of",
    "digest_of",
    "link_of",
    "record_of",
    "record_of_rows",
    "sha256_hex",
]


def sha256_hex(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8) as lowercase hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical(data: Any) -> str:
    """``data`` as canonical JSON: keys sorted, no spaces, ASCII only.

    >>> canonical({"b": 1, "a": [1, "é"]})
    '{"a":[1,"\\\\u00e9"],"b":1}'
    """
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest_of(record: str) -> str:
    """A round record's digest."""
    return sha256_hex(record)


def link_of(previous: str, digest: str) -> str:
    """The chain's next link: the SHA-256 of the previous link followed by the record's digest."""
    return sha256_hex(previous + digest)


def client_seed_of(table: str, shoe: int, commitment: str, entropy: Sequence[str]) -> str:
    """The shoe's client seed: fixed by the published commitment and the players' entropy after it."""
    return f"{table}:{shoe}:{sha256_hex(chr(10).join([commitment, *entropy]))}"


def bet_record(row: Mapping[str, Any]) -> dict[str, Any]:
    """One bet as its round's record holds it: id, kind, stake, status and payout (no bettor)."""
    return {
        "id": int(row["id"]),
        "bet": str(row["kind"]),
        "stake": int(row["stake"]),
        "status": str(row["status"]),
        "outcome": row["outcome"],
        "paid": row["paid"],
        "commission": row["commission"],
        "returned": row["returned"],
    }


#: The columns of a bet's stored row that its round's record holds, in this order (:func:`record_of_rows`).
BET_COLUMNS = ("id", "kind", "stake", "status", "outcome", "paid", "commission", "returned")


def record_of(round_row: Mapping[str, Any], bet_rows: Sequence[Mapping[str, Any]]) -> str:
    """The canonical record of a finished round from its stored row and its bets' stored rows."""
    ordered = sorted(bet_rows, key=lambda b: int(b["id"]))
    return record_of_rows(round_row, [tuple(b[c] for c in BET_COLUMNS) for b in ordered])


def record_of_rows(round_row: Mapping[str, Any], bet_rows: Sequence[Sequence[Any]]) -> str:
    """:func:`record_of` from the bets' rows as tuples of :data:`BET_COLUMNS`, in the order of
    their ids (as a round's record is made when it is chained: a round may hold tens of thousands).

    Each bet is laid out with its keys already in sorted order, so its text is the canonical one
    without sorting: ``{"bet", "commission", "id", "outcome", "paid", "returned", "stake", "status"}``
    (the order :func:`bet_record` gives them, sorted). ``"bets"`` sorts first in the record.

    >>> row = {"table_id": "t", "number": 1, "id": 9, "coup_in_shoe": 1, "status": "settled",
    ...        "result": None, "cards": None}
    >>> bets = [(2, "tie", 100, "settled", "win", 800, 0, 900), (1, "banker", 100, "settled", "loss", 0, 0, 0)]
    >>> rows = [dict(zip(BET_COLUMNS, b)) for b in bets]
    >>> record_of_rows(row, sorted(bets)) == canonical({**_record_head(row), "bets": [bet_record(r) for r in rows[::-1]]})
    True
    """
    text = json.dumps(
        [
            {
                "bet": str(kind),
                "commission": commission,
                "id": int(bet_id),
                "outcome": outcome,
                "paid": paid,
                "returned": returned,
                "stake": int(stake),
                "status": str(status),
            }
            for bet_id, kind, stake, status, outcome, paid, commission, returned in bet_rows
        ],
        separators=(",", ":"),
        ensure_ascii=True,
    )
    head = canonical({**_record_head(round_row), "bets": []})
    empty = '{"bets":[]'
    assert head.startswith(empty)
    return '{"bets":' + text + head[len(empty) :]


def _record_head(round_row: Mapping[str, Any]) -> dict[str, Any]:
    """Everything in a round's record but its bets."""
    result = json.loads(round_row["result"]) if round_row.get("result") else None
    dealt = json.loads(round_row["cards"]) if round_row.get("cards") else None
    cards = result["cards"] if result else (dealt or {}).get("cards")
    return {
        "table": str(round_row["table_id"]),
        "round": int(round_row["number"]),
        "round_id": int(round_row["id"]),
        "coup_in_shoe": round_row["coup_in_shoe"],
        "status": str(round_row["status"]),
        "cards": cards,
        "result": result,
        "void_reason": round_row.get("void_reason"),
    }
