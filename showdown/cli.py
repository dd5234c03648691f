"""The `uno-showdown` command: one entry point, a subcommand per job.

Each part of the project registers its own subcommands from a module listed
in `COMMAND_MODULES`, so the parts stay independent: a module defines
`register(subparsers)` and sets `func` on each parser it adds; `func(args)`
returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

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


#: The name commands used before the contract had `ConfigError`; the very same class.
UsageError = ConfigError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    except ConfigError as exc:
        print(f"uno-showdown {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`uno-showdown game show | head`): nothing left to say.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return int(status or 0)


if __name__ == "__main__":
    # Run through the package's module, so commands and this file share one module state.
    from showdown.cli import main as package_main

    sys.exit(package_main())
