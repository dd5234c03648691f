"""argparse's own words ("usage:", "options:", "the following arguments are required") speak
the language chosen with `--lang`, as the program's own help and refusals do (issue 36)."""

from __future__ import annotations

import argparse
import ast
import inspect
from collections.abc import Iterator

import pytest

from showdown.contract import i18n
from uno_showdown.commands import argparse_words
from uno_showdown.commands.cli import main

#: argparse's messages only a programmer meets (a parser built wrongly), left in English.
FOR_PROGRAMMERS = {
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    'argument "-" with mode %r',  # FileType's: argparse shows "invalid ... value" instead
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    ("conflicting option string: %s", "conflicting option strings: %s"),
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
    "%(heading)s:",  # 3.13's: ":" after a heading, as 3.11 writes it in every language
}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The language is the process's: the next test starts in English again."""
    yield
    i18n.set_language("en")


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[object, str, str]:
    """The exit status, output and errors of `uno-showdown ARGV`, which argparse ends."""
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_every_message_argparse_shows_is_listed() -> None:
    """The running Python's argparse says nothing to a user that the catalogs miss."""
    said = set()
    for node in ast.walk(ast.parse(inspect.getsource(argparse))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)
                     and isinstance(a.value, str)]
            if node.func.id == "_" and texts:
                said.add(texts[0])
            elif node.func.id == "ngettext" and len(texts) == 2:
                said.add((texts[0], texts[1]))
    listed = set(argparse_words.WORDS) | {("expected %s argument", "expected %s arguments")}
    assert said - FOR_PROGRAMMERS - listed == set()


def test_the_help_is_russian_to_its_headings(capsys) -> None:
    status, out, _err = refused(capsys, "duel", "--help", "--lang", "ru")
    assert status == 0
    assert out.startswith("использование: uno-showdown duel")
    assert "параметры:" in out and "показать эту справку и выйти" in out
    for english in ("usage:", "options:", "show this help message"):
        assert english not in out


def test_a_missing_argument_is_refused_in_ukrainian_on_one_line(capsys) -> None:
    status, out, err = refused(capsys, "points", "--lang", "uk")
    assert status == 2 and not out and err.count("\n") == 1
    assert "uno-showdown points: обов'язкові такі аргументи: --edition, CARD" in err
    assert "the following arguments" not in err


def test_english_is_argparses_own(capsys) -> None:
    status, out, _err = refused(capsys, "duel", "--help", "--lang", "en")
    assert status == 0 and out.startswith("usage: uno-showdown duel") and "options:" in out
    status, _out, err = refused(capsys, "points", "--lang", "en")
    assert status == 2 and "the following arguments are required: --edition, CARD" in err


@pytest.mark.parametrize("argv, guess", [
    (["--lang", "ru", "gam"], "'game'"),  # argparse's "invalid choice", in Russian
    (["simulate", "--dules", "3", "--lang", "ru"], "'--duels'"),  # its "unrecognized arguments"
])
def test_a_typo_is_still_guessed_in_another_language(capsys, argv, guess) -> None:
    """The guess reads argparse's refusal as the language words it."""
    status, _out, err = refused(capsys, *argv)
    assert status == 2 and err.count("\n") == 1
    assert f"вы имели в виду {guess}?" in err
