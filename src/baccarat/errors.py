"""Errors raised by the engine.

Every error the engine raises on bad input is a :class:`BaccaratError`: its message says what
was wrong and how to fix it. Front doors (the CLI, the server) catch it and show the message;
the CLI exits with status 2, the server answers with a 4xx.

>>> try:
...     raise InputError("unknown card 'ZZ'", hint="write cards as rank + suit, e.g. AS, 10h, K♣")
... except BaccaratError as error:
...     print(error)
unknown card 'ZZ' (write cards as rank + suit, e.g. AS, 10h, K♣)
"""

from __future__ import annotations

__all__ = ["BaccaratError", "InputError", "ProcedureError"]


class BaccaratError(Exception):
    """Base class of every error the engine raises deliberately.

    ``hint`` tells the user how to fix the problem; it is appended to the message.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(f"{message} ({hint})" if hint else message)


class InputError(BaccaratError, ValueError):
    """Input that cannot be accepted: unknown card text, a setting out of range, …"""


class ProcedureError(BaccaratError, RuntimeError):
    """An action that the rules do not allow now: a card that is not due, a coup past the shoe's end."""
