"""Verifying a round after its shoe's server seed is revealed (R37).

A round's proof holds everything needed to recompute its cards: the shoe's commitment, the revealed
server seed, the client seed, the shoe settings, the shoe number the dealer started from and the
round's place in the shoe. :func:`verify_round` deals the shoe again from the seeds and compares.

>>> from baccarat.dealing import ShoeDealer
>>> from baccarat.rng import ProvablyFairSource
>>> from baccarat.shoe import ShoeConfig
>>> source = ProvablyFairSource(server_seed="s" * 64, client_seed="t:1")
>>> dealer = ShoeDealer(ShoeConfig(), source=source)
>>> third = [dealer.next_coup() for _ in range(3)][-1]
>>> proof = {"commitment": source.commitment, "server_seed": "s" * 64, "client_seed": "t:1",
...          "config": ShoeConfig().to_dict(), "first_shoe_number": 1, "coup_in_shoe": 3,
...          "cards": [str(c) for c in third.result.cards]}
>>> verify_round(proof).ok
True
>>> verify_round(proof | {"coup_in_shoe": 2}).reason
'coup 2 of the shoe is not the round: the seed gives ...'
"""

from __future__ import annotations

from typing import Any

from baccarat.dealing import DealtCoup
from baccarat.errors import BaccaratError
from baccarat.fairness import Verification, redeal_coup
from baccarat.rng import verify_commitment

__all__ = ["recompute_cards", "verify_round"]

_FIELDS = ("commitment", "server_seed", "client_seed", "config", "first_shoe_number", "coup_in_shoe", "cards")
#: The highest coup number a proof may name.
_MAX_COUP = 1000


def verify_round(proof: dict[str, Any]) -> Verification:
    """Check a round's cards against its revealed shoe seed (see the module doc for the fields)."""
    missing = [name for name in _FIELDS if proof.get(name) in (None, "")]
    if missing:
        return Verification(False, f"the proof lacks {', '.join(missing)} (is the shoe's seed revealed yet?)")
    if not verify_commitment(str(proof["commitment"]), str(proof["server_seed"])):
        return Verification(False, "the revealed server seed does not match the commitment")
    try:
        coup_number = int(proof["coup_in_shoe"])
        if not 1 <= coup_number <= _MAX_COUP:
            return Verification(False, f"coup {coup_number} is outside the shoe")
        dealt = _redeal_round(proof)
    except BaccaratError as error:
        return Verification(False, f"the shoe cannot be dealt again: {error}")
    except (TypeError, ValueError) as error:
        return Verification(False, f"the proof is malformed: {error}")
    expected = [str(c) for c in dealt.result.cards]
    seen = [str(c).upper() for c in proof["cards"]]
    if seen != expected:
        return Verification(
            False, f"coup {coup_number} of the shoe is not the round: the seed gives {' '.join(expected)}"
        )
    return Verification(True)


def recompute_cards(proof: dict[str, Any]) -> list[str] | None:
    """The round's cards dealt again from the revealed seed (``None`` when the proof cannot give them)."""
    try:
        if not verify_commitment(str(proof["commitment"]), str(proof["server_seed"])):
            return None
        if not 1 <= int(proof["coup_in_shoe"]) <= _MAX_COUP:
            return None
        dealt = _redeal_round(proof)
    except (BaccaratError, KeyError, TypeError, ValueError):
        return None
    return [str(c) for c in dealt.result.cards]


def _redeal_round(proof: dict[str, Any]) -> DealtCoup:
    """The proof's round dealt again from its shoe's seeds (:func:`baccarat.fairness.redeal_coup`)."""
    return redeal_coup(
        dict(proof["config"]),
        server_seed=str(proof["server_seed"]),
        client_seed=str(proof["client_seed"]),
        first_shoe_number=int(proof["first_shoe_number"]),
        coup=int(proof["coup_in_shoe"]),
    )
