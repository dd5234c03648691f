"""The compact card notation typed everywhere a hand is entered.

A coloured card is a colour letter (`r y g b`) and a face (`0`-`9`, `skip`, `rev`, `+2`):
`r5`, `gskip`, `y+2`. A wild card has no colour: `wild`, `wild+4`, `showdown` (Wild
Showdown), `itembox` (Wild Item Box), `team+4` (Wild Team Draw Four), `teamplay` (Wild Team
Play), `wild+1` (also `+1`) and `wild+2` (the UNO H2O deck's +1 and Wild +2), `blank` (also
`+10`: one of the classic deck's 4 blank cards, played as +10 under that house rule). Case does not
matter. Parsing knows nothing of editions; `editions.py` says which of
these cards a deck holds.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _
from showdown.contract.record import record


class CardError(CompanionError):
    """A card or hand that cannot be read, or that the chosen deck does not hold."""


class Colour(StrEnum):
    RED = "r"
    YELLOW = "y"
    GREEN = "g"
    BLUE = "b"


NUMBER_FACES = tuple(str(n) for n in range(10))
ACTION_FACES = ("skip", "rev", "+2")
COLOURED_FACES = NUMBER_FACES + ACTION_FACES
WILD_FACES = ("wild", "wild+4", "showdown", "itembox", "team+4", "teamplay", "wild+1", "wild+2",
              "blank")

#: Spellings people type that mean the same card face.
_ALIASES = {
    "reverse": "rev",
    "draw2": "+2",
    "d2": "+2",
    "w": "wild",
    "w+4": "wild+4",
    "wild4": "wild+4",
    "+4": "wild+4",
    "wildshowdown": "showdown",
    "item": "itembox",
    "team4": "team+4",
    "+1": "wild+1",
    "w+1": "wild+1",
    "wild1": "wild+1",
    "w+2": "wild+2",
    "wild2": "wild+2",
    "+10": "blank",
    "blank+10": "blank",
    "w+10": "blank",
    "wild+10": "blank",
}


@record(order=True)
class Card:
    """One card face; copies of a card are equal."""

    face: str
    colour: Colour | None = None

    @property
    def code(self) -> str:
        """The notation for this card, e.g. `r5`, `gskip`, `wild+4`."""
        return f"{self.colour.value}{self.face}" if self.colour else self.face

    @property
    def is_number(self) -> bool:
        return self.face in NUMBER_FACES

    @property
    def is_action(self) -> bool:
        return self.face in ACTION_FACES

    @property
    def is_wild(self) -> bool:
        return self.colour is None

    def __str__(self) -> str:
        return self.code


@lru_cache(maxsize=1024)
def parse_card(text: str) -> Card:
    """Read one card in the notation; raise CardError naming what could not be read."""
    key = text.strip().lower()
    key = _ALIASES.get(key, key)
    if key in WILD_FACES:
        return Card(key)
    if len(key) >= 2 and key[0] in "rygb":
        face = _ALIASES.get(key[1:], key[1:])
        if face in COLOURED_FACES:
            return Card(face, Colour(key[0]))
    raise CardError(
        _(
            "{text!r} is not a card: write a colour r/y/g/b with 0-9, skip, rev or +2 "
            "(e.g. r5, gskip, y+2), or wild, wild+4, showdown, itembox, team+4, teamplay, "
            "wild+1, wild+2, blank (+10)"
        ).format(text=text.strip())
    )


@lru_cache(maxsize=8192)
def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a hand: cards separated by spaces, commas or semicolons; `-` or nothing is an
    empty hand. Split by str methods, not a regular expression: compiling one costs a Pi
    more at every command's start than reading every hand of a long game."""
    words = [w for w in text.replace(",", " ").replace(";", " ").split() if w != "-"]
    return tuple(parse_card(w) for w in words)


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """The notation of a hand, the inverse of `parse_cards` (`-` for an empty hand)."""
    return " ".join(c.code for c in cards) if cards else "-"
