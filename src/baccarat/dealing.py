"""Coups from shoes with the full procedure: burns, demonstration coups, the last-coup rule,
the continuous shuffler and the pre-dealt layout (R4–R8, R19).

>>> from baccarat.rng import SeededSource
>>> dealer = ShoeDealer(ShoeConfig(decks=8), source=SeededSource(1))
>>> coups = dealer.deal_shoe()
>>> coups[-1].last, sum(c.cut_card_out for c in coups) >= 1, dealer.shoe_over
(True, True, True)

The pre-dealt layout shows six face-down cards, committed by hash, before betting; the coups are
the very coups plain dealing gives from the same shoe (a layout laid past the cut card brings it
out one coup sooner, R19 with R6, so a pre-dealt shoe may end a coup earlier):

>>> pre = ShoeDealer(ShoeConfig(decks=8, mode=DealingMode.PRE_DEALT), source=SeededSource(1))
>>> layout = pre.layout()
>>> len(layout.cards), layout.verify(layout.commitment)
(6, True)
>>> pre_coups = pre.deal_shoe()
>>> [c.result for c in pre_coups] == [c.result for c in coups[: len(pre_coups)]]
True
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from baccarat.cards import Card
from baccarat.coup import CoupDealer, CoupResult
from baccarat.errors import ProcedureError
from baccarat.rng import RandomSource, SecureSource
from baccarat.shoe import MIN_CARDS_FOR_COUP, AfterCutCard, DealingMode, Shoe, ShoeConfig, ShoeEvent

__all__ = ["LAYOUT_POSITIONS", "DealtCoup", "Layout", "ShoeDealer"]

LAYOUT_POSITIONS = ("player_1", "banker_1", "player_2", "banker_2", "draw_1", "draw_2")


@dataclass(frozen=True, slots=True)
class Layout:
    """The pre-dealt six-card layout (R19): face down, committed by SHA-256 before betting opens.

    The commitment is ``SHA-256("<nonce>:<card> <card> …")`` in hex; revealing the nonce and the
    cards after the coup lets anyone check that the cards were fixed before any bet.
    """

    shoe_number: int
    coup_number: int
    cards: tuple[Card, ...]
    nonce: str

    @property
    def commitment(self) -> str:
        text = f"{self.nonce}:{' '.join(str(c) for c in self.cards)}"
        return hashlib.sha256(text.encode()).hexdigest()

    def verify(self, commitment: str) -> bool:
        return secrets.compare_digest(self.commitment, commitment.lower())

    def face_down(self) -> dict[str, Any]:
        """What players see before betting: six positions and the commitment, no cards."""
        return {
            "shoe_number": self.shoe_number,
            "coup_number": self.coup_number,
            "positions": list(LAYOUT_POSITIONS[: len(self.cards)]),
            "commitment": self.commitment,
        }

    def reveal(self) -> dict[str, Any]:
        return self.face_down() | {"cards": [str(c) for c in self.cards], "nonce": self.nonce}


@dataclass(frozen=True, slots=True)
class DealtCoup:
    """A coup dealt from a shoe, with where it sits in the shoe's procedure."""

    shoe_number: int
    number: int  # 1-based count of coups in this shoe, demonstration coups included
    result: CoupResult
    demo: bool = False  # a demonstration coup (R5): no bets, not on the scoreboard
    last: bool = False  # the last coup of the shoe (R6)
    cut_card_out: bool = False  # the cut card came out before or during this coup
    burned: tuple[Card, ...] = ()  # burned before this coup (R7)
    start: int = 0  # shoe position of this coup's first card
    layout: Layout | None = None  # the pre-dealt layout this coup was dealt from (R19)

    def to_dict(self) -> dict[str, Any]:
        data = self.result.to_dict() | {
            "shoe_number": self.shoe_number,
            "number": self.number,
            "demo": self.demo,
            "last": self.last,
            "cut_card_out": self.cut_card_out,
            "burned": [str(c) for c in self.burned],
        }
        if self.layout is not None:
            data["layout"] = self.layout.reveal()
        return data


