"""Rounds: a round's public record and its fairness proof, and the check of its cards and of its
shoe's fairness chain against the commitment published before the shoe."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query

from baccarat.server.api.deps import ContextDep, RoundId
from baccarat.server.api.models import RoundOut, VerifyOut
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.fairness import recompute_cards
from baccarat.server.fairness_chain import verify_published
from baccarat.server.observer.views import FINISHED
from baccarat.server.schema import ShoeStatus
from baccarat.server.store import Store

__all__ = ["round_proof", "router"]

router = APIRouter(prefix="/api/rounds", tags=["rounds"], responses=ERRORS)


def round_proof(store: Store, round_id: int) -> dict[str, Any] | None:
    """A round's fairness proof: its shoe's commitment, seeds (the server seed once the shoe ended),
    the players' entropy of the client seed, configuration and the round's place in the shoe, with its
    cards, its record (as stored now) and the shoe's chain up to it once it is over."""
    row = store.rounds.round_row(round_id)
    if row is None:
        return None
    proof: dict[str, Any] = {"round_id": round_id, "table": row["table_id"], "status": row["status"]}
    if row["shoe_id"] is None:
        return proof | {"detail": "a dealer-entry round has no shoe seed"}
    shoe = store.shoes.shoe_row(int(row["shoe_id"]))
    assert shoe is not None
    revealed = shoe["status"] == ShoeStatus.ENDED.value
    finished = row["status"] in FINISHED
    return proof | {
        "shoe": shoe["number"],
        "commitment": shoe["commitment"],
        "client_seed": shoe["client_seed"],
        "server_seed": shoe["server_seed"] if revealed else None,
        "config": json.loads(shoe["config"]),
        "first_shoe_number": shoe["first_shoe_number"],
        "coup_in_shoe": row["coup_in_shoe"],
        "cards": json.loads(row["cards"])["cards"] if finished and row["cards"] else None,
        "entropy": json.loads(shoe["entropy"]) if shoe.get("entropy") else None,
        "record": store.rounds.record(round_id) if finished else None,
        "chain_link": row.get("chain_link"),
        "chain": store.rounds.chain_of(int(shoe["id"]), upto=row["coup_in_shoe"]) if finished else None,
    }


def _no_round(round_id: int) -> Refusal:
    return Refusal(404, "round.not_found", f"no round {round_id}", params={"round": round_id})


@router.get("/{round_id}")
async def round_(round_id: RoundId, context: ContextDep) -> RoundOut:
    """A round: status, result and cards once finished, and its fairness proof (seed once revealed)."""
    service = context.service
    view = await context.round_of(await service.read(service.store.rounds.round_row, round_id))
    if view is None:
        raise _no_round(round_id)
    view["proof"] = await service.read(round_proof, service.store, round_id)
    return RoundOut.model_validate(view)


#: The commitment published before the round's shoe (64 hex digits), as the checker saw it.
Commitment = Annotated[str, Query(min_length=64, max_length=64, pattern="^[0-9a-fA-F]{64}$")]
#: Chain links the checker saw published (a ``round_settled``'s ``chain_link``): the chain must hold each.
Links = Annotated[list[str] | None, Query(max_length=100, description="A chain link seen published (repeatable).")]


@router.get("/{round_id}/verify")
async def verify(round_id: RoundId, commitment: Commitment, context: ContextDep, link: Links = None) -> VerifyOut:
    """Check the round against ``commitment``, the one published before its shoe's first bet: the
    revealed seed, the client seed made from the players' entropy, the shoe's chain of round records up
    to this round (holding every ``link`` given), the round's record (result and every payout) and its
    cards dealt again."""
    service = context.service
    proof = await service.read(round_proof, service.store, round_id)
    if proof is None:
        raise _no_round(round_id)
    if proof.get("server_seed") is None or proof.get("cards") is None:
        raise Refusal(
            409,
            "shoe.not_revealed",
            "the shoe's server seed is not revealed yet: verify after the shoe ends",
            params={"round": round_id},
        )
    result = verify_published(proof, commitment, links=link or [])
    return VerifyOut(ok=result.ok, reason=result.reason, proof=proof, recomputed=recompute_cards(proof))
