"""The table's helpers on the command line: `game house-rules`, `game rules`, `game direction`,
`game item`, `game first-card`, and the pieces `game new` and `game round` take from them.

The same pure rules the screen's Table and Rules views use (`companion.table.house_rules`,
`companion.table.turns`, `companion.table.items`, `companion.table.deal`): a table without a
screen gets the same answers. Bad input is one line and exit status 2, before anything is written.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from companion.deck import EDITION_KEYS
from showdown.contract.errors import CompanionError, ConfigError
from showdown.contract.i18n import _
from uno_showdown.commands.companion_open import opened, rules_line

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from companion.deck.cards import Card
    from companion.table.deal import DealerDraw
    from companion.table.game import Game

COLOURS = ("red", "yellow", "green", "blue", "wild")


def _add_house_rules(games: argparse._SubParsersAction, common: AddArguments,
                     with_game: AddArguments) -> None:
    p = common(games.add_parser(
        "house-rules",
        help=_("list the house rules a table can choose, with their keys")))
    p.add_argument("--edition", default="classic",
                   help=_("the deck: {choices}").format(choices=", ".join(EDITION_KEYS)))
    p.add_argument("--method", default="winner",
                   help=_("the scoring method (the championship fixes its rules)"))
    p.set_defaults(func=cmd_house_rules)


def _add_rules(games: argparse._SubParsersAction, common: AddArguments,
               with_game: AddArguments) -> None:
    p = with_game(games.add_parser("rules",
                         help=_("print the rule sheet in force: scoring, deck, house rules")))
    p.set_defaults(func=cmd_rules)


def _add_direction(games: argparse._SubParsersAction, common: AddArguments,
                   with_game: AddArguments) -> None:
    p = with_game(games.add_parser(
        "direction",
        help=_("show or set the direction of play in the round in play (a Reverse: reverse)")))
    p.add_argument("direction", nargs="?", metavar="DIRECTION",
                   help=_("clockwise, counterclockwise or reverse (default: show it)"))
    p.set_defaults(func=cmd_direction)


def _add_item(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = with_game(games.add_parser("item",
                         help=_("UNO Mario Kart: what the card turned by a Wild Item Box does")))
    p.add_argument("player", help=_("who played the Wild Item Box"))
    p.add_argument("colour", help=_("the turned card's colour: {choices}").format(
        choices=", ".join(COLOURS)))
    after = p.add_mutually_exclusive_group()
    after.add_argument("--after", metavar="CARD",
                       help=_("the card laid just before the Wild Item Box, e.g. wild+4: after "
                              "one that makes the next player miss their turn (Skip, Draw "
                              "Two, Wild Draw Four), whoever laid it played directly before"))
    after.add_argument("--after-skip", action="store_true",
                       help=_("the same as --after skip"))
    after.add_argument("--before", metavar="NAME",
                       help=_("who played directly before the Wild Item Box (after a jump-in, "
                              "say)"))
    p.set_defaults(func=cmd_item)


def _add_first_card(games: argparse._SubParsersAction, common: AddArguments,
                    with_game: AddArguments) -> None:
    p = with_game(games.add_parser("first-card",
                         help=_("who starts after the first card turned up in the round in play")))
    p.add_argument("card", help=_("the card, e.g. r5, grev, b+2, itembox"))
    p.set_defaults(func=cmd_first_card)


#: What gives an action's parser the options many actions share, and returns it:
#: `common` (`--db`, `--lang`) or `with_game` (those and `--game`). Functions, not parent
#: parsers: `parents=` builds each parent as a parser of its own and copies its options
#: over, which every `game` command paid for at start.
AddArguments = Callable[[argparse.ArgumentParser], argparse.ArgumentParser]

#: What adds one action's parser to `uno-showdown game`, given its subparsers and the
#: options' adders `common` and `with_game` (`AddArguments`).
AddAction = Callable[[argparse._SubParsersAction, AddArguments, AddArguments], None]

#: The helpers' actions of `uno-showdown game`, in the order its help lists them.
ACTIONS: dict[str, AddAction] = {
    "house-rules": _add_house_rules,
    "rules": _add_rules,
    "direction": _add_direction,
    "item": _add_item,
    "first-card": _add_first_card,
}


def add_new_game_arguments(p: argparse.ArgumentParser) -> None:
    """`game new`'s house rules and first dealer."""
    p.add_argument("--house-rule", action="append", default=[], metavar="RULE",
                   help=_("a house rule in force, as often as needed (see `game house-rules`)"))
    dealer = p.add_mutually_exclusive_group()
    dealer.add_argument("--first-dealer", metavar="NAME",
                        help=_("who deals the first round (default: the first player)"))
    dealer.add_argument("--draw", action="append", default=[], metavar='"NAME: CARDS"',
                        help=_('the draw for the first dealer, e.g. "Ann: r7": the highest '
                               "rank deals (action cards and wilds count 0); give every "
                               'player, and the tied players\' redraws after their first '
                               'card, e.g. "Ann: 9 4"'))


