"""The lab's live advisor and the perfect-knowledge bound.

``POST /api/lab/advise`` prices every bet of a variant for the next coup from the cards seen so far
(the browser follows a live table's public messages and sends the cards it saw): the figures of
``baccarat advise --json`` for the same cards. ``POST /api/lab/oracle`` plays the oracle for a few
shoes, as ``baccarat simulate --strategy oracle`` does, with the +EV frequency by penetration.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> client = TestClient(FastAPI(routes=router.routes))
>>> answer = client.post("/api/lab/advise", json={"variant": "macau", "decks": 8, "cards": ["AS", "9H"]})
>>> answer.status_code, answer.json()["cards_left"]
(200, 414)
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from baccarat.bets import BetKind
from baccarat.errors import BaccaratError
from baccarat.server.api.problems import Refusal
from baccarat.server.api.routes.lab import LAB_ERRORS, _check_pricing, _compute

__all__ = ["MAX_ORACLE_SHOES", "router"]

#: Most shoes one oracle run of the lab deals (a few seconds on one core for the widest variant).
MAX_ORACLE_SHOES = 100
#: Most cards a shoe of the advisor may have shown (twelve decks).
MAX_CARDS = 12 * 52

router = APIRouter(prefix="/api/lab", tags=["lab"])
_OPEN = ConfigDict(extra="allow")


class AdviseBody(BaseModel):
    """The shoe being followed: its variant and decks, and every card seen since it was shuffled."""

    model_config = ConfigDict(extra="forbid")
    variant: StrictStr = Field(default="macau", min_length=1, max_length=64)
    decks: StrictInt = Field(default=8, ge=1, le=12)
    cards: list[StrictStr] = Field(default_factory=list, max_length=MAX_CARDS)


class AdviceOut(BaseModel):
    """The next coup's exact figures for every bet (``Advice.to_dict``), the +EV ones listed."""

    model_config = _OPEN
    update: int
    cards_seen: int
    cards_left: int
    positive: list[str]
    bets: dict[str, Any]


class OracleBody(BaseModel):
    """An oracle run: the variant, the decks, how many shoes, the seed (default: a random one), the bets."""

    model_config = ConfigDict(extra="forbid")
    variant: StrictStr = Field(default="macau", min_length=1, max_length=64)
    decks: StrictInt = Field(default=8, ge=1, le=12)
    shoes: StrictInt = Field(default=50, ge=1, le=MAX_ORACLE_SHOES)
    seed: StrictInt | None = Field(default=None, ge=0, le=2**62)
    bets: list[StrictStr] | None = Field(default=None, max_length=32)


class OracleOut(BaseModel):
    """The oracle's figures (``simulate --strategy oracle --json``): per bet, and by penetration."""

    model_config = _OPEN
    strategy: str
    variant: str
    decks: int
    seed: int
    shoes: int
    coups: int
    seconds: float
    bets: dict[str, Any]
    penetration: dict[str, Any]
    #: each bet's name in English (``name``) and Chinese (``name_zh``)
    names: dict[str, dict[str, str]]


def _advise(body: AdviseBody) -> dict[str, Any]:
    from baccarat.analysis.advisor import Advisor

    advisor = Advisor(body.decks, variant=body.variant)
    if body.cards:
        advisor.see(" ".join(body.cards))
    return advisor.advice().to_dict()


@router.post("/advise", responses=LAB_ERRORS, summary="Exact figures for the next coup of a shoe being followed")
async def advise(body: AdviseBody) -> AdviceOut:
    """Every bet of the variant priced exactly for the next coup from the cards left (about a millisecond:
    not counted against the lab's bound on long computations)."""
    _check_pricing(body.variant, None)
    try:
        data = await asyncio.get_running_loop().run_in_executor(None, _advise, body)
    except BaccaratError as error:
        raise Refusal(400, error.code, str(error), rule=error.rule, params=error.params) from None
    return AdviceOut.model_validate(data)


def _bets(names: list[str] | None) -> tuple[BetKind, ...] | None:
    if names is None:
        return None
    kinds = []
    for name in names:
        try:
            kinds.append(BetKind(name))
        except ValueError:
            raise Refusal(
                400,
                "bet.unknown",
                f"{name!r} is not a bet; name bets by id, e.g. banker, tie, dragon7",
                params={"bet": name},
            ) from None
    return tuple(kinds)


@router.post("/oracle", responses=LAB_ERRORS, summary="The perfect-knowledge bound over a few shoes")
async def oracle(body: OracleBody) -> OracleOut:
    """Stake one unit on each bet whenever its exact EV for the next coup is positive, for up to
    :data:`MAX_ORACLE_SHOES` shoes on one core."""
    _check_pricing(body.variant, None)
    kinds = _bets(body.bets)

    def run() -> dict[str, Any]:
        from baccarat.shoe import ShoeConfig
        from baccarat.sim.oracle import OracleJob, simulate_oracle

        job = OracleJob(
            seed=body.seed if body.seed is not None else secrets.randbits(62),
            shoes=body.shoes,
            config=ShoeConfig(decks=body.decks),
            variant=body.variant,
            bets=kinds,
        )
        data = simulate_oracle(job, workers=1).to_dict()
        data["names"] = {
            name: {"name": BetKind(name).english, "name_zh": BetKind(name).chinese} for name in data["bets"]
        }
        return data

    return OracleOut.model_validate(await _compute(run))
