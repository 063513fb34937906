"""Passwords (argon2id via argon2-cffi) and the checks on names and passwords.

``BACCARAT_ARGON2_FAST=1`` selects cheap hashing parameters, for tests and load benchmarks only.

>>> digest = hash_password("correct horse")
>>> check_password(digest, "correct horse"), check_password(digest, "wrong")
(True, False)
"""

from __future__ import annotations

import os
import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from baccarat.errors import InputError

__all__ = ["check_name", "check_password", "hash_password"]

_FAST = os.environ.get("BACCARAT_ARGON2_FAST") == "1"
_hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1) if _FAST else PasswordHasher()
_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")


def hash_password(password: str) -> str:
    """An argon2id hash of the password."""
    return str(_hasher.hash(password))


def check_password(digest: str, password: str) -> bool:
    """Whether the password matches the stored hash."""
    try:
        return bool(_hasher.verify(digest, password))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def check_name(name: str) -> str:
    """A valid user name (3–32 letters, digits, ``_ . -``), or an input error.

    >>> check_name("ann_1")
    'ann_1'
    """
    if not _NAME.match(name):
        raise InputError(
            f"user name {name!r} is not valid",
            hint="use 3–32 letters, digits, _ . or -",
            code="name.invalid",
            params={"name": name},
        )
    return name
