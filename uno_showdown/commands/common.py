"""What every command takes (`--lang`; a companion command `--db` too) and the one rule
for the language: `--lang` wherever it is typed, else the system's, chosen once by
`cli.main` before any help is built (`chosen_language`); `cli.build_parser` gives `--lang` to
every command and action that does not add its own (`lang_everywhere`).

Light on purpose: `uno-showdown points` imports this, not the games file's code.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from showdown.contract import i18n
from showdown.contract.i18n import _


def lang_from_argv(argv: Sequence[str]) -> str | None:
    """The `--lang` typed in `argv` (the last one, as argparse keeps), anywhere before a
    `--`; None when there is none."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found


def chosen_language(argv: Sequence[str]) -> str | None:
    """Use the language `argv` asks for with `--lang`, else the system's, for everything the
    process shows from now on; return the `--lang` as typed (None: none was).

    Raises `i18n.LanguageError` (one line) for a language that has no catalog."""
    lang = lang_from_argv(argv)
    i18n.set_language(lang)
    return lang


def add_lang(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """Give `parser` the `--lang` option every command takes, unless it has one already
    (`help`: what it changes, when more than the output). `cli.main` chooses the language
    from it before any command runs, so a command only shows it in its help."""
    if "--lang" not in parser._option_string_actions:
        parser.add_argument("--lang", metavar="LANG", help=help or _(
            "language of the output: en, ru, uk or hy (default: the system's)"))


def lang_everywhere(parser: argparse.ArgumentParser) -> None:
    """`add_lang` to every (sub)command and action under `parser`: a command's module need not
    add it; one that does (with its own help) keeps its own."""
    add_lang(parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # an alias is the same parser
                lang_everywhere(sub)


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """Give `parser` `--db` and `--lang`, which every companion command takes."""
    parser.add_argument("--db", metavar="PATH",
                        help=_("the games file (default: in your user data directory)"))
    add_lang(parser)


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


def whole_number(text: str) -> int:
    """An option's whole number, written as people write one: ASCII digits, an optional
    `-` (`int()` takes `٣`, ` 5` and `1_0` too, which nobody means as a number of tables)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a whole number: write it in the digits 0 to 9, e.g. 5").format(
                value=text))
    return int(text)


def runnable(text: str, args: argparse.Namespace) -> str:
    """`text` with every `event`, `game` or `table status` command it names between
    backticks as it runs when typed after this one: given the games file (`--db`) and, for
    an `event` command, the event (`--event`) this command was given, unless it names them
    already. A hint such as "`uno-showdown event end` calls time" then works where the
    organiser's file is not the default one. A `table` command's games file is the table's:
    an `event` command it names runs on the director's file, so it is left as it is."""
    import re
    import shlex

    db = getattr(args, "db", None)
    event = getattr(args, "event", None) if getattr(args, "command", None) == "event" else None
    if not db and event is None:
        return text
    at_table = getattr(args, "command", None) == "table"

    def fix(found: re.Match[str]) -> str:
        command = found.group(1)
        words = command.split()
        if at_table and words[1] == "event":
            return found.group(0)
        extra: list[str] = []
        if db and "--db" not in words:
            extra += ["--db", shlex.quote(str(db))]
        if event is not None and words[1] == "event" and words[2:3] not in (["new"], ["list"]) \
                and "--event" not in words:
            extra += ["--event", str(event)]
        return "`" + " ".join([command, *extra]) + "`"

    return re.sub(r"`(uno-showdown (?:event|game|table status)\b[^`]*)`", fix, text)
