"""Who plays next, and who duels whom: the seating, the direction of play, showdown pairings.

The rules this module follows:

* Seating order is clockwise: each next player in a game's list sits to the left of the
  previous one. Every deal starts clockwise ("Гра починається за годинниковою стрілкою",
  classic rules; "play starts with the player left of the dealer", UNO Showdown and UNO
  Mario Kart). A Reverse turns the direction; two Reverses cancel out.
* UNO Showdown: a coloured card with the showdown symbol starts a duel between its player
  and the *next* player in the direction of play, with as many cards as the symbol shows
  (1-3). A Wild Showdown lets its player choose any opponent and the number of cards (1, 2
  or 3). A player whose last card is a showdown card must win that duel to win the round:
  if they do not, they take the cards and play goes on.

* A duel named by hand (what a Wild Showdown's player chose, or any duel the table sets up
  itself) is between two different players of the table.

One module for every way in: the companion screen's Table view, the emulator's duel bar
(which takes the Table view's proposal) and the headless `uno-showdown duel` command (through
`CompanionApp`) all ask these functions, so they cannot disagree about who faces whom. A
typed name finds its player by the project's one name rule, `companion.table.names.name_key`.

Pure: names and values in, frozen values or a one-sentence `TurnError` out; no I/O, no
clock, no pygame.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from companion.table.names import name_key
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import N_, _
from showdown.contract.record import record

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # the protocols only describe: nothing checks them at run time

#: The cards a showdown symbol shows, and what a Wild Showdown's player may choose.
MIN_DUEL_CARDS = 1
MAX_DUEL_CARDS = 3


class TurnError(CompanionError):
    """A pairing or a turn that the seating or the rules do not allow; the message says why."""


class Direction(StrEnum):
    """Which way play goes round the table."""

    #: To the left, in seating order: how every deal starts.
    CLOCKWISE = "clockwise"
    #: To the right, against seating order: after an odd number of Reverses.
    COUNTERCLOCKWISE = "counterclockwise"

    @property
    def step(self) -> int:
        """+1 through the seating list clockwise, -1 against it."""
        return 1 if self is Direction.CLOCKWISE else -1

    def reversed(self) -> Direction:
        return (Direction.COUNTERCLOCKWISE if self is Direction.CLOCKWISE
                else Direction.CLOCKWISE)

    @property
    def label(self) -> str:
        """A few words for the table (translated when shown)."""
        return _(DIRECTION_LABELS[self])


DIRECTION_LABELS = {
    Direction.CLOCKWISE: N_("clockwise (to the left)"),
    Direction.COUNTERCLOCKWISE: N_("counter-clockwise (to the right)"),
}


def parse_direction(text: str) -> Direction:
    """A direction as people type it: clockwise/left/cw or counterclockwise/right/ccw."""
    key = "".join(ch for ch in text.strip().lower() if ch.isalnum())
    if key in ("clockwise", "cw", "left"):
        return Direction.CLOCKWISE
    if key in ("counterclockwise", "anticlockwise", "ccw", "right"):
        return Direction.COUNTERCLOCKWISE
    raise TurnError(
        _("{text!r} is not a direction of play: write clockwise or counterclockwise").format(
            text=text.strip())
    )


@record
class Seating:
    """The players round the table in clockwise order, and the way play goes now."""

    players: tuple[str, ...]
    direction: Direction = Direction.CLOCKWISE

    def find(self, name: str) -> str:
        """The player `name` as seated, found by `name_key` (any case, spaces squeezed, either
        way of writing an accent); TurnError if not seated."""
        key = name_key(name)
        for player in self.players:
            if name_key(player) == key:
                return player
        raise TurnError(
            _("there is no player {name!r} at this table: the players are {names}").format(
                name=name.strip(), names=", ".join(self.players))
        )

    def _check_table(self) -> None:
        if len(self.players) < 2:
            raise TurnError(_("a table needs two players before anyone can play next"))

    def after(self, name: str, steps: int = 1) -> str:
        """Who plays `steps` turns after `name` in the current direction."""
        self._check_table()
        at = self.players.index(self.find(name))
        return self.players[(at + steps * self.direction.step) % len(self.players)]

    def before(self, name: str) -> str:
        """Who played just before `name` in the current direction."""
        return self.after(name, -1)

    def others(self, name: str) -> tuple[str, ...]:
        """Everyone but `name`, in the order they play after them."""
        self._check_table()
        found = self.find(name)
        return tuple(self.after(found, i) for i in range(1, len(self.players)))

    def reversed(self) -> Seating:
        """The same table after a Reverse."""
        return Seating(self.players, self.direction.reversed())

    def left_of(self, name: str) -> str:
        """The player sitting to `name`'s left (the next one clockwise), whatever the direction."""
        return Seating(self.players).after(name)


# -- showdown duels -------------------------------------------------------------------------


@record
class DuelProposal:
    """A duel the rules call for: who played the showdown card, whom they face, how many
    cards are loaded. `wild` when a Wild Showdown let its player choose."""

    challenger: str
    opponent: str
    cards: int
    wild: bool = False


