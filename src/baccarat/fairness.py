"""Verifying a provably fair shoe after its seed is revealed (R37).

Before play the house publishes the commitment (SHA-256 of the server seed); the shoe is shuffled
from HMAC-SHA256(server seed, client seed ‖ shoe number); after the shoe the seed is revealed.
Anyone can then recompute the shoe with the same procedure and check every coup: :func:`redeal`
deals a revealed shoe again from its seeds, and is the one place that does.

>>> source = ProvablyFairSource(server_seed="house-secret", client_seed="table-7")
>>> commitment = source.commitment            # published before the shoe
>>> dealt = ShoeDealer(ShoeConfig(), source=source).deal_shoe()
>>> proof = ShoeProof(commitment=commitment, server_seed="house-secret", client_seed="table-7", shoe_number=1)
>>> proof.verify_coups([c.result for c in dealt]).ok
True
>>> ShoeProof(commitment=commitment, server_seed="guess", client_seed="table-7", shoe_number=1).verify_coups(
...     [c.result for c in dealt]).reason
'the revealed server seed does not match the commitment'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from baccarat.cards import Card
from baccarat.coup import CoupResult
from baccarat.dealing import DealtCoup, ShoeDealer
from baccarat.rng import ProvablyFairSource, verify_commitment
from baccarat.shoe import Shoe, ShoeConfig

__all__ = ["ShoeProof", "Verification", "redeal", "redeal_coup"]


def redeal(
    config: ShoeConfig | Mapping[str, Any],
    *,
    server_seed: str,
    client_seed: str,
    first_shoe_number: int = 1,
    coups: int = 0,
) -> ShoeDealer:
    """The house's dealer of a provably fair shoe, rebuilt from its seeds, after its first ``coups``
    coups are dealt again: the next coup it deals is the one the house dealt next.

    ``config`` is the shoe's settings, or their :meth:`ShoeConfig.to_dict` form;
    ``first_shoe_number`` the shoe number the house's dealer started from.

    >>> house = ShoeDealer(ShoeConfig(), source=ProvablyFairSource(server_seed="s", client_seed="c"))
    >>> played = [house.next_coup() for _ in range(4)]
    >>> again = redeal(ShoeConfig().to_dict(), server_seed="s", client_seed="c", coups=3)
    >>> again.coups_in_shoe, again.next_coup().result.cards == played[3].result.cards
    (3, True)
    """
    if not isinstance(config, ShoeConfig):
        config = ShoeConfig.from_dict(dict(config))
    source = ProvablyFairSource(server_seed=server_seed, client_seed=client_seed)
    dealer = ShoeDealer(config, source=source, first_shoe_number=first_shoe_number)
    for _ in range(coups):
        dealer.next_coup()
    return dealer


def redeal_coup(
    config: ShoeConfig | Mapping[str, Any],
    *,
    server_seed: str,
    client_seed: str,
    first_shoe_number: int = 1,
    coup: int,
) -> DealtCoup:
    """Coup number ``coup`` (from 1) of a provably fair shoe, dealt again from its seeds (:func:`redeal`).

    >>> house = ShoeDealer(ShoeConfig(), source=ProvablyFairSource(server_seed="s", client_seed="c"))
    >>> second = [house.next_coup() for _ in range(2)][-1]
    >>> redeal_coup(ShoeConfig(), server_seed="s", client_seed="c", coup=2).result.cards == second.result.cards
    True
    """
    if coup < 1:
        raise ValueError(f"coup {coup}: coups are numbered from 1")
    dealer = redeal(
        config, server_seed=server_seed, client_seed=client_seed, first_shoe_number=first_shoe_number, coups=coup - 1
    )
    return dealer.next_coup()


@dataclass(frozen=True, slots=True)
class Verification:
    """The answer of a check: ``ok`` and, when it fails, the reason."""

    ok: bool
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeProof:
    """What the house reveals about a shoe: enough to recompute it."""

    commitment: str
    server_seed: str
    client_seed: str
    shoe_number: int
    config: ShoeConfig = field(default_factory=ShoeConfig)

    def source(self) -> ProvablyFairSource:
        return ProvablyFairSource(server_seed=self.server_seed, client_seed=self.client_seed)

    def recompute(self) -> Shoe:
        """The shoe as shuffled, cut and burned from the revealed seeds."""
        return Shoe.prepare(self.config, source=self.source(), shoe_number=self.shoe_number)

    def recompute_coups(self) -> list[CoupResult]:
        """Every coup of the shoe, dealt again from the revealed seeds."""
        dealer = redeal(
            self.config, server_seed=self.server_seed, client_seed=self.client_seed, first_shoe_number=self.shoe_number
        )
        return [coup.result for coup in dealer.deal_shoe()]

    def verify_commitment(self) -> Verification:
        if not verify_commitment(self.commitment, self.server_seed):
            return Verification(False, "the revealed server seed does not match the commitment")
        return Verification(True)

    def verify_cards(self, cards: Sequence[Card]) -> Verification:
        """Check that ``cards`` is the shoe's card order (all of it, or a prefix)."""
        committed = self.verify_commitment()
        if not committed.ok:
            return committed
        expected = self.recompute().cards
        for i, (seen, want) in enumerate(zip(cards, expected, strict=False)):
            if seen != want:
                return Verification(False, f"card {i + 1} of the shoe is {seen}, the seed gives {want}")
        if len(cards) > len(expected):
            return Verification(False, "more cards than the shoe holds")
        return Verification(True)

    def verify_coups(self, coups: Sequence[CoupResult], *, first: int = 1) -> Verification:
        """Check coups ``first, first+1, …`` of the shoe against the recomputed shoe."""
        committed = self.verify_commitment()
        if not committed.ok:
            return committed
        expected = self.recompute_coups()
        for offset, coup in enumerate(coups):
            number = first + offset
            if number - 1 >= len(expected):
                return Verification(False, f"the shoe has only {len(expected)} coups, not {number}")
            if coup.cards != expected[number - 1].cards:
                return Verification(False, f"coup {number} differs from the coup the seed gives")
        return Verification(True)
