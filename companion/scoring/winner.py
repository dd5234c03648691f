"""Winner collects (seed 001, the classic count): the player who went out scores the value of
every other hand; first to the target (500) wins."""

from __future__ import annotations

from collections.abc import Sequence

from companion.scoring.base import Entrant, RoundInput, RoundScore, ScoringMethod
from showdown.contract.i18n import N_

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class WinnerCollects(ScoringMethod):
    key = "winner"
    aliases: ClassVar[tuple[str, ...]] = ("winner collects", "collect")
    title = N_("winner collects")
    label = N_("Winner collects")
    summary = N_("the one who went out scores every other hand; first to the target wins")
    default_target = 500

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        points = {e.name: 0 for e in entrants}
        winning = next(e for e in entrants if entry.winner in e.members)
        points[winning.name] = sum(
            v for p, v in entry.hand_values.items() if p not in winning.members)
        return RoundScore(points, None, dict(entry.hand_values))


METHOD = WinnerCollects()
