"""`uno-showdown replay`: judge a duel log again, for a disputed verdict."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from showdown.contract.events import ConfigError
from uno_showdown.commands.options import add_duel_options, duel_overrides

if TYPE_CHECKING:
    from showdown.duel.replay import ReplayedVerdict

EXAMPLE = """\
input: JSON lines in arrival order, e.g.
  {"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}
  {"t_us": 1000, "input": "start", "countdown_us": 3000000}
  {"t_us": 3150000, "input": "press", "side": "right"}
output: one JSON object per verdict, e.g.
  {"outcome": "faster", "winner": "right", "loser": "left", "arrow": null,
   "launch": {"side": "left", "cards": 2}, "reaction_us": {"left": null, "right": 149000}}
a verdict that a press arriving too late would have changed also carries
  "contested": {"side": "left", "t_us": 3148000, "would_be": "faster", "would_win": "left"}
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        description="Read a duel log (JSON lines, in arrival order) and print each verdict it "
        "leads to as one JSON object per line. Logs written by the service also carry arrival "
        "times and the verdict given at the table; --check compares against it.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", default="-", help="the log; - or nothing for stdin")
    parser.add_argument(
        "--check", action="store_true",
        help="exit 1 if a verdict (or whether it is contested) differs from the log's",
    )
    add_duel_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print each verdict as soon as its duel is read: a log of any length runs in little
    memory (lines are read one at a time, each at most `MAX_LINE_CHARS` long)."""
    try:
        if args.file == "-":
            return _print_verdicts(sys.stdin, args)
        with open(args.file, encoding="utf-8") as stream:
            return _print_verdicts(stream, args)
    except ConfigError:  # already says what is wrong with the log: never wrapped again
        raise
    except OSError as exc:
        if exc.filename is None:  # not the log: the output (a full disk), said by main
            raise
        raise ConfigError(f"cannot read {args.file}: {exc.strerror}") from exc
    except ValueError as exc:  # a path with a NUL in it
        raise ConfigError(f"cannot read {args.file!r}: {exc}") from None


def _print_verdicts(stream: TextIO, args: argparse.Namespace) -> int:
    from showdown.duel.replay import ReplayError, bounded_lines, iter_replay

    status = 0
    printed = 0
    read = {"lines": 0}

    def counted(lines: Iterator[str]) -> Iterator[str]:
        for line in lines:
            read["lines"] += bool(line.strip())
            yield line

    try:
        for verdict in iter_replay(counted(bounded_lines(stream)),
                                   **duel_overrides(args)):  # type: ignore[arg-type]
            print(json.dumps(verdict.to_json()))
            printed += 1
            if args.check and verdict.unfinished:
                print(f"replay: the duel loaded at line {verdict.line} has no verdict in the "
                      "log (the table stopped before giving one): not judged, not checked",
                      file=sys.stderr)
            if args.check and verdict.matches is False:
                _say_difference(verdict)
                status = 1
    except UnicodeDecodeError:
        raise ConfigError(f"{args.file} is not a duel log: it is not UTF-8 text") from None
    except ReplayError as exc:
        raise ConfigError(str(exc)) from exc
    if not printed and not read["lines"]:
        where = "standard input" if args.file == "-" else args.file
        raise ConfigError(f"{where} is empty: give a duel log (uno-showdown simulate --log FILE "
                          "writes one)")
    if not printed:
        raise ConfigError("no duel in the input reached a verdict (is there a load and a start?)")
    return status


def _say_difference(verdict: ReplayedVerdict) -> None:
    if verdict.recorded_contested is not None and (
            verdict.recorded_contested != (verdict.contest is not None)):
        marked = "contested" if verdict.recorded_contested else "not contested"
        found = "finds" if verdict.contest is not None else "finds no"
        print(f"replay: the duel loaded at line {verdict.line} is marked {marked} in "
              f"the log, but the replay {found} late press that would have changed it",
              file=sys.stderr)
    else:
        print(f"replay: the duel loaded at line {verdict.line} was recorded as "
              f"{json.dumps(verdict.recorded)}", file=sys.stderr)
