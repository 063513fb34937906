"""Every ``--help`` of ``baccarat``, drawn without Rich and laid out for the terminal (80 columns and up).

An option is shown as its names and a short metavar (``--decks N``, ``--burn CHOICE``,
``--[no-]reasons``), beside its description; the name column never takes more than leaves
:data:`DESCRIPTION_MIN` columns to the descriptions, and a longer name stands on a line of its own
above its description. The description ends with what the option's definition says and its text
does not: the choices, that it may be repeated, its range, its default.

>>> for line in panel("Options", [("--decks N", "Decks in the shoe."), ("--after-cut-card CHOICE", "x " * 30)], 60, False):
...     print(line)
╭─ Options ────────────────────────────────────────────────╮
│ --decks N       Decks in the shoe.                       │
│ --after-cut-card CHOICE                                  │
│                 x x x x x x x x x x x x x x x x x x x x  │
│                 x x x x x x x x x x                      │
╰──────────────────────────────────────────────────────────╯
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

from baccarat.cli.text import BOLD, CYAN, DIM, Styled, cell_width, colour_enabled, terminal_width, wrap_words

__all__ = ["DESCRIPTION_MIN", "HELP_WIDTH_MAX", "command_help", "help_width", "option_label", "panel"]

#: The narrowest the descriptions of a help panel get (at 80 columns: names take at most 34).
DESCRIPTION_MIN = 40
#: Help is drawn at most this wide, however wide the terminal.
HELP_WIDTH_MAX = 100

_MARKUP = re.compile(r"\[([a-z ]+)\](.*?)\[/[a-z ]*\]", re.DOTALL)
_METAVARS: dict[type, str] = {int: "N", float: "NUMBER", str: "TEXT", Path: "FILE"}
#: Choices written out as the metavar (``deducted|owed``) up to this width, else ``CHOICE``.
_CHOICES_INLINE = 16


def help_width() -> int:
    """The width help is drawn at: the terminal's (``COLUMNS``), at most :data:`HELP_WIDTH_MAX`."""
    return min(terminal_width(sys.stdout), HELP_WIDTH_MAX)


