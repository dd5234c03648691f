"""UNO Mario Kart's Wild Item Box: which item a revealed card gives, and whom it hits.

From the UNO Mario Kart rules: when a Wild Item Box is played, the top card of the draw pile
is turned over onto the discard pile and the item printed on it acts at once. Every red card
shows a mushroom, every yellow one a banana peel, every green one a green shell, every blue
one a lightning bolt, and every wild card a Bob-omb. The items:

* Mushroom: whoever played the Wild Item Box takes another turn at once (drawing as usual
  if they have nothing to play).
* Banana peel: the person who played directly before them must draw two cards. That is
  whoever actually laid the card before the Wild Item Box: after a card that makes the next
  player miss their turn (every card of `companion.table.miss_turn`'s one table: Skip, Draw
  Two, Wild Draw Four, Wild Team Draw Four) it is the one who laid it, two seats back, not
  the player who missed the turn; after a jump-in it is whoever jumped in. The turn helper
  knows the seating and the direction, so without a word from the table it names the
  previous seat; the table corrects it by naming the card before (`after`) or the player
  (`named`), and the answer says which of the three it went by.
* Green shell: they choose one opponent, who must draw one card.
* Lightning: everybody else at the table draws one card, and they take another turn.
* Bob-omb: they draw two cards themselves and choose the colour to be played next.

The colour to follow: the seed names it only for the Bob-omb (the Item Box player chooses).
After the other items, our inference: the turned card lies on top of the discard pile, so
its colour is followed (`colour_to_follow`).

The turned card's own action (Draw Two, Skip, Reverse, Wild Draw Four) does not happen:
only its item acts.

Pure: the colour of the turned card and the seating in, an `ItemEffect` naming the players
out; `describe` puts it into sentences for the screen and the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.deck.cards import Card, Colour
from companion.table.miss_turn import misses_turn, names
from companion.table.turns import Seating
from showdown.contract.i18n import N_, _


class Item(StrEnum):
    MUSHROOM = "mushroom"
    BANANA = "banana"
    GREEN_SHELL = "green_shell"
    LIGHTNING = "lightning"
    BOB_OMB = "bob_omb"

    @property
    def label(self) -> str:
        return _(ITEM_LABELS[self])


ITEM_LABELS = {
    Item.MUSHROOM: N_("Mushroom"),
    Item.BANANA: N_("Banana peel"),
    Item.GREEN_SHELL: N_("Green shell"),
    Item.LIGHTNING: N_("Lightning"),
    Item.BOB_OMB: N_("Bob-omb"),
}

#: The item printed on every card of a colour; None is the wild cards.
ITEM_OF_COLOUR: dict[Colour | None, Item] = {
    Colour.RED: Item.MUSHROOM,
    Colour.YELLOW: Item.BANANA,
    Colour.GREEN: Item.GREEN_SHELL,
    Colour.BLUE: Item.LIGHTNING,
    None: Item.BOB_OMB,
}


@dataclass(frozen=True, slots=True)
class ItemEffect:
    """What an item does at this table: who draws how many, who plays again, who chooses.

    `draws` are fixed draws (player, cards). `choose_from` are the players one of whom
    `played_by` chooses to draw `chosen_draws` cards (the green shell). `plays_again`:
    `played_by` takes another turn. `chooses_colour`: `played_by` names the next colour.
    """

    item: Item
    played_by: str
    draws: tuple[tuple[str, int], ...] = ()
    choose_from: tuple[str, ...] = ()
    chosen_draws: int = 0
    plays_again: bool = False
    chooses_colour: bool = False
    #: Banana peel: how its victim was found: "seat" (the previous seat, the turn helper's
    #: guess), "card" (the card before made someone miss their turn), "named" (the table said).
    before_by: str = ""


def item_of(colour: Colour | None) -> Item:
    """The item on a card of `colour` (None: a wild card)."""
    return ITEM_OF_COLOUR[colour]


def played_before(seating: Seating, played_by: str, *, after: Card | None = None,
                  named: str | None = None) -> tuple[str, str]:
    """Who played directly before `played_by`, and how that was found (see `ItemEffect`):
    `named` when the table says who; after a card that makes the next player miss their
    turn (`after`), whoever laid it, two seats back in the direction of play (with two
    players that is `played_by` themself: they laid it and played again); otherwise the
    previous seat in the direction of play."""
    player = seating.find(played_by)
    if named is not None:
        return seating.find(named), "named"
    if after is not None and misses_turn(after):
        return seating.after(player, -2), "card"
    return seating.after(player, -1), "seat"


def reveal(seating: Seating, played_by: str, colour: Colour | None, *,
           after: Card | None = None, before: str | None = None) -> ItemEffect:
    """The effect of the card turned over for `played_by`'s Wild Item Box, of `colour`.
    `after` (the card laid before the Item Box) and `before` (who laid it) say who played
    directly before (see `played_before`)."""
    player = seating.find(played_by)
    item = item_of(colour)
    if item is Item.MUSHROOM:
        return ItemEffect(item, player, plays_again=True)
    if item is Item.BANANA:
        last, how = played_before(seating, player, after=after, named=before)
        return ItemEffect(item, player, draws=((last, 2),), before_by=how)
    if item is Item.GREEN_SHELL:
        return ItemEffect(item, player, choose_from=seating.others(player), chosen_draws=1)
    if item is Item.LIGHTNING:
        return ItemEffect(item, player, draws=tuple((p, 1) for p in seating.others(player)),
                          plays_again=True)
    return ItemEffect(item, player, draws=((player, 2),), chooses_colour=True)


def describe(effect: ItemEffect) -> list[str]:
    """The effect in a sentence or two, naming the players."""
    name = effect.played_by
    item = effect.item
    if item is Item.MUSHROOM:
        return [_("{name} takes another turn at once (and draws as usual if they have "
                  "nothing to play).").format(name=name)]
    if item is Item.BANANA:
        victim = effect.draws[0][0]
        if victim == name:
            return [_("{name} played just before their own Wild Item Box, so {name} draws 2 "
                      "cards.").format(name=name)]
        return [_("{victim}, who played just before {name}, draws 2 cards.").format(
            victim=victim, name=name)]
    if item is Item.GREEN_SHELL:
        return [_("{name} chooses one opponent to draw 1 card: {names}.").format(
            name=name, names=", ".join(effect.choose_from))]
    if item is Item.LIGHTNING:
        return [_("Everybody else draws 1 card: {names}.").format(
                    names=", ".join(p for p, _n in effect.draws)),
                _("Then {name} takes another turn.").format(name=name)]
    return [_("{name} draws 2 cards and chooses the colour to be played next.").format(
        name=name)]


def seat_guess(effect: ItemEffect, faces: tuple[str, ...]) -> str | None:
    """For a banana peel whose victim is only the previous seat (nobody said otherwise): a
    sentence saying so and what would change it, naming the deck's cards (`faces`) that make
    the next player miss their turn; None otherwise."""
    if effect.item is not Item.BANANA or effect.before_by != "seat":
        return None
    return _("{victim} is the seat before {name}; if the card before the Wild Item Box made "
             "someone miss their turn ({cards}), whoever laid it played directly before.").format(
                 victim=effect.draws[0][0], name=effect.played_by, cards=names(faces))


#: Said under every effect: the turned card's own action does not happen.
ONLY_THE_ITEM = N_("The turned card's own action (Draw Two, Skip, Reverse, Wild Draw Four) "
                   "does not happen: only its item acts.")


def colour_to_follow(effect: ItemEffect) -> str:
    """The colour the next card must match after the item, and whose word that is."""
    if effect.chooses_colour:
        return _("{name} chooses the colour to follow (seed 004, Items).").format(
            name=effect.played_by)
    return _("The colour to follow is the turned card's (our inference: seed 004 names the "
             "colour only for the Bob-omb).")
