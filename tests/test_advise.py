"""``baccarat advise`` and the next-coup kernel: exactly the figures of ``baccarat odds --remove``."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from baccarat.analysis import par_sheet
from baccarat.analysis.advisor import Advisor
from baccarat.analysis.next_coup import next_coup_figures, next_coup_pricing
from baccarat.cards import ALL_CARDS
from baccarat.cli import odds_cache
from baccarat.cli.advise_follow import apply_message, message_cards
from baccarat.cli.app import app
from baccarat.composition import Composition
from baccarat.variants import variant_names

runner = CliRunner()


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(odds_cache.CACHE_ENV, "off")


def _partial_shoe(rng: random.Random, decks: int) -> str:
    """The first cards of a shuffled shoe, any number of them up to the last seven."""
    cards = [str(card) for card in ALL_CARDS for _ in range(decks)]
    rng.shuffle(cards)
    return " ".join(cards[: rng.randrange(0, len(cards) - 6)])


@pytest.mark.parametrize("variant", variant_names())
def test_next_coup_figures_are_the_par_sheet_of_the_cards_left(variant: str) -> None:
    rng = random.Random(variant)
    pricing = next_coup_pricing(variant)
    for decks in (1, 2, 8):
        seen = _partial_shoe(rng, decks)
        fast = next_coup_figures(decks, pricing, remove=seen)
        slow = par_sheet(decks, variant=variant, remove=seen).bets
        assert list(fast) == list(slow)
        for kind, bet in fast.items():
            assert bet.results == slow[kind].results  # every result's ways, exactly
            assert bet.expected_value == slow[kind].expected_value


def test_a_shoe_rich_in_pairs_makes_the_pair_bets_positive() -> None:
    # eight decks left with only aces and kings: pairs are frequent, Player and Banker pair pay 11
    counts = [8 if card.rank in (1, 13) else 0 for card in ALL_CARDS]
    advisor = Advisor(Composition(tuple(counts)), variant="macau")
    advice = advisor.advice()
    assert {"player_pair", "banker_pair"} <= {kind.value for kind in advice.positive}
    assert advice.to_dict()["bets"]["player_pair"]["positive"] is True


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_advise_json_is_odds_remove_json(seed: int) -> None:
    rng = random.Random(seed)
    variant = rng.choice(variant_names())
    decks = rng.choice([1, 6, 8])
    seen = _partial_shoe(rng, decks)
    advice = runner.invoke(app, ["advise", "--decks", str(decks), "--variant", variant, "--cards", seen, "--json"])
    odds = runner.invoke(app, ["odds", "--decks", str(decks), "--variant", variant, "--remove", seen, "--json"])
    assert advice.exit_code == odds.exit_code == 0, advice.output + odds.output
    got, want = json.loads(advice.stdout), json.loads(odds.stdout)["bets"]
    assert got["cards_left"] == decks * 52 - len(seen.split())
    assert set(got["bets"]) == set(want)
    for bet, figures in want.items():
        assert got["bets"][bet]["expected_value"] == figures["expected_value"]
        assert {k: v for k, v in got["bets"][bet].items() if k != "positive"} == figures


def test_one_update_per_line_of_standard_input_and_a_new_shoe() -> None:
    lines = "9S 8H KD 5C\n# a comment\n\n2S 3H 4D 5D 6S\nnew\nAS\n"
    done = runner.invoke(app, ["advise", "--json", "--decks", "1"], input=lines)
    assert done.exit_code == 0, done.output
    updates = [json.loads(line) for line in done.stdout.splitlines()]
    assert [u["cards_seen"] for u in updates] == [0, 4, 9, 0, 1]
    assert updates[3]["bets"] == updates[0]["bets"]
    assert updates[1]["bets"] != updates[0]["bets"]


def test_the_table_marks_positive_bets() -> None:
    aces_and_kings = " ".join(f"{r}{s}" for r in "23456789TJQ" for s in "SHDC")
    done = runner.invoke(app, ["advise", "--decks", "1", "--cards", aces_and_kings])
    assert done.exit_code == 0, done.output
    assert "+EV" in done.stdout and "player_pair" in done.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (["--cards", "AS ZZ"], None, "unknown card 'ZZ'"),
        (["--decks", "1", "--cards", "AS AS"], None, "cannot remove AS"),
        (["--decks", "1", "--json"], "AS\nAS\n", "line 2: cannot remove AS"),
        (["--decks", "1", "--cards", " ".join(str(c) for c in ALL_CARDS[:47])], None, "too small to deal a coup"),
        (["--follow", "http://127.0.0.1:9"], None, "--follow and --table go together"),
        (["--follow", "ftp://x", "--table", "t"], None, "not an http:// or https:// address"),
        (["--decks", "13"], "", "13 decks is outside 1–12"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args: list[str], stdin: str | None, says: str) -> None:
    done = runner.invoke(app, ["advise", *args], input=stdin)
    assert done.exit_code == 2
    assert says in done.stderr


def test_messages_that_move_cards() -> None:
    advisor = Advisor(8)
    assert not apply_message(advisor, {"type": "card_dealt", "position": "player1", "card": "AS"})
    assert apply_message(advisor, {"type": "round_settled", "result": {"cards": ["9S", "8H", "KD", "5C"]}})
    assert advisor.seen == 4
    assert message_cards({"type": "round_voided", "cards": {"player": ["AS", None], "banker": []}}) == ["AS"]
    assert apply_message(advisor, {"type": "shoe_started", "config": {"decks": 6}})
    assert (advisor.seen, advisor.left.total) == (0, 312)


class _Events(BaseHTTPRequestHandler):
    events: ClassVar[list[dict[str, Any]]] = []

    def do_GET(self) -> None:
        after = int(self.path.split("after=")[1].split("&")[0])
        page = [e for e in self.events if e["id"] > after][:200]
        body = json.dumps({"events": page, "last": page[-1]["id"] if page else None}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def table_server() -> Iterator[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]:
    """A stand-in for the server: stored events over HTTP, live messages over a websocket (on another port:
    the test points the client's websocket there)."""
    from websockets.sync.server import serve

    stored: list[dict[str, Any]] = []
    live: list[dict[str, Any]] = []
    _Events.events = stored
    http = ThreadingHTTPServer(("127.0.0.1", 0), _Events)

    def handler(socket: Any) -> None:
        for message in live:
            socket.send(json.dumps(message))

    ws = serve(handler, "127.0.0.1", 0)
    port = ws.socket.getsockname()[1]
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in (http, ws)]
    for thread in threads:
        thread.start()

    yield f"http://127.0.0.1:{http.server_address[1]}|{port}", stored, live
    http.shutdown()
    ws.shutdown()


