"""Seven-round UNO (seed 001, «UNO в 7 раундів»), as the seed words it: when a player has got
rid of their first 7 cards, play stops, that player alone draws 6 new cards, and play goes
on; the next time they run out they draw 5, and so on until they draw a single card and get
rid of it. So each player works down the schedule 7, 6, 5, 4, 3, 2, 1 on their own, and the
first to empty all seven hands wins the game.

A round here is one hand emptied: it records who went out, nothing else (nobody else's
cards are counted, and nobody deals again: the game is one deal played on). A player's
total is the hands they have emptied; the fixed target is 7.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.scoring.base import (
    Column,
    Entrant,
    Entry,
    RoundInput,
    RoundScore,
    ScoringMethod,
    StandingFacts,
)
from showdown.contract.i18n import N_, _, ngettext

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from companion.scoring.base import GameSoFar

#: The hands a player works through, in cards: the deal, then one fewer each time.
SCHEDULE = (7, 6, 5, 4, 3, 2, 1)


def next_hand(emptied: int) -> int | None:
    """The cards a player holding `emptied` emptied hands draws next (None: finished)."""
    return SCHEDULE[emptied] if 0 <= emptied < len(SCHEDULE) else None


class SevenRounds(ScoringMethod):
    key = "seven"
    aliases = ("seven rounds", "7 rounds", "seven-round", "7")
    title = N_("seven-round UNO: hands of 7, 6, … 1 cards, first to empty all seven wins")
    label = N_("Seven rounds")
    summary = N_(
        "whoever empties their hand draws one card fewer (7, 6, … 1); first to empty all seven wins"
    )
    default_target = len(SCHEDULE)
    fixed_target = True
    entry = Entry.WINNER
    options = ()
    deals_every_round = False

    def score(self, entrants: Sequence[Entrant], entry: RoundInput) -> RoundScore:
        points = {e.name: 0 for e in entrants}
        points[next(e for e in entrants if entry.winner in e.members).name] = 1
        return RoundScore(points, None, {})

    def total_text(self, standing: StandingFacts) -> str:
        """Hands emptied of seven."""
        return f"{standing.total}/{len(SCHEDULE)}"

    def total_note(self, standing: StandingFacts) -> str:
        """How many cards the hand in play was dealt: where the player is in the schedule."""
        cards = next_hand(standing.total)
        if cards is None:
            return ""
        return ngettext("hand of {cards} card", "hand of {cards} cards", cards).format(
            cards=cards)

    def columns(self) -> tuple[Column, ...]:
        return (Column(N_("hands out"), lambda s: f"{s.total}/{len(SCHEDULE)}"),
                Column(N_("hand of"), lambda s: next_hand(s.total) or "-"))

    def round_line(self, game: GameSoFar, index: int) -> str:
        winner = game.rounds[index].winner
        emptied = sum(1 for r in game.rounds[: index + 1] if r.winner == winner)
        cards = next_hand(emptied)
        if cards is None:
            return _("{name} has emptied all {all} hands.").format(name=winner,
                                                                    all=len(SCHEDULE))
        return ngettext("{name} emptied hand {n}, draws {cards} card and plays on.",
                        "{name} emptied hand {n}, draws {cards} cards and plays on.",
                        cards).format(name=winner, n=emptied, cards=cards)

    def next_line(self, game: GameSoFar) -> str:
        if not game.rounds:
            return _("{dealer} deals {cards} cards each, {starter} starts.").format(
                dealer=game.dealer, cards=SCHEDULE[0], starter=game.starter)
        return _("Play goes on: enter each hand emptied.")


METHOD = SevenRounds()
