"""Error codes: every code in the source is registered and well formed, the table's refusals carry
the expected code, rule and params, ``problem()`` has its shape, docs/api.md lists every code, and
the browser translates every code in every language."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import baccarat
import baccarat.play.save
import baccarat.play.session
import baccarat.server.auth
import baccarat.server.service
import baccarat.server.store
from baccarat.bets import parse_bet_kind
from baccarat.cards import Card, parse_cards
from baccarat.coup import Position
from baccarat.error_codes import CODE_PATTERN, CODES, REGISTRY, STATUS
from baccarat.errors import BaccaratError, InputError, ProcedureError
from baccarat.table import Phase, Table, TableError
from baccarat.table_config import DealSource, TableConfig

SRC = Path(baccarat.__file__).parent
ROOT = SRC.parent.parent
WEB = SRC / "web" / "js"
STATUSES = {400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503}


def _subclasses(cls: type[BaccaratError]) -> Iterator[type[BaccaratError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _error_classes() -> dict[str, type[BaccaratError]]:
    """Every error class of the package that is imported here, by name."""
    classes = {cls.__name__: cls for cls in _subclasses(BaccaratError) if cls.__module__.startswith("baccarat.")}
    return {"BaccaratError": BaccaratError, **classes}


def _calls() -> Iterator[tuple[Path, ast.Call]]:
    """Every call in the source."""
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                yield path, node


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _code_nodes(tree: ast.AST) -> Iterator[ast.expr]:
    """The expressions of a module that give a code: ``code="…"`` in a call, a code-like text among the
    arguments of an error or refusal, a class's ``code = "…"``, a text compared with ``.code``, and the
    texts of a table whose name says it holds codes (``_STATUS_CODES = {400: "request.invalid"}``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from (k.value for k in node.keywords if k.arg == "code")
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name.endswith(("Error", "Refusal")):
                yield from (arg for arg in node.args if CODE_PATTERN.match(_text(arg) or ""))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is not None:
                    if item.target.id == "code":
                        yield item.value
                elif isinstance(item, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "code" for t in item.targets
                ):
                    yield item.value
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute) and side.attr == "code" for side in sides):
                yield from sides
        elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and "CODE" in t.id.upper() for t in targets):
                yield from (v for v in (*node.value.keys, *node.value.values) if v is not None)


def _literal_codes() -> dict[str, list[str]]:
    """Every code the source gives (see :func:`_code_nodes`), with where it is."""
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in _code_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            code = _text(node)
            if code is not None:
                found.setdefault(code, []).append(f"{path.relative_to(SRC)}:{node.lineno}")
    return found


def _raises() -> Iterator[tuple[str, type[BaccaratError], str, ast.Call]]:
    """Each construction of a known error class: where, the class, the code it gets, the call."""
    classes = _error_classes()
    for path, call in _calls():
        cls = classes.get(call.func.id) if isinstance(call.func, ast.Name) else None
        if cls is None:
            continue
        code = _text(_keyword(call, "code")) or cls.code
        yield f"{path.relative_to(SRC)}:{call.lineno}", cls, code, call


# --- the registry -------------------------------------------------------------------------------


def test_every_code_in_the_source_is_registered() -> None:
    found = _literal_codes()
    assert {"limit.banker_multiple", "input.invalid", "seat.taken"} <= set(found)  # raises and class defaults
    missing = {code: where for code, where in found.items() if code not in CODES}
    assert not missing, f"codes used but not in baccarat.error_codes.CODES: {missing}"


def test_every_error_class_has_a_registered_default_code() -> None:
    classes = _error_classes()
    assert {"LimitError", "SqueezeError", "LeaseLost", "SaveError"} <= set(classes)
    for name, cls in classes.items():
        assert cls.code in CODES, f"{name}.code = {cls.code!r} is not registered"


def test_codes_are_well_formed_and_unique() -> None:
    from baccarat import error_codes

    entries = [*error_codes._ENGINE, *error_codes._SERVER]
    assert len(entries) == len(REGISTRY) == len(CODES) == len(STATUS), "a code is registered twice"
    for code, entry in REGISTRY.items():
        assert CODE_PATTERN.match(code), f"{code!r} is not area.reason"
        assert entry.code == code and entry.meaning and entry.meaning == CODES[code]
        assert entry.status in STATUSES, f"{code}: status {entry.status}"
        assert entry.rule is None or re.fullmatch(r"R\d{1,2}", entry.rule), f"{code}: rule {entry.rule!r}"
        assert len(set(entry.params)) == len(entry.params), f"{code}: a param is named twice"
    for bad in ("Limit.min", "limit", "limit.", ".min", "limit.min.max", "limit-min.x", "limit.Min"):
        assert not CODE_PATTERN.match(bad), bad


