"""`uno-showdown emulator`: the whole table on the desktop, unit and score keeper in one window.

The emulated unit (keys, mouse or touch for the paddles and the timer
button) sits beside the companion screen; the duel bar picks the two players
and the card count, and verdicts are recorded to the current game.
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import sys
from functools import partial
from pathlib import Path
from typing import Any

from showdown.contract.events import ConfigError
from showdown.contract.i18n import N_, _
from uno_showdown.commands.common import add_lang
from uno_showdown.commands.options import (
    add_duel_options,
    default_duel_log,
    duel_config,
    fit_to_unit,
    open_duel_log,
)

log = logging.getLogger(__name__)

#: Translated when said: `_(NO_DISPLAY).format(why=...)`.
NO_DISPLAY = N_(
    "no display is available for the emulator window ({why}); run it on a desktop, "
    "or under a virtual X server: xvfb-run -s '-screen 0 1280x720x24' uno-showdown emulator"
)


def parse_size(text: str) -> tuple[int, int]:
    """`1280x720` -> (1280, 720); a usage error for anything else."""
    from uno_showdown.commands.companion import MAX_SIZE  # one limit for every window
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ConfigError(_("--size must look like 1280x720, not {size}").format(
            size=repr(text[:40]))) from None
    if w < 320 or h < 240:
        raise ConfigError(_("--size {size} is too small: use at least 320x240").format(
            size=text))
    if w > MAX_SIZE[0] or h > MAX_SIZE[1]:
        raise ConfigError(_("--size {size} is too large: use at most {most}").format(
            size=text, most=f"{MAX_SIZE[0]}x{MAX_SIZE[1]}"))
    return w, h


def register(sub: argparse._SubParsersAction) -> None:
    """Add `emulator` to `uno-showdown`."""
    parser = sub.add_parser(
        "emulator",
        description=_("Open one window with an emulated Showdown Unit and the companion "
                      "screen. Paddles and timer button: keys (default A, L, SPACE), mouse or "
                      "touch. F6/F7 change the players, F8 or 1-3 the cards, F10 loads the "
                      "duel, Esc aborts it, F9 mutes, F11 toggles full screen, Ctrl+Q quits. "
                      "`uno-showdown duel ANN BOB --cards 2` and `duel --played-by ANN` load "
                      "a duel into the window from a terminal, as on a Pi."),
    )
    parser.add_argument("--db", metavar="PATH", help=_("the companion's score database"))
    parser.add_argument("--game", type=int, metavar="ID",
                        help=_("record duels with this game"))
    add_lang(parser, _("language of the screen and the output: en, ru, uk or hy "
                              "(default: the system's)"))
    parser.add_argument("--mute", action="store_true",
                        help=_("start with the sound off (F9)"))
    parser.add_argument("--fullscreen", action="store_true", help=_("fill the screen (F11)"))
    parser.add_argument("--size", default="1280x720", metavar="WxH",
                        help=_("window size (default 1280x720; never larger than the screen)"))
    parser.add_argument("--keys", default="A,L,SPACE", metavar="LEFT,RIGHT,TIMER",
                        help=_("keys of the left paddle, right paddle and timer button "
                               "(pygame key names; default A,L,SPACE)"))
    parser.add_argument("--duel-log", metavar="FILE",
                        help=_("append every duel's inputs here, for `uno-showdown replay` "
                               "(default {path})").format(path=default_duel_log()))
    parser.add_argument("--socket", metavar="PATH",
                        help=_("where `uno-showdown duel` reaches this window (default: where "
                               "`duel` looks, in your runtime folder)"))
    parser.add_argument("--no-duel-socket", action="store_true",
                        help=_("do not answer `uno-showdown duel`"))
    add_duel_options(parser)
    parser.set_defaults(func=run)


def _open_companion(args: argparse.Namespace) -> Any:
    """The score keeper, or None when the companion package is not installed."""
    try:
        from companion.app import CompanionApp
    except ImportError:
        log.warning("the companion package is missing: the emulator runs without scores")
        return None
    try:
        app = CompanionApp.open(db_path=args.db, game_id=args.game, lang=args.lang)
    except (OSError, ValueError, LookupError, sqlite3.Error) as exc:
        raise ConfigError(_("cannot open the score keeper: {reason}").format(
            reason=exc)) from exc
    app.follows_newest_game = args.game is None  # a game started elsewhere shows up here
    return app


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from hardware.emulated import EmulatorUnit
    from hardware.emulated_sound import ToneBank
    from hardware.stop_signals import owned_stop_signals
    from showdown.service.loop import ShowdownService
    from uno_showdown.headless.duel_socket import SocketError
    from uno_showdown.window.window import (
        KeyMap,
        NoDisplayError,
        request_quit,
        run_table_window,
    )

    size = parse_size(args.size)
    config = duel_config(args)

    try:
        keys = KeyMap.parse(args.keys)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        raise ConfigError(_(NO_DISPLAY).format(
            why=_("SDL_VIDEODRIVER is {driver}").format(driver=driver)))

    duel_log = open_duel_log(args.duel_log)
    try:
        app = _open_companion(args)
    except BaseException:
        duel_log.close()
        raise
    sound = ToneBank(muted=args.mute)
    unit = EmulatorUnit(sound=sound.play)
    service = ShowdownService(unit, fit_to_unit(config, args, unit), duel_log=duel_log)
    if app is not None:
        service.add_listener(app.on_service_event)
    try:
        # This command owns SIGTERM, SIGINT and SIGHUP: the motor stops, then the window.
        with owned_stop_signals(unit.stop_launcher, request_quit):
            window = partial(run_table_window, service, app, fullscreen=args.fullscreen,
                             size=size, keys=keys, sound=sound)
            if args.no_duel_socket:
                return window()
            try:
                return window(serve_duels=True,
                              duel_socket=Path(args.socket) if args.socket else None)
            except SocketError as exc:  # another table holds it: the emulator still plays
                print("uno-showdown emulator: " + _("`uno-showdown duel` cannot reach this "
                                                    "window ({reason}); the duel bar works as "
                                                    "ever").format(reason=exc),
                      file=sys.stderr)
                return window()
    except NoDisplayError as exc:
        raise ConfigError(_(NO_DISPLAY).format(
            why=str(exc) or _("SDL found no video device"))) from None
    finally:
        service.close()
        if app is not None:
            app.close()
