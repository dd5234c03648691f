"""The `uno-showdown` command: one entry point, a subcommand per job.

Each subcommand lives in a module of its own listed in `COMMANDS`, imported only when
it is chosen: the module's `register(subparsers)` adds its parsers and
sets `func` on each; `func(args)` returns the exit status. A module whose command has many
actions sets `REGISTER_TAKES_WORDS = True` and is called `register(subparsers, words)` with
the words after the command, to build only the action's parser they name.

Start-up is kept short (a Pi pays for every import): only the module of the
subcommand being run is imported, and those modules import their working code inside
the functions that run, so defining the arguments stays cheap. `uno-showdown --help`
imports none of them: it lists the one-line summaries below.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence

from showdown.contract.i18n import N_, LanguageError, _
from uno_showdown.commands import argparse_words
from uno_showdown.commands.common import add_lang, chosen_language, lang_everywhere, runnable
from uno_showdown.commands.help_format import Formatter

#: typing.TYPE_CHECKING without importing typing (what `--help` pays for at start; mypy takes
#: any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any, NoReturn

# argparse's own words ("usage:", "the following arguments are required") in the language
# `main` chooses: looked up when shown, so this once, before any parser, is enough.
argparse_words.install()

#: Every subcommand: the module that defines and runs it, and its line in `--help` (the one
#: place for that line: the modules give their parsers none), marked for the catalogs.
COMMANDS: dict[str, tuple[str, str]] = {
    "emulator": ("uno_showdown.commands.emulator",
                 N_("play on the desktop: an emulated Showdown Unit beside the score keeper")),
    "run": ("uno_showdown.commands.run",
            N_("run the table on a Showdown Unit (GPIO, microcontroller, emulator)")),
    "duel": ("uno_showdown.commands.duel",
             N_("tell the headless table who duels next (duel --played-by ANN --cards 2, "
                "or duel ANN BOB)")),
    "game": ("uno_showdown.commands.game", N_("keep the table's score: games, rounds, standings")),
    "points": ("uno_showdown.commands.points", N_("add up the value of cards")),
    "companion": ("uno_showdown.commands.companion",
                  N_("the score keeper's touch screen (standings, rounds, history, chart, duels)")),
    "simulate": ("uno_showdown.commands.simulate",
                 N_("run duels between simulated players on the fake unit and print a summary")),
    "replay": ("uno_showdown.commands.replay", N_("print the verdict of a duel log (JSON lines)")),
    "selftest": ("uno_showdown.commands.selftest",
                 N_("light, sound and spin each output of a unit and echo its inputs")),
    "event": ("uno_showdown.commands.event",
              N_("run a championship: registration, draw, clock, standings, final, awards")),
    "table": ("uno_showdown.commands.table",
              N_("a table on its own machine in a championship served by `event serve`")),
    "firmware": ("uno_showdown.commands.firmware",
                 N_("install the Showdown firmware on a Raspberry Pi Pico, or ask a board "
                    "its version")),
    "virtual-mcu": ("uno_showdown.commands.firmware",
                    N_("run the microcontroller firmware on a pseudo-terminal, for "
                       "`run --device serial`")),
}


#: Errors writing the output that are no fault of the program: the disk or device is full,
#: the file too big for it, out of quota, or the device failing (`> /dev/full`).
_OUTPUT_FULL = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO})


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        # The words are kept for `error`: a mistyped option is matched against the options
        # of the (sub)command it was typed after, which only the words say.
        self._words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        words = getattr(self, "_words", [])
        stray = _stray_option(message)
        # argparse reports a stray option from the top parser: the (sub)command it was typed
        # after is the one the words before it name (`uno-showdown event list`).
        here = _parser_at(self, words if stray is None else _words_before(stray, words))
        hint = _did_you_mean(here, message, stray)
        see = _("(see {help})").format(help=f"{here.prog} --help")
        self.exit(2, one_line(f"{self.prog}: {message}{hint} {see}") + "\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # `--duels=--`: argparse drops the "--" and hands the option an empty list, which no
        # command expects (a TypeError far from here). It is no value: say so.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            self.error(_("argument {option}: expected one argument").format(
                option="/".join(action.option_strings)))
        return super()._get_values(action, arg_strings)


def _did_you_mean(here: argparse.ArgumentParser, message: str, stray: str | None) -> str:
    """`; did you mean 'game'?` when `message` is argparse's refusal of a mistyped command or
    option and one known there is close, else "". A mistyped option (`stray`) is looked for
    among the options of `here`, the (sub)command it was typed after: `game show --winer` is
    not offered `game round`'s `--winner`.

    Python 3.11's argparse has no `suggest_on_error`; difflib's ratio is the same measure
    3.14's uses."""
    import difflib
    import re

    if (match := _refusal("invalid choice: %(value)r (choose from %(choices)s)", message,
                          {"%(value)r": "'([^']*)'", "%(choices)s": "(.*)"})):
        typed, known = match[1], re.findall(r"'([^']*)'", match[2])
    elif stray is not None:
        # --help is named at the end of every refusal already: it is no guess for a typo.
        typed, known = stray, sorted(option for option in here._option_string_actions
                                     if option.startswith("--") and option != "--help")
    else:
        return ""
    close = difflib.get_close_matches(typed, known, n=1, cutoff=0.6) if typed else []
    return "; " + _("did you mean {name}?").format(name=f"'{close[0]}'") if close else ""


