"""The one error family the screen and the CLI catch: bad input, said in one sentence."""

from __future__ import annotations


class CompanionError(ValueError):
    """Something the person at the table typed or chose cannot be done; the message says why."""