def test_the_codes_the_server_raises_are_registered_with_their_status() -> None:
    server = {
        "auth.required": 401,
        "auth.invalid": 401,
        "auth.forbidden": 403,
        "auth.rate_limited": 429,
        "request.rate_limited": 429,
        "request.invalid": 422,
        "request.too_large": 413,
        "request.not_json": 400,
        "request.unknown_type": 400,
        "table.not_found": 404,
        "round.not_found": 404,
        "round.not_in_play": 409,
        "round.finished": 409,
        "table.unavailable": 503,
        "table.no_server_shoe": 409,
        "table.not_dealer_entry": 409,
        "shoe.not_revealed": 409,
        "name.taken": 409,
        "name.reserved": 409,
        "name.invalid": 400,
        "password.invalid": 400,
        "bet.not_found": 409,
        "server.error": 500,
    }
    assert {code: STATUS.get(code) for code in server} == server


def test_each_raise_matches_its_registered_status_params_and_rule() -> None:
    checked = 0
    for where, cls, code, call in _raises():
        entry = REGISTRY[code]
        if issubclass(cls, ProcedureError):
            assert entry.status in (409, 503), f"{where}: {code} is a {cls.__name__} but answers {entry.status}"
        elif issubclass(cls, InputError):
            assert entry.status == 400, f"{where}: {code} is a {cls.__name__} but answers {entry.status}"
        params = _keyword(call, "params")
        if isinstance(params, ast.Dict):
            names = {_text(k) for k in params.keys}
            assert names <= set(entry.params), f"{where}: {code} names {names - set(entry.params)}, not registered"
        given = _text(_keyword(call, "rule"))
        if entry.rule is not None:
            assert given == entry.rule, f"{where}: {code} always enforces {entry.rule}, the raise gives {given}"
        checked += 1
    assert checked > 100


def test_each_refusal_of_the_http_layer_matches_its_registered_status_and_params() -> None:
    checked = 0
    for path, call in _calls():
        if not (isinstance(call.func, ast.Name) and call.func.id == "Refusal") or len(call.args) < 2:
            continue
        status, code = call.args[0], _text(call.args[1])
        if code is None or not isinstance(status, ast.Constant) or not isinstance(status.value, int):
            continue  # a refusal passed on with the status and code it came with
        where = f"{path.relative_to(SRC)}:{call.lineno}"
        assert code in REGISTRY, f"{where}: {code} is not registered"
        answered = int(status.value)
        assert answered == STATUS[code], f"{where}: {code} answers {answered}, registered {STATUS[code]}"
        params = _keyword(call, "params")
        if isinstance(params, ast.Dict):
            names = {_text(k) for k in params.keys}
            assert names <= set(REGISTRY[code].params), f"{where}: {code} names {names - set(REGISTRY[code].params)}"
        checked += 1
    assert checked > 0


# --- the table's refusals -----------------------------------------------------------------------


def _table(**settings: Any) -> Table:
    values: dict[str, Any] = {"deal_source": DealSource.DEALER_ENTRY, "min_bet": 100, "max_bet": 10_000}
    values.update(settings)
    table = Table(TableConfig(**values))
    table.join("ann", balance=5_000, seat=1, now=0)
    table.join("bob", balance=50_000, seat=2, now=0)
    table.open_betting(now=1)
    return table


def _refusal(action: Callable[[], object]) -> dict[str, Any]:
    with pytest.raises(TableError) as caught:
        action()
    problem = caught.value.problem()
    assert problem["code"] == caught.value.code
    return {key: problem[key] for key in ("code", "rule", "params")}


def test_a_stake_below_the_minimum() -> None:
    table = _table()
    assert _refusal(lambda: table.place_bet("ann", "tie", 50, now=2)) == {
        "code": "limit.min",
        "rule": "R21",
        "params": {"bet": "tie", "stake": 50, "minimum": 100},
    }


