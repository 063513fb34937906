"""The table server is made of small functions: none in ``baccarat.server`` is longer than about
80 lines (a longer one does more than one job and is split). Database migrations, which write a
schema out in full, are not counted."""

from __future__ import annotations

import ast
from pathlib import Path

import baccarat.server

LIMIT = 85


def _long_functions(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                length = node.end_lineno - node.lineno + 1
                if length > LIMIT:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_long_function_in_the_server() -> None:
    root = Path(baccarat.server.__file__).parent
    assert _long_functions(root) == []
