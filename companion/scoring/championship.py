"""The championship (seed 000): scored as own hand; the winner of a round deals the next; a
player's result is points ÷ rounds played, lower is better; the game runs until someone
reaches the target (500, rule 2.1), and then it is over with no winner: the regulation ranks
players by their results over a stage, across games and tables, and names no winner of a
game (the table plays on in a new one). A table seats 2 to 7 players."""

from __future__ import annotations

from collections.abc import Mapping

from companion.scoring.base import Column, StandingFacts, Verdict
from companion.scoring.own import OwnHand
from showdown.contract.i18n import N_

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction
    from typing import ClassVar

    from companion.scoring.base import GameSoFar, RulesFacts


def points_per_game(points: int, games: int) -> Fraction | None:
    """A player's result (seed 000): points ÷ games played, exact, so two results are equal
    only when they are; None before a game. The one place of the rule: a table's standings
    and the championship's across tables both ask it, so they always order players alike."""
    from fractions import Fraction  # here: only a championship game divides

    return Fraction(points, games) if games else None


def _per_round(standing: StandingFacts) -> str:
    return "-" if standing.result is None else f"{float(standing.result):.1f}"


class Championship(OwnHand):
    key = "championship"
    aliases = ("champ",)
    title = N_("championship: points per round, lower is better")
    label = N_("Championship")
    summary = N_("as own hand, 2 to 7 players; points per round, lower is better")
    default_target = 500
    max_players = 7  # seed 000: at most 7 players at a table
    #: Rule 2.4.8: "no other rules than those listed apply": no option, no house rule.
    regulated = True
    options: ClassVar[tuple[str, ...]] = ()

    def next_dealer(self, game: GameSoFar, index: int, dealer: str) -> str:
        """Whoever went out deals the next round (seed 000, rule 2.3)."""
        return game.rounds[index].winner

    def result(self, total: int, rounds_played: int) -> Fraction | None:
        return points_per_game(total, rounds_played)

    def verdict(self, rules: RulesFacts, totals: Mapping[str, int],
                results: Mapping[str, Fraction | None]) -> Verdict:
        """Over once someone reaches the target (rule 2.1), with no winner of its own: the
        regulation ranks results over a stage, not games."""
        if rules.target is None or not any(t >= rules.target for t in totals.values()):
            return Verdict(False)
        return Verdict(True, reached=tuple(n for n, t in totals.items() if t >= rules.target))

    def rank_key(self, standing: StandingFacts) -> tuple[float | Fraction, ...]:
        r = standing.result
        return (r is None, r if r is not None else 0)

    def total_text(self, standing: StandingFacts) -> str:
        if standing.result is None:
            return str(standing.total)
        return f"{standing.total}  ({float(standing.result):.1f})"

    def columns(self) -> tuple[Column, ...]:
        return (*super().columns(), Column(N_("rounds"), lambda s: s.rounds_played),
                Column(N_("per round"), _per_round))


METHOD = Championship()
