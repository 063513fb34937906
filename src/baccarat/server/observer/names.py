"""How the public sees a bettor: by a masked display name, the same wherever it is shown, that gives away
neither the user name nor (with the money) who the bettor is.

The display name is the first character of the user name, ``***``, and four hex digits of the SHA-256
of the name (so that two bettors whose names begin alike are told apart at a table).

>>> display_name("ann")
'a***4991'
>>> display_name(None) is None
True
"""

from __future__ import annotations

import hashlib

__all__ = ["display_name"]


def display_name(name: str | None) -> str | None:
    """The masked name the public sees for user ``name`` (``None`` stays ``None``: the dealer, a free seat)."""
    if name is None:
        return None
    tag = hashlib.sha256(name.encode("utf-8")).hexdigest()[:4]
    return f"{name[:1]}***{tag}"
