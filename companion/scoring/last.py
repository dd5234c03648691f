"""Playing to the last player (seed 001, «До останнього»): when the first player goes out the
round does not end; play goes on until one player is left holding cards. The first out wins
the round, the last player loses it. A round records the finishing order; no hands are
counted, so there are no points, only wins and losses.

The seed is silent on who deals next; as in its lazy count, the round's loser deals and the
round's winner starts.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.scoring.base import Entrant, Entry, RoundInput, RoundScore
from companion.scoring.lazy import WinsAndLosses
from showdown.contract.i18n import N_, _

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from companion.scoring.base import GameSoFar


class ToTheLast(WinsAndLosses):
    key = "last"
    aliases = ("to the last", "last player", "play to the last player")
    title = N_("to the last player: first out wins, last loses")
    label = N_("To the last")
    summary = N_("play goes on after the first is out: first out wins, the last player loses")
    entry = Entry.ORDER
    options = ()

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        points = {e.name: 0 for e in entrants}
        points[next(e for e in entrants if entry.winner in e.members).name] = 1
        return RoundScore(points, entry.order[-1] if entry.order else None, {})

    def round_line(self, game: GameSoFar, index: int) -> str:
        rnd, score = game.rounds[index], game.score_of(index)
        return _("Finishing order: {order}; {winner} won, {loser} lost.").format(
            order=", ".join(rnd.order), winner=rnd.winner, loser=score.loser or "-")

    def round_cell(self, game: GameSoFar, index: int, entrant: str) -> str:
        """The entrant's place in the round (1 = first out); empty if they did not play."""
        order = game.rounds[index].order
        return str(order.index(entrant) + 1) if entrant in order else ""


METHOD = ToTheLast()
