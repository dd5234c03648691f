"""Subcommands contributed by the `firmware_host` package: `uno-showdown virtual-mcu`."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from firmware_host import protocol as P

HELP = """\
type a command and Enter:  l / r  press the left / right paddle,  b  the timer button,
  jam / unjam  the card sensor,  reset  the board,  replug  unplug and plug it in,  q  quit"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add this package's subcommands to `uno-showdown`."""
    p = sub.add_parser(
        "virtual-mcu",
        help="run the microcontroller firmware on a pseudo-terminal, for `run --device serial`",
        description="Start a virtual Showdown Unit board: the real firmware under CPython with "
        "simulated pins, serving a serial port. Point `uno-showdown run --device serial --port` "
        "(or a serial terminal) at the port it prints.",
    )
    p.add_argument("--link", metavar="PATH", default=None,
                   help="also serve the port at PATH (a symlink kept across replugs)")
    p.add_argument("--start-ticks", type=int, default=0, metavar="N",
                   help="start the board's 30-bit microsecond counter at N (to try the wrap)")
    p.add_argument("--no-card-sensor", action="store_true",
                   help="simulate a board without the card-counting sensor")
    p.set_defaults(func=_virtual_mcu)


def _virtual_mcu(args: argparse.Namespace) -> int:
    from firmware_host.virtual.mcu import VirtualMCU
    from showdown.cli import UsageError

    if not 0 <= args.start_ticks < P.TICKS_PERIOD:
        raise UsageError(f"--start-ticks must be between 0 and {P.TICKS_PERIOD - 1}")
    link = Path(args.link) if args.link else None
    try:
        if link is not None and link.exists() and not link.is_symlink():
            raise UsageError(f"{link} exists and is not a symlink: choose another --link path")
        if link is not None and not link.parent.is_dir():
            raise UsageError(f"the folder {link.parent} does not exist: create it or pick "
                             "another")
    except (OSError, ValueError) as exc:  # a name too long, a NUL in it
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UsageError(f"cannot use {args.link[:200]!r} as --link ({reason}): choose "
                         "another path") from None
    mcu = VirtualMCU(link, start_ticks=args.start_ticks, card_sensor=not args.no_card_sensor)
    try:
        mcu.start()
    except OSError as exc:  # no pseudo-terminal left, or the link cannot be made there
        raise UsageError(f"cannot start the virtual board ({exc.strerror or exc}): "
                         "choose another --link path") from None
    print(mcu.port, flush=True)
    print(HELP, file=sys.stderr, flush=True)
    try:
        for line in sys.stdin:
            if not _obey(mcu, line.strip().lower()):
                break
        else:
            threading.Event().wait()  # no terminal: serve until interrupted
    except KeyboardInterrupt:
        pass
    finally:
        mcu.stop()
    return 0


def _obey(mcu: object, word: str) -> bool:
    from firmware_host.virtual.mcu import VirtualMCU

    assert isinstance(mcu, VirtualMCU)
    actions = {
        "l": lambda: mcu.press(P.LEFT),
        "r": lambda: mcu.press(P.RIGHT),
        "b": mcu.press_button,
        "jam": mcu.jam,
        "unjam": lambda: mcu.jam(False),
        "reset": mcu.reset,
        "replug": mcu.replug,
    }
    if word in ("q", "quit", "exit"):
        return False
    action = actions.get(word[:1] if word in ("left", "right", "button") else word)
    if action is None:
        if word:
            print(f"unknown command {word!r}\n{HELP}", file=sys.stderr, flush=True)
    else:
        action()
        print(f"{word} at tick {mcu.ticks_us()}", file=sys.stderr, flush=True)
    return True
