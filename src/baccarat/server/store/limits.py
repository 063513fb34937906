"""Players' responsible-gaming settings (table ``player_limits``): a daily loss limit (minor
units, per UTC day), the minutes between play-time reminders, and the end of a self-exclusion;
and what a player has lost so far today (stakes less what came back, open bets counted in full)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select

from baccarat.server.schema import bets, player_limits
from baccarat.server.store.base import Database

__all__ = ["Limits", "PlayerLimits", "day_start"]


@dataclass(frozen=True, slots=True)
class Limits:
    """One player's settings (``None``: not set)."""

    daily_loss_limit: int | None = None
    session_reminder_minutes: int | None = None
    excluded_until: float | None = None

    def excluded(self, now: float) -> bool:
        """Whether the player is self-excluded at ``now``."""
        return self.excluded_until is not None and now < self.excluded_until


def day_start(now: float) -> float:
    """The start of the UTC day of ``now`` (the loss limit counts from it).

    >>> day_start(86_400 * 3 + 5_000)
    259200.0
    """
    return float(int(now // 86_400) * 86_400)


class PlayerLimits:
    """Reads and writes the players' settings."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, user_id: int) -> Limits:
        """A player's settings (all unset when none were stored)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(player_limits).where(player_limits.c.user_id == user_id)).first()
        if row is None:
            return Limits()
        m = row._mapping
        return Limits(m["daily_loss_limit"], m["session_reminder_minutes"], m["excluded_until"])

    def all_set(self) -> dict[int, Limits]:
        """Every player with a setting stored."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(player_limits)).all()
        return {int(r.user_id): Limits(r.daily_loss_limit, r.session_reminder_minutes, r.excluded_until) for r in rows}

    def put(self, user_id: int, limits: Limits) -> None:
        """Store a player's settings (replacing the earlier ones); ends their sessions when they
        exclude themselves."""
        values = {
            "user_id": user_id,
            "daily_loss_limit": limits.daily_loss_limit,
            "session_reminder_minutes": limits.session_reminder_minutes,
            "excluded_until": limits.excluded_until,
            "updated_at": time.time(),
        }
        with self.db.engine.begin() as conn:
            conn.execute(delete(player_limits).where(player_limits.c.user_id == user_id))
            conn.execute(insert(player_limits).values(**values))

    def lost_since(self, user_id: int, since: float) -> int:
        """What the player has lost on the bets placed since ``since``: their stakes less what came
        back (an open bet counts in full until it settles)."""
        with self.db.engine.connect() as conn:
            staked, back = conn.execute(
                select(func.coalesce(func.sum(bets.c.stake), 0), func.coalesce(func.sum(bets.c.returned), 0)).where(
                    bets.c.user_id == user_id, bets.c.created_at >= since
                )
            ).one()
        return int(staked) - int(back)
