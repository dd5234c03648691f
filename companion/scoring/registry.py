"""Every scoring method a game can use, in the order the CLI and the screen offer them.

Adding a method: write its module (a `ScoringMethod` subclass and its `METHOD`), add one line
here, and put its strings in the catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from companion.scoring import championship, last, lazy, own, seven, teams, winner
from companion.scoring.base import ScoringMethod

METHODS: Mapping[str, ScoringMethod] = MappingProxyType({m.key: m for m in (
    winner.METHOD,
    own.METHOD,
    championship.METHOD,
    lazy.METHOD,
    teams.METHOD,
    last.METHOD,
    seven.METHOD,
)})
