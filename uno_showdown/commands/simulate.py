"""`uno-showdown simulate`: many duels between simulated players, with a summary."""

from __future__ import annotations

import argparse
import math

from showdown.contract.events import ConfigError
from showdown.contract.i18n import _
from uno_showdown.commands.common import add_lang
from uno_showdown.commands.options import (
    MAX_CARDS,
    add_duel_options,
    check_range,
    duel_config,
    open_duel_log,
)

#: Each option's range (lowest, highest; both allowed). Past it a value is a slip: a million
#: duels take minutes, a jitter past a second is a broken link, not a late one.
RANGES: dict[str, tuple[float, float]] = {
    "--duels": (1, 1_000_000),
    "--cards": (1, MAX_CARDS),
    "--jitter-ms": (0, 1_000),
    "--early-rate": (0, 1),
    "--left-ms": (1, 60_000),
    "--right-ms": (1, 60_000),
}


def number(text: str) -> float:
    """A number of milliseconds or a rate: `nan` and `inf` are not numbers a table means."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "simulate",
        description=_("Run duels through the real service and engine on an in-memory unit, "
                      "with simulated players (human-like reaction times, some early presses, "
                      "some who never press) and random delivery delays, then print a summary "
                      "table."),
    )
    parser.add_argument("--duels", type=int, default=100,
                        help=_("how many duels, 1 to 1000000 (default 100)"))
    parser.add_argument("--seed", type=int, default=0, help=_("random seed (default 0)"))
    parser.add_argument("--cards", type=int, default=1,
                        help=_("cards per duel, 1 to {most} (default 1)").format(most=MAX_CARDS))
    parser.add_argument(
        "--jitter-ms", type=number, default=5.0,
        help=_("largest delay between a press and its delivery, 0 to 1000 (default 5)"),
    )
    parser.add_argument(
        "--early-rate", type=number, default=0.05,
        help=_("chance that a player anticipates go and presses early, 0 to 1 "
               "(default 0.05)"),
    )
    parser.add_argument(
        "--left-ms", type=number, default=260.0,
        help=_("left player's median reaction, 1 to 60000 (default 260)"),
    )
    parser.add_argument(
        "--right-ms", type=number, default=260.0,
        help=_("right player's median reaction, 1 to 60000 (default 260)"),
    )
    parser.add_argument("--log", metavar="FILE", help=_("append every duel to this duel log"))
    add_lang(parser)
    add_duel_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from showdown.contract.events import Side
    from uno_showdown.commands.simulation import PlayerModel, format_report, simulate

    for option, value in (("--duels", args.duels), ("--cards", args.cards),
                          ("--jitter-ms", args.jitter_ms), ("--early-rate", args.early_rate),
                          ("--left-ms", args.left_ms), ("--right-ms", args.right_ms)):
        check_range(option, value, *RANGES[option])
    config = duel_config(args)
    players = {
        Side.LEFT: PlayerModel(median_reaction_us=int(args.left_ms * 1000),
                               early_rate=args.early_rate),
        Side.RIGHT: PlayerModel(median_reaction_us=int(args.right_ms * 1000),
                                early_rate=args.early_rate),
    }
    if args.log is not None and not args.log.strip():
        raise ConfigError(_("--log needs a file name, and an empty one was given: name the "
                            "file the duels are appended to, or leave --log out"))
    log = open_duel_log(args.log, "--log", warn=False) if args.log is not None else None
    lost = None
    try:
        report = simulate(
            args.duels, args.seed, config=config, max_jitter_us=int(args.jitter_ms * 1000),
            players=players, duel_log=log, cards=args.cards,
        )
    finally:
        if log is not None:
            lost = log.close()
    if log is not None and log.failed is not None:
        raise ConfigError(_("cannot write the duel log {path} ({reason}): give another file "
                            "with --log").format(path=args.log,
                                                 reason=log.failed.strerror or log.failed))
    if lost is not None:  # the log is this command's output: a missing line is an error
        raise ConfigError(_("{problem}: let a program read it as it is written, or give a "
                            "file with --log").format(problem=lost))
    print(format_report(report))
    return 0
