"""The decks a table can play with: which cards they hold, how many, and their worth.

Counts come from the rules digest: in every edition each colour has one 0, two each of 1-9
and two each of Skip, Reverse and Draw Two (100 coloured cards). The wild cards differ:

* classic: 4 Wild, 4 Wild Draw Four (108 cards);
* showdown: classic plus 4 Wild Showdown (112). The showdown symbol printed on 20 coloured
  cards does not change their value, so the notation does not mark it;
* mario kart: 4 Wild Draw Four, 8 Wild Item Box (112);
* teams: the rules only say the wilds include Wild Team Draw Four and Wild Team Play, and the
  seed's worked example scores Wild, Wild Team Draw Four and Wild Team Play. ASSUMPTION: 4 Wild,
  4 Wild Team Draw Four, 4 Wild Team Play, and no plain Wild Draw Four (112 cards).
* h2o: seed 001 names the UNO H2O deck's «+1» and «Wild +2» («Зміна кольору і +2 карти»)
  for its H2O scoring rule, but not how many there are. ASSUMPTION: classic plus 4 `wild+1`
  and 4 `wild+2` (116 cards); a table whose deck differs types its hands as points.

The classic deck also has 4 blank cards beside its 108 (seed 001: "spare blank cards, of
which the deck has 4", played as +10 under the `blank_plus_ten` house rule). They are spares,
not counted in the deck's size, but a hand may hold them. What a blank does in play (the next
player takes 10) is the seed's; what one left in a hand is worth it does not say, so that is
our choice and a setting of the house rule (`blank_worth=N`, `companion.table.house_rules`):
by default `BLANK_VALUE`, 50, as the seed values the black action cards, which a +10 card
is. `game rules` and `game house-rules` print both, each with whose word it is.

Values: a number is its face value; Skip, Reverse, Draw Two are 20; Wild Showdown is 40; every
other wild card is 50 (seed 001: the black action cards are worth 50, and the H2O cards are
black cards too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache, cached_property
from types import MappingProxyType

from companion.deck.cards import COLOURED_FACES, Card, CardError, Colour, parse_cards
from showdown.contract.i18n import _
from showdown.contract.record import field, record

#: A blank card (played as +10) left in a hand: the seed gives no value, so the default
#: is ours (the house rule's `blank_worth` setting changes it).
BLANK = Card("blank")
BLANK_VALUE = 50

#: How many of each coloured face every edition holds, in each colour: one 0, two of the rest.
_COLOURED_COPIES: Mapping[str, int] = MappingProxyType(
    {face: 1 if face == "0" else 2 for face in COLOURED_FACES})


def card_value(card: Card, blank_value: int = BLANK_VALUE) -> int:
    """What a card left in hand is worth when a round is scored (a blank: `blank_value`)."""
    if card == BLANK:
        return blank_value
    if card.is_number:
        return int(card.face)
    if card.is_action:
        return 20
    if card.face == "showdown":
        return 40
    return 50


@cache
def _coloured() -> Mapping[Card, int]:
    """The 100 coloured cards every edition holds, made once for all five, when a deck's
    cards are first listed (opening a game and showing it lists none)."""
    return MappingProxyType({Card(face, colour): n for colour in Colour
                             for face, n in _COLOURED_COPIES.items()})


@record(slots=False)  # its own __dict__: `counts` is made when first asked for, and kept
class Edition:
    """A deck: every card face it holds and how many copies of each. The coloured cards
    are every edition's; what tells decks apart is their wild cards (by face) and spares."""

    key: str
    title: str
    wilds: Mapping[str, int]
    #: Cards beside the deck's own (the classic deck's blank cards): not in its size.
    spares: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))

    @cached_property
    def counts(self) -> Mapping[Card, int]:
        """Every card face the deck holds and how many, colour by colour, then the wilds
        (made when asked for: a command that only names the deck builds none of its cards)."""
        counts = dict(_coloured())
        counts.update({Card(face): n for face, n in self.wilds.items()})
        return MappingProxyType(counts)

    def cards(self) -> tuple[Card, ...]:
        """Every distinct card in deck order: colour by colour, then the wilds, the spares."""
        return (*self.counts, *self.spares)

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    def copies(self, card: Card) -> int:
        """How many of `card` the box holds (0: none); read from what makes `counts`, so
        checking a hand builds no deck."""
        if card.colour is not None:
            have = _COLOURED_COPIES.get(card.face, 0)
        else:
            have = self.wilds.get(card.face, 0)
        return have or self.spares.get(card, 0)

    def holds(self, card: Card) -> bool:
        return self.copies(card) > 0

    def value(self, card: Card) -> int:
        return card_value(card)

    def check(self, cards: Iterable[Card], whose: str | None = None, *,
              whole_round: bool = False) -> None:
        """Raise CardError if a card is not in this deck or appears more often than it has.

        `whose` is the player the cards belong to; `whole_round` says the cards are every
        hand of a round together; with neither, they are just cards someone typed. Each
        case has its own sentence, so none reads "the cards has".
        """
        counted = Counter(cards)
        for card, n in counted.items():
            have = self.copies(card) or None
            if have is None:
                if whose is None:
                    msg = _("{card} is not a card of the {edition} edition: "
                            "check the cards or the edition")
                else:
                    msg = _("{card} is not a card of the {edition} edition: "
                            "check {whose} or the game's edition")
                raise CardError(msg.format(card=card.code, edition=self.key, whose=whose))
            if n > have:
                if whose is not None:
                    msg = _("{whose} has {n} × {card} but the {edition} deck holds only "
                            "{have}: check the cards")
                elif whole_round:
                    msg = _("the hands of this round hold {n} × {card} but the {edition} "
                            "deck has only {have}: check the hands")
                else:
                    msg = _("{n} × {card} is more than the {edition} deck holds ({have}): "
                            "check the cards")
                raise CardError(msg.format(whose=whose, n=n, card=card.code,
                                           edition=self.key, have=have))

    def parse_hand(self, text: str, whose: str | None = None) -> tuple[Card, ...]:
        """Read a hand in the card notation and check it against this deck."""
        cards = parse_cards(text)
        self.check(cards, whose)
        return cards


def _edition(key: str, title: str, wilds: dict[str, int],
             spares: dict[Card, int] | None = None) -> Edition:
    return Edition(key, title, MappingProxyType(wilds), MappingProxyType(spares or {}))


EDITIONS: Mapping[str, Edition] = MappingProxyType({
    e.key: e
    for e in (
        _edition("classic", "UNO", {"wild": 4, "wild+4": 4}, {BLANK: 4}),
        _edition("showdown", "UNO Showdown", {"wild": 4, "wild+4": 4, "showdown": 4}),
        _edition("mario-kart", "UNO Mario Kart", {"wild+4": 4, "itembox": 8}),
        _edition("teams", "UNO Teams", {"wild": 4, "team+4": 4, "teamplay": 4}),
        _edition("h2o", "UNO H2O", {"wild": 4, "wild+4": 4, "wild+1": 4, "wild+2": 4}),
    )
})


def edition_key(name: str) -> str:
    """Normalise how people type an edition name: `Mario Kart`, `mario_kart`, `mariokart`."""
    key = "".join(ch for ch in name.strip().lower() if ch.isalnum())
    for known in EDITIONS:
        if key == known.replace("-", ""):
            return known
    raise CardError(
        _("unknown edition {name!r}: choose one of {choices}").format(
            name=name, choices=", ".join(EDITIONS)
        )
    )


def get_edition(name: str) -> Edition:
    return EDITIONS[edition_key(name)]
