"""The cards that make the next player miss their turn: one table for every helper.

Who "played directly before" a player is not always the seat before them: after a card that
makes the next player miss their turn, the one who missed it did not play, so whoever laid
that card played directly before (two seats back). The Item Box's banana peel (seed 004,
Items) hits that player, and the helpers that ask who played before list these cards by this
one table, so the command line, the screen and the sheet name the same cards:

* Skip: "the next player is skipped and cannot play a card" (seed 004, Action cards; seeds
  000, 001 and 002 say the same);
* Draw Two: the next player draws two "and passes their turn" (seed 004, Action cards;
  likewise 000, 001, 002);
* Wild Draw Four: the next player draws four "and passes their turn without playing a card"
  (seed 004, Action cards; likewise 000, 001, 002);
* Wild Team Draw Four: seed 003 names the card but not what it does; read as the Draw Four it
  is named after (our inference, listed in docs/rule-sources.md).

No other card of the decks the program knows makes a player miss a turn in the seeds' words
(a blank played as +10 makes the next player take ten, seed 001 says no more).

Pure: values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from companion.deck.cards import Card
from showdown.contract.i18n import N_, _

#: Each card face that makes the next player miss their turn, with its name for people.
MISSES_TURN: Mapping[str, str] = MappingProxyType({
    "skip": N_("Skip"),
    "+2": N_("Draw Two"),
    "wild+4": N_("Wild Draw Four"),
    "team+4": N_("Wild Team Draw Four"),
})


def misses_turn(card: Card) -> bool:
    """Whether `card`, laid, makes the next player miss their turn."""
    return card.face in MISSES_TURN


def faces_in(cards: Iterable[Card]) -> tuple[str, ...]:
    """The faces of the table found among `cards` (a deck's), in the table's order."""
    have = {c.face for c in cards}
    return tuple(face for face in MISSES_TURN if face in have)


def names(faces: Iterable[str]) -> str:
    """The cards' names for a sentence, translated: "Skip, Draw Two, Wild Draw Four"."""
    return ", ".join(_(MISSES_TURN[f]) for f in faces)
