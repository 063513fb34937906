"""A round's fairness record (R37) made from its rows in bulk is the canonical JSON of the record
written out plainly: every key sorted, at every level (baccarat.server.chain)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.server.chain import BET_COLUMNS, bet_record, canonical, record_of, record_of_rows

_TEXT = st.text(min_size=1, max_size=12)
_AMOUNT = st.none() | st.integers(min_value=0, max_value=10**12)
_BET = st.tuples(
    st.integers(min_value=1, max_value=10**9),
    _TEXT,
    st.integers(min_value=1, max_value=10**9),
    st.sampled_from(["accepted", "settled", "refunded"]),
    st.none() | _TEXT,
    _AMOUNT,
    _AMOUNT,
    _AMOUNT,
)
_RESULT = st.none() | st.fixed_dictionaries(
    {"cards": st.lists(st.sampled_from(["AS", "TH", "9D", "KC"]), max_size=6), "winner": _TEXT, "天": st.integers()}
)


def _round(result: dict[str, Any] | None, void: str | None, coup: int | None) -> dict[str, Any]:
    return {
        "table_id": "macau",
        "number": 12,
        "id": 340,
        "coup_in_shoe": coup,
        "status": "voided" if void else "settled",
        "result": None if result is None else json.dumps(result),
        "cards": json.dumps({"cards": ["AS", "KC"]}),
        "void_reason": void,
    }


@settings(max_examples=200, deadline=None)
@given(
    bets=st.lists(_BET, max_size=30, unique_by=lambda b: b[0]),
    result=_RESULT,
    void=st.none() | _TEXT,
    coup=st.none() | st.integers(min_value=1, max_value=80),
)
def test_the_bulk_record_is_the_plain_canonical_record(
    bets: list[tuple[Any, ...]], result: dict[str, Any] | None, void: str | None, coup: int | None
) -> None:
    row = _round(result, void, coup)
    rows = [dict(zip(BET_COLUMNS, bet, strict=True)) for bet in bets]
    plain = canonical(
        {
            "table": "macau",
            "round": 12,
            "round_id": 340,
            "coup_in_shoe": coup,
            "status": row["status"],
            "cards": result["cards"] if result else ["AS", "KC"],
            "result": result,
            "void_reason": void,
            "bets": [bet_record(b) for b in sorted(rows, key=lambda b: int(b["id"]))],
        }
    )
    assert record_of_rows(row, sorted(bets)) == plain
    assert record_of(row, rows) == plain
