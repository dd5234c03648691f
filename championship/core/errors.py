"""The one error the championship raises for what the organiser asked: one sentence, what to do."""

from __future__ import annotations

from showdown.contract.errors import CompanionError


class ChampionshipError(CompanionError):
    """Something the organiser typed or chose cannot be done now; the message says why."""
