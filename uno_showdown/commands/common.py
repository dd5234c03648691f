"""What every companion command takes (`--db`, `--lang`) and the language of its help.

Light on purpose: `uno-showdown points` imports this, not the games file's code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from showdown.contract import i18n
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _
from uno_showdown.commands.help_format import Formatter


def _lang_from_argv(argv: Sequence[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def help_language() -> None:
    """Write the help text in the table's language (`--lang`, else the system's)."""
    try:
        i18n.set_language(_lang_from_argv(sys.argv[1:]))
    except CompanionError:
        i18n.set_language(None)


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """Give `parser` `--db` and `--lang`, which every companion command takes."""
    parser.add_argument("--db", metavar="PATH",
                        help=_("the games file (default: in your user data directory)"))
    parser.add_argument("--lang", metavar="LANG",
                        help=_("language of the output: en, ru, uk or hy (default: the system's)"))


def common_options() -> argparse.ArgumentParser:
    """`--db` and `--lang` in a parser to give as `parents=` to a command's parser."""
    common = argparse.ArgumentParser(add_help=False, formatter_class=Formatter)
    add_common_options(common)
    return common


def text_table(headers: Sequence[str], rows: Sequence[Sequence[object]],
               right: set[int]) -> str:
    """`rows` under `headers` in columns two spaces apart, as a command prints them: the
    columns numbered in `right` flush right, the others flush left."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)
