"""Checking a round against the commitment published before its shoe's first bet (R37).

:func:`verify_published` checks, from a round's proof (``GET /api/rounds/{id}``) and the commitment the
checker saw published, everything the house could have changed: that the revealed server seed is the
one committed to; that the client seed is the one the players' entropy makes; that the shoe's chain of
round records runs unbroken from the commitment to this round; that this round's record is what it
settled (its cards the coup the seeds deal, its result the one those cards make, each main bet's
outcome the one that result gives); and (:func:`verify_round`) the cards once more against the seeds.
See :mod:`baccarat.server.chain` for how the chain and the client seed are made.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from baccarat.errors import BaccaratError
from baccarat.fairness import Verification
from baccarat.rng import verify_commitment
from baccarat.server import game
from baccarat.server.chain import client_seed_of, digest_of, link_of
from baccarat.server.fairness import verify_round

__all__ = ["CHAIN_FIELDS", "main_bet_outcome", "verify_chain", "verify_published", "verify_record"]

#: What a round's proof must hold, besides the fields of :func:`verify_round`, to be checked against the chain.
CHAIN_FIELDS = ("table", "shoe", "entropy", "chain", "record")

_RESULT_KEYS = ("winner", "natural", "player_pair", "banker_pair")


def verify_published(proof: Mapping[str, Any], commitment: str, *, links: Sequence[str] = ()) -> Verification:
    """Check a round's proof against the commitment published before its shoe (see the module doc);
    ``links``: chain links the checker saw published (a ``round_settled``'s ``chain_link``), each of
    which the chain must hold."""
    published = commitment.strip().lower()
    missing = [name for name in CHAIN_FIELDS if proof.get(name) in (None, "")]
    if missing:
        return Verification(False, f"the proof lacks {', '.join(missing)}")
    if not verify_commitment(published, str(proof.get("server_seed") or "")):
        return Verification(False, "the revealed server seed does not match the published commitment")
    if str(proof.get("commitment", "")).lower() != published:
        return Verification(False, "the shoe's commitment is not the published one")
    try:
        seed = client_seed_of(str(proof["table"]), int(proof["shoe"]), published, [str(e) for e in proof["entropy"]])
        checks = (
            Verification(True)
            if seed == proof.get("client_seed")
            else Verification(False, "the client seed is not the one the players' entropy makes")
        )
        checks = checks if not checks.ok else verify_chain(published, proof["chain"], proof)
        checks = checks if not checks.ok else _holds(proof["chain"], links)
        checks = checks if not checks.ok else verify_record(json.loads(str(proof["record"])), proof)
    except (KeyError, TypeError, ValueError, BaccaratError) as error:
        return Verification(False, f"the proof is malformed: {error}")
    return checks if not checks.ok else verify_round(dict(proof))


def verify_chain(commitment: str, chain: Sequence[Mapping[str, Any]], proof: Mapping[str, Any]) -> Verification:
    """Check that the chain runs from ``commitment`` link by link to the proof's round, whose record's
    digest it holds."""
    previous, coup = commitment, int(proof["coup_in_shoe"])
    found = False
    for number, entry in enumerate(chain, start=1):
        link = link_of(previous, str(entry["digest"]))
        if link != entry["link"]:
            return Verification(False, f"link {number} of the chain does not follow from the one before")
        if int(entry["coup_in_shoe"]) == coup:
            if entry["digest"] != digest_of(str(proof["record"])):
                return Verification(False, f"the record of coup {coup} is not the one the chain holds")
            found = True
        previous = link
    if not found:
        return Verification(False, f"the chain holds no record of coup {coup}")
    if proof.get("chain_link") not in (None, previous):
        return Verification(False, "the round's chain link is not the chain's")
    return Verification(True)


def _holds(chain: Sequence[Mapping[str, Any]], links: Sequence[str]) -> Verification:
    held = {str(entry["link"]) for entry in chain}
    missing = [link for link in links if link.strip().lower() not in held]
    if missing:
        return Verification(False, f"the chain does not hold the published link {missing[0]}")
    return Verification(True)


def main_bet_outcome(bet: str, winner: str) -> str | None:
    """How a Player, Banker or Tie bet ends on ``winner`` (ties push the Player and Banker bets);
    ``None`` for any other bet.

    >>> main_bet_outcome("player", "tie"), main_bet_outcome("tie", "tie"), main_bet_outcome("banker", "player")
    ('push', 'win', 'lose')
    """
    if bet not in ("player", "banker", "tie"):
        return None
    if bet == winner:
        return "win"
    return "push" if winner == "tie" else "lose"


def verify_record(record: Mapping[str, Any], proof: Mapping[str, Any]) -> Verification:
    """Check a round's record: its place and cards are the proof's, its result the one its cards make,
    and each main bet's outcome the one that result gives."""
    coup = int(proof["coup_in_shoe"])
    if record.get("coup_in_shoe") != coup or record.get("round_id") != proof.get("round_id"):
        return Verification(False, f"the record is not the one of round {proof.get('round_id')} (coup {coup})")
    if [str(c).upper() for c in record.get("cards") or []] != [str(c).upper() for c in proof.get("cards") or []]:
        return Verification(False, "the record's cards are not the round's")
    result = record.get("result")
    if record.get("status") != "settled":
        return Verification(True) if result is None else Verification(False, "a voided round has a result")
    if not isinstance(result, Mapping):
        return Verification(False, "a settled round's record has no result")
    made = game.coup_from_cards([str(c) for c in record["cards"]]).to_dict()
    wrong = [key for key in _RESULT_KEYS if result.get(key) != made[key]]
    wrong += [f"{side} total" for side in ("player", "banker") if result[side]["total"] != made[side]["total"]]
    if wrong:
        return Verification(False, f"the recorded result is not the one its cards make ({', '.join(wrong)})")
    for bet in record.get("bets") or []:
        expected = main_bet_outcome(str(bet["bet"]), str(made["winner"]))
        if expected is not None and bet.get("status") == "settled" and bet.get("outcome") != expected:
            return Verification(
                False, f"bet {bet['id']} ({bet['bet']}) is recorded as {bet['outcome']}, not {expected}"
            )
    return Verification(True)
