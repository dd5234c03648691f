"""`uno-showdown selftest`: the GPIO unit's self-test (`hardware.gpio_selftest`)."""

from __future__ import annotations

import argparse
import sys
import threading

from showdown.contract.events import ConfigError
from showdown.contract.i18n import _
from uno_showdown.commands.common import add_lang

#: Units that have a self-test, and the module that opens them.
SELFTEST_DEVICES = ("gpio",)


def register(sub: argparse._SubParsersAction) -> None:
    """Add this package's subcommands to `uno-showdown`."""
    parser = sub.add_parser(
        "selftest",
        description=_("Check a unit's wiring: each light, the countdown and the buzzer in "
                      "turn, the launcher one card's time each way, then every paddle, button "
                      "and sensor press is printed as it happens."),
    )
    parser.add_argument("--device", choices=SELFTEST_DEVICES, default="gpio",
                        help=_("which unit (default gpio)"))
    parser.add_argument("--pins", metavar="FILE",
                        help=_("pin map TOML (default: the built-in one)"))
    parser.add_argument("--no-motor", action="store_true", help=_("do not turn the launcher"))
    parser.add_argument("--echo-seconds", type=float, default=30.0, metavar="S",
                        help=_("how long to echo inputs (default 30)"))
    add_lang(parser)
    parser.set_defaults(func=selftest)


def selftest(args: argparse.Namespace) -> int:
    if not 0 <= args.echo_seconds < 1e6:  # also refuses nan and inf
        raise ConfigError(_("--echo-seconds must be a number of seconds from 0 to 999999"))
    from hardware.gpio import open_unit
    from hardware.gpio_selftest import run_selftest
    from hardware.stop_signals import owned_stop_signals

    unit = open_unit(args)
    stop = threading.Event()
    try:
        # This command owns the stop signals: the motor stops, then the self-test ends.
        with owned_stop_signals(unit.stop_launcher, interrupt=True):
            return run_selftest(unit, sys.stdout, stop.wait, echo_s=args.echo_seconds,
                                motor=not args.no_motor)
    finally:
        unit.close()
