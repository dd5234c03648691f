"""`uno-showdown duel`: tell a running headless table who plays the next duel.

The table helper's two ways in, as on the screen's Table view:

* `uno-showdown duel --played-by ANN --cards 2`: Ann played a showdown card showing two
  cards; she faces the next player in the game's direction of play (the stored one: a
  Reverse from the screen or `uno-showdown game direction reverse` counts), at the left
  paddle, the opponent at the right.
* `uno-showdown duel ANN BOB --cards 2`: a Wild Showdown's choice, or any duel named by
  hand: Ann at the left paddle, Bob at the right.

Either way the verdict is credited to them. With `--seats` the next duel is for the paddles
only, credited to nobody (what the table does when nobody says). With no names and no
options it prints what comes next. It talks to the service over its local socket
(`uno_showdown.headless.duel_socket`); the names and who faces whom are checked there, by the rules'
own module (`companion.table.turns`), against the game the service keeps score of.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from showdown.contract.i18n import _
from uno_showdown.commands.common import add_lang


def register(sub: argparse._SubParsersAction) -> None:
    """Add `duel` to `uno-showdown`."""
    parser = sub.add_parser(
        "duel",
        description=_("Tell the table running headless (`uno-showdown run --headless`, or the "
                      "systemd service) who plays the next duel: with --played-by, the player "
                      "of a showdown card against the next player in the game's direction of "
                      "play; with two names (a Wild Showdown's choice, or by hand), the first "
                      "at the left paddle, the second at the right. The choice holds for that "
                      "one duel; afterwards duels are for the seats (left and right) and "
                      "credited to nobody, until players are named again. Without names or "
                      "options: show what comes next."),
    )
    parser.add_argument("players", nargs="*", metavar="NAME",
                        help=_("two players of the game the table keeps score in (the newest "
                               "in its games file, or --game): left paddle, then right"))
    parser.add_argument("--played-by", metavar="NAME",
                        help=_("a showdown card played by NAME: NAME against the next player "
                               "in the direction of play, with the symbol's --cards (1 to 3)"))
    parser.add_argument("--cards", type=int, metavar="N",
                        help=_("cards to load for the next duel (default: the service's "
                               "--cards; for --played-by at most 3, a showdown card's most)"))
    parser.add_argument("--seats", action="store_true",
                        help=_("name nobody: the next duel is for the paddles, credited to "
                               "nobody"))
    parser.add_argument("--socket", metavar="PATH",
                        help=_("the service's socket (default: the systemd service's, else "
                               "your own service's)"))
    add_lang(parser, _("language of this command's words: en, ru, uk or hy (default: the "
                       "system's); the table answers in its own"))
    parser.set_defaults(func=run)


def request_for(args: argparse.Namespace) -> dict[str, Any]:
    """The request the options ask for; a usage error for a combination that means nothing."""
    from showdown.contract.events import ConfigError

    if len(args.players) not in (0, 2):
        raise ConfigError(_("name two players, the left paddle's first (uno-showdown duel "
                            "ANN BOB), or nobody"))
    if args.players and args.seats:
        raise ConfigError(_("--seats means nobody is named: give names or --seats, not both"))
    if args.played_by is not None and (args.players or args.seats):
        raise ConfigError(_("--played-by names the showdown card's player, and the rules name "
                            "the opponent: give --played-by alone, or two names"))
    if args.played_by is not None and not args.played_by.strip():
        raise ConfigError(_("--played-by needs the name of the player who played the "
                            "showdown card"))
    if args.cards is not None and args.cards < 1:
        raise ConfigError(_("--cards must be at least 1"))
    if not args.players and not args.seats and args.cards is None and args.played_by is None:
        return {"status": {}}
    body: dict[str, Any] = {"players": list(args.players)}
    if args.played_by is not None:
        body["played_by"] = args.played_by
    if args.seats:
        body["seats"] = True
    if args.cards is not None:
        body["cards"] = args.cards
    return {"duel": body}


def run(args: argparse.Namespace) -> int:
    from showdown.contract.events import ConfigError
    from uno_showdown.headless.duel_socket import SocketError, ask, find_socket

    request = request_for(args)
    try:
        path = Path(args.socket) if args.socket else find_socket()
        reply = ask(path, request)
    except SocketError as exc:
        raise ConfigError(str(exc)) from None
    if "error" in reply:
        raise ConfigError(str(reply["error"]))
    print(reply.get("ok", ""))
    return 0
