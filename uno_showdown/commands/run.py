"""`uno-showdown run`: the table service on a real (or emulated) Showdown Unit.

With a display it shows the table window (the companion screen and a duel
bar); without one, or with `--headless`, it runs the unit alone
(`uno_showdown.headless.table`): a duel is always loaded, the timer button starts it,
`uno-showdown duel ANN BOB` says who plays the next one, and verdicts go to the
duel log and, for named players, to the companion's store.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.table.turns import MAX_DUEL_CARDS
from hardware.devices import DEVICES, open_unit
from hardware.stop_signals import owned_stop_signals
from showdown.contract.events import ConfigError
from showdown.contract.i18n import _, ngettext
from uno_showdown.commands.common import add_lang
from uno_showdown.commands.options import (
    MAX_CARDS,
    add_duel_options,
    check_range,
    default_duel_log,
    duel_config,
    fit_to_unit,
    open_duel_log,
)

if TYPE_CHECKING:
    from showdown.service.loop import ShowdownService

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "run",
        description=_("Run the showdown service on a unit. With a display: the companion "
                      "screen and a duel bar; without one (or --headless): the unit alone, "
                      "each duel loaded with --cards cards and started by the unit's timer "
                      "button."),
    )
    parser.add_argument(
        "--device", choices=[d for d in DEVICES if d != "fake"], default="gpio",
        help=_("which unit: gpio (Raspberry Pi pins), serial (a microcontroller), "
               "emulator (a window) (default gpio)"),
    )
    parser.add_argument("--pins", metavar="FILE", help=_("pin map TOML for --device gpio"))
    parser.add_argument(
        "--port", metavar="PORT",
        help=_("serial port for --device serial (default: find the board by USB id)"),
    )
    parser.add_argument("--headless", action="store_true", help=_("never open a window"))
    parser.add_argument(
        "--window", action="store_true",
        help=_("show the screen in a window instead of filling the display"),
    )
    parser.add_argument("--cards", type=int, default=1,
                        help=_("cards per duel when headless, 1 to --most-duel-cards "
                               "(default 1)"))
    parser.add_argument("--most-duel-cards", type=int, default=MAX_DUEL_CARDS, metavar="N",
                        help=_("the most cards a duel may load, for a table that agrees on "
                               "more than the Showdown sheet's {sheet} (up to {most})").format(
                            sheet=MAX_DUEL_CARDS, most=MAX_CARDS))
    parser.add_argument("--db", metavar="PATH", help=_("the companion's score database"))
    parser.add_argument("--game", type=int, metavar="ID",
                        help=_("record duels with this game"))
    add_lang(parser, _("language of the screen and the output: en, ru, uk or hy "
                              "(default: the system's)"))
    parser.add_argument(
        "--duel-log", metavar="FILE",
        help=_("where every duel is appended for replay (default {path})").format(
            path=default_duel_log()),
    )
    parser.add_argument(
        "--socket", metavar="PATH",
        help=_("headless: where `uno-showdown duel` reaches this service (default: "
               "/run/uno-showdown/duel.sock under systemd, else in your runtime folder)"),
    )
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log what happens"))
    add_duel_options(parser)
    parser.set_defaults(func=run)


def have_display() -> bool:
    """Whether a screen can be opened: a desktop session, or SDL told to draw directly
    (e.g. SDL_VIDEODRIVER=kmsdrm on Raspberry Pi OS Lite with a touch display)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return False
    if driver:
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or (
        sys.platform in ("win32", "darwin")
    )


def _open_companion(args: argparse.Namespace) -> Any:
    """The score keeper, if it can be had. When the user named a database, a game or a
    language, a problem with it is an error; otherwise the table runs without one."""
    explicit = args.db is not None or args.game is not None or args.lang is not None
    try:
        from companion.app import CompanionApp

        app = CompanionApp.open(db_path=args.db, game_id=args.game, lang=args.lang)
        app.follows_newest_game = args.game is None  # a game started elsewhere is picked up
        return app
    except Exception as exc:
        if explicit:
            raise ConfigError(_("cannot keep score: {reason}").format(reason=exc)) from None
        log.warning("running without the score keeper: %s", exc)
        return None


