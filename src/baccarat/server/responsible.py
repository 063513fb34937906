"""Responsible gaming as the server enforces it: a self-excluded player cannot log in or bet until
the exclusion ends; a bet that would take a player's loss today (UTC) past their daily loss limit
is refused; a player may tighten their own settings at once, and only the house loosens them.

What holds is decided where bets are serialized: the transaction that stores a group of bets
locks each of their players' rows and counts the player's loss today there, across every table
and process (:meth:`~baccarat.server.store.limits.PlayerLimits.hold`). The checks here come
first and cost no transaction: a bet plainly refused (an exclusion, a limit reached by bets
already stored) is refused before it joins the table's queue.

The settings of every player who has any are read once every :data:`REFRESH_SECONDS` (one small
query, however many bets ask for them meanwhile: they wait for the one read in flight), and a
player's loss today only for a player with a limit.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from baccarat.server.refusals import Refusal
from baccarat.server.store.limits import Limits, day_start, loss_refusal, self_excluded

if TYPE_CHECKING:
    from baccarat.server.service import Service
    from baccarat.server.store import User

__all__ = ["REFRESH_SECONDS", "Responsible", "loosened"]

#: How long the settings read are used before they are read again (seconds).
REFRESH_SECONDS = 2.0


def loosened(old: Limits, new: Limits, *, now: float) -> list[str]:
    """The settings ``new`` loosens against ``old``: a higher or removed loss limit, a longer or
    removed reminder, an exclusion ended early.

    >>> loosened(Limits(daily_loss_limit=5000), Limits(daily_loss_limit=9000), now=0)
    ['daily_loss_limit']
    >>> loosened(Limits(daily_loss_limit=5000), Limits(daily_loss_limit=1000, session_reminder_minutes=30), now=0)
    []
    """
    out = []
    if old.daily_loss_limit is not None and (
        new.daily_loss_limit is None or new.daily_loss_limit > old.daily_loss_limit
    ):
        out.append("daily_loss_limit")
    if old.session_reminder_minutes is not None and (
        new.session_reminder_minutes is None or new.session_reminder_minutes > old.session_reminder_minutes
    ):
        out.append("session_reminder_minutes")
    if old.excluded(now) and (new.excluded_until is None or new.excluded_until < (old.excluded_until or 0)):
        out.append("excluded_until")
    return out


class Responsible:
    """The checks of one server process (cached settings, read again every few seconds)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._limits: dict[int, Limits] = {}
        self._read_at = float("-inf")
        #: the read in flight, which every check that finds the settings stale waits for
        self._reading: asyncio.Future[dict[int, Limits]] | None = None

    def forget(self) -> None:
        """Read the settings again at the next check (after this process changed them)."""
        self._read_at = float("-inf")
        self._reading = None  # a read begun before the change may not see it

    async def of(self, user_id: int) -> Limits:
        """A player's settings as last read (read again once stale, by one read however many ask)."""
        if time.monotonic() - self._read_at > REFRESH_SECONDS:
            reading = self._reading
            if reading is None:
                reading = self._reading = asyncio.ensure_future(self._read())
            limits = await asyncio.shield(reading)
            if self._reading is reading:
                self._limits, self._read_at, self._reading = limits, time.monotonic(), None
            return limits.get(user_id, Limits())
        return self._limits.get(user_id, Limits())

    async def _read(self) -> dict[int, Limits]:
        return await self.service.read(self.service.store.limits.all_set)

    async def check_bet(self, user: User, stake: int) -> None:
        """Refuse a bet of a self-excluded player, or one past the player's daily loss limit by the
        bets stored already (the transaction that stores the bet checks both again, with the bets
        stored meanwhile)."""
        limits = await self.of(user.id)
        now = self.service.clock.time()
        if limits.excluded(now):
            raise self.excluded(limits)
        limit = limits.daily_loss_limit
        if limit is None:
            return
        lost = await self.service.read(self.service.store.limits.lost_since, user.id, day_start(now))
        if lost + stake > limit:
            raise loss_refusal(limit, lost, stake)

    @staticmethod
    def excluded(limits: Limits) -> Refusal:
        """The refusal of a self-excluded player (the exclusion ends by itself; the house cannot end it early)."""
        return self_excluded(limits.excluded_until)

    @staticmethod
    def with_exclusion(limits: Limits, days: int | None, *, now: float) -> Limits:
        """``limits`` with a self-exclusion of ``days`` days from ``now`` (never shorter than one in force)."""
        if not days:
            return limits
        until = now + days * 86_400
        return replace(limits, excluded_until=max(until, limits.excluded_until or 0))
