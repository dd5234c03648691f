"""The help layout of every `uno-showdown` parser: argparse's, measuring the terminal
without importing shutil.

argparse builds a formatter for every `add_argument` (to check the metavar), help asked or
not, and its own formatter imports shutil, and bz2 and lzma with it, to find the width: a
start-up cost a Pi pays on each command. Every parser, parents given as `parents=`
included, is made with `Formatter`.
"""

from __future__ import annotations

import argparse
import os
import sys


def columns() -> int:
    """The terminal's width, as `shutil.get_terminal_size` finds it (`COLUMNS`, else the
    terminal on standard output, else 80)."""
    try:
        found = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        found = 0
    if found <= 0:
        try:
            found = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            found = 0
    return found or 80


class Formatter(argparse.HelpFormatter):
    """argparse's help layout, measuring the terminal with `columns`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         columns() - 2 if width is None else width)
