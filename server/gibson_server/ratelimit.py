"""A token bucket per connection: ``rate`` messages a second on average, bursts up to ``burst``."""

from __future__ import annotations

import time


class TokenBucket:
    """Allows a message when a token is left; tokens come back at ``rate`` a second up to ``burst``."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.at = clock()

    def take(self) -> bool:
        """True (and one token used) when a message may pass now."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