def add_round_arguments(p: argparse.ArgumentParser) -> None:
    """`game round`'s showdown on the last card."""
    p.add_argument("--showdown", nargs="?", const="recorded", choices=("recorded", "won", "lost"),
                   metavar="won|lost",
                   help=_("UNO Showdown: the winner went out on a showdown card, so the round "
                          "stands only if they won its duel; alone, the duel the unit just "
                          "recorded decides, or say won or lost"))
    p.add_argument("--last-draw", metavar="CARDS",
                   help=_("UNO Mario Kart: the winner's last card was a Draw Two or a Wild "
                          "Draw Four, so the next player drew these cards; they count in "
                          "that player's hand, e.g. \"r5 g7\""))


def with_last_draw(game: Game, winner: str | None, hands: dict[str, str],
                   points: dict[str, int], drawn: str | None) -> dict[str, str]:
    """The hands typed, with the cards the winner's last +2 or +4 made the next player draw
    added to that player's hand (seed 004: they still draw them, and they count)."""
    if drawn is None:
        return hands
    from companion.table.last_draw import last_draw  # a last +2 or +4 only
    from companion.table.names import name_key

    if winner is None:
        raise ConfigError(_("say who went out with --winner NAME"))
    cards = game.edition.parse_hand(_word(drawn), _("the cards drawn for the last card"))
    player, _cards = last_draw(game, winner, cards)
    if any(name_key(n) == name_key(player) for n in points):
        raise ConfigError(_("{name} drew for the last card: give {name}'s hand as cards, not "
                            "points, so the cards drawn are added").format(name=player))
    typed = next((n for n in hands if name_key(n) == name_key(player)), None)
    if typed is None:
        raise ConfigError(_("{name} drew for the last card: give {name}'s hand too, the "
                            "cards held before drawing (\"{name}: -\" for none)").format(
                                name=player))
    out = dict(hands)
    out[typed] = f"{hands[typed].strip().strip('-')} {_word(drawn)}"
    return out


def add_edit_arguments(p: argparse.ArgumentParser) -> None:
    """`game edit`'s mark of a round won on a showdown card."""
    p.add_argument("--showdown", choices=("yes", "no"),
                   help=_("UNO Showdown: whether the winner went out on a showdown card (and "
                          "won its duel); default: as the round was, if its winner stays"))


def edited_showdown(game: Game, number: int, winner: str | None, order: Sequence[str],
                    said: str | None) -> bool:
    """Whether a corrected round keeps the mark of a showdown card: as said, else as it was
    while the winner stays the same."""
    if said is not None:
        return said == "yes"
    if not 1 <= number <= len(game.rounds):
        return False  # the game model says there is no such round
    old = game.rounds[number - 1]
    new = order[0] if order else winner
    return old.showdown_out and new is not None and new.strip().casefold() == \
        old.winner.casefold()


