"""Paytables as data: what each bet pays, read from TOML files (R24–R32).

One file per variant ships in this package (``macau``, ``standard``, ``no_commission``, ``western``,
``ez``); an operator's paytable is loaded from any path with :func:`load_paytable` and validated on
load. A new paytable needs no code. The format::

    name = "tie9"                  # id of the paytable
    title = "Tie 9 to 1"           # display names (title_zh optional)
    title_zh = "和局一賠九"

    [bets.banker]                  # a bet id of docs/rules.md (or its Chinese name)
    pays = 1                       # "to 1", before commission; 8, 0.95, "0.54" or "3/2" are all fine
    commission = 0.05              # per unit stake, withheld from a win (R27); default 0

    [[bets.banker.levels]]         # paying levels, tried in order before the plain `pays`
    name = "win with 6"            # optional; made from the conditions when left out
    total = 6                      # conditions: total, cards, margin, natural, perfect, both
    pays = 0.5                     # (which ones a bet accepts: baccarat.bets.CONDITION_FIELDS)
    commission = 0                 # a level's commission defaults to the bet's

    [[bets.banker.pushes]]         # wins that push instead (EZ Baccarat's three-card 7)
    total = 7
    cards = 3

A win that matches no level (and no plain ``pays``) loses: a Dragon Bonus win by 1–3, say.

>>> table = builtin_paytable("standard")
>>> table.terms(BetKind.BANKER).levels
(Level(name='win', pays=Fraction(19, 20), commission=Fraction(1, 20), when=Condition()),)
>>> [(level.name, str(level.pays)) for level in table.terms(BetKind.PLAYER_DRAGON_BONUS).levels][:3]
[('natural', '1'), ('win by 9', '30'), ('win by 8', '10')]
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from baccarat.bets import CONDITION_FIELDS, BetFamily, BetKind, bet_menu, parse_bet_kind
from baccarat.errors import InputError

__all__ = [
    "BUILTIN_PAYTABLES",
    "BetTerms",
    "Condition",
    "Level",
    "Paytable",
    "PaytableOption",
    "PushRule",
    "builtin_options",
    "builtin_paytable",
    "format_pays",
    "load_paytable",
    "parse_paytable",
]

#: The paytables shipped with the package, one per variant.
BUILTIN_PAYTABLES: tuple[str, ...] = ("macau", "standard", "no_commission", "western", "ez")

_CARD_WORDS = {2: "two", 3: "three"}


@dataclass(frozen=True, slots=True, repr=False)
class Condition:
    """When a level (or a push) applies; ``None`` means "any". See :data:`baccarat.bets.CONDITION_FIELDS`.

    >>> Condition(total=6, cards=3).describe(), Condition(margin=9).describe(), Condition().describe()
    ('three-card 6', 'win by 9', '')
    """

    total: int | None = None
    cards: int | None = None
    margin: int | None = None
    natural: bool | None = None
    perfect: bool | None = None
    both: bool | None = None

    def __repr__(self) -> str:
        return f"Condition({', '.join(f'{name}={value!r}' for name, value in self.items())})"

    def items(self) -> tuple[tuple[str, int | bool], ...]:
        """The conditions that are set, as ``(field, value)`` pairs."""
        pairs = ((f.name, getattr(self, f.name)) for f in fields(self))
        return tuple((name, value) for name, value in pairs if value is not None)

    def describe(self) -> str:
        """A short English name, used for levels that a paytable leaves unnamed."""
        parts: list[str] = []
        if self.natural is not None:
            parts.append("natural" if self.natural else "non-natural")
        if self.margin is not None:
            parts.append(f"win by {self.margin}")
        if self.total is not None and self.cards in _CARD_WORDS:
            parts.append(f"{_CARD_WORDS[self.cards]}-card {self.total}")
        elif self.total is not None:
            parts.append(f"with {self.total}")
        elif self.cards is not None:
            parts.append(f"{_CARD_WORDS.get(self.cards, str(self.cards))} cards")
        if self.perfect is not None:
            parts.append("perfect" if self.perfect else "not perfect")
        if self.both is not None:
            parts.append("both" if self.both else "one")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Level:
    """One paying level of a bet. ``pays`` is the net win per unit stake (0.95 for Banker at 5%).

    ``commission`` is the part of the gross payout (``pays + commission``, "to 1") that the house
    keeps on this level (R27); ``when`` says which wins it pays.

    >>> level = Level("win", Fraction(19, 20), Fraction(1, 20))
    >>> level.gross
    Fraction(1, 1)
    """

    name: str
    pays: Fraction
    commission: Fraction = Fraction(0)
    when: Condition = Condition()

    @property
    def gross(self) -> Fraction:
        """The payout before commission, per unit stake."""
        return self.pays + self.commission


@dataclass(frozen=True, slots=True)
class PushRule:
    """Wins of the bet that are pushes instead (e.g. EZ Baccarat's Banker on a three-card 7)."""

    name: str
    when: Condition


@dataclass(frozen=True, slots=True)
class BetTerms:
    """What one bet pays under a paytable: levels tried in order (the first that holds pays), pushes."""

    kind: BetKind
    levels: tuple[Level, ...]
    pushes: tuple[PushRule, ...] = ()

    @property
    def step(self) -> int:
        """The smallest stake on which every level pays a whole number of minor units (R32).

        >>> builtin_paytable("macau").terms(BetKind.BANKER).step
        20
        """
        return math.lcm(1, *(v.denominator for level in self.levels for v in (level.pays, level.gross)))


@dataclass(frozen=True, slots=True)
class Paytable:
    """A validated paytable: the bets it offers, in order, and what each pays.

    ``source`` names where it came from (``builtin:macau`` or a file path).
    """

    name: str
    title: str
    bets: tuple[BetTerms, ...]
    title_zh: str = ""
    description: str = ""
    source: str = ""

    @property
    def kinds(self) -> tuple[BetKind, ...]:
        """The bets offered, in paytable order."""
        return tuple(terms.kind for terms in self.bets)

    def __contains__(self, kind: object) -> bool:
        return any(terms.kind == kind for terms in self.bets)

    def __iter__(self) -> Iterator[BetTerms]:
        return iter(self.bets)

    def terms(self, kind: BetKind) -> BetTerms:
        """The terms of one bet; refuses a bet this paytable does not offer.

        >>> builtin_paytable("macau").terms(BetKind.SUPER6)
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: bet super6 (Super 6) is not offered by paytable 'macau' (its bets: banker (莊), player (閒), tie (和), banker_pair (莊對), player_pair (閒對))
        """
        for terms in self.bets:
            if terms.kind == kind:
                return terms
        raise InputError(
            f"bet {kind.value} ({kind.english}) is not offered by paytable {self.name!r}",
            hint=f"its bets: {bet_menu(self.kinds)}",
            code="bet.not_on_menu",
            params={"bet": kind, "paytable": self.name},
        )


@dataclass(frozen=True, slots=True)
class PaytableOption:
    """Bets a variant may add to its paytable (R29, R31): new side bets, or other terms for a bet it pays.

    ``terms`` is a paytable of the bets the option adds; ``variants`` the variants that offer it.

    >>> option = builtin_options()["tie9"]
    >>> table = option.apply(builtin_paytable("macau"), name="macau+tie9")
    >>> table.name, table.kinds == builtin_paytable("macau").kinds, str(table.terms(BetKind.TIE).levels[0].pays)
    ('macau+tie9', True, '9')
    """

    name: str
    terms: Paytable
    variants: tuple[str, ...]

    @property
    def title(self) -> str:
        return self.terms.title

    def apply(self, paytable: Paytable, *, name: str) -> Paytable:
        """``paytable`` with this option: its bets' terms replaced by the option's, the new bets added last."""
        added = {terms.kind: terms for terms in self.terms.bets}
        bets = [added.pop(terms.kind, terms) for terms in paytable.bets]
        return Paytable(
            name=name,
            title=f"{paytable.title} + {self.terms.title}",
            title_zh=f"{paytable.title_zh} + {self.terms.title_zh}",
            description=f"{paytable.description} {self.terms.description}".strip(),
            bets=(*bets, *added.values()),
            source=f"{paytable.source}+{self.name}",
        )


def format_pays(value: Fraction) -> str:
    """A payout as a decimal when it has one, else as a fraction.

    >>> format_pays(Fraction(19, 20)), format_pays(Fraction(8)), format_pays(Fraction(1, 3))
    ('0.95', '8', '1/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    return f"{float(value):.{digits}f}"


# --- loading ------------------------------------------------------------------------------------

_PAYS_HINT = 'a payout is "to 1": a positive number such as 8, 0.95 or "3/2"'
_TOP_FIELDS = ("name", "title", "title_zh", "description", "bets")
_BET_FIELDS = ("name", "pays", "commission", "levels", "pushes")
_DEFAULT_LEVEL_NAME = {
    BetFamily.TIE: "tie",
    BetFamily.PAIR: "pair",
    BetFamily.EITHER_PAIR: "pair",
    BetFamily.PERFECT_PAIR: "perfect pair",
}
_CONDITION_RANGES = {"total": range(10), "margin": range(1, 10), "cards": range(2, 7)}


class _Reader:
    """Validation with errors that name the file and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, where: str, problem: str, hint: str) -> InputError:
        return InputError(
            f"paytable {self.source}: {where}: {problem}",
            hint=hint,
            code="paytable.invalid",
            params={"paytable": self.source, "field": where},
        )

    def table(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.error(where, f"expected a table, got {type(value).__name__}", "see the paytable format")
        return value

    def known(self, table: Mapping[str, Any], where: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                field = f"{where}.{key}" if where else key
                raise self.error(field, "unknown field", f"allowed here: {', '.join(allowed) or 'none'}")

    def text(self, table: Mapping[str, Any], key: str, where: str, *, default: str | None = None) -> str:
        value = table.get(key, default)
        field = f"{where}.{key}" if where else key
        if value is None:
            raise self.error(field, "missing field", f'add {key} = "…"')
        if not isinstance(value, str) or not value.strip():
            raise self.error(field, f"expected a non-empty string, got {value!r}", f'write {key} = "…"')
        return value

    def number(self, value: Any, field: str) -> Fraction:
        if isinstance(value, bool):
            raise self.error(field, f"expected a number, got {value!r}", _PAYS_HINT)
        try:
            if isinstance(value, int):
                return Fraction(value)
            if isinstance(value, float):
                if not math.isfinite(value):
                    raise ValueError(value)
                return Fraction(repr(value))
            if isinstance(value, str):
                return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise self.error(field, f"not a number: {value!r}", _PAYS_HINT) from None
        raise self.error(field, f"expected a number, got {type(value).__name__}", _PAYS_HINT)

    def pays(self, value: Any, field: str) -> Fraction:
        amount = self.number(value, field)
        if amount < 0:
            raise self.error(field, f"negative payout {format_pays(amount)}", _PAYS_HINT)
        if amount == 0:
            raise self.error(field, "a payout of 0 pays nothing", _PAYS_HINT)
        return amount

    def commission(self, value: Any, field: str, gross: Fraction) -> Fraction:
        rate = self.number(value, field)
        hint = "commission is the part of a unit stake the house keeps on a win, e.g. 0.05; less than pays"
        if rate < 0:
            raise self.error(field, f"negative commission {format_pays(rate)}", hint)
        if rate >= gross:
            raise self.error(field, f"commission {format_pays(rate)} leaves nothing of pays {gross}", hint)
        return rate

    def condition(self, table: Mapping[str, Any], where: str, family: BetFamily, skip: tuple[str, ...]) -> Condition:
        allowed = CONDITION_FIELDS[family]
        self.known(table, where, (*skip, *allowed))
        values: dict[str, int | bool] = {}
        for key in allowed:
            if key not in table:
                continue
            value, field = table[key], f"{where}.{key}"
            if key in ("natural", "perfect", "both"):
                if not isinstance(value, bool):
                    raise self.error(field, f"expected true or false, got {value!r}", f"write {key} = true")
            else:
                valid = _CONDITION_RANGES[key]
                if isinstance(value, bool) or not isinstance(value, int) or value not in valid:
                    raise self.error(
                        field,
                        f"expected a whole number {valid.start}–{valid.stop - 1}, got {value!r}",
                        "see docs/rules.md",
                    )
            values[key] = value
        return Condition(**values)  # type: ignore[arg-type]

    def items(self, bet: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
        value = bet.get(key, [])
        if not isinstance(value, list):
            raise self.error(f"{where}.{key}", "expected an array of tables", f"write [[{where}.{key}]] entries")
        return [self.table(item, f"{where}.{key}[{i}]") for i, item in enumerate(value)]

    def bet(self, kind: BetKind, bet: Mapping[str, Any], where: str) -> BetTerms:
        self.known(bet, where, _BET_FIELDS)
        family = kind.spec.family
        commission = Fraction(0)
        default: Level | None = None
        if "pays" in bet:
            gross = self.pays(bet["pays"], f"{where}.pays")
            if "commission" in bet:
                commission = self.commission(bet["commission"], f"{where}.commission", gross)
            name = self.text(bet, "name", where, default=_DEFAULT_LEVEL_NAME.get(family, "win"))
            default = Level(name, gross - commission, commission)
        elif "commission" in bet:
            commission = self.commission(bet["commission"], f"{where}.commission", Fraction(10**9))
        levels: list[Level] = []
        for i, item in enumerate(self.items(bet, "levels", where)):
            field = f"{where}.levels[{i}]"
            when = self.condition(item, field, family, ("name", "pays", "commission"))
            if "pays" not in item:
                raise self.error(f"{field}.pays", "missing field", _PAYS_HINT)
            gross = self.pays(item["pays"], f"{field}.pays")
            rate = commission
            if "commission" in item:
                rate = self.commission(item["commission"], f"{field}.commission", gross)
            elif rate >= gross:
                raise self.error(f"{field}.pays", f"pays {gross} does not cover the bet's commission", _PAYS_HINT)
            name = self.text(item, "name", field, default=when.describe() or f"level {i + 1}")
            levels.append(Level(name, gross - rate, rate, when))
        if default is not None:
            levels.append(default)
        if not levels:
            raise self.error(f"{where}.pays", "missing field", f"give the bet a payout ({_PAYS_HINT}) or levels")
        pushes = []
        for i, item in enumerate(self.items(bet, "pushes", where)):
            field = f"{where}.pushes[{i}]"
            when = self.condition(item, field, family, ("name",))
            pushes.append(PushRule(self.text(item, "name", field, default=when.describe() or "push"), when))
        return BetTerms(kind, tuple(levels), tuple(pushes))

    def paytable(self, data: Mapping[str, Any]) -> Paytable:
        self.known(data, "", _TOP_FIELDS)
        name = self.text(data, "name", "")
        if "bets" not in data:
            raise self.error("bets", "missing field", "add a [bets.<id>] table for each bet offered")
        bets_table = self.table(data["bets"], "bets")
        if not bets_table:
            raise self.error("bets", "no bets", "add a [bets.<id>] table for each bet offered")
        terms: list[BetTerms] = []
        seen: set[BetKind] = set()
        for key, bet in bets_table.items():
            where = f"bets.{key}"
            try:
                kind = parse_bet_kind(key)
            except InputError:
                raise self.error(where, f"unknown bet {key!r}", f"bets are: {bet_menu()}") from None
            if kind in seen:
                raise self.error(where, f"{kind.value} is given twice", "give each bet once")
            seen.add(kind)
            terms.append(self.bet(kind, self.table(bet, where), where))
        return Paytable(
            name=name,
            title=self.text(data, "title", "", default=name),
            title_zh=self.text(data, "title_zh", "", default=self.text(data, "title", "", default=name)),
            description=str(data.get("description", "")),
            bets=tuple(terms),
            source=self.source,
        )


def parse_paytable(data: Mapping[str, Any], *, source: str = "<data>") -> Paytable:
    """Validate paytable data (the parsed TOML) and build the :class:`Paytable`.

    >>> table = parse_paytable({"name": "tie9", "bets": {"tie": {"pays": 9}}})
    >>> table.terms(BetKind.TIE).levels[0].pays
    Fraction(9, 1)
    >>> parse_paytable({"name": "bad", "bets": {"tie": {"pays": -8}}}, source="bad.toml")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: paytable bad.toml: bets.tie.pays: negative payout -8 (a payout is "to 1": a positive number such as 8, 0.95 or "3/2")
    """
    return _Reader(source).paytable(data)


def load_paytable(path: str | Path) -> Paytable:
    """Load and validate an operator's paytable from a TOML file.

    >>> load_paytable("/no/such/file.toml")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: paytable /no/such/file.toml: cannot read the file: No such file or directory (give the path of a TOML paytable)
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(
            f"paytable {path}: cannot read the file: {error.strerror or error}",
            hint="give the path of a TOML paytable",
            code="paytable.invalid",
            params={"paytable": str(path)},
        ) from None
    return _parse_text(text, str(path))


def _parse_text(text: str, source: str) -> Paytable:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(
            f"paytable {source}: not valid TOML: {error}",
            hint="fix the TOML syntax",
            code="paytable.invalid",
            params={"paytable": source},
        ) from None
    return parse_paytable(data, source=source)


@functools.cache
def builtin_paytable(name: str) -> Paytable:
    """One of the paytables shipped with the package (:data:`BUILTIN_PAYTABLES`).

    >>> builtin_paytable("ez").terms(BetKind.DRAGON7).levels[0].pays
    Fraction(40, 1)
    """
    if name not in BUILTIN_PAYTABLES:
        raise InputError(
            f"unknown paytable {name!r}",
            hint=f"built-in paytables: {', '.join(BUILTIN_PAYTABLES)}",
            code="paytable.unknown",
            params={"paytable": name},
        )
    text = resources.files(__name__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return _parse_text(text, f"builtin:{name}")


@functools.cache
def builtin_options() -> dict[str, PaytableOption]:
    """The options shipped with the package (``options.toml``), in file order.

    >>> list(builtin_options())
    ['lucky6', 'either_pair', 'perfect_pair', 'tie9', 'banker4']
    >>> [str(level.pays) for level in builtin_options()["lucky6"].terms.terms(BetKind.LUCKY6).levels]
    ['12', '20']
    """
    source = "builtin:options"
    data = tomllib.loads(resources.files(__name__).joinpath("options.toml").read_text(encoding="utf-8"))
    options: dict[str, PaytableOption] = {}
    for key, value in data.items():
        reader = _Reader(f"{source}.{key}")
        table = dict(reader.table(value, key))
        variants = table.pop("variants", None)
        if not isinstance(variants, list) or not all(v in BUILTIN_PAYTABLES for v in variants):
            raise reader.error(
                "variants", f"expected a list of variants, got {variants!r}", ", ".join(BUILTIN_PAYTABLES)
            )
        options[key] = PaytableOption(key, parse_paytable(table, source=f"{source}.{key}"), tuple(variants))
    return options
