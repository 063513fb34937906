"""What a step of a table does to its stored round (the table runner's operations)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TableOp"]


class TableOp(StrEnum):
    """The change a stored step makes to the table's round, besides storing its events.

    >>> TableOp("settle") is TableOp.SETTLE
    True
    """

    OPEN = "open"  # a new round opens for betting (its row and its shoe's coup count are stored first)
    CLOSE = "close"  # betting closes
    CARDS = "cards"  # a dealer-entry card was entered
    SETTLE = "settle"  # the coup settled: the round's result and each bettor's balance after it
    VOID = "void"  # the round was voided and every bet refunded (R18)
