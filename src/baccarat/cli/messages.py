"""The command-line parser's errors in the commands' own style: ``what was wrong (how to fix it)``.

The engine words its errors as a message and a hint (:class:`~baccarat.errors.BaccaratError`); a
missing option, an unknown option or a value of the wrong type reads the same way here, with the
command's ``--help`` as the hint, and never in the words of the parsing library.

>>> from typer._click.exceptions import UsageError
>>> usage_error_message(UsageError("Got unexpected extra argument (8)"))
'unexpected argument 8 (see baccarat --help)'
"""

from __future__ import annotations

import re
from typing import Any

from typer._click.exceptions import BadParameter, MissingParameter, NoSuchOption, UsageError

__all__ = ["UnknownCommand", "option_name", "usage_error_message"]

#: The parser's phrasings, and ours.
_REWORDED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Option '(.+)' requires an argument\.?$"), r"\1 needs a value"),
    (re.compile(r"^Option '(.+)' requires (\d+) arguments\.?$"), r"\1 needs \2 values"),
    (re.compile(r"^Got unexpected extra arguments?(?:\(s\))? \((.*)\)\.?$"), r"unexpected argument \1"),
    (re.compile(r"^Value error, (.*?)\.?$"), r"\1"),
    (re.compile(r"^Input should be a valid integer.*$"), "is not a whole number"),
    (re.compile(r"^Input should be a valid number.*$"), "is not a number"),
    (re.compile(r"^Missing command\.?$"), "no command given"),
)


class UnknownCommand(UsageError):
    """A command name that ``baccarat`` does not have; ``hint`` names the nearest ones."""

    def __init__(self, message: str, *, hint: str, ctx: Any = None) -> None:
        super().__init__(message, ctx)
        self.hint = hint


def option_name(param: Any) -> str:
    """How the user writes a parameter: its long option (``--decks``), else its name in capitals.

    >>> class Option:
    ...     opts, param_type_name, name = ["-c", "--cards"], "option", "cards"
    >>> option_name(Option())
    '--cards'
    """
    if param is None:
        return "a value"
    if getattr(param, "param_type_name", "") == "argument":
        return str(param.name or "argument").upper()
    opts = [str(opt) for opt in getattr(param, "opts", ())]
    long = [opt for opt in opts if opt.startswith("--")]
    return (long or opts or [str(param.name)])[0]


def _reword(message: str) -> str:
    text = message.strip()
    for pattern, replacement in _REWORDED:
        if pattern.match(text):
            text = pattern.sub(replacement, text)
            break
    text = text.rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def usage_error_message(error: Exception) -> str:
    """One line for a parser error: what was wrong, then where to look."""
    ctx = getattr(error, "ctx", None)
    command = ctx.command_path if ctx is not None else "baccarat"
    hint = f"see {command} --help"
    if isinstance(error, UnknownCommand):
        return f"{error.message} ({error.hint})"
    if isinstance(error, NoSuchOption):
        close = sorted(error.possibilities or ())
        if close:
            hint = f"did you mean {' or '.join(close)}? {hint}"
        return f"there is no option {error.option_name} ({hint})"
    if isinstance(error, MissingParameter):
        return f"{option_name(error.param)} is required ({hint})"
    if isinstance(error, BadParameter):
        message = _reword(error.message)
        if error.param is None:
            return f"{message} ({hint})"
        return f"{option_name(error.param)}: {message} ({hint})"
    raw = getattr(error, "message", None)
    text = _reword(raw if isinstance(raw, str) else str(error))
    return f"{text} ({hint})"