def _check_cards(cards: int) -> int:
    if isinstance(cards, bool) or not isinstance(cards, int) or not (
            MIN_DUEL_CARDS <= cards <= MAX_DUEL_CARDS):
        raise TurnError(
            _("a showdown puts {low} to {high} cards in the unit, not {n}: use the number "
              "the card shows").format(low=MIN_DUEL_CARDS, high=MAX_DUEL_CARDS, n=cards)
        )
    return cards


def showdown_card(seating: Seating, played_by: str, cards: int) -> DuelProposal:
    """A coloured showdown card played by `played_by`: they face the next player in the
    current direction, with the `cards` the symbol shows."""
    challenger = seating.find(played_by)
    return DuelProposal(challenger, seating.after(challenger), _check_cards(cards))


def wild_showdown(seating: Seating, played_by: str, opponent: str, cards: int) -> DuelProposal:
    """A Wild Showdown: its player chooses any other player and 1-3 cards."""
    challenger, chosen = _two_players(seating, played_by, opponent, _(
        "{name} played the Wild Showdown and cannot duel themselves: choose another player"))
    return DuelProposal(challenger, chosen, _check_cards(cards), wild=True)


def by_hand(seating: Seating, first: str, second: str) -> tuple[str, str]:
    """A duel the table names itself (`uno-showdown duel ANN BOB`): `first` against `second`,
    two different players of the table, as seated. The cards are the caller's: a unit
    launches what the table loads."""
    return _two_players(seating, first, second, _(
        "{name} cannot duel themselves: name two different players"))


def _two_players(seating: Seating, first: str, second: str, same: str) -> tuple[str, str]:
    one, other = seating.find(first), seating.find(second)
    if one == other:
        raise TurnError(same.format(name=one))
    seating._check_table()
    return one, other


# -- going out on a showdown card -----------------------------------------------------------


class StoredDuel(Protocol):
    """What the last-card rule reads of a recorded duel (the store's `DuelRow`)."""

    @property
    def after_round(self) -> int: ...

    @property
    def challenger(self) -> str: ...

    @property
    def opponent(self) -> str: ...

    @property
    def outcome(self) -> str: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def loser(self) -> str | None: ...


@record
class LastCardDuel:
    """How the duel on a player's last card went, and so whether their round stands.

    `duel` is the recorded duel that decided it (None when the table said how it went).
    `won`: the player won it and wins the round; otherwise they take the cards and play
    goes on, so no round is recorded.
    """

    player: str
    won: bool
    duel: StoredDuel | None = None

    @property
    def replay(self) -> bool:
        """The duel is to be played again: the unit judged it but never confirmed the launch
        (`launch_failed`), so nobody took the cards and nobody won."""
        return self.duel is not None and self.duel.outcome == LAUNCH_FAILED

    def message(self) -> str:
        """One sentence for the table when the round does not stand."""
        if self.won:
            return _("{name} won the duel on their last card and wins the round").format(
                name=self.player)
        outcome = self.duel.outcome if self.duel is not None else "faster"
        if outcome == LAUNCH_FAILED:
            text = _("the cards of the duel on {name}'s last card never flew, so nobody won it: "
                     "load them again and play the duel again, then record the round")
        elif outcome == "tie":
            # The stored duel does not say which tie rule the unit ran (--tie-policy), so
            # the sentence gives both: a replayed tie moved no cards, a split one did.
            text = _("the duel on {name}'s last card was a tie, so {name} has not won it: "
                     "where ties are played again, play the duel again; where ties are split, "
                     "{name} takes their share of the cards and play goes on; either way there "
                     "is no round to record yet")
        elif outcome == "timeout":
            text = _("nobody pressed in the duel on {name}'s last card, so {name} did not win "
                     "it: play goes on, with no round to record yet")
        else:
            text = _("{name} lost the duel on their last card: {name} takes the cards and "
                     "play goes on, with no round to record yet")
        return text.format(name=self.player)


#: The stored outcome of a duel judged whose launch the unit never confirmed (the contract's
#: `Outcome.LAUNCH_FAILED`): no cards credited, no win.
LAUNCH_FAILED = "launch_failed"


def round_duels(duels: Iterable[StoredDuel], round_index: int, player: str) -> list[StoredDuel]:
    """The duels `player` took part in during round `round_index` (0-based), in order."""
    return [d for d in duels if d.after_round == round_index and player in (
        d.challenger, d.opponent) and d.outcome != "aborted"]


def last_card_duel(player: str, duels: Sequence[StoredDuel], round_index: int,
                   said: bool | None = None) -> LastCardDuel:
    """Apply the last-card rule to `player`, who went out on a showdown card in round
    `round_index` (0-based).

    `said` is what the table says (True won, False lost), for a duel the unit did not
    record; None takes the duel just played: `player`'s last recorded duel of the round
    (going out is the round's last play, so its duel is the last one).
    """
    if said is not None:
        return LastCardDuel(player, bool(said))
    theirs = round_duels(duels, round_index, player)
    if not theirs:
        raise TurnError(
            _("no duel of {name}'s was recorded in this round: say whether {name} won the "
              "duel on their last card").format(name=player)
        )
    duel = theirs[-1]
    return LastCardDuel(player, duel.winner == player, duel)