def test_follow_reads_the_stored_events_then_the_live_ones(
    table_server: tuple[str, list[dict[str, Any]], list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    address, stored, live = table_server
    http_base, ws_port = address.split("|")
    import websockets.sync.client

    from baccarat.cli import advise_follow

    real_connect = websockets.sync.client.connect
    asked: list[str] = []

    def connect(url: str, **options: Any) -> Any:
        asked.append(url)
        return real_connect(f"ws://127.0.0.1:{ws_port}/", **options)

    monkeypatch.setattr(websockets.sync.client, "connect", connect)
    settled = {"type": "round_settled", "result": {"cards": ["9S", "8H", "KD", "5C"]}}
    stored += [
        {"id": 1, "type": "shoe_started", "config": {"decks": 8}},
        {"id": 2, **settled},
        {"id": 3, "type": "shoe_started", "config": {"decks": 6}},
        {"id": 4, **settled},
    ]
    live += [
        {"type": "snapshot"},
        {"id": 4, **settled},  # stored and already read: applied once
        {"id": 5, "type": "round_settled", "result": {"cards": ["2S", "3H", "4D", "5C", "6S"]}},
    ]
    updates: list[Any] = []
    advisor = Advisor(8)
    advise_follow.follow_table(advisor, http_base, "t1", updates.append)
    assert asked == [http_base.replace("http://", "ws://") + "/ws/tables/t1"]
    assert [(u.cards_seen, u.cards_left) for u in updates] == [(4, 308), (9, 303)]


def test_a_bet_reading_both_pairs_and_totals_is_priced_from_the_full_distribution() -> None:
    import numpy as np

    from baccarat.analysis.next_coup import SKIP, _reduced
    from baccarat.features import FEATURE_KEYS, KEY_BANKER_FACE, KEY_PLAYER_PAIR, split_key

    player_total, _, _, _, flags = split_key(np.arange(FEATURE_KEYS, dtype=np.int64))
    pair = (flags & 1).astype(np.int8) - 1  # wins on a Player pair, else loses
    totals = np.where(player_total > 5, 0, -1).astype(np.int8)
    face = np.where(np.arange(FEATURE_KEYS) // KEY_BANKER_FACE % 2 == 1, 0, -1).astype(np.int8)
    reduced_pair, reduced_totals = _reduced(pair), _reduced(totals)
    assert reduced_pair is not None and reduced_totals is not None
    assert (reduced_pair[: 16 * KEY_PLAYER_PAIR] == SKIP).all() and (reduced_pair[-16:] != SKIP).all()
    assert (reduced_totals[-16:] == SKIP).all()
    assert _reduced(face) is not None
    assert _reduced(np.maximum(pair, totals)) is None  # reads both: left to the full distribution


def test_the_full_distribution_prices_a_mixed_bet_exactly() -> None:
    from dataclasses import replace

    from baccarat.analysis.next_coup import SKIP
    from baccarat.bets import BetKind

    plain = next_coup_pricing("macau")
    index = plain.index.copy()
    index[:, plain.kinds.index(BetKind.TIE)] = SKIP  # the kernel leaves the Tie out: only the fallback prices it
    pricing = replace(plain, index=index, mixed=(BetKind.TIE,))
    figures = next_coup_figures(1, pricing, remove="AS 2H 3D")
    assert figures[BetKind.TIE] == par_sheet(1, variant="macau", remove="AS 2H 3D").bets[BetKind.TIE]
