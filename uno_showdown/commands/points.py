"""`uno-showdown points`: add up the value of cards, as the rules count them.

Kept apart from the `game` commands so adding up a hand loads only the card model, not
the games file's code: it is the command a table types most often.
"""

from __future__ import annotations

import argparse

from companion.deck.editions import EDITIONS, get_edition
from companion.scoring.options import OPTIONS
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _
from uno_showdown.commands.common import add_common_options


def register(sub: argparse._SubParsersAction) -> None:
    """Add `points` to `uno-showdown`."""
    p = sub.add_parser("points")
    add_common_options(p)  # not as a parent parser, which would be built (and measured) apart
    p.add_argument("--edition", required=True,
                   help=_("the deck: {choices}").format(choices=", ".join(EDITIONS)))
    p.add_argument("--option", action="append", default=[], metavar="OPTION",
                   help=_("a scoring option: {choices}").format(choices=", ".join(OPTIONS)))
    p.add_argument("--blank-worth", type=int, default=None, metavar="N",
                   help=_("what a blank card left in a hand counts (default 50, our choice: "
                          "the seed gives none)"))
    p.add_argument("cards", nargs="+", metavar="CARD", help=_("cards, e.g. r5 gskip wild"))
    p.set_defaults(func=cmd_points)


def cmd_points(args: argparse.Namespace) -> int:
    from companion.deck.cards import CardError, parse_cards
    from companion.deck.editions import BLANK, BLANK_VALUE
    from companion.scoring.options import card_total, parse_option

    try:
        edition = get_edition(args.edition)
        cards = parse_cards(" ".join(args.cards))
        edition.check(cards)
        options = {parse_option(o) for o in args.option}
    except (CardError, CompanionError) as exc:
        from showdown.contract.events import ConfigError

        raise ConfigError(str(exc)) from None
    worth = BLANK_VALUE if args.blank_worth is None else args.blank_worth
    if not 0 <= worth <= 500:
        from showdown.contract.events import ConfigError

        raise ConfigError(_("--blank-worth takes 0 to 500 points, not {n}").format(n=worth))
    print(card_total(cards, options, worth))
    blanks = cards.count(BLANK)
    if blanks:  # "+10" is how the blank is played, not a card of its own: say so
        print(_("{n} × blank (typed blank or +10): a blank card, played as +10 under the "
                "blank_plus_ten house rule; left in a hand it counts {points}, our choice, "
                "since the seed gives it no value (--blank-worth N)").format(
                    n=blanks, points=worth))
    return 0