def first_dealer(names: Sequence[str], draws: Sequence[str], chosen: str | None) -> str | None:
    """The first dealer `game new` was given: by name, or by the highest-card draw."""
    if not draws:
        return chosen
    from companion.table.deal import highest_card, parse_draw

    ranks: dict[str, list[int]] = {}
    for entry in draws:
        name, sep, cards = entry.partition(":")
        if not sep or not name.strip() or not cards.split():
            raise ConfigError(
                _('cannot read {entry!r}: write a name, a colon and the cards drawn, e.g. '
                  '"Ann: r7"').format(entry=entry))
        ranks[name.strip()] = [parse_draw(c) for c in cards.replace(",", " ").split()]
    result = highest_card([n.strip() for n in names], ranks)
    if result.dealer is None:
        raise ConfigError(_draw_message(result))
    return result.dealer


def _draw_message(result: DealerDraw) -> str:
    if result.tied_on is None:
        return _("the draw for the first dealer needs every player's card: give {names} "
                 "with --draw").format(names=", ".join(result.waiting))
    return _("{names} tied on {rank}, so they draw again: add their next card to their "
             "--draw").format(names=", ".join(result.contenders), rank=result.tied_on)


def showdown_said(value: str | None) -> tuple[bool, bool | None]:
    """`--showdown` as `record_round` takes it: (went out on one, what the table said)."""
    if value is None:
        return False, None
    return True, {"recorded": None, "won": True, "lost": False}[value]


# -- the commands -------------------------------------------------------------------------


def _word(value: object) -> str:
    """A positional argument as typed (argparse hands `-- --` over as an empty list)."""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value) if value is not None else ""


def cmd_house_rules(args: argparse.Namespace) -> int:
    from companion.deck.editions import BLANK_VALUE, edition_key
    from companion.scoring import parse_method
    from companion.table import house_rules as house

    try:
        edition = edition_key(args.edition)
        method = parse_method(args.method)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    rules = house.offered(edition, method.key)
    if not rules:
        print(_("«{method}» plays by its regulation's rules: no house rule can be chosen "
                "(see `game rules`).").format(method=_(method.label)))
        return 0
    width = max(len(r.key) for r in rules)
    for rule in rules:
        notes = []
        if rule.requires:
            notes.append(_("needs {keys}").format(keys=", ".join(rule.requires)))
        if rule.excludes:
            notes.append(_("not with {keys}").format(keys=", ".join(rule.excludes)))
        if rule.key == "blank_plus_ten":
            notes.append(_("a blank left in a hand is worth {points}, our choice: the seed "
                           "gives none; blank_worth=N sets it").format(points=BLANK_VALUE))
        note = f" ({'; '.join(notes)})" if notes else ""
        print(f"{rule.key.ljust(width)}  {_(rule.title)}{note}")
    return 0


def sheet_lines(game: Game) -> list[str]:
    """The rule sheet as text: scoring, the regulation or the deck's rules, the house rules."""
    from companion.table import house_rules as house
    from companion.table.seed_rules import scoring_sources

    drawn = house.sheet(game.edition_key, game.rules.method.key, game.house_rules)
    sources = scoring_sources(game.rules.method.key, game.rules.modifiers, game.edition_key)
    lines = [_("Scoring: {rules}.").format(rules=rules_line(game))
             + "".join(f" [{s.label()}]" for s in sources)]

    def section(title: str, rules: Sequence[house.SheetRule | house.HouseRule]) -> None:
        lines.extend(["", title])
        for rule in rules:
            lines.append(f"* {_(rule.title)}: {_(rule.text)} [{rule.source.label()}]")

    if drawn.regulation:
        section(_("The championship's regulation (rule 2.4):"), drawn.regulation)
    if drawn.deck:
        section(f"{game.edition.title}:", drawn.deck)
    if drawn.regulation and game.edition_key != "classic":
        lines.extend(["", _(house.DIRECTORS_DECK).format(deck=game.edition.title)])
    if drawn.chosen:
        section(_("House rules in force:"), drawn.chosen)
        lines.extend(f"* {title}: {text} [{source.label()}]"
                     for title, text, source in drawn.settings())
    elif not drawn.regulation:
        lines.extend(["", _("House rules in force: none.")])
    if drawn.not_chosen:
        lines.extend(["", _("Not in force: {titles}.").format(
            titles=", ".join(_(r.title) for r in drawn.not_chosen))])
    return lines