class ShoeDealer:
    """Deals coups shoe after shoe with the configured procedure.

    ``new_shoe()`` changes the shoe at any time (R6); ``next_coup()`` starts a new shoe by itself
    when the last one has ended.
    """

    def __init__(
        self,
        config: ShoeConfig | None = None,
        *,
        source: RandomSource | None = None,
        first_shoe_number: int = 1,
    ) -> None:
        self.config = config or ShoeConfig()
        self.source: RandomSource = source or SecureSource()
        self._next_shoe_number = first_shoe_number
        self.shoe: Shoe | None = None
        self.coups_in_shoe = 0
        self._cut_seen_at: int | None = None
        self._over = True
        self._layout: Layout | None = None

    # --- shoes -------------------------------------------------------------------------------

    def new_shoe(self) -> Shoe:
        """Shuffle a new shoe (cut, cut card, burn), ending the current one if it is still in play."""
        if self.shoe is not None and not self._over:
            self.shoe.end("shoe changed by the house")
        self.shoe = Shoe.prepare(self.config, source=self.source, shoe_number=self._next_shoe_number)
        self._next_shoe_number += 1
        self.coups_in_shoe = 0
        self._cut_seen_at = None
        self._over = False
        self._layout = None
        return self.shoe

    @property
    def shoe_over(self) -> bool:
        """True when the current shoe has dealt its last coup (or none was started)."""
        return self._over

    @property
    def events(self) -> list[ShoeEvent]:
        """The current shoe's events."""
        return self.shoe.events if self.shoe is not None else []

    @property
    def next_is_demo(self) -> bool:
        """Whether the coup about to be dealt is a demonstration coup (R5)."""
        played = 0 if self._over or self.shoe is None else self.coups_in_shoe
        return self.config.mode is not DealingMode.CONTINUOUS and played < self.config.demo_coups

    def _ensure_shoe(self) -> Shoe:
        if self.config.mode is DealingMode.CONTINUOUS:
            # R8: every coup is dealt from a freshly shuffled full shoe; cards go back afterwards.
            coups = self.coups_in_shoe
            shoe = self.new_shoe()
            self.coups_in_shoe = coups
            return shoe
        if self.shoe is None or self._over:
            return self.new_shoe()
        return self.shoe

    # --- the pre-dealt layout ---------------------------------------------------------------

    def layout(self) -> Layout:
        """The six-card layout for the next coup (R19), set before betting opens.

        The layout is the next six cards in shoe order: the draw-area cards a coup leaves unused are
        the first cards of the next layout, so coups are exactly those of plain dealing. Laying a
        card behind the cut card brings the cut card out (R6) before this coup is dealt.
        """
        if self.config.mode is not DealingMode.PRE_DEALT:
            raise ProcedureError(
                "the layout exists only in pre-dealt mode", hint="use mode=pre_dealt", code="shoe.not_pre_dealt"
            )
        if self._layout is None:
            shoe = self._ensure_shoe()
            self._layout = Layout(
                shoe_number=shoe.shoe_number,
                coup_number=self.coups_in_shoe + 1,
                cards=tuple(shoe.lay(6)),
                nonce=secrets.token_hex(16),
            )
        return self._layout

    # --- coups -------------------------------------------------------------------------------

    def next_coup(self) -> DealtCoup:
        """Deal the next coup, starting a new shoe if the last one ended."""
        layout = self.layout() if self.config.mode is DealingMode.PRE_DEALT else None
        shoe = self._ensure_shoe()
        demo = self.next_is_demo
        burned: tuple[Card, ...] = ()
        if self.config.burn_each_coup and self.config.mode is DealingMode.SHOE:
            burned = tuple(shoe.burn(1, detail="burn before the coup (R7)"))
        if shoe.remaining < MIN_CARDS_FOR_COUP:
            self._finish(shoe, "not enough cards left for a coup")
            raise ProcedureError(
                "the shoe is finished: not enough cards for a coup", hint="start a new shoe", code="shoe.finished"
            )
        start = shoe.position
        dealer = CoupDealer()
        while dealer.due is not None:
            dealer.enter(shoe.draw())
        self.coups_in_shoe += 1
        number = self.coups_in_shoe
        last = False
        if self.config.mode is DealingMode.CONTINUOUS:
            self._finish(shoe, "cards returned to the continuous shuffler")
        else:
            if shoe.cut_card_out and self._cut_seen_at is None:
                self._cut_seen_at = number
            if self._cut_seen_at is not None:
                last = self.config.after_cut_card is AfterCutCard.FINISH or number > self._cut_seen_at
            needed = MIN_CARDS_FOR_COUP + (1 if self.config.burn_each_coup else 0)
            if last:
                self._finish(shoe, "last coup after the cut card")
            elif shoe.remaining < needed:
                last = True
                self._finish(shoe, "not enough cards left for another coup")
        self._layout = None
        return DealtCoup(
            shoe_number=shoe.shoe_number,
            number=number,
            result=dealer.result(),
            demo=demo,
            last=last,
            cut_card_out=shoe.cut_card_out,
            burned=burned,
            start=start,
            layout=layout,
        )

    def _finish(self, shoe: Shoe, reason: str) -> None:
        if not self._over:
            shoe.end(reason)
        self._over = True

    def deal_shoe(self) -> list[DealtCoup]:
        """Deal one whole shoe (a new one if the current one has ended) up to its last coup.

        With a continuous shuffler there is no last coup; use :meth:`next_coup` instead.
        """
        if self.config.mode is DealingMode.CONTINUOUS:
            raise ProcedureError(
                "a continuous shuffler has no end of shoe", hint="deal coups one at a time", code="shoe.continuous"
            )
        if self._over:
            self.new_shoe()
        coups = [self.next_coup()]
        while not coups[-1].last:
            coups.append(self.next_coup())
        return coups