def test_a_stake_above_the_maximum() -> None:
    table = _table()
    assert _refusal(lambda: table.place_bet("bob", "player", 10_100, now=2)) == {
        "code": "limit.max",
        "rule": "R21",
        "params": {"bet": "player", "stake": 10_100, "maximum": 10_000},
    }


def test_a_banker_stake_that_is_not_a_multiple_of_the_minimum() -> None:
    table = _table()
    assert _refusal(lambda: table.place_bet("ann", "banker", 250, now=2)) == {
        "code": "limit.banker_multiple",
        "rule": "R22",
        "params": {"bet": "banker", "stake": 250, "minimum": 100, "suggestion": 200},
    }


def test_a_stake_over_the_banker_player_limit() -> None:
    table = _table(banker_player_limit=3_000)
    table.place_bet("bob", "player", 1_000, now=2)
    assert _refusal(lambda: table.place_bet("bob", "banker", 5_000, now=2)) == {
        "code": "limit.net_exposure",
        "rule": "R21",
        "params": {"side": "banker", "difference": 4_000, "limit": 3_000},
    }


def test_a_stake_over_the_balance() -> None:
    table = _table()
    assert _refusal(lambda: table.place_bet("ann", "player", 6_000, now=2)) == {
        "code": "balance.insufficient",
        "rule": None,
        "params": {"bettor": "ann", "stake": 6_000, "available": 5_000, "owed": 0},
    }


def test_a_bet_while_betting_is_closed() -> None:
    table = _table()
    table.close_betting(now=2)
    assert _refusal(lambda: table.place_bet("ann", "player", 100, now=3)) == {
        "code": "betting.closed",
        "rule": None,
        "params": {"round": 1, "phase": "dealing", "action": "a player bet"},
    }


def test_a_bet_the_variant_does_not_offer_and_a_bet_that_is_not_a_bet() -> None:
    table = _table()
    assert _refusal(lambda: table.place_bet("ann", "dragon7", 100, now=2)) == {
        "code": "bet.not_on_menu",
        "rule": None,
        "params": {"bettor": "ann", "bet": "dragon7", "variant": "macau"},
    }
    assert _refusal(lambda: table.place_bet("ann", "dragon", 100, now=2))["code"] == "bet.unknown"


def test_a_seat_that_is_taken() -> None:
    table = _table()
    table.join("cy", balance=100, now=2)
    assert _refusal(lambda: table.sit("cy", 2, now=2)) == {
        "code": "seat.taken",
        "rule": "R20",
        "params": {"seat": 2, "bettor": "bob"},
    }


def test_a_card_that_is_not_due() -> None:
    table = _table()
    table.close_betting(now=2)
    assert _refusal(lambda: table.deal_card("AS", position=Position.BANKER_1, now=3)) == {
        "code": "card.not_due",
        "rule": "R18",
        "params": {"position": "banker_1", "due": "player_1"},
    }
    assert _refusal(lambda: table.deal_card("ZZ", now=3))["code"] == "card.invalid"


def test_a_reveal_by_someone_who_does_not_hold_the_squeeze() -> None:
    table = _table(squeeze=True)
    table.place_bet("ann", "player", 1_000, now=2)
    table.place_bet("bob", "banker", 1_000, now=2)
    table.close_betting(now=3)
    for card in parse_cards("5S 3H KD 2C"):  # Player 5 draws a third card once the first four are turned
        table.deal_card(card, now=4)
    assert table.phase is Phase.DEALING and table.reveal_due is not None
    assert _refusal(lambda: table.reveal("player", by="bob", now=5)) == {
        "code": "squeeze.not_yours",
        "rule": "R23",
        "params": {"bettor": "bob", "side": "player", "holder": "ann"},
    }
    assert _refusal(lambda: table.deal_card(Card.parse("AS"), now=5))["code"] == "card.reveal_first"


def test_other_engine_errors_carry_their_codes() -> None:
    with pytest.raises(InputError) as unknown:
        parse_bet_kind("dragon")
    assert unknown.value.code == "bet.unknown" and unknown.value.params == {"bet": "dragon"}
    with pytest.raises(InputError) as card:
        parse_cards("AS ZZ")
    assert card.value.code == "card.invalid" and card.value.params == {"card": "ZZ", "position": 2}
    with pytest.raises(InputError) as config:
        TableConfig(seats=3)
    assert config.value.code == "config.invalid"


# --- problem() ----------------------------------------------------------------------------------


