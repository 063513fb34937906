"""JSON that Python reads but nothing else should accept: ``NaN`` and ``Infinity``, numbers too
large to be finite (``1e999999``), strings with a lone UTF-16 surrogate (``"\\ud800"``, which
cannot be stored or sent as UTF-8) and nesting deeper than any request needs.

>>> refusal_of(b'{"stake": NaN}').code, refusal_of(b'{"a": 1e999999}').detail
('request.not_json', 'body: numbers must be finite (this one overflows)')
>>> refusal_of(b'{"name": "\\\\ud800"}').code, refusal_of(b'[' * 40 + b']' * 40).detail
('request.invalid', 'body: nesting deeper than 32 levels')
>>> refusal_of(b'{"name": "ann", "stake": 100}') is None, refusal_of(b'not json') is None
(True, True)
"""

from __future__ import annotations

import json
import math
from typing import Any

from baccarat.server.api.problems import Refusal

__all__ = ["MAX_DEPTH", "refusal_of", "refusal_of_value"]

#: The deepest nesting of arrays and objects accepted.
MAX_DEPTH = 32


class _Constant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in the text."""


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def _invalid(detail: str) -> Refusal:
    return Refusal(422, "request.invalid", f"body: {detail}", params={"field": "body"})


_CONSTANT = "NaN and Infinity are not JSON numbers"
_OVERFLOW = "numbers must be finite (this one overflows)"
_SURROGATE = "text must be valid Unicode (a lone surrogate, half of a UTF-16 pair, is not)"
_DEEP = f"nesting deeper than {MAX_DEPTH} levels"


def refusal_of(body: bytes | str) -> Refusal | None:
    """The refusal of a JSON body that parses but must not be accepted (``None``: nothing to refuse
    here; text that is not JSON at all is left to the route's own parsing)."""
    try:
        value = json.loads(body, parse_constant=_no_constant)
    except _Constant:
        return Refusal(400, "request.not_json", _CONSTANT)
    except RecursionError:
        return _invalid(_DEEP)
    except (ValueError, UnicodeDecodeError):
        return None
    return refusal_of_value(value)


def refusal_of_value(value: Any) -> Refusal | None:
    """The refusal of a parsed JSON value: a number that is not finite, a lone surrogate, deep nesting."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return _invalid(_OVERFLOW)
        if isinstance(item, str) and not _encodable(item):
            return _invalid(_SURROGATE)
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return _invalid(_DEEP)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
