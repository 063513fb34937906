"""Money as people read and type it: currency units with thousands separators, the table's minor units inside.

The engine counts integer minor units (R32: 100 minor units to the unit); everything a person types
or reads, in the game and on the command line, is currency: ``100`` is 100.00, ``12.5`` is 12.50,
``1,000`` is a thousand. Importing this module loads nothing else.

>>> format_money(parse_money("1,234.5")), format_money(50), format_money(-5_000)
('1,234.50', '0.50', '-50')
"""

from __future__ import annotations

import re

from baccarat.errors import InputError

__all__ = ["MAX_MINOR", "MINOR_PER_UNIT", "format_money", "parse_money"]

#: Minor units per currency unit (R32: money is integer cents).
MINOR_PER_UNIT = 100
#: The largest amount a person may type: a trillion currency units (the simulator's bound too).
MAX_MINOR = 10**14

_MONEY = re.compile(r"^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$")
_HINT = "write an amount in currency units such as 100, 1,000 or 12.50"


def format_money(minor: int) -> str:
    """Minor units as currency: thousands separated, cents shown only when there are some.

    >>> format_money(1_234_500), format_money(9_550), format_money(-50)
    ('12,345', '95.50', '-0.50')
    """
    sign = "-" if minor < 0 else ""
    units, cents = divmod(abs(minor), MINOR_PER_UNIT)
    return f"{sign}{units:,}" + (f".{cents:02d}" if cents else "")


def parse_money(text: str, *, what: str = "amount") -> int:
    """An amount typed by a person (``100``, ``1,000``, ``12.5``) in minor units; it must be positive.

    >>> parse_money("1,000"), parse_money("12.5"), parse_money("0.05")
    (100000, 1250, 5)
    >>> parse_money("ten")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: amount 'ten' is not a number (write an amount in currency units such as 100, 1,000 or 12.50)
    >>> parse_money("-100", what="bankroll")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: bankroll '-100' must be positive (write an amount in currency units such as 100, 1,000 or 12.50)
    >>> parse_money("1" + "0" * 21, what="bankroll")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: bankroll '1000000000000000000000' is more than 1,000,000,000,000 (write an amount up to 1,000,000,000,000)
    """
    cleaned = text.strip()
    unsigned = cleaned.removeprefix("-").removeprefix("+").strip()
    if not _MONEY.match(unsigned):
        decimals = re.fullmatch(r"\d[\d,]*\.\d{3,}", unsigned)
        problem = "has more than two decimals" if decimals else "is not a number"
        raise InputError(f"{what} {text!r} {problem}", hint=_HINT)
    units, _, cents = unsigned.replace(",", "").partition(".")
    amount = int(units) * MINOR_PER_UNIT + int(cents.ljust(2, "0") or 0)
    if cleaned.startswith("-") or amount <= 0:
        raise InputError(f"{what} {text!r} must be positive", hint=_HINT)
    if amount > MAX_MINOR:
        most = format_money(MAX_MINOR)
        raise InputError(f"{what} {text!r} is more than {most}", hint=f"write an amount up to {most}")
    return amount