def test_problem_has_the_code_rule_params_and_the_english_text() -> None:
    table = _table()
    with pytest.raises(TableError) as caught:
        table.place_bet("ann", "banker", 150, now=2)
    problem = caught.value.problem()
    assert list(problem) == ["code", "rule", "params", "detail"]
    assert problem["detail"] == str(caught.value)  # the rule is in the text already: nothing appended
    assert "R22" in problem["detail"]
    assert json.loads(json.dumps(problem)) == problem
    error = ProcedureError("no round", hint="open one", rule="R18", params={"phase": Phase.IDLE, "at": object()})
    assert error.problem() == {
        "code": "procedure.not_now",
        "rule": "R18",
        "params": {"phase": "idle", "at": str(error.params["at"])},
        "detail": "no round (open one) [R18]",
    }
    assert type(error.params["phase"]) is str
    assert InputError("bad").problem() == {"code": "input.invalid", "rule": None, "params": {}, "detail": "bad"}
    assert InputError("bad", code="card.invalid").code == "card.invalid" and InputError.code == "input.invalid"


# --- docs/api.md --------------------------------------------------------------------------------


def _docs_rows() -> dict[str, list[str]]:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- error-codes:begin -->(.*?)<!-- error-codes:end -->", text, re.S)
    assert match, "docs/api.md has no error-codes section"
    rows: dict[str, list[str]] = {}
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and cells:
            rows[cells[0].strip("`")] = cells
    return rows


def test_docs_list_every_code_with_its_status_rule_and_params() -> None:
    rows = _docs_rows()
    assert set(CODES) <= set(rows), f"not in docs/api.md: {sorted(set(CODES) - set(rows))}"
    assert set(rows) <= set(CODES), f"in docs/api.md but not registered: {sorted(set(rows) - set(CODES))}"
    for code, (_, status, rule, params, _meaning) in rows.items():
        entry = REGISTRY[code]
        assert int(status) == entry.status, code
        assert rule == (entry.rule or "–"), code
        assert params == (", ".join(f"`{name}`" for name in entry.params) or "–"), code


# --- the browser's translations -----------------------------------------------------------------

_NODE_CHECK = textwrap.dedent(
    """
    const store = new Map();
    globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
    globalThis.navigator = { languages: ["zh-Hant"] };
    globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
    const web = process.argv[2];
    const codes = JSON.parse(process.argv[3]);
    const i18n = await import(`${web}/i18n.js`);
    const { explain, ruleOf } = await import(`${web}/refusals.js`);
    const out = {};
    for (const lang of ["zh-Hant", "en"]) {
      i18n.setLang(lang);
      out[lang] = {
        untranslated: codes.filter((code) => !i18n.hasText(`refusal.${code}`)),
        min: explain({ code: "limit.min", rule: "R21", params: { bet: "tie", stake: 50, minimum: 10000 }, detail: "x" }),
        funds: explain({ code: "balance.insufficient", rule: null, params: { owed: 150 }, detail: "x" }),
        unknown: explain({ code: "no.such_code", rule: "R9", params: {}, detail: "as sent" }),
        text: explain("plain text [R22]"),
        rules: [ruleOf({ code: "seat.taken", rule: "R20" }), ruleOf("seat 2 is taken [R20]"), ruleOf({ detail: "x" })],
      };
    }
    console.log(JSON.stringify(out));
    """
)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_browser_translates_every_code_in_every_language(tmp_path: Path) -> None:
    script = tmp_path / "check.mjs"
    script.write_text(_NODE_CHECK, encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), WEB.as_uri(), json.dumps(sorted(CODES))],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    out = json.loads(done.stdout)
    for lang in ("zh-Hant", "en"):
        assert out[lang]["untranslated"] == [], f"{lang}: no text for {out[lang]['untranslated']}"
        assert out[lang]["unknown"] == "as sent (R9)"
        assert out[lang]["text"] == "plain text [R22]"
        assert out[lang]["rules"] == ["R20", "R20", None]
    assert out["zh-Hant"]["min"].startswith("注額低於最低限紅 100.00") and out["zh-Hant"]["min"].endswith("(R21)")
    assert out["en"]["min"] == "The bet is below the table minimum 100.00 (R21)"
    assert "欠佣 1.50" in out["zh-Hant"]["funds"] and "1.50" in out["en"]["funds"]
