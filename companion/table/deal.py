"""Starting a deal: who deals first, and what the first card turned up means for who starts.

**The first dealer** (UNO Mario Kart): every player draws a card; whoever drew the highest
rank deals first, every action card (wilds included) counting as 0. The rules do not say
what happens on a tie; as tables do, the tied players draw again until one is highest. A
table may also simply say who deals.

**The first card**, turned up to start the discard pile, differs by deck:

* UNO Mario Kart: a Wild Draw Four is shuffled back and another card turned (the game cannot
  start with one); a Wild Item Box lets the dealer choose the colour the first player must
  match; a Reverse lets the dealer play first, and play goes to the right; a Draw Two makes
  the player left of the dealer draw two and miss the turn; a Skip skips that player.
* UNO Teams: an action card's effect is ignored and another card is turned.
* Classic UNO (also UNO Showdown and UNO H2O): the first card can only be a number; any
  other is put back and the next card turned. With the `first_card_action` house rule the
  action applies instead, as in UNO Mario Kart.
* The championship (rule 2.3), whatever deck the director chose: "the first card can only be
  a number card", so a Mario Kart deck's Reverse turned up first is put back too.

Which of these holds is decided in one place, `first_card_rule`, from the method, the deck
and the house rules, and it names the sheet's rule it follows, so the helper's answer and
the sheet (`game rules`) cannot disagree.

"The player left of the dealer" is whoever would start (`starter`): the method may say
another player starts (the lazy count's winner), and the first card acts on them.

Pure: cards and names in, frozen values out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.deck.cards import Card, CardError, parse_card
from companion.table.house_rules import HOUSE_RULES, regulated
from companion.table.rule_sources import Source
from companion.table.seed_rules import DECK_RULES, SEED_000, SheetRule
from companion.table.turns import Direction, Seating, TurnError
from showdown.contract.i18n import _

#: Editions whose first card's action applies by their own rules.
ACTION_APPLIES = frozenset({"mario-kart"})
#: Editions whose rules turn another card over an action card (its effect ignored).
ACTION_IGNORED = frozenset({"teams"})
#: The house rule that makes the first card's action apply in the other editions.
FIRST_CARD_ACTION = "first_card_action"


def draw_rank(card: Card) -> int:
    """A card's rank in the draw for the first dealer: a number's face, any other card 0."""
    return int(card.face) if card.is_number else 0


def parse_draw(text: str) -> int:
    """One drawn card as typed: a rank 0-9, or a card in the notation (r7, gskip, wild)."""
    word = text.strip()
    if word.isdecimal() and len(word) == 1:
        return int(word)
    try:
        return draw_rank(parse_card(word))
    except CardError:
        raise TurnError(
            _("{text!r} is not a drawn card: write a rank 0-9 or a card such as r7 or "
              "gskip").format(text=word)
        ) from None


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """Where the draw for the first dealer stands.

    `dealer` once one player drew highest. Until then `contenders` are the players still in
    the draw (everyone at first, then those tied on the highest rank), `waiting` those of
    them who have not drawn their card number `turn + 1` yet, and `tied_on` the rank the
    contenders tied on (None before the first draw is complete).
    """

    dealer: str | None
    contenders: tuple[str, ...]
    waiting: tuple[str, ...] = ()
    tied_on: int | None = None
    turn: int = 0


def highest_card(players: Sequence[str], draws: Mapping[str, Sequence[int]]) -> DealerDraw:
    """Resolve the draw: `draws` holds each player's ranks in the order they drew them.

    Everyone draws once; the players tied on the highest rank draw again, and so on.
    A player who drew more cards than the ties called for, or who is not at the table, is
    an error (a typing slip), never silently ignored.
    """
    known = {p.casefold(): p for p in players}
    ranks: dict[str, list[int]] = {}
    for name, drawn in draws.items():
        player = known.get(" ".join(name.split()).casefold())
        if player is None:
            raise TurnError(
                _("there is no player {name!r} at this table: the players are {names}").format(
                    name=name.strip(), names=", ".join(players))
            )
        for rank in drawn:
            if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank <= 9:
                raise TurnError(_("a drawn card ranks 0 to 9, not {rank}").format(rank=rank))
        ranks[player] = list(drawn)
    contenders = tuple(players)
    turn = 0
    tied_on: int | None = None
    while True:
        _check_no_extra(ranks, contenders, turn)
        waiting = tuple(p for p in contenders if len(ranks.get(p, ())) <= turn)
        if waiting:
            return DealerDraw(None, contenders, waiting, tied_on, turn)
        best = max(ranks[p][turn] for p in contenders)
        leaders = tuple(p for p in contenders if ranks[p][turn] == best)
        if len(leaders) == 1:
            _check_no_extra(ranks, (), turn + 1)
            return DealerDraw(leaders[0], leaders, (), None, turn)
        contenders, turn, tied_on = leaders, turn + 1, best


def _check_no_extra(ranks: Mapping[str, Sequence[int]], still_drawing: Collection[str],
                    turn: int) -> None:
    """Only players still in the draw may have drawn a card number `turn + 1` or later."""
    for player, drawn in ranks.items():
        if player not in still_drawing and len(drawn) > turn:
            raise TurnError(
                _("{name} was not tied for the highest card, so drew no card number {n}: "
                  "take it out").format(name=player, n=turn + 1)
            )


# -- the first card -------------------------------------------------------------------------


class FirstCardEffect(StrEnum):
    """What the first card turned up does."""

    NONE = "none"  # a number: the deal starts as usual
    TURN_ANOTHER = "turn_another"  # not allowed first: back into the deck, turn the next
    RESHUFFLE = "reshuffle"  # a Wild Draw Four (Mario Kart): shuffled back, turn again
    DEALER_COLOUR = "dealer_colour"  # a wild: the dealer names the colour to match
    DEALER_STARTS = "dealer_starts"  # a Reverse: the dealer plays first, to the right
    DRAW_TWO = "draw_two"  # the first player draws two and misses the turn
    SKIP = "skip"  # the first player misses the turn


@dataclass(frozen=True, slots=True)
class Opening:
    """Who starts after the first card, in which direction, and what happens first.

    `starter` is None when the card must be replaced (turn another). `hit` is the player
    a Draw Two or Skip acts on.
    """

    card: Card
    effect: FirstCardEffect
    starter: str | None
    direction: Direction = Direction.CLOCKWISE
    hit: str | None = None
    dealer: str = ""
    #: Whose rule the answer follows (the sheet's rule on the first card).
    source: Source | None = None


def _deck_rule(edition: str) -> SheetRule:
    """The deck's own sheet rule on the first card (each deck's table has one)."""
    return next(r for r in DECK_RULES[edition] if "first card" in r.title)


def first_card_rule(edition: str, house_rules: Collection[str],
                    method: str = "") -> tuple[bool | None, Source]:
    """What the first card does in this game, and whose rule that is: True, its action
    applies; False, only a number may start (another card is turned); None, an action
    card's effect is ignored and another card turned (Teams). The championship's rule 2.3
    comes first, whatever the deck; then the deck's own rule, unless the table chose the
    `first_card_action` house rule where the deck allows it."""
    if regulated(method):
        return False, SEED_000[0].source
    if edition in ACTION_APPLIES:
        return True, _deck_rule(edition).source
    if edition in ACTION_IGNORED:
        return None, _deck_rule(edition).source
    if FIRST_CARD_ACTION in house_rules:
        return True, HOUSE_RULES[FIRST_CARD_ACTION].source
    return False, _deck_rule(edition).source


def action_applies(edition: str, house_rules: Collection[str],
                   method: str = "") -> bool | None:
    """`first_card_rule` without its source."""
    return first_card_rule(edition, house_rules, method)[0]


def first_card(edition: str, house_rules: Collection[str], card: Card, dealer: str,
               starter: str, players: Sequence[str], method: str = "") -> Opening:
    """What `card`, turned up first in a deal `dealer` dealt, means for who starts, under
    the game's scoring `method` (the championship's 2.3 holds whatever the deck).

    `starter` is who would start after a number card; `players` is the seating.
    """
    seating = Seating(tuple(players))
    dealer, starter = seating.find(dealer), seating.find(starter)
    applies, source = first_card_rule(edition, house_rules, method)
    if card.is_number:
        return Opening(card, FirstCardEffect.NONE, starter, dealer=dealer, source=source)
    if not applies:
        return Opening(card, FirstCardEffect.TURN_ANOTHER, None, dealer=dealer, source=source)
    if card.face in ("wild+4", "team+4"):
        return Opening(card, FirstCardEffect.RESHUFFLE, None, dealer=dealer, source=source)
    if card.is_wild:
        return Opening(card, FirstCardEffect.DEALER_COLOUR, starter, dealer=dealer,
                       source=source)
    if card.face == "rev":
        # the player before the usual starter (the dealer) plays first, to the right
        reversed_seating = Seating(tuple(players), Direction.COUNTERCLOCKWISE)
        return Opening(card, FirstCardEffect.DEALER_STARTS, reversed_seating.after(starter),
                       Direction.COUNTERCLOCKWISE, dealer=dealer, source=source)
    effect = FirstCardEffect.DRAW_TWO if card.face == "+2" else FirstCardEffect.SKIP
    return Opening(card, effect, seating.after(starter), hit=starter, dealer=dealer,
                   source=source)


def describe_opening(opening: Opening) -> list[str]:
    """The opening in a sentence or two, naming the players."""
    effect = opening.effect
    if effect is FirstCardEffect.NONE:
        return [_("{name} starts, and play goes to the left.").format(name=opening.starter)]
    if effect is FirstCardEffect.TURN_ANOTHER:
        return [_("This card cannot start the deal: put it back into the deck and turn the "
                  "next card.")]
    if effect is FirstCardEffect.RESHUFFLE:
        return [_("The game cannot start with a Wild Draw Four: shuffle it back into the deck "
                  "and turn another card.")]
    if effect is FirstCardEffect.DEALER_COLOUR:
        return [_("{dealer} (the dealer) chooses the colour {name} must match.").format(
                    dealer=opening.dealer, name=opening.starter),
                _("{name} starts, and play goes to the left.").format(name=opening.starter)]
    if effect is FirstCardEffect.DEALER_STARTS:
        return [_("{name} plays first, and play goes to the right.").format(
            name=opening.starter)]
    if effect is FirstCardEffect.DRAW_TWO:
        return [_("{hit} draws 2 cards and misses the turn.").format(hit=opening.hit),
                _("{name} starts, and play goes to the left.").format(name=opening.starter)]
    return [_("{hit} is skipped.").format(hit=opening.hit),
            _("{name} starts, and play goes to the left.").format(name=opening.starter)]
