"""The `uno-showdown` command: one entry point, a subcommand per job.

Each part of the project registers its own subcommands from a module listed
in `COMMAND_MODULES`, so the parts stay independent: a module defines
`register(subparsers)` and sets `func` on each parser it adds; `func(args)`
returns the exit status.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from showdown.events import ConfigError

COMMAND_MODULES = (
    "showdown.commands.simulate",
    "showdown.commands.replay",
    "showdown.commands.run",
    "showdown.commands.emulator",
    "hardware.commands",
    "firmware_host.commands",
    "companion.commands",
    "companion.screen_command",
    "championship.commands",
    "championship.sync.commands",
)


#: Errors writing the output that are no fault of the program: the disk or device is full,
#: the file too big for it, out of quota, or the device failing (`> /dev/full`).
_OUTPUT_FULL = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO})

#: The name commands used before the contract had `ConfigError`; the very same class.
UsageError = ConfigError


def one_line(message: str) -> str:
    """`message` as one printable line: a newline, an escape sequence or an invisible mark
    that came with the user's own input (a file name, a player's name) is shown escaped, so
    an error neither spills over lines nor repaints the terminal."""
    return "".join(ch if ch == " " or ch.isprintable() else ascii(ch)[1:-1] for ch in message)


class OneLineParser(argparse.ArgumentParser):
    """argparse's parser, but a bad option is one line on stderr and exit status 2.

    argparse would print the whole usage first; a table's script or log then holds a block
    of text where one sentence says what was wrong. Every subcommand's parser is of this
    class (argparse gives subparsers their parent's class).
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # `--duels=--`: argparse drops the "--" and hands the option an empty list, which no
        # command expects (a TypeError far from here). It is no value: say so.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            self.error(f"argument {'/'.join(action.option_strings)}: expected one argument")
        return super()._get_values(action, arg_strings)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="uno-showdown",
        description="A Showdown Unit for UNO Showdown: fair duels, the table's scores, "
        "on a Raspberry Pi, a microcontroller or the desktop emulator.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on every command
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()  # here, where a full disk can still be reported, not at exit
    except ConfigError as exc:
        print(one_line(f"uno-showdown {args.command}: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`uno-showdown game show | head`): nothing left to say.
        _drop_stdout()
        return 1
    except OSError as exc:
        if exc.errno not in _OUTPUT_FULL:
            raise
        _drop_stdout()
        where = exc.filename or "the output"
        print(one_line(f"uno-showdown {args.command}: cannot write {where} ({exc.strerror}): "
                       "free some space or write somewhere else"), file=sys.stderr)
        return 2
    return int(status or 0)


def _drop_stdout() -> None:
    """Point standard output at the null device, so what is still buffered goes nowhere
    quietly instead of failing again, with a second message, as the interpreter exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind stdout (a test's capture): nothing to do
        pass


if __name__ == "__main__":
    # Run through the package's module, so commands and this file share one module state.
    from showdown.cli import main as package_main

    sys.exit(package_main())
