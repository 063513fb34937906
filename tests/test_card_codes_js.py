"""R1 in both languages: the dealer's console reads a typed or scanned card (web/js/views/dealer/codes.js)
exactly as the server does (baccarat.cards.Card.parse), on every card in every spelling and on text
that is no card."""

from __future__ import annotations

import itertools
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


def _every_reason() -> list[dict[str, object]]:
    """Every drawing reason the engine gives (R12–R15), over every point combination of a coup."""
    from baccarat.coup import CoupDealer, Position

    seen: dict[str, dict[str, object]] = {}
    ranks = ["T", "A", "2", "3", "4", "5", "6", "7", "8", "9"]
    for p1, b1, p2, b2 in itertools.product(range(10), repeat=4):
        for third in range(10):
            dealer = CoupDealer()
            for point in (p1, b1, p2, b2):
                dealer.enter(Card.parse(ranks[point] + "S"))
            if dealer.due is Position.PLAYER_3:
                dealer.enter(Card.parse(ranks[third] + "H"))
            for reason in dealer.explained:
                seen[reason.text] = reason.to_dict()
            if dealer.due is None and Position.PLAYER_3 not in dealer.cards:
                break
    return list(seen.values())


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_r12_to_r15_the_console_writes_every_drawing_reason_as_the_engine_does() -> None:
    reasons = _every_reason()
    assert len({r["code"] for r in reasons}) == 6 and len(reasons) > 40
    script = (
        f"import({json.dumps(CODES.as_uri())}).then(async (m) => {{"
        f" const i18n = await import({json.dumps(CODES.parents[2].joinpath('i18n.js').as_uri())});"
        f" const reasons = {json.dumps(reasons)};"
        " const out = {};"
        " for (const lang of ['en', 'zh-Hant', 'zh-Hans']) {"
        "   i18n.setLang(lang); out[lang] = reasons.map((r) => [i18n.hasText(m.reasonKey(r)), m.reasonText(r)]); }"
        " process.stdout.write(JSON.stringify(out)); })"
    )
    found = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)
    assert [text for _, text in found["en"]] == [r["text"] for r in reasons]
    for lang in ("zh-Hant", "zh-Hans"):
        assert all(known for known, _ in found[lang]), lang
        assert not any("{" in text or text.isascii() for _, text in found[lang]), lang
