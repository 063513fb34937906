r"""Every rule id the project cites is a rule of the rule book, ``docs/rules.md``.

The rule book defines each rule once, as a list item ``- <a id="r22"></a>R22. …`` (the anchor
``docs/rules.md#r22``): exactly R1 to R37, in order. A citation is any of:

* an id token: an upper-case ``R`` and its digits standing alone, ``(?<![\w#.$@\\])R(\d+)(?!\w)``.
  Not inside a longer word or number on either side (``xR2``, ``0R2``, ``R2a``, ``R2_b``), and not
  after ``#``, ``.``, ``$``, ``@`` or a backslash, which make a CSS selector or colour, an attribute,
  a template variable or an escape of it. That is how the project cites rules: ``rule="R22"``,
  ``"R22"``, ``[R22]``, ``(R22)``, ``R22:``, ranges (``R24–R32``, ``R25-R27``, ``R21/R22``,
  ``R1…R37``) and prose ("R35 exactly");
* a test named after rules: each ``_r<digits>`` part of a ``test_…`` name (``test_r22_…``,
  ``test_r24_to_r31_…``);
* a link to a rule's anchor: ``rules.md#r22``, or ``](#r22)`` inside the rule book.

The digits are taken whole, so ``R0``, ``R07``, ``R38`` or ``R100`` are citations too, of rules
that do not exist, and fail. The files read: ``src/``, ``tests/``, ``docs/``, ``benchmarks/`` and
``README.md``; Python, Markdown, JavaScript, HTML and TOML. This file is left out: its examples
of ids that do not exist are on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE_BOOK = ROOT / "docs" / "rules.md"
SCANNED = ("src", "tests", "docs", "benchmarks", "README.md")
SUFFIXES = {".py", ".md", ".js", ".html", ".toml"}
SKIPPED_DIRS = {"__pycache__", "node_modules", ".venv"}

_DEFINITION = re.compile(r'^- <a id="r(\d+)"></a>R(\d+)\. ', re.MULTILINE)
_TOKEN = re.compile(r"(?<![\w#.$@\\])R(\d+)(?!\w)")
_TEST_NAME = re.compile(r"\btest_\w+")
_TEST_PART = re.compile(r"(?<=_)r(\d+)(?=_|$)")
_ANCHOR = re.compile(r"(?:rules\.md|\]\()#r(\d+)\b")


def defined_rules() -> list[str]:
    """The rule ids the rule book defines, in its order."""
    ids = []
    for anchor, number in _DEFINITION.findall(RULE_BOOK.read_text(encoding="utf-8")):
        assert anchor == number, f"the anchor r{anchor} stands on rule R{number}"
        ids.append(f"R{number}")
    return ids


def cited_ids(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, rule id)`` of every citation in ``text``."""
    for number, line in enumerate(text.splitlines(), start=1):
        for digits in _TOKEN.findall(line):
            yield number, f"R{digits}"
        for name in _TEST_NAME.findall(line):
            for digits in _TEST_PART.findall(name):
                yield number, f"R{digits}"
        for digits in _ANCHOR.findall(line):
            yield number, f"R{digits}"


def project_files() -> Iterator[Path]:
    """Every file the citations are read from."""
    for name in SCANNED:
        top = ROOT / name
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in paths:
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
                and not path.parent.name.endswith(".egg-info")
                and path != Path(__file__).resolve()
            ):
                yield path


def citations() -> list[tuple[str, int, str]]:
    """``(file, line, id)`` of every citation in the project."""
    found = []
    for path in project_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [(str(path.relative_to(ROOT)), line, rule) for line, rule in cited_ids(text)]
    return found


def test_the_rule_book_defines_r1_to_r37_once_each_in_order() -> None:
    assert defined_rules() == [f"R{n}" for n in range(1, 38)]


def test_every_rule_id_cited_in_the_project_is_in_the_rule_book() -> None:
    known = set(defined_rules())
    found = citations()
    unknown = [f"{path}:{line}: {rule}" for path, line, rule in found if rule not in known]
    assert not unknown, "rule ids that docs/rules.md does not define:\n" + "\n".join(unknown)
    # The scan reads the project: the code, the tests and the README all cite rules.
    places = {path.split("/")[0] for path, _, _ in found}
    assert {"src", "tests", "docs", "README.md"} <= places
    assert len(found) > 200


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ('raise TableInputError(msg, rule="R22")', "R22"),
        (
            '{"rule": "R21"} [R5] (R12) R37: (R24–R32) R25-R27 R21/R22 R1…R37.',
            "R21 R5 R12 R37 R24 R32 R25 R27 R21 R22 R1 R37",
        ),
        ("def test_r9_face_up_card() -> None: ...", "R9"),
        ("def test_r24_to_r31_paytables() -> None: ...", "R24 R31"),
        ("see [Big Road](rules.md#r34) and [R15](#r15)", "R34 R15 R15"),
        ("color: #R2; .R3 { } $R4 @R5 \\R6 xR7 0R8 R9a R10_b test_bar9_x", ""),
        ("SVG path M0 0 L R 2, Red R 1, r2 and test_mirror_rx_", ""),
        ("R0, R07, R38 and (R100)", "R0 R07 R38 R100"),
    ],
)
def test_the_citation_pattern(text: str, ids: str) -> None:
    assert sorted(rule for _, rule in cited_ids(text)) == sorted(ids.split())


def test_an_id_the_rule_book_lacks_is_reported_with_its_line() -> None:
    known = set(defined_rules())
    text = "the Big Road (R34)\nsee R38 and R0\n"
    assert [(line, rule) for line, rule in cited_ids(text) if rule not in known] == [(2, "R38"), (2, "R0")]
