"""Passwords (argon2id via argon2-cffi) and the checks on names and passwords.

``BACCARAT_ARGON2_FAST=1`` selects cheap hashing parameters, for tests and load benchmarks only.

>>> digest = hash_password("correct horse")
>>> check_password(digest, "correct horse"), check_password(digest, "wrong")
(True, False)
"""

from __future__ import annotations

import os
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from baccarat.errors import InputError

__all__ = ["NAME_LENGTH", "check_name", "check_password", "hash_password", "normal_name"]

_FAST = os.environ.get("BACCARAT_ARGON2_FAST") == "1"
_hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1) if _FAST else PasswordHasher()
#: The shortest and the longest user name, in characters (after NFKC).
NAME_LENGTH = (2, 32)
_PUNCTUATION = frozenset("_.-")


def hash_password(password: str) -> str:
    """An argon2id hash of the password."""
    return str(_hasher.hash(password))


def check_password(digest: str, password: str) -> bool:
    """Whether the password matches the stored hash."""
    try:
        return bool(_hasher.verify(digest, password))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def normal_name(name: str) -> str:
    """A user name as it is stored and compared: NFKC-normalised, so that a full-width ``ＡＮＮ`` is
    ``ANN`` and a letter typed with a combining accent is the accented letter.

    >>> normal_name("ＡＮＮ２"), normal_name("Jose\u0301") == "José"
    ('ANN2', True)
    """
    return unicodedata.normalize("NFKC", name)


def check_name(name: str) -> str:
    """A valid user name, NFKC-normalised: 2–32 characters, each a letter of any script (張三,
    José), a combining mark after one, a digit or ``_ . -``, with at least one letter or digit; or
    an input error.

    >>> check_name("ann_1"), check_name("張三"), check_name("ｚｈａｎｇ")
    ('ann_1', '張三', 'zhang')
    >>> check_name("a b")
    Traceback (most recent call last):
    baccarat.errors.InputError: the user name is not valid (a name is 2–32 letters (any script), digits, _ . or -)
    """
    normal = normal_name(name)
    if not (NAME_LENGTH[0] <= len(normal) <= NAME_LENGTH[1]) or not _valid_characters(normal):
        raise InputError(  # never the name typed: it may be a password typed in the wrong field
            "the user name is not valid",
            hint=f"a name is {NAME_LENGTH[0]}–{NAME_LENGTH[1]} letters (any script), digits, _ . or -",
            code="name.invalid",
            params={"min": NAME_LENGTH[0], "max": NAME_LENGTH[1]},
        )
    return normal


def _valid_characters(name: str) -> bool:
    kinds = [unicodedata.category(c) for c in name]
    if kinds[0].startswith("M"):  # a combining mark with no letter before it
        return False
    allowed = all(k.startswith(("L", "M")) or k == "Nd" or c in _PUNCTUATION for c, k in zip(name, kinds, strict=True))
    return allowed and any(k.startswith("L") or k == "Nd" for k in kinds)
