"""`uno-showdown virtual-mcu` and `uno-showdown firmware`: the Pico's side (`firmware_host`)
from a terminal."""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from firmware_host.wire import codec
from showdown.contract.i18n import N_, _
from uno_showdown.commands.common import add_lang

#: The commands typed stay as they are (l, r, b, jam, ...): only the words around them are
#: translated, when shown.
HELP = N_("""\
type a command and Enter:  l / r  press the left / right paddle,  b  the timer button,
  jam / unjam  the card sensor,  reset  the board,  replug  unplug and plug it in,  q  quit""")


def register(sub: argparse._SubParsersAction) -> None:
    """Add this package's subcommands to `uno-showdown`."""
    p = sub.add_parser(
        "virtual-mcu",
        description=_("Start a virtual Showdown Unit board: the real firmware under CPython "
                      "with simulated pins, serving a serial port. Point `uno-showdown run "
                      "--device serial --port` (or a serial terminal) at the port it prints."),
    )
    p.add_argument("--link", metavar="PATH", default=None,
                   help=_("also serve the port at PATH (a symlink kept across replugs)"))
    p.add_argument("--start-ticks", type=int, default=0, metavar="N",
                   help=_("start the board's 30-bit microsecond counter at N (to try the "
                          "wrap)"))
    p.add_argument("--no-card-sensor", action="store_true",
                   help=_("simulate a board without the card-counting sensor"))
    add_lang(p)
    p.set_defaults(func=_virtual_mcu)

    fw = sub.add_parser(
        "firmware",
        description=_("Put the microcontroller firmware on a Pico running MicroPython "
                      "(compiled with mpy-cross, copied with mpremote), or ask a board which "
                      "protocol it speaks. See docs/pico.md."),
    )
    fw_sub = fw.add_subparsers(dest="firmware_command", metavar="ACTION")
    fw_sub.required = True
    inst = fw_sub.add_parser(
        "install",
        help=_("compile and copy the firmware to the Pico, reset it, check its hello"),
        description=_("Compile the board files to .mpy, copy them to the Pico with mpremote, "
                      "reset it, and check that it says hello in this program's protocol "
                      "version."),
    )
    inst.add_argument("--port", metavar="PORT", default=None,
                      help=_("the Pico's serial port (default: the first Pico found by its "
                             "USB id)"))
    inst.add_argument("--dry-run", action="store_true",
                      help=_("list what would be copied and how; touch no board"))
    add_lang(inst)
    inst.set_defaults(func=_firmware_install)
    ver = fw_sub.add_parser(
        "version", help=_("ask the board which protocol version its firmware speaks"),
        description=_("Say hello to the board and print the protocol version and boot id it "
                      "answers with; an older or newer firmware is named in one line "
                      "(exit 1)."),
    )
    ver.add_argument("--port", metavar="PORT", default=None,
                     help=_("the board's serial port (default: the first Pico found by its "
                            "USB id)"))
    add_lang(ver)
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
        print(f"uno-showdown {args.command} {args.firmware_command}: {exc}", file=sys.stderr)
        return 1


def _virtual_mcu(args: argparse.Namespace) -> int:
    from firmware_host.virtual.mcu import VirtualMCU
    from showdown.contract.events import ConfigError

    if not 0 <= args.start_ticks < codec.TICKS_PERIOD:
        raise ConfigError(_("--start-ticks must be between 0 and {most}").format(
            most=codec.TICKS_PERIOD - 1))
    link = Path(args.link) if args.link else None
    try:
        if link is not None and link.exists() and not link.is_symlink():
            raise ConfigError(_("{path} exists and is not a symlink: choose another --link "
                                "path").format(path=link))
        if link is not None and not link.parent.is_dir():
            raise ConfigError(_("the folder {folder} does not exist: create it or pick "
                                "another").format(folder=link.parent))
    except (OSError, ValueError) as exc:  # a name too long, a NUL in it
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ConfigError(_("cannot use {path} as --link ({reason}): choose another path")
                          .format(path=repr(args.link[:200]), reason=reason)) from None
    mcu = VirtualMCU(link, start_ticks=args.start_ticks, card_sensor=not args.no_card_sensor)
    try:
        mcu.start()
    except OSError as exc:  # no pseudo-terminal left, or the link cannot be made there
        raise ConfigError(_("cannot start the virtual board ({reason}): choose another "
                            "--link path").format(reason=exc.strerror or exc)) from None
    print(mcu.port, flush=True)
    print(_(HELP), file=sys.stderr, flush=True)
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
            print(_("unknown command {word}").format(word=repr(word)) + "\n" + _(HELP),
                  file=sys.stderr, flush=True)
    else:
        action()
        print(_("{word} at tick {ticks}").format(word=word, ticks=mcu.ticks_us()),
              file=sys.stderr, flush=True)
    return True
