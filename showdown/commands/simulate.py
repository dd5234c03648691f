"""`uno-showdown simulate`: many duels between simulated players, with a summary."""

from __future__ import annotations

import argparse
import math

from showdown.commands.options import add_duel_options, duel_config, open_duel_log
from showdown.events import ConfigError, Side
from showdown.simulate import PlayerModel, format_report, simulate


def number(text: str) -> float:
    """A number of milliseconds or a rate: `nan` and `inf` are not numbers a table means."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "simulate",
        help="run duels between simulated players on the fake unit and print a summary",
        description="Run duels through the real service and engine on an in-memory unit, with "
        "simulated players (human-like reaction times, some early presses, some who never "
        "press) and random delivery delays, then print a summary table.",
    )
    parser.add_argument("--duels", type=int, default=100, help="how many duels (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--cards", type=int, default=1, help="cards per duel (default 1)")
    parser.add_argument(
        "--jitter-ms", type=number, default=5.0,
        help="largest delay between a press and its delivery (default 5)",
    )
    parser.add_argument(
        "--early-rate", type=number, default=0.05,
        help="chance that a player anticipates go and presses early (default 0.05)",
    )
    parser.add_argument(
        "--left-ms", type=number, default=260.0, help="left player's median reaction (default 260)"
    )
    parser.add_argument(
        "--right-ms", type=number, default=260.0,
        help="right player's median reaction (default 260)",
    )
    parser.add_argument("--log", metavar="FILE", help="append every duel to this duel log")
    add_duel_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.duels < 1:
        raise ConfigError("--duels must be at least 1")
    if args.cards < 1:
        raise ConfigError("--cards must be at least 1")
    if args.jitter_ms < 0:
        raise ConfigError("--jitter-ms must not be negative")
    if not 0 <= args.early_rate <= 1:
        raise ConfigError("--early-rate must be between 0 and 1")
    if args.left_ms <= 0 or args.right_ms <= 0:
        raise ConfigError("reaction times must be positive")
    config = duel_config(args)
    players = {
        Side.LEFT: PlayerModel(median_reaction_us=int(args.left_ms * 1000),
                               early_rate=args.early_rate),
        Side.RIGHT: PlayerModel(median_reaction_us=int(args.right_ms * 1000),
                                early_rate=args.early_rate),
    }
    log = open_duel_log(args.log, "--log") if args.log else None
    try:
        report = simulate(
            args.duels, args.seed, config=config, max_jitter_us=int(args.jitter_ms * 1000),
            players=players, duel_log=log, cards=args.cards,
        )
    finally:
        if log is not None:
            log.close()
    print(format_report(report))
    return 0
