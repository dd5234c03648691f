"""The installed `uno-showdown` command: `cli.main`, with what only a whole process may do.

pip's console script and `python -m uno_showdown` start here (`run`); tests call
`cli.main` in their own process, which importing this module leaves as it was.
Two costs of a start that a Pi pays at every command typed at the table (under arm64
emulation they were a sixth of `game show`'s instructions; docs/development.md):

* **Collection while loading.** Importing the modules and building the parser allocate
  tens of thousands of objects that are all kept (modules, classes, functions, the
  parser), so the collections their allocations set off (one per 700) walk young objects
  and free nothing. The collector is off from here until the command runs; then what the
  start made is frozen (`gc.freeze`: moved where no collection walks it again) and the
  collector is on again, so a long-running command (`run`, `companion`, `event serve`)
  collects as usual, over less; a command that ends quickly collects seldom
  (`QUICK_THRESHOLDS`), as it loads the games file's code while it runs.
* **Tearing down at exit.** A normal exit runs a last collection over every object and
  then frees module after module. The commands that only read or write the games file and
  print (`game`, `points`, `--help`, `--version`, a refused command line) end instead the
  way mypy's `hard_exit` does: the atexit handlers run, standard output and error are
  flushed (a failure to write them is still an error, status 120 as Python's own exit
  gives, though without its "Exception ignored" lines), and the process ends with
  `os._exit`, freeing nothing. Nothing is lost: every
  write to the games file is committed and the file closed before the command returns,
  and the process ends this way only when no thread of its own is still running. The
  commands that drive a unit, a screen or a network keep the normal exit: their libraries
  (SDL, lgpio, the brokers) clean up in hooks of their own.
"""

from __future__ import annotations

import gc
import os
import sys

#: typing.NoReturn without importing typing (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

#: The commands that end with the quick exit: they open nothing but the games file, which
#: they close before returning, and print. Any other command exits the normal way.
QUICK_EXIT = frozenset({"game", "points"})


def run() -> NoReturn:
    """Run the command line of this process and end it (see the module's docstring)."""
    gc.disable()  # before cli's imports, which are most of the start
    quick = False
    try:
        from uno_showdown.commands.cli import main

        quick = _ends_quickly(sys.argv[1:])
        status: str | int | None = main(ready=lambda: _loaded(quick))
    except SystemExit as done:  # `--help`, `--version`, a refused option
        status = done.code
    finally:
        _loaded(quick)  # whatever ended the command, the process goes on collecting
    if not (quick and _no_thread_running()):
        sys.exit(status)
    _quick_exit(status)


#: The collector's thresholds for a command that ends quickly (mypy's, for a whole run):
#: such a command loads the games file's code as it runs, tens of thousands of objects all
#: kept, and a collection every 700 of them would only walk them; one every 200,000 still
#: bounds what a long `game import` holds in cycles.
QUICK_THRESHOLDS = (200_000, 30, 30)


def _loaded(quick: bool) -> None:
    """The start is over (`main` calls this once the parser has read the command line,
    before the command runs): what it made is kept for good, so no collection walks it
    again, and the collector is on for what the command makes (seldom, for a command that
    ends quickly)."""
    if not gc.isenabled():
        gc.freeze()
        if quick:
            gc.set_threshold(*QUICK_THRESHOLDS)
        gc.enable()


def _ends_quickly(words: list[str]) -> bool:
    """Does the command line `words` name a command of `QUICK_EXIT`, or none (help,
    version, a command line refused)?"""
    from uno_showdown.commands.cli import COMMANDS, _without_lang

    named = _without_lang(words)[:1]
    return not named or named[0] not in COMMANDS or named[0] in QUICK_EXIT


def _no_thread_running() -> bool:
    """Is this thread the only one the normal exit would wait for?"""
    threading = sys.modules.get("threading")
    return threading is None or all(
        thread.daemon or thread is threading.main_thread() for thread in threading.enumerate())


def _quick_exit(status: str | int | None) -> NoReturn:
    """End as `sys.exit(status)` would, less the teardown: status as `sys.exit` reads it (a
    string is printed to stderr, status 1), the atexit handlers run, the standard streams
    flushed where they are open (one closed at start, `2>&-`, is None), and status 120 if
    that flush fails, as Python's own exit gives."""
    import atexit

    if status is None:
        code = 0
    elif isinstance(status, int):
        code = status
    else:
        if sys.stderr is not None:  # print(file=None) would write it to stdout instead
            print(status, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None or stream.closed:
            continue
        try:
            stream.flush()
        except OSError:
            code = 120
    os._exit(code & 0xFF)
