"""Cells of the CSV files the program writes, safe to open in a spreadsheet.

A spreadsheet takes a cell that starts with `=`, `+`, `-` or `@` (and, in some, a tab or a
carriage return before them) as a formula: a player registered as `=HYPERLINK(…)` or
`=cmd|' /C calc'!A0` would run it on the computer of whoever opens the standings. So, as
OWASP's "CSV injection" advice says, every text cell that starts with one of those
characters is written with a `'` before it (which the spreadsheet shows as text); the
name itself is kept as typed everywhere else (screens, page, games file).

`game import` reads back what `game export` wrote: `text_of` takes the `'` off again, and
a text that already starts with `'` before one of them gets one more, so every name comes
back as it was."""

from __future__ import annotations

#: What starts a formula in a spreadsheet (OWASP: = + - @ tab carriage return).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _quoted_formula(text: str) -> bool:
    """Does `text` start with a formula character, after any `'`s?"""
    return text.lstrip("'")[:1] in FORMULA_STARTS if text else False


def cell(value: object) -> object:
    """A value as written to a CSV cell: text that a spreadsheet would take for a formula
    gets a `'` before it; numbers and other text are written as they are."""
    if isinstance(value, str) and _quoted_formula(value):
        return "'" + value
    return value


def row(values: list[object]) -> list[object]:
    """Every cell of a row through `cell`."""
    return [cell(v) for v in values]


def text_of(written: str) -> str:
    """The text a cell written by `cell` stood for (the `'` it added taken off)."""
    if written.startswith("'") and _quoted_formula(written):
        return written[1:]
    return written
