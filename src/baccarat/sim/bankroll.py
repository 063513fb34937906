"""A player's money for a simulated session: bankroll, base unit, table limits, stop-loss and stop-win.

Money is integer minor units (cents), as everywhere in the project (R32); :func:`parse_money`
reads amounts written in whole currency units (``"100"``, ``"12.50"``).

>>> b = Bankroll(start=parse_money("1000"), unit=parse_money("100"), stop_win=parse_money("500"))
>>> b.start, b.unit, b.stop_win
(100000, 10000, 50000)
>>> Bankroll(start=5000, unit=10000).check_limits(minimum=10000)
Traceback (most recent call last):
...
baccarat.errors.InputError: a bankroll of 50.00 is smaller than the table minimum of 100.00 (bring at least the table minimum, e.g. --bankroll 10000)
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from baccarat.errors import InputError

__all__ = ["MINOR_UNITS", "Bankroll", "TableLimits", "format_money", "parse_money"]

#: Minor units per currency unit.
MINOR_UNITS = 100
#: The largest amount accepted (1e12 currency units): stakes and sums stay far inside 64 bits.
_MAX_MINOR = 10**14


def parse_money(text: str | int) -> int:
    """An amount in currency units (up to two decimals) as minor units.

    >>> parse_money("12.5"), parse_money(3)
    (1250, 300)
    >>> parse_money("-5")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: amount '-5' is not a positive amount of money (write whole currency units, up to two decimals, e.g. 100 or 12.50)
    """
    try:
        value = Decimal(str(text).strip()) * MINOR_UNITS
    except InvalidOperation:
        value = Decimal(-1)
    if not value.is_finite() or value <= 0 or value != value.to_integral_value() or value > _MAX_MINOR:
        raise InputError(
            f"amount {text!r} is not a positive amount of money",
            hint="write whole currency units, up to two decimals, e.g. 100 or 12.50",
        )
    return int(value)


def format_money(minor: int) -> str:
    """Minor units as currency text.

    >>> format_money(123456), format_money(-5)
    ('1234.56', '-0.05')
    """
    sign = "-" if minor < 0 else ""
    whole, cents = divmod(abs(minor), MINOR_UNITS)
    return f"{sign}{whole}.{cents:02d}"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableLimits:
    """One bet's table minimum, maximum and stake step, in minor units (R21, R32)."""

    minimum: int
    maximum: int
    step: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum or self.step < 1:
            raise InputError(
                f"table limits {format_money(self.minimum)}–{format_money(self.maximum)} are not a range",
                hint="the table minimum must be positive and at most the maximum",
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class Bankroll:
    """A session's money: starting bankroll, base unit, optional stop-loss and stop-win (0: none).

    A session ends when the bankroll falls below the table minimum (ruin), when it has lost
    ``stop_loss`` or won ``stop_win``, or when its shoes are dealt.
    """

    start: int
    unit: int
    stop_loss: int = 0
    stop_win: int = 0

    def __post_init__(self) -> None:
        for name in ("start", "unit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MAX_MINOR:
                raise InputError(f"{name} {value!r} is not a positive amount", hint="give minor units, e.g. 10000")
        for name in ("stop_loss", "stop_win"):
            if not 0 <= getattr(self, name) <= _MAX_MINOR:
                raise InputError(f"{name} must not be negative", hint="leave it out (or 0) for none")

    def check_limits(self, *, minimum: int) -> None:
        """Refuse a bankroll or unit below the table minimum."""
        if self.start < minimum:
            raise InputError(
                f"a bankroll of {format_money(self.start)} is smaller than the table minimum of {format_money(minimum)}",
                hint=f"bring at least the table minimum, e.g. --bankroll {100 * minimum // MINOR_UNITS}",
            )
        if self.unit < minimum:
            raise InputError(
                f"a unit of {format_money(self.unit)} is below the table minimum of {format_money(minimum)}",
                hint=f"bet at least the table minimum, e.g. --unit {format_money(minimum)}",
            )