def _stray_option(message: str) -> str | None:
    """The first option argparse's "unrecognized arguments" refusal names ("" when it names
    none), or None when `message` is another refusal."""
    if not (match := _refusal("unrecognized arguments: %s", message, {"%s": "(.*)"})):
        return None
    return next((word.split("=")[0] for word in match[1].split() if word.startswith("-")), "")


def _refusal(template: str, message: str, groups: dict[str, str]) -> re.Match[str] | None:
    """`message` matched (to its end) against argparse's refusal `template` as the current
    language words it (argparse_words), each placeholder of `groups` (`%s`, `%(value)r`)
    read by the pattern given for it."""
    import re

    pattern = re.escape(_(template))
    for placeholder, group in groups.items():
        pattern = pattern.replace(re.escape(placeholder), group)
    return re.search(pattern + "$", message)


def _words_before(stray: str, words: Sequence[str]) -> Sequence[str]:
    """The words before the stray option: they name the (sub)command it was typed after."""
    at = next((i for i, word in enumerate(words) if word.split("=")[0] == stray), len(words))
    return words[:at]


def _parser_at(parser: argparse.ArgumentParser, words: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the innermost (sub)command that `words` name, from `parser` down."""
    for word in words:
        sub = next((action for action in parser._actions
                    if isinstance(action, argparse._SubParsersAction)), None)
        if sub is not None and word in sub.choices:
            parser = sub.choices[word]
    return parser


def version() -> str:
    """This installation's version (one place: `uno_showdown.__version__`, which the package
    metadata is built from)."""
    from uno_showdown import __version__

    return __version__


class _Version(argparse.Action):
    """`--version`: print the version and exit, before any subcommand is looked at."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {version()}")
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`: the chosen subcommand in full, the others as summaries."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = OneLineParser(
        prog="uno-showdown",
        description=_("A Showdown Unit for UNO Showdown: fair duels, the table's scores, "
                      "on a Raspberry Pi, a microcontroller or the desktop emulator."),
    )
    parser.add_argument("--version", action=_Version, help=_("print the version and exit"))
    add_lang(parser)  # `uno-showdown --lang ru game list` as well as `game list --lang ru`
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    words = _without_lang(args)
    chosen = words[0] if words and words[0] in COMMANDS else None
    if chosen is not None:  # the others are never looked at: no parser for them
        # __import__, the statement's own function: importlib's package (and what it
        # imports) would be one more thing every command loads
        __import__(COMMANDS[chosen][0])
        module = sys.modules[COMMANDS[chosen][0]]
        if getattr(module, "REGISTER_TAKES_WORDS", False):  # it builds only the action asked
            module.register(sub, words[1:])
        else:
            module.register(sub)
        lang_everywhere(parser)  # every command and action takes `--lang`, one rule for all
        command = sub.choices[chosen]
        if not command.description:  # `points --help` says what the command is for
            line = _(COMMANDS[chosen][1])
            command.description = line[0].upper() + line[1:] + "."
        return parser
    for name, (_module, line) in COMMANDS.items():
        sub.add_parser(name, help=_(line), add_help=False)
    return parser


def _without_lang(words: Sequence[str]) -> list[str]:
    """`words` without a `--lang LANG` (or `--lang=LANG`) before the command's name."""
    words = list(words)
    while words[:1] == ["--lang"] or (words and words[0].startswith("--lang=")):
        words = words[2:] if words[0] == "--lang" else words[1:]
    return words


def main(argv: Sequence[str] | None = None, *, ready: Callable[[], None] | None = None) -> int:
    """Run the command line `argv` (default: this process's) and return its exit status.

    `ready`, if given, is called once the command line is read, before the command runs:
    the console script's moment to end the start (`console`)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on every command
    words = list(sys.argv[1:] if argv is None else argv)
    # The one rule for every command: the language is `--lang` wherever it is typed, else
    # the system's, chosen here once, before any help is built or anything is printed.
    try:
        lang = chosen_language(words)
    except LanguageError as exc:  # an unknown language: one line, as any bad option
        named = _without_lang(words)[:1]
        command = " ".join(["uno-showdown", *(w for w in named if w in COMMANDS)])
        print(one_line(f"{command}: {exc}"), file=sys.stderr)
        return 2
    undecodable = next((w for w in words if _not_utf8(w)), None)
    if undecodable is not None:  # refused before anything is opened: nothing is written
        named = _without_lang(words)[:1]
        command = " ".join(["uno-showdown", *(w for w in named if w in COMMANDS)])
        shown = undecodable.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
        print(one_line(f"{command}: " + _(
            "the argument '{arg}' is not UTF-8 text: type it again (check the terminal's "
            "encoding)").format(arg=shown)), file=sys.stderr)
        return 2
    parser = build_parser(words)
    if not words:  # nothing asked: say what can be
        parser.print_help()
        return 0
    args = parser.parse_args(words)  # `--help` and `--version` end here
    args.lang = lang  # as typed (None: the system's), whichever parser read it
    if ready is not None:
        ready()
    try:
        status = args.func(args)
        if sys.stdout is not None:  # None: started with it closed (`>&-`), nothing to write
            sys.stdout.flush()  # here, where a full disk can still be reported, not at exit
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
        where = exc.filename or _("the output")
        print(one_line(f"uno-showdown {args.command}: " + _(
            "cannot write {where} ({why}): free some space or write somewhere else").format(
                where=where, why=exc.strerror)), file=sys.stderr)
        return 2
    except Exception as exc:
        # A ConfigError can only come from a command that loaded the contract's errors; looking
        # it up here rather than importing it keeps `--help` from paying for the import.
        errors = sys.modules.get("showdown.contract.errors")
        if errors is None or not isinstance(exc, errors.ConfigError):
            raise
        print(one_line(f"uno-showdown {args.command}: " + runnable(str(exc), args)),
              file=sys.stderr)
        return 2
    return int(status or 0)


def _not_utf8(word: str) -> bool:
    """Was this argument bytes that are not UTF-8? Python hands them over as lone surrogates
    (U+DC80 to U+DCFF), which no file, catalog or terminal can take."""
    return any("\udc80" <= ch <= "\udcff" for ch in word)


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
    from uno_showdown.commands.cli import main as package_main

    sys.exit(package_main())