def panel(title: str, rows: Sequence[tuple[str, str | Styled]], width: int, colour: bool) -> list[str]:
    """A titled box of name / description rows, the descriptions at least :data:`DESCRIPTION_MIN` wide
    (when ``width`` allows) and folded at spaces."""

    def border(text: str) -> str:
        return Styled(text, DIM).render(colour=colour)

    inner = width - 4
    room = max(8, min(inner * 7 // 20, inner - 2 - DESCRIPTION_MIN))
    name_width = min(max(cell_width(name) for name, _ in rows), room)
    text_width = max(10, inner - name_width - 2)
    top = Styled(title, BOLD).render(colour=colour)
    lines = [border("╭─ ") + top + border(" " + "─" * max(0, width - cell_width(title) - 5) + "╮")]

    def line(body: Styled) -> None:
        pad = " " * max(0, inner - cell_width(body.plain))
        lines.append(border("│ ") + body.render(colour=colour) + pad + border(" │"))

    for name, description in rows:
        label = Styled(name.ljust(name_width), f"{BOLD};{CYAN}")
        folded = wrap_words(description, text_width)
        if cell_width(name) > name_width:
            line(label)
            label = Styled(" " * name_width)
        for i, text in enumerate(folded):
            line((label if i == 0 else Styled(" " * name_width)).plus("  ").plus(text))
    lines.append(border("╰" + "─" * (width - 2) + "╯"))
    return lines


def _markup(text: str) -> Styled:
    """Rich-style markup of the commands' docstrings (``[bold]…[/]``) as styled text."""
    styled, at = Styled(), 0
    for match in _MARKUP.finditer(text):
        styled = styled.plus(text[at : match.start()]).plus(match[2], BOLD if "bold" in match[1] else "")
        at = match.end()
    return styled.plus(text[at:])


def _examples(paragraph: str, width: int) -> list[Styled]:
    """An ``Example(s):`` paragraph: its heading, then each example on a line of its own, indented."""
    head, _, rest = paragraph.partition(":")
    examples: list[Styled] = []
    at = 0
    for match in _MARKUP.finditer(rest):
        between = " ".join(rest[at : match.start()].split()).strip(",").strip()
        if between and examples:
            examples[-1] = examples[-1].plus(f" {between}")
        examples.append(Styled(match[2], BOLD))
        at = match.end()
    after = " ".join(rest[at:].split()).strip(",").strip()
    if after and examples:
        examples[-1] = examples[-1].plus(f" {after}")
    lines = [Styled(f"{head}:")]
    for example in examples:
        lines += [Styled("  ").plus(line) for line in wrap_words(example, width - 2)]
    return lines


def _description(text: str, width: int) -> list[Styled]:
    """A command's docstring: paragraphs folded to ``width``, examples one a line."""
    out: list[Styled] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        if out:
            out.append(Styled())
        if re.match(r"^Examples?:", paragraph):
            out += _examples(paragraph, width)
        else:
            out += wrap_words(_markup(" ".join(paragraph.split())), width)
    return out


def _leaf(param: Any) -> Any:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return None
    annotation = descriptor.annotation
    return get_args(annotation)[0] if get_origin(annotation) is list else annotation


def _choices(param: Any) -> list[str]:
    leaf = _leaf(param)
    return [str(member.value) for member in leaf] if isinstance(leaf, type) and issubclass(leaf, Enum) else []


def _metavar(param: Any) -> str:
    """A short metavar: the definition's own, else ``N``, ``NUMBER``, ``TEXT``, ``FILE``, the choices or ``CHOICE``."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    if param.metavar:
        return str(param.metavar)
    choices = _choices(param)
    if choices:
        inline = "|".join(choices)
        return inline if len(inline) <= _CHOICES_INLINE else "CHOICE"
    return _METAVARS.get(_leaf(param), "VALUE")


def option_label(param: Any) -> str:
    """An option as help shows it: ``-c, --cards TEXT``, ``--[no-]reasons``, ``--json``."""
    opts = sorted(param.opts, key=lambda opt: (opt.startswith("--"), opt))
    secondary = list(getattr(param, "secondary_opts", []) or [])
    longs = [opt for opt in opts if opt.startswith("--")]
    if secondary == [f"--no-{opt[2:]}" for opt in longs[-1:]]:
        opts = [*opts[:-1], f"--[no-]{longs[-1][2:]}"]
    elif secondary:
        opts = [*opts[:-1], f"{opts[-1]}/{'/'.join(secondary)}"]
    metavar = _metavar(param)
    return ", ".join(opts) + (f" {metavar}" if metavar else "")


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 1_000_000 else str(value)


def _facts(param: Any, text: str) -> list[str]:
    """What the option's definition says and its help text does not: choices, repeats, range, default, required."""
    facts = []
    choices = _choices(param)
    if choices and "|".join(choices) != _metavar(param) and not all(choice in text for choice in choices):
        facts.append(f"one of: {', '.join(choices)}")
    if getattr(param, "multiple", False) and "repeat" not in text.lower():
        facts.append("repeatable")
    descriptor = getattr(param, "type_descriptor", None)
    info = getattr(descriptor, "parameter_info", None)
    low, high = getattr(info, "min", None), getattr(info, "max", None)
    if low is not None and high is not None:
        span = f"{_number(low)}–{_number(high)}"
        if span not in text and f"{low}–{high}" not in text:
            facts.append(span)
    facts += _default(param, text)
    if param.required:
        facts.append("required")
    return facts


def _default(param: Any, text: str) -> list[str]:
    default = param.default
    if not param.show_default or default in (None, False, "", (), []) or "default" in text.lower():
        return []
    if getattr(param, "is_flag", False):
        return [f"default:\N{NO-BREAK SPACE}{param.opts[-1]}"] if param.secondary_opts and default is True else []
    if isinstance(default, Enum):
        default = default.value
    return [f"default:\N{NO-BREAK SPACE}{_number(default)}"]  # kept on one line


def _row(param: Any) -> tuple[str, Styled]:
    text = " ".join(str(param.help or "").split())
    facts = _facts(param, text)
    description = _markup(text)
    if facts:
        description = description.plus((" " if text else "") + f"[{'; '.join(facts)}]", DIM)
    if param.param_type_name == "argument":
        return _argument_name(param), description
    return option_label(param), description


def _argument_name(param: Any) -> str:
    return str(param.metavar or param.name).upper()


def _usage(ctx: Any, command: Any) -> str:
    words = [f"Usage: {ctx.command_path}", "[OPTIONS]"]
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            name = _argument_name(param) + ("…" if param.nargs != 1 else "")
            words.append(name if param.required else f"[{name}]")
    return " ".join(words)


def command_help(ctx: Any, command: Any) -> str:
    """``baccarat COMMAND --help``: usage, description, examples, then the arguments and options, fitted to the terminal."""
    width = help_width()
    colour = colour_enabled(sys.stdout)
    lines = [" " + Styled(_usage(ctx, command), BOLD).render(colour=colour), ""]
    lines += [(" " + line.render(colour=colour)).rstrip() for line in _description(command.help or "", width - 2)]
    lines.append("")
    params = [param for param in command.get_params(ctx) if not getattr(param, "hidden", False)]
    arguments = [_row(param) for param in params if param.param_type_name == "argument"]
    options = [_row(param) for param in params if param.param_type_name == "option"]
    if arguments:
        lines += panel("Arguments", arguments, width, colour)
    if options:
        lines += panel("Options", options, width, colour)
    return "\n".join(lines) + "\n"
