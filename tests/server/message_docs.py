"""The list of websocket messages in docs/api.md, written from the schemas of
:mod:`baccarat.server.observer.messages`.

``.venv/bin/python -m tests.server.message_docs`` rewrites it; ``tests/server/test_messages.py``
checks that it is up to date. The list runs from the ``generated`` line to ``<!-- messages:end -->``;
the prose of the websocket section above it is written by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from baccarat.server.observer import messages

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
GENERATED = (
    "<!-- generated from baccarat.server.observer.messages.SCHEMAS by "
    "`.venv/bin/python -m tests.server.message_docs`: do not edit below by hand -->"
)
END = "<!-- messages:end -->"
WIDTH = 110

_GROUPS = (
    ("Public messages", "Sent to every connection that follows the table."),
    ("Private messages", "Sent to every connection of one user (after `auth`), in every server process."),
    ("Replies", "Sent to the connection whose message they answer, with its `ref`."),
)


def group(kind: str) -> int:
    """0: a public message, 1: a private one, 2: a reply."""
    if kind.startswith("my_"):
        return 1
    if kind in messages._REPLIES or kind == "error":
        return 2
    return 0


def _pretty(value: Any, indent: int = 0) -> str:
    """JSON with what fits on a line kept on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        return "[\n" + _fill([json.dumps(v, ensure_ascii=False) for v in value], pad) + "\n" + " " * indent + "]"
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_pretty(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    return "[\n" + ",\n".join(pad + _pretty(v, indent + 2) for v in value) + "\n" + " " * indent + "]"


def _fill(words: list[str], pad: str) -> str:
    """Scalars of a list, as many to a line as fit."""
    lines, line = [], ""
    for word in words:
        if line and len(pad) + len(line) + len(word) + 2 > WIDTH:
            lines.append(pad + line + ",")
            line = ""
        line = f"{line}, {word}" if line else word
    return "\n".join([*lines, pad + line])


def render() -> str:
    """The generated list: every message type, grouped, with its description and JSON Schema."""
    lines = [GENERATED, ""]
    for index, (title, intro) in enumerate(_GROUPS):
        lines += [f"### {title}", "", intro, ""]
        for kind, schema in messages.SCHEMAS.items():
            if group(kind) != index:
                continue
            lines += [f"#### `{kind}`", "", schema["description"], "", "```json", _pretty(schema), "```", ""]
    return "\n".join(lines)


def documented(text: str) -> str:
    """The generated list as it stands in the docs ('' when it is missing)."""
    start, end = text.find(GENERATED), text.find(END)
    return text[start:end] if 0 <= start < end else ""


def write(path: Path = API_DOC) -> None:
    """Rewrite the generated list in the docs."""
    text = path.read_text(encoding="utf-8")
    start, end = text.find(GENERATED), text.find(END)
    if start < 0:
        start = end
    if end < 0:
        raise SystemExit(f"{path}: no {END} line")
    path.write_text(text[:start] + render() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    write()
