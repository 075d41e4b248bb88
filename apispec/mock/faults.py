"""Injected gateway failures and latency, so clients can test their retry logic.

The spec names three gateway errors (502, 503, 504); with `--fault-rate P` a
request fails with one of them with probability P. The draws come from a
generator seeded with `--seed`, so the same request sequence fails the same
way in every run.
"""

from __future__ import annotations

import asyncio
import random

from apispec.mock.errors import ApiError, gateway_codes
from apispec.registry.model import Registry


class Faults:
    def __init__(self, registry: Registry, rate: float, latency_ms: float, seed: int) -> None:
        self.rate = rate
        self.latency = latency_ms / 1000.0
        self._codes = gateway_codes(registry)
        self._meanings = {e.code: e.meaning for e in registry.error_codes}
        self._random = random.Random(seed)

    async def apply(self) -> None:
        """Wait the configured latency, then maybe raise an injected gateway error."""
        if self.latency > 0:
            await asyncio.sleep(self.latency)
        if self.rate > 0 and self._random.random() < self.rate:
            code = self._random.choice(self._codes)
            raise ApiError(code, f"injected fault (--fault-rate): {self._meanings[code]}")
