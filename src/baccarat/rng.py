"""Random sources and the shuffle (R37).

Nothing in the engine calls a global random number generator: a *random source* is passed in.
A source hands out one *stream* per shoe number (a continuous shuffler counts every coup as a
new shoe), and a stream draws unbiased integers with :meth:`RandomStream.randbelow`.

Three sources:

* :class:`SecureSource` (the default): the operating system's CSPRNG (:mod:`secrets`).
* :class:`SeededSource`: reproducible, for tests and research. Its algorithm is fixed and named
  ``xoshiro256**/splitmix64 v1`` so that a seed means the same shoe in every future version:

  1. A seed is an integer ``0 <= seed < 2**64``; a text seed is first hashed: the first 8 bytes
     (big-endian) of SHA-256 of its UTF-8 bytes.
  2. The stream of shoe number ``k`` starts a SplitMix64 generator at
     ``(seed + k * 0xD1B54A32D192ED03) mod 2**64``; its first four outputs are the state
     ``s0, s1, s2, s3`` of xoshiro256** (Blackman and Vigna, 2018).
  3. ``randbelow(n)`` draws 64-bit words from xoshiro256** and rejects those below
     ``(2**64 - n) mod n``, then returns ``word mod n`` (no modulo bias).

* :class:`ProvablyFairSource`: commits to a server seed (its SHA-256 is published before play);
  the stream of shoe ``k`` is the HMAC-SHA256 counter stream
  ``HMAC-SHA256(server_seed, f"{client_seed}:{k}:{counter}")``, ``counter = 0, 1, 2, …``, each
  32-byte block read as four big-endian 64-bit words, drawn with the same rejection rule. After
  the shoe the server seed is revealed and anyone can recompute the shoe (:func:`verify_commitment`).

The shuffle is Fisher–Yates from the last position down: for ``i = n-1 … 1`` swap position ``i``
with ``randbelow(i + 1)``.

>>> cards = list(range(10))
>>> shuffle(cards, SeededSource(42).stream(0))
>>> cards == sorted(cards)
False
>>> again = list(range(10)); shuffle(again, SeededSource(42).stream(0)); again == cards
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, MutableSequence
from typing import Protocol, TypeVar

from baccarat.errors import InputError

__all__ = [
    "ProvablyFairSource",
    "RandomSource",
    "RandomStream",
    "SecureSource",
    "SeededSource",
    "commitment_of",
    "new_server_seed",
    "seed_to_int",
    "shuffle",
    "verify_commitment",
]

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
SHOE_STRIDE = 0xD1B54A32D192ED03
SEEDED_ALGORITHM = "xoshiro256**/splitmix64 v1"

T = TypeVar("T")


class RandomStream(Protocol):
    """A stream of unbiased random integers."""

    def randbelow(self, n: int) -> int:
        """A uniformly random integer in ``[0, n)``."""
        ...


class RandomSource(Protocol):
    """Hands out one stream per shoe number."""

    @property
    def name(self) -> str:
        """A short description of the source, for logs and shoe records."""
        ...

    def stream(self, shoe_number: int) -> RandomStream:
        """The stream that shuffles shoe number ``shoe_number``."""
        ...


def shuffle(items: MutableSequence[T], stream: RandomStream) -> None:
    """Shuffle in place with Fisher–Yates, last position first.

    >>> deck = list("abcd"); shuffle(deck, SeededSource(1).stream(0)); sorted(deck)
    ['a', 'b', 'c', 'd']
    """
    for i in range(len(items) - 1, 0, -1):
        j = stream.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


def _bounded(next64: Callable[[], int], n: int) -> int:
    """An unbiased integer in ``[0, n)`` from 64-bit words: reject words below ``(2**64 - n) mod n``."""
    if n <= 0:
        raise InputError(f"randbelow needs a positive bound, got {n}")
    if n > MASK64:
        raise InputError(f"randbelow bound {n} exceeds 2**64")
    threshold = ((1 << 64) - n) % n
    while True:
        word = next64()
        if word >= threshold:
            return word % n


# --- secure ---------------------------------------------------------------------------------


class _SecureStream:
    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise InputError(f"randbelow needs a positive bound, got {n}")
        return secrets.randbelow(n)


class SecureSource:
    """The operating system's CSPRNG; unpredictable, not reproducible.

    >>> 0 <= SecureSource().stream(0).randbelow(6) < 6
    True
    """

    name = "secure (os CSPRNG)"

    def stream(self, shoe_number: int) -> RandomStream:
        return _SecureStream()


# --- seeded ---------------------------------------------------------------------------------


def seed_to_int(seed: int | str) -> int:
    """The 64-bit integer a seed stands for (text seeds are hashed with SHA-256).

    >>> seed_to_int(7)
    7
    >>> seed_to_int("7") == int.from_bytes(hashlib.sha256(b"7").digest()[:8], "big")
    True
    """
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise InputError(f"seed {seed!r} is out of range", hint="use an integer from 0 to 2**64 - 1, or any text")
    return seed


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new_state, output)``.

    >>> splitmix64(0)[1] == 0xE220A8397B1DCDAF
    True
    """
    state = (state + GOLDEN_GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def seeded_state(seed: int, shoe_number: int) -> tuple[int, int, int, int]:
    """The xoshiro256** state that starts the stream of ``shoe_number`` under ``seed``."""
    sm = (seed + shoe_number * SHOE_STRIDE) & MASK64
    words = []
    for _ in range(4):
        sm, word = splitmix64(sm)
        words.append(word)
    return words[0], words[1], words[2], words[3]


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256StarStar:
    """The xoshiro256** generator (64-bit outputs).

    >>> gen = Xoshiro256StarStar((1, 2, 3, 4)); gen.next64()
    11520
    """

    __slots__ = ("_s",)

    def __init__(self, state: tuple[int, int, int, int]) -> None:
        if not any(state):
            raise InputError("xoshiro256** state must not be all zero")
        self._s = list(state)

    def next64(self) -> int:
        s = self._s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def randbelow(self, n: int) -> int:
        return _bounded(self.next64, n)


class SeededSource:
    """Reproducible source; the same seed gives the same shoes in every version (see module doc).

    >>> SeededSource(2024).stream(3).randbelow(416) == SeededSource(2024).stream(3).randbelow(416)
    True
    """

    def __init__(self, seed: int | str) -> None:
        self.seed = seed_to_int(seed)

    @property
    def name(self) -> str:
        return f"seeded {SEEDED_ALGORITHM} seed={self.seed}"

    def stream(self, shoe_number: int) -> Xoshiro256StarStar:
        return Xoshiro256StarStar(seeded_state(self.seed, shoe_number))


# --- provably fair --------------------------------------------------------------------------


def new_server_seed() -> str:
    """A fresh 256-bit server seed, as 64 hex digits."""
    return secrets.token_hex(32)


def commitment_of(server_seed: str) -> str:
    """The commitment published before play: SHA-256 of the server seed's UTF-8 bytes, in hex.

    >>> commitment_of("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def verify_commitment(commitment: str, server_seed: str) -> bool:
    """Whether a revealed server seed matches the commitment published earlier.

    >>> seed = new_server_seed(); verify_commitment(commitment_of(seed), seed)
    True
    >>> verify_commitment(commitment_of(seed), seed + "0")
    False
    """
    return hmac.compare_digest(commitment_of(server_seed), commitment.lower())


class _HmacStream:
    __slots__ = ("_counter", "_key", "_prefix", "_words")

    def __init__(self, key: bytes, prefix: str) -> None:
        self._key = key
        self._prefix = prefix
        self._counter = 0
        self._words: list[int] = []

    def next64(self) -> int:
        if not self._words:
            message = f"{self._prefix}:{self._counter}".encode()
            block = hmac.new(self._key, message, hashlib.sha256).digest()
            self._counter += 1
            self._words = [int.from_bytes(block[i : i + 8], "big") for i in range(24, -1, -8)]
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        return _bounded(self.next64, n)


class ProvablyFairSource:
    """Provably fair shoes: commit, play, reveal, verify (R37).

    >>> source = ProvablyFairSource(server_seed="s" * 64, client_seed="lucky")
    >>> source.commitment == commitment_of("s" * 64)
    True
    >>> source.stream(1).randbelow(416) == ProvablyFairSource(server_seed="s" * 64, client_seed="lucky").stream(1).randbelow(416)
    True
    """

    def __init__(self, *, server_seed: str | None = None, client_seed: str = "") -> None:
        self.server_seed = server_seed if server_seed is not None else new_server_seed()
        if not self.server_seed:
            raise InputError("the server seed must not be empty", hint="omit it to get a fresh random one")
        self.client_seed = client_seed

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, published before the shoe is played."""
        return commitment_of(self.server_seed)

    @property
    def name(self) -> str:
        return f"provably fair (commitment {self.commitment})"

    def stream(self, shoe_number: int) -> RandomStream:
        return _HmacStream(self.server_seed.encode("utf-8"), f"{self.client_seed}:{shoe_number}")
