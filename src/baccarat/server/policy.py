"""The security settings of a server: sessions, log-in throttling, per-address limits, websocket
origins and seats. Read from the ``[security]`` section of the tables file (every key optional).

>>> policy = Policy.from_dict({"session_idle_minutes": 10, "allowed_origins": ["https://a.example"]})
>>> policy.session_idle_seconds, policy.allowed_origins
(600.0, ('https://a.example',))
>>> try:
...     Policy.from_dict({"colour": "red"})
... except InputError as error:
...     print(error.message)
unknown [security] setting(s) ['colour']
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from baccarat.errors import InputError

__all__ = ["ADMIN_PASSWORD_MIN", "Policy", "verify_admin_password"]

#: The shortest admin password a server starts with.
ADMIN_PASSWORD_MIN = 12


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """Limits that protect the accounts and the tables (the defaults suit a public server)."""

    #: a session unused this long ends (seconds)
    session_idle_seconds: float = 30 * 60.0
    #: a session ends this long after log-in, used or not (seconds)
    session_lifetime_seconds: float = 24 * 3600.0
    #: failed log-ins for one name before it is locked; each further failure doubles the lock
    login_failures_per_name: int = 5
    #: failed log-ins from one address before it is locked
    login_failures_per_address: int = 20
    #: the first lock (seconds), doubled by each further failure up to :attr:`lockout_max_seconds`
    lockout_seconds: float = 30.0
    lockout_max_seconds: float = 3600.0
    #: accounts one address may register at once, and one more every this many seconds
    registrations_per_address: int = 5
    registration_refill_seconds: float = 600.0
    #: websocket connections one address may open at once, and how many more a second
    ws_connects_burst: int = 30
    ws_connects_per_second: float = 2.0
    #: origins (``scheme://host[:port]``) whose pages may open the websocket, beside the server's own
    allowed_origins: tuple[str, ...] = ()
    #: settled rounds in a row without a bet after which a seated bettor leaves the table (0: never)
    seat_release_rounds: int = 5
    #: clients (addresses or accounts) whose rate limits are held at once; the least recently seen go first
    max_tracked_clients: int = 10_000

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Policy:
        """The settings of a ``[security]`` section (minutes for the session keys ending ``_minutes``)."""
        values = dict(data)
        for key in ("session_idle", "session_lifetime"):
            if f"{key}_minutes" in values:
                values[f"{key}_seconds"] = _number(values.pop(f"{key}_minutes"), f"{key}_minutes") * 60.0
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InputError(f"unknown [security] setting(s) {unknown}", hint=f"known: {sorted(known)}")
        if "allowed_origins" in values:
            values["allowed_origins"] = _origins(values["allowed_origins"])
        for name in known - {"allowed_origins"}:
            if name in values:
                values[name] = _number(values[name], name)
        policy = cls(**values)
        policy.verify()
        return policy

    def verify(self) -> None:
        """Refuse settings that cannot work (a non-positive time or count)."""
        for name in ("session_idle_seconds", "session_lifetime_seconds", "lockout_seconds", "ws_connects_per_second"):
            if getattr(self, name) <= 0:
                raise InputError(f"[security] {name} must be above 0")
        for name in ("login_failures_per_name", "login_failures_per_address", "ws_connects_burst"):
            if getattr(self, name) < 1:
                raise InputError(f"[security] {name} must be at least 1")
        if self.registrations_per_address < 0 or self.seat_release_rounds < 0 or self.max_tracked_clients < 100:
            raise InputError("[security] registrations and seat rounds must be ≥ 0, max_tracked_clients ≥ 100")


def _number(value: Any, name: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"[security] {name} must be a number, not {value!r}")
    return value


def _origins(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and "://" in v for v in value):
        raise InputError("[security] allowed_origins must be a list of origins", hint='e.g. ["https://example.com"]')
    return tuple(v.rstrip("/").lower() for v in value)


def verify_admin_password(password: str | None) -> str | None:
    """The admin password, refused when shorter than :data:`ADMIN_PASSWORD_MIN` (``None``: no admin).

    >>> try:
    ...     verify_admin_password("short")
    ... except InputError as error:
    ...     print(error.message)
    the admin password has 5 characters; it needs at least 12
    """
    if password is not None and len(password) < ADMIN_PASSWORD_MIN:
        raise InputError(
            f"the admin password has {len(password)} characters; it needs at least {ADMIN_PASSWORD_MIN}",
            hint="set BACCARAT_ADMIN_PASSWORD (or admin_password in the tables file) to a longer password",
            code="config.invalid",
            params={"setting": "admin_password"},
        )
    return password
