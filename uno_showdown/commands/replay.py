"""`uno-showdown replay`: judge a duel log again, for a disputed verdict."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from showdown.contract.events import ConfigError
from showdown.contract.i18n import N_, _
from uno_showdown.commands.common import add_lang
from uno_showdown.commands.options import (
    add_duel_options,
    duel_overrides,
)

if TYPE_CHECKING:
    from showdown.duel.replay import ReplayedVerdict

#: The JSON lines are the log's own words and stay as they are; the words around them are
#: translated when shown.
EXAMPLE = N_("""\
input: JSON lines in arrival order, e.g.
  {"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}
  {"t_us": 1000, "input": "start", "countdown_us": 3000000}
  {"t_us": 3150000, "input": "press", "side": "right"}
output: one JSON object per verdict, e.g.
  {"outcome": "faster", "winner": "right", "loser": "left", "arrow": null,
   "launch": {"side": "left", "cards": 2}, "reaction_us": {"left": null, "right": 149000}}
a verdict that a press arriving too late would have changed also carries
  "contested": {"side": "left", "t_us": 3148000, "would_be": "faster", "would_win": "left"}
""")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        description=_("Read a duel log (JSON lines, in arrival order) and print each verdict "
                      "it leads to as one JSON object per line. Logs written by the service "
                      "also carry arrival times and the verdict given at the table; --check "
                      "compares against it."),
        epilog=_(EXAMPLE),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", default="-",
                        help=_("the log; - or nothing for stdin"))
    parser.add_argument(
        "--check", action="store_true",
        help=_("exit 1 if a verdict (or whether it is contested) differs from the log's"),
    )
    add_lang(parser, _("language of the messages: en, ru, uk or hy (default: the "
                              "system's); the verdicts are JSON, the same in every language"))
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
        raise ConfigError(_("cannot read {file}: {reason}").format(
            file=args.file, reason=exc.strerror)) from exc
    except ValueError as exc:  # a path with a NUL in it
        raise ConfigError(_("cannot read {file}: {reason}").format(
            file=repr(args.file), reason=exc)) from None


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
                print("replay: " + _("the duel loaded at line {line} has no verdict in the "
                                     "log (the table stopped before giving one): not judged, "
                                     "not checked").format(line=verdict.line),
                      file=sys.stderr)
            if args.check and verdict.matches is False:
                _say_difference(verdict)
                status = 1
    except UnicodeDecodeError:
        raise ConfigError(_("{file} is not a duel log: it is not UTF-8 text").format(
            file=args.file)) from None
    except ReplayError as exc:
        raise ConfigError(str(exc)) from exc
    if not printed and not read["lines"]:
        where = _("standard input") if args.file == "-" else args.file
        raise ConfigError(_("{file} is empty: give a duel log (uno-showdown simulate --log "
                            "FILE writes one)").format(file=where))
    if not printed:
        raise ConfigError(_("no duel in the input reached a verdict (is there a load and a "
                            "start?)"))
    return status


def _say_difference(verdict: ReplayedVerdict) -> None:
    if verdict.recorded_contested is not None and (
            verdict.recorded_contested != (verdict.contest is not None)):
        if verdict.recorded_contested:
            text = _("the duel loaded at line {line} is marked contested in the log, but the "
                     "replay finds no late press that would have changed it")
        else:
            text = _("the duel loaded at line {line} is marked not contested in the log, but "
                     "the replay finds a late press that would have changed it")
        print("replay: " + text.format(line=verdict.line), file=sys.stderr)
    else:
        print("replay: " + _("the duel loaded at line {line} was recorded as {verdict}").format(
            line=verdict.line, verdict=json.dumps(verdict.recorded)), file=sys.stderr)
