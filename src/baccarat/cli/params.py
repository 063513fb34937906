"""Reading the command line's values without Pydantic, and in the commands' own words.

Typer converts each value through a Pydantic type adapter, and importing Pydantic costs more than
Typer itself: far more than ``baccarat deal`` needs. The commands take only text, whole numbers,
numbers, paths and choices (enums), one value or several, so :func:`lighten` gives each of their
parameters a plain converter of its own, whose refusals say what was wrong with the value
(``'x' is not a whole number``, ``'sometimes' is not one of deducted, owed``).

>>> from typer.models import OptionInfo
>>> LightParam(OptionInfo(min=1, max=8), int).convert("3", None)
3
>>> LightParam(OptionInfo(min=1, max=8), int).convert("x", None)
Traceback (most recent call last):
...
typer._click.exceptions.BadParameter: 'x' is not a whole number
>>> LightParam(OptionInfo(), str).convert(" ", None)
Traceback (most recent call last):
...
typer._click.exceptions.BadParameter: the value is empty; give one or leave the option out
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

from typer._click.exceptions import BadParameter
from typer._coercion import RuntimeParam
from typer.models import ParameterInfo

#: The help of every command's ``--variant``: the base variants and how a name adds side-bet
#: options (a test checks the names against ``baccarat.variants`` and the options' paytables).
VARIANT_HELP = (
    "Variant: macau, standard, no_commission, western, ez; add side-bet options with +, e.g. "
    "macau+lucky6+tie9 (options: lucky6, either_pair, perfect_pair, tie9, banker4; see baccarat variants)."
)

__all__ = ["VARIANT_HELP", "LightParam", "lighten", "lighten_param", "supported"]

_SCALARS = (str, int, float, Path, bool)
_TRUE, _FALSE = frozenset({"1", "true", "yes", "on", "y", "t"}), frozenset({"0", "false", "no", "off", "n", "f"})


def _path_is_plain(info: ParameterInfo) -> bool:
    """A path with no checks of its own (the command reads the file and words any error itself)."""
    flags = [getattr(info, name, None) for name in ("exists", "writable", "resolve_path", "allow_dash")]
    return not any(flags) and getattr(info, "file_okay", True) and getattr(info, "dir_okay", True)


def _leaf(annotation: Any) -> Any:
    return get_args(annotation)[0] if get_origin(annotation) is list else annotation


def supported(annotation: Any, info: ParameterInfo) -> bool:
    """Whether :class:`LightParam` reads values of this annotation (else Typer's own conversion does)."""
    if info.parser is not None or getattr(info, "click_type", None) is not None:
        return False
    leaf = _leaf(annotation)
    if leaf is Path:
        return _path_is_plain(info)
    return leaf in _SCALARS or (isinstance(leaf, type) and issubclass(leaf, Enum))


class LightParam(RuntimeParam):
    """Converts a parameter's text to its type (one value, or each of several); built like Typer's own
    (``parameter_info``, ``annotation``)."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        annotation: Any = self.annotation
        if get_origin(annotation) is list:
            return [self.convert(item, param) for item in value]
        return self.convert(value, param)

    def convert(self, value: Any, param: Any) -> Any:
        """One value as the parameter's type; a refusal is a :class:`BadParameter` naming the value."""
        kind = _leaf(self.annotation)
        if kind in (str, Path) and not str(value).strip():
            fix = "give one" if getattr(param, "required", False) else "give one or leave the option out"
            raise BadParameter(f"the value is empty; {fix}", param=param)
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return self._check_range(value, param)
        text = str(value)
        if kind is str:
            return text
        if kind is Path:
            return Path(text)
        if kind is bool:
            if text.strip().casefold() in _TRUE | _FALSE:
                return text.strip().casefold() in _TRUE
            raise BadParameter(f"{text!r} is not yes or no", param=param)
        if kind is int:
            try:
                return self._check_range(int(text.strip()), param)
            except ValueError:
                raise BadParameter(f"{text!r} is not a whole number", param=param) from None
        if kind is float:
            try:
                return self._check_range(float(text.strip()), param)
            except ValueError:
                raise BadParameter(f"{text!r} is not a number", param=param) from None
        return self._choice(kind, text, param)

    def _choice(self, kind: type[Enum], text: str, param: Any) -> Enum:
        values = {str(member.value): member for member in kind}
        wanted = text if self.parameter_info.case_sensitive else text.casefold()
        for name, member in values.items():
            if (name if self.parameter_info.case_sensitive else name.casefold()) == wanted:
                return member
        raise BadParameter(f"{text!r} is not one of {', '.join(values)}", param=param)

    def _check_range(self, value: Any, param: Any) -> Any:
        low, high = self.parameter_info.min, self.parameter_info.max
        if isinstance(value, int | float) and (
            (low is not None and value < low) or (high is not None and value > high)
        ):
            if low is not None and high is not None:
                raise BadParameter(f"{value} is outside {_figure(low)}–{_figure(high)}", param=param)
            if low is not None:
                raise BadParameter(f"{value} is less than {_figure(low)}", param=param)
            raise BadParameter(f"{value} is more than {_figure(high)}", param=param)
        return value


def _figure(value: Any) -> str:
    """A bound as people read it: ``12``, ``10,000,000``."""
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 1_000_000 else str(value)


def lighten_param(param: Any) -> bool:
    """Give one parameter a :class:`LightParam` if :func:`supported` covers it (a flag is also shown
    without a type: ``--json``, not ``--json <bool>``). Returns whether it did."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return True
    if getattr(param, "is_flag", False):
        param.metavar = ""
    if not supported(descriptor.annotation, descriptor.parameter_info):
        return False
    param._runtime_param = LightParam(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)
    return True


def lighten(command: Any) -> list[str]:
    """:func:`lighten_param` every parameter of ``command``; returns the names left to Typer's conversion."""
    return [param.name for param in command.params if not lighten_param(param)]
