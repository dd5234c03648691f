"""`uno-showdown virtual-mcu` and `uno-showdown firmware`: the Pico's side (`firmware_host`)
from a terminal."""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from firmware_host.wire import codec

HELP = """\
type a command and Enter:  l / r  press the left / right paddle,  b  the timer button,
  jam / unjam  the card sensor,  reset  the board,  replug  unplug and plug it in,  q  quit"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add this package's subcommands to `uno-showdown`."""
    p = sub.add_parser(
        "virtual-mcu",
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

    fw = sub.add_parser(
        "firmware",
        description="Put the microcontroller firmware on a Pico running MicroPython (compiled "
        "with mpy-cross, copied with mpremote), or ask a board which protocol it speaks. "
        "See docs/pico.md.",
    )
    fw_sub = fw.add_subparsers(dest="firmware_command", metavar="ACTION")
    fw_sub.required = True
    inst = fw_sub.add_parser(
        "install", help="compile and copy the firmware to the Pico, reset it, check its hello",
        description="Compile the board files to .mpy, copy them to the Pico with mpremote, "
        "reset it, and check that it says hello in this program's protocol version.",
    )
    inst.add_argument("--port", metavar="PORT", default=None,
                      help="the Pico's serial port (default: the first Pico found by its USB id)")
    inst.add_argument("--dry-run", action="store_true",
                      help="list what would be copied and how; touch no board")
    inst.set_defaults(func=_firmware_install)
    ver = fw_sub.add_parser(
        "version", help="ask the board which protocol version its firmware speaks",
        description="Say hello to the board and print the protocol version and boot id it "
        "answers with; an older or newer firmware is named in one line (exit 1).",
    )
    ver.add_argument("--port", metavar="PORT", default=None,
                     help="the board's serial port (default: the first Pico found by its USB id)")
    ver.set_defaults(func=_firmware_version)


def _firmware_install(args: argparse.Namespace) -> int:
    from firmware_host.host import install

    return _firmware(lambda: install.install(args.port, dry_run=args.dry_run), args)


def _firmware_version(args: argparse.Namespace) -> int:
    from firmware_host.host import install

    return _firmware(lambda: install.version(args.port), args)


def _firmware(run: Callable[[], int], args: argparse.Namespace) -> int:
    """Bad input is a ConfigError (exit 2); a board that is silent or out of date, exit 1."""
    from firmware_host.host.install import InstallError
    from showdown.contract.events import ConfigError

    try:
        return run()
    except InstallError as exc:
        if exc.bad_input:
            raise ConfigError(str(exc)) from exc
        print(f"uno-showdown firmware {args.firmware_command}: {exc}", file=sys.stderr)
        return 1


def _virtual_mcu(args: argparse.Namespace) -> int:
    from firmware_host.virtual.mcu import VirtualMCU
    from showdown.contract.events import ConfigError

    if not 0 <= args.start_ticks < codec.TICKS_PERIOD:
        raise ConfigError(f"--start-ticks must be between 0 and {codec.TICKS_PERIOD - 1}")
    link = Path(args.link) if args.link else None
    try:
        if link is not None and link.exists() and not link.is_symlink():
            raise ConfigError(f"{link} exists and is not a symlink: choose another --link path")
        if link is not None and not link.parent.is_dir():
            raise ConfigError(f"the folder {link.parent} does not exist: create it or pick "
                             "another")
    except (OSError, ValueError) as exc:  # a name too long, a NUL in it
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ConfigError(f"cannot use {args.link[:200]!r} as --link ({reason}): choose "
                         "another path") from None
    mcu = VirtualMCU(link, start_ticks=args.start_ticks, card_sensor=not args.no_card_sensor)
    try:
        mcu.start()
    except OSError as exc:  # no pseudo-terminal left, or the link cannot be made there
        raise ConfigError(f"cannot start the virtual board ({exc.strerror or exc}): "
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
        "l": lambda: mcu.press(codec.LEFT),
        "r": lambda: mcu.press(codec.RIGHT),
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
