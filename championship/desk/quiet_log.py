"""A log that a flood cannot fill: one line per kind of message per interval, and a count
of the ones it held back.

Whoever can reach the broker can send a thousand bad messages a second; each one is worth
knowing about, not a thousand lines each. The kind of a line is its text with the numbers
taken out ("ignored a message on table 3's topic: ..." and the same for table 4 are one
kind); the first of a kind is logged at once, the next ones within `interval_s` are
counted, and the count goes out with the next line of that kind after the interval. The
number of kinds is bounded too: past `MAX_KINDS` in one interval, the rest count as one.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

#: The most kinds told apart in one interval (a sender can vary its text at will).
MAX_KINDS = 64
_NUMBERS = re.compile(r"[0-9]+")


class QuietLog:
    """See the module docstring."""

    def __init__(self, logger: logging.Logger, interval_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.interval_s, self.clock = logger, interval_s, clock
        self._kinds: dict[str, list[float]] = {}  # kind -> [when logged, held back since]
        self.held = 0  # lines held back in all

    def warning(self, text: str) -> bool:
        """Log `text` unless its kind was logged within the interval; True if logged."""
        now = self.clock()
        self._kinds = {k: v for k, v in self._kinds.items()
                       if now - v[0] < self.interval_s or v[1]}
        kind = _NUMBERS.sub("#", text)[:120]
        if kind not in self._kinds and len(self._kinds) >= MAX_KINDS:
            kind = "(other kinds)"
        entry = self._kinds.get(kind)
        if entry is not None and now - entry[0] < self.interval_s:
            entry[1] += 1
            self.held += 1
            return False
        held = int(entry[1]) if entry is not None else 0
        if held:
            self.logger.warning("%s (and %d more like it held back)", text, held)
        else:
            self.logger.warning("%s", text)
        self._kinds[kind] = [now, 0]
        return True
