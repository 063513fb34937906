"""The files a user names on the command line, read in one place that words every way reading fails.

``deal --paytable``, ``odds --paytable``, ``serve --config``, ``play --resume --save-file`` and
``verify FILE`` read through :func:`read_text`: a missing or unreadable file, a folder, or text that
is not UTF-8 is one :class:`~baccarat.errors.InputError` saying what was wrong and how to fix it
(exit status 2), never a traceback.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "latin1.toml"
>>> _ = path.write_bytes("name = 'caf\\xe9'".encode("latin-1"))
>>> read_text(path, what="paytable", hint="give the path of a TOML paytable")
Traceback (most recent call last):
...
baccarat.errors.InputError: paytable ...latin1.toml is not UTF-8 text: byte 0xe9 on line 1 cannot be read as UTF-8 (save the file as UTF-8, e.g. iconv -f LATIN1 -t UTF-8 ...latin1.toml > fixed.toml)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from baccarat.errors import InputError

if TYPE_CHECKING:
    from baccarat.paytables import Paytable

__all__ = ["read_paytable", "read_text"]

#: Byte-order marks of UTF-16 and UTF-32, the encodings a text file is most often saved in when not UTF-8.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def read_text(path: Path | str, *, what: str, hint: str, missing: tuple[str, str] | None = None) -> str:
    """The text of the file ``path`` (``-``: standard input), decoded as UTF-8 (a byte-order mark is skipped).

    ``what`` names the file in the messages (``paytable``, ``tables file``), ``hint`` says how to
    fix a file that cannot be read; ``missing`` is the message and hint for a file that does not
    exist, when it has words of its own (``no saved game at …``).
    """
    name = str(path)
    try:
        data = _stdin_bytes() if name == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        if missing is not None:
            raise InputError(missing[0], hint=missing[1]) from None
        raise InputError(f"{what} {name}: cannot read the file: no such file", hint=hint) from None
    except OSError as error:
        raise InputError(f"{what} {name}: cannot read the file: {error.strerror or error}", hint=hint) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _not_utf8(what, "standard input" if name == "-" else name, data, error) from None


def _stdin_bytes() -> bytes:
    """Standard input as bytes (its text when it has no byte stream, as under a test runner)."""
    buffer = getattr(sys.stdin, "buffer", None)
    return buffer.read() if buffer is not None else sys.stdin.read().encode("utf-8", "surrogateescape")


def _not_utf8(what: str, name: str, data: bytes, error: UnicodeDecodeError) -> InputError:
    """What to say of bytes that are not UTF-8: where, and how to convert them."""
    suffix = Path(name).suffix or ".txt"
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            return InputError(
                f"{what} {name} is {encoding} text, not UTF-8",
                hint=f"save the file as UTF-8, e.g. iconv -f {encoding} -t UTF-8 {name} > fixed{suffix}",
            )
    line = data.count(b"\n", 0, error.start) + 1
    return InputError(
        f"{what} {name} is not UTF-8 text: byte 0x{data[error.start]:02x} on line {line} cannot be read as UTF-8",
        hint=f"save the file as UTF-8, e.g. iconv -f LATIN1 -t UTF-8 {name} > fixed{suffix}",
    )


def read_paytable(path: Path) -> Paytable:
    """An operator's paytable (TOML) from ``path``, read through :func:`read_text` and validated."""
    import tomllib

    from baccarat.paytables import parse_paytable

    text = read_text(path, what="paytable", hint="give the path of a TOML paytable")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(
            f"paytable {path}: not valid TOML: {error}",
            hint="fix the TOML syntax",
            code="paytable.invalid",
            params={"paytable": str(path)},
        ) from None
    return parse_paytable(data, source=str(path))
