"""Own hand, loser at the target (seed 001): each player is charged their own hand, the one
who went out scores 0; whoever reaches the target (200) loses, everyone else wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.scoring.base import Entrant, RoundInput, RoundScore, ScoringMethod, Verdict
from showdown.contract.i18n import N_

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # fractions only in annotations: a Pi pays for every import at start
    from fractions import Fraction
    from typing import ClassVar

    from companion.scoring.base import RulesFacts


class OwnHand(ScoringMethod):
    key = "own"
    aliases: ClassVar[tuple[str, ...]] = ("own hand", "loser200", "loser")
    title = N_("own hand, loser at the target")
    label = N_("Own hand")
    summary = N_("each player is charged their own hand; whoever reaches the target loses")
    default_target = 200
    lower_is_better = True
    options: ClassVar[tuple[str, ...]] = ("lone_zero_50", "h2o")

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        points = {e.name: sum(entry.hand_values.get(p, 0) for p in e.members)
                  for e in entrants}
        return RoundScore(points, None, dict(entry.hand_values))

    def verdict(self, rules: RulesFacts, totals: Mapping[str, int],
                results: Mapping[str, Fraction | None]) -> Verdict:
        """Over once someone reaches the target: they lose, everyone else wins."""
        if rules.target is None:
            return Verdict(False)
        reached = tuple(n for n, t in totals.items() if t >= rules.target)
        if not reached:
            return Verdict(False)
        return Verdict(True, tuple(n for n in totals if n not in reached), reached)


METHOD = OwnHand()