def run(args: argparse.Namespace) -> int:
    from showdown.service.loop import ShowdownService

    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    check_range("--most-duel-cards", args.most_duel_cards, 1, MAX_CARDS)
    check_range("--cards", args.cards, 1, args.most_duel_cards)
    windowed = not args.headless and have_display()
    if windowed:
        from uno_showdown.commands.screen_libraries import check_kmsdrm

        check_kmsdrm()  # before anything opens the pins: a missing library, by name
    if args.device == "emulator" and not windowed:
        raise ConfigError(_("the emulator unit lives in a window, and there is no display "
                            "here (or --headless was given): run `uno-showdown emulator` on a "
                            "desktop (or under xvfb-run); it answers `uno-showdown duel` as "
                            "the headless table does"))
    config = duel_config(args)
    with ExitStack() as stack:
        duel_log = open_duel_log(args.duel_log)
        stack.callback(duel_log.close)
        app = _open_companion(args)
        if app is not None:
            stack.callback(app.close)
        try:
            unit = open_unit(args.device, args)
        except (OSError, ValueError, RuntimeError) as exc:
            raise ConfigError(_("cannot open the {device} unit: {reason}").format(
                device=args.device, reason=exc)) from exc
        stack.callback(unit.close)
        stack.callback(unit.stop_launcher)  # runs first: the motor stops before anything else
        if unit.max_cards is not None and args.cards > unit.max_cards:
            raise ConfigError(_("the {unit} unit launches at most {most} cards at once: "
                                "lower --cards").format(unit=unit.name, most=unit.max_cards))
        service = ShowdownService(unit, fit_to_unit(config, args, unit), duel_log=duel_log)
        # Before the companion closes: what the service said reaches it first (bounded).
        stack.callback(service.close_listeners)
        if app is not None:
            service.add_listener(app.on_service_event)
        stops: list[Callable[[], None]] = [unit.stop_launcher, service.stop]  # motor first
        if windowed:
            from uno_showdown.window.window import request_quit

            stops.append(request_quit)
        # This command owns SIGTERM, SIGINT and SIGHUP: each stops the motor, then the table.
        stack.enter_context(owned_stop_signals(*stops))
        if windowed:
            from uno_showdown.window.window import NoDisplayError, run_table_window

            try:
                return int(run_table_window(service, app, fullscreen=not args.window) or 0)
            except NoDisplayError as exc:
                if args.device == "emulator":
                    raise ConfigError(_("the emulator unit lives in a window, and none opens "
                                        "here ({reason}): run it on a desktop or under "
                                        "xvfb-run").format(reason=exc)) from None
                print(_("no screen ({reason}); running the unit headless").format(reason=exc),
                      file=sys.stderr)
        return run_headless(service, args.cards, app, listen=True,
                            most_cards=args.most_duel_cards,
                            socket_path=Path(args.socket) if args.socket else None,
                            follow_games=args.game is None)
    raise AssertionError("unreachable")  # pragma: no cover - ExitStack does not swallow


def run_headless(service: ShowdownService, cards: int, app: Any, *, listen: bool = False,
                 socket_path: Path | None = None, follow_games: bool = True,
                 most_cards: int = MAX_DUEL_CARDS) -> int:
    """The unit on its own: keep a duel loaded; the timer button does the rest.

    With `listen`, `uno-showdown duel` can say who plays the next duel, over the duel
    socket at `socket_path` (default: see `uno_showdown.headless.duel_socket`). The next duel is
    loaded
    once the last one is timed in full (`ReactionsTimed`), so the slower player's time is
    kept too; after an abort, at once. That is the table's own control
    (`HeadlessTable.control`), so it runs here, between the loop's turns (the service's
    queue of events is drained after each); telling whoever watches is a listener, on its
    own thread, so a slow or closed output never holds up the table.
    """
    from uno_showdown.headless.duel_socket import SocketError, open_server
    from uno_showdown.headless.table import HeadlessTable

    def say(line: str) -> None:
        """Tell whoever watches; a closed pipe or a full disk must not stop the table."""
        try:
            print(line, flush=True)
        except OSError as exc:
            log.warning("cannot print the duel: %s", exc)

    table = HeadlessTable(service, cards, app, follow_games=follow_games, say=say,
                          most_cards=most_cards)
    server = None
    if listen:
        try:
            server = open_server(socket_path, table.request)
        except SocketError as exc:
            raise ConfigError(str(exc)) from None
    control = service.subscribe("headless table")
    service.add_listener(table.tell)
    try:
        table.start()
        if server is not None:
            say(ngettext("running the {unit} unit with {n} card loaded: press the timer "
                         "button to start a duel; `uno-showdown duel` names the players "
                         "(socket {socket}) (Ctrl+C to stop)",
                         "running the {unit} unit with {n} cards loaded: press the timer "
                         "button to start a duel; `uno-showdown duel` names the players "
                         "(socket {socket}) (Ctrl+C to stop)", cards).format(
                unit=service.unit.name, n=cards, socket=server.path))
        else:
            say(ngettext("running the {unit} unit with {n} card loaded: press the timer "
                         "button to start a duel (Ctrl+C to stop)",
                         "running the {unit} unit with {n} cards loaded: press the timer "
                         "button to start a duel (Ctrl+C to stop)", cards).format(
                unit=service.unit.name, n=cards))
        while not service.stopping:
            service.step()
            for event in control.drain():
                table.control(event)
    finally:
        service.unit.stop_launcher()
        service.unsubscribe(control)
        service.flush_listeners()  # what was said is printed before the command returns
        if server is not None:
            server.close()
    return 0
