"""The `uno-showdown companion` command: the score keeper's touch screen on its own.

It opens the store and the game (the latest unfinished one unless `--game`
says otherwise) and runs the screen until the window is closed. Bad options
and a missing display are one-line errors with exit status 2.
"""

from __future__ import annotations

import argparse
import os

from showdown.contract.events import ConfigError
from showdown.contract.i18n import N_, _
from uno_showdown.commands.common import add_lang

SIZE_HELP = N_("window size as WIDTHxHEIGHT (default 800x480, the Pi touch display)")


#: The largest window: what SDL and the graphics cards it runs on can make a surface of.
MAX_SIZE = (16384, 16384)


def parse_size(text: str) -> tuple[int, int]:
    """Read `800x480`; ConfigError says how to write it otherwise."""
    width, sep, height = text.strip().lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        size = (0, 0)
    if (not sep or size[0] < 320 or size[1] < 240
            or size[0] > MAX_SIZE[0] or size[1] > MAX_SIZE[1]):
        raise ConfigError(
            _("--size {size} is not a window size: write WIDTHxHEIGHT from 320x240 to "
              "{most}, e.g. --size 800x480").format(size=repr(text[:40]),
                                                    most=f"{MAX_SIZE[0]}x{MAX_SIZE[1]}")
        )
    return size


def register(sub: argparse._SubParsersAction) -> None:
    """Add `companion` to `uno-showdown`."""
    parser = sub.add_parser(
        "companion",
        description=_("Run the companion screen: standings, entering rounds by tapping cards, "
                      "undo, history, a score chart, game over, new games and the showdown "
                      "duels. Made for an 800x480 touch display; works with a mouse and "
                      "keyboard too."),
    )
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=_("the SQLite file of games (default: the per-user data directory)"))
    parser.add_argument("--game", metavar="ID", type=int, default=None,
                        help=_("open this game (default: the latest unfinished game)"))
    add_lang(parser)  # the shared `--lang` (the output is the screen), translated
    parser.add_argument("--fullscreen", action="store_true",
                        help=_("fill the whole display (for the Pi's touch screen)"))
    parser.add_argument("--size", default="800x480", metavar="WxH", help=_(SIZE_HELP))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    size = parse_size(args.size)
    from uno_showdown.commands.screen_libraries import check_kmsdrm

    check_kmsdrm()  # on Pi OS Lite: a missing GBM/EGL/GLES library by name, with its apt line
    from championship.store.table_file import link_state
    from companion.app import CompanionApp
    from companion.screen.screen import run_companion
    from companion.touch.shell import NoDisplayError
    from showdown.contract.errors import CompanionError
    from showdown.contract.i18n import LanguageError

    try:
        app = CompanionApp.open(args.db, args.game, args.lang)
    except (CompanionError, LanguageError) as exc:
        raise ConfigError(str(exc)) from None
    app.follows_newest_game = args.game is None  # a game started elsewhere shows up here
    try:
        # at a championship table the banner says when the director does not hear it
        return run_companion(app, fullscreen=args.fullscreen, size=size,
                             link_state=lambda: link_state(app.store))
    except NoDisplayError:
        raise ConfigError(
            _("no display to open the screen on: run it on the Pi's desktop or touch display, "
              'or headless under Xvfb: xvfb-run -s "-screen 0 800x480x24" uno-showdown '
              "companion")
        ) from None
    finally:
        app.close()
