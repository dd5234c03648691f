"""Lazy counting (seed 001, «Лінивий» підрахунок): no totals. Each round has a winner, who
went out and starts the next round, and a loser, who has the most points left in hand and
deals the next round. The standings count wins (fewer losses break a tie)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.scoring.base import (
    Column,
    Entrant,
    RoundInput,
    RoundScore,
    ScoringMethod,
    StandingFacts,
)
from showdown.contract.i18n import N_, _, ngettext

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # fractions only in annotations: a Pi pays for every import at start
    from fractions import Fraction

    from companion.scoring.base import GameSoFar


class WinsAndLosses(ScoringMethod):
    """What lazy counting and playing to the last player share: a win for the one who went
    out, a loss for the round's loser; the loser deals next and the winner starts."""

    keeps_totals = False

    def next_dealer(self, game: GameSoFar, index: int, dealer: str) -> str:
        loser = game.score_of(index).loser
        return loser if loser is not None else super().next_dealer(game, index, dealer)

    def starter(self, game: GameSoFar) -> str:
        if game.rounds:
            return game.rounds[-1].winner
        return super().starter(game)

    def rank_key(self, standing: StandingFacts) -> tuple[float | Fraction, ...]:
        return (-standing.wins, standing.losses)

    def total_text(self, standing: StandingFacts) -> str:
        return ngettext("{n} win", "{n} wins", standing.total).format(n=standing.total)

    def columns(self) -> tuple[Column, ...]:
        return (Column(N_("wins"), lambda s: s.wins), Column(N_("losses"), lambda s: s.losses))

    def round_line(self, game: GameSoFar, index: int) -> str:
        return _("{winner} went out; {loser} had the most left.").format(
            winner=game.rounds[index].winner, loser=game.score_of(index).loser or "-")


class Lazy(WinsAndLosses):
    key = "lazy"
    title = N_("lazy: winner and loser per round, no totals")
    label = N_("Lazy")
    summary = N_("no totals: each round the one who went out wins, the most left in hand loses")

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        """A win for the winner; the loss for the most points in hand, the first such
        player to the winner's left when several tie."""
        winner, values = entry.winner, entry.hand_values
        order = list(entry.seating) or list(values)
        if winner in order:
            i = order.index(winner)
            order = order[i + 1:] + order[:i]
        candidates = [p for p in order if p != winner and p in values]
        loser = None
        if candidates:
            most = max(values[p] for p in candidates)
            loser = next(p for p in candidates if values[p] == most)
        points = {e.name: 0 for e in entrants}
        points[next(e for e in entrants if winner in e.members).name] = 1
        return RoundScore(points, loser, dict(values))


METHOD = Lazy()
