"""Errors raised by the engine.

Every error the engine raises on bad input is a :class:`BaccaratError`: its message says what
was wrong and how to fix it. Front doors (the CLI, the server) catch it and show the message;
the CLI exits with status 2, the server answers with a 4xx.

Each error also carries a stable ``code`` (``"limit.min"``; the registry is
:mod:`baccarat.error_codes`), the docs/rules.md id it enforces (``rule``) when there is one, and the
numbers and names its message speaks of (``params``), so that a client translates a refusal by
its code, never by its English text. :meth:`BaccaratError.problem` is the form a server sends.

>>> try:
...     raise InputError("unknown card 'ZZ'", hint="write cards as rank + suit, e.g. AS, 10h, K♣")
... except BaccaratError as error:
...     print(error)
unknown card 'ZZ' (write cards as rank + suit, e.g. AS, 10h, K♣)
>>> error = InputError(
...     "banker bet 150 is not a multiple of the minimum 100",
...     code="limit.banker_multiple",
...     rule="R22",
...     params={"stake": 150, "minimum": 100},
... )
>>> error.problem()["code"], error.problem()["params"], error.problem()["detail"]
('limit.banker_multiple', {'stake': 150, 'minimum': 100}, 'banker bet 150 is not a multiple of the minimum 100 [R22]')
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, ClassVar

__all__ = ["BaccaratError", "InputError", "Param", "ProcedureError"]

#: The type of one value in :attr:`BaccaratError.params` (anything else is kept as its text).
Param = int | str | float | None


class BaccaratError(Exception):
    """Base class of every error the engine raises deliberately.

    ``hint`` tells the user how to fix the problem; it is appended to the message. ``code`` is the
    stable id of the refusal (default: the class's :attr:`code`), ``rule`` the docs/rules.md id it
    enforces, and ``params`` the values the message names (a value that is not a number, a string
    or ``None`` is kept as its text).
    """

    #: The code of this kind of error when a raise gives none.
    code: ClassVar[str] = "input.invalid"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        code: str | None = None,
        rule: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code  # type: ignore[misc]  # an instance's own code shadows the class default
        self.rule: str | None = rule
        self.params: dict[str, Param] = {key: _param(value) for key, value in (params or {}).items()}
        super().__init__(f"{message} ({hint})" if hint else message)

    @property
    def detail(self) -> str:
        """The English text a client is sent: the message and hint, with `` [R22]`` when the rule is not in it."""
        text = str(self)
        return f"{text} [{self.rule}]" if self.rule and self.rule not in text else text

    def problem(self) -> dict[str, Any]:
        """The refusal as JSON data: ``{"code", "rule", "params", "detail"}`` (``rule``: ``None`` when none applies)."""
        return {"code": self.code, "rule": self.rule, "params": dict(self.params), "detail": self.detail}


class InputError(BaccaratError, ValueError):
    """Input that cannot be accepted: unknown card text, a setting out of range, …"""

    code: ClassVar[str] = "input.invalid"


class ProcedureError(BaccaratError, RuntimeError):
    """An action that the rules do not allow now: a card that is not due, a coup past the shoe's end."""

    code: ClassVar[str] = "procedure.not_now"


def _param(value: object) -> Param:
    """A value as :data:`Param`: an enum as its value, numbers and strings as they are, anything else as text."""
    if isinstance(value, Enum):
        value = value.value
    if value is None or isinstance(value, int | float | str):
        return value
    return str(value)
