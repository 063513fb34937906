"""R1 in both languages: the dealer's console reads a typed or scanned card (web/js/views/dealer/codes.js)
exactly as the server does (baccarat.cards.Card.parse), on every card in every spelling and on text
that is no card."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from baccarat.cards import Card
from baccarat.errors import InputError

CODES = Path(__file__).resolve().parents[1] / "src/baccarat/web/js/views/dealer/codes.js"
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _spellings() -> list[str]:
    texts = []
    for rank in "A23456789TJQK":
        for suit in "SHDC":
            texts += [rank + suit, (rank + suit).lower(), rank + SYMBOLS[suit], f" {rank}{suit}\n"]
            if rank == "T":
                texts += ["10" + suit, "10" + suit.lower()]
    return [*texts, "", "A", "1S", "11H", "ZZ", "AX", "KK", "10", "♠A", "AS AS", "0D", "1OH"]


def _python(text: str) -> str | None:
    try:
        return str(Card.parse(text))
    except InputError:
        return None


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_r1_the_console_and_the_server_read_every_card_code_alike() -> None:
    texts = _spellings()
    script = (
        f"import({json.dumps(CODES.as_uri())}).then((m) => {{"
        f" const texts = {json.dumps(texts)};"
        " process.stdout.write(JSON.stringify(texts.map((t) => m.cardCode(t)))); })"
    )
    found = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)
    expected = [_python(text) for text in texts]
    assert sum(e is not None for e in expected) == 52 * 4 + 8
    assert dict(zip(texts, found, strict=True)) == dict(zip(texts, expected, strict=True))
