"""Settings for the whole suite: Hypothesis checks properties, not speed (timings belong to
``benchmarks/``), so no example fails for taking long on a busy machine."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("baccarat", deadline=None)
settings.load_profile("baccarat")