def cmd_rules(args: argparse.Namespace) -> int:

    with opened(args) as app:
        assert app.game is not None
        print("\n".join(sheet_lines(app.game)))
        return 0


def cmd_direction(args: argparse.Namespace) -> int:
    from companion.table.turns import parse_direction

    with opened(args) as app:
        game = app.game
        assert game is not None
        if args.direction is not None:
            word = _word(args.direction).strip().lower()
            if word == "reverse":
                app.reverse()
            else:
                app.set_direction(parse_direction(word))
        assert app.game is not None
        print(_("Round {n}: play goes {direction}.").format(
            n=len(app.game.rounds) + 1, direction=app.game.direction.label))
        return 0


def _card_before(game: Game, word: str) -> Card:
    """The card laid before a Wild Item Box as typed: a card of the deck (wild+4, gskip),
    or a coloured card's face alone (skip, +2), whose colour does not matter here."""
    from companion.deck.cards import CardError, parse_card

    try:
        card = parse_card(word)
    except CardError:
        try:
            card = parse_card("r" + word.strip())
        except CardError:
            raise ConfigError(_("{word!r} is not a card: give the card laid before the Wild "
                                "Item Box, e.g. --after wild+4 or --after skip").format(
                                    word=word.strip())) from None
    game.edition.check((card,), _("the card before the Wild Item Box"))
    return card


def cmd_item(args: argparse.Namespace) -> int:
    from companion.deck.cards import Colour
    from companion.table.items import (
        ONLY_THE_ITEM,
        colour_to_follow,
        describe,
        reveal,
        seat_guess,
    )
    from companion.table.miss_turn import faces_in

    colour_word = _word(args.colour).strip().lower()
    colours = dict(zip(COLOURS, [*Colour, None], strict=True))
    if colour_word not in colours:
        raise ConfigError(_("{colour!r} is not a card colour: choose {choices}").format(
            colour=_word(args.colour), choices=", ".join(COLOURS)))
    with opened(args) as app:
        game = app.game
        assert game is not None
        if game.edition_key != "mario-kart":
            raise ConfigError(_("only UNO Mario Kart has the Wild Item Box: this game is played "
                               "with {edition}").format(edition=game.edition.title))
        after_word = "skip" if args.after_skip else args.after
        after = None if after_word is None else _card_before(game, _word(after_word))
        effect = reveal(game.seating, _word(args.player), colours[colour_word],
                        after=after,
                        before=None if args.before is None else _word(args.before))
        print(f"{effect.item.label}: " + " ".join(describe(effect)))
        guess = seat_guess(effect, faces_in(game.edition.cards()))
        if guess is not None:
            print(guess + " " + _("Say so with --after CARD or --before NAME."))
        print(colour_to_follow(effect))
        print(_(ONLY_THE_ITEM))
        return 0


def cmd_first_card(args: argparse.Namespace) -> int:
    from companion.table.deal import describe_opening

    with opened(args) as app:
        game = app.game
        assert game is not None
        card = game.edition.parse_hand(_word(args.card), _("the first card"))
        if len(card) != 1:
            raise ConfigError(_("give the one card turned up first, e.g. r5"))
        opening = app.opening(card[0])
        source = "" if opening.source is None else f" [{opening.source.label()}]"
        print(" ".join(describe_opening(opening)) + source)
        return 0
