"""How the championship's numbers and settings read to people: shared by the CLI, the
screens and the results sheet, so they all say the same thing the same way."""

from __future__ import annotations

import math
from fractions import Fraction

from championship.core.i18n import _, ngettext
from championship.core.settings import Seating, Settings, TimeUp


def fraction_text(value: Fraction | None) -> str | None:
    """An exact result for JSON: "37/3", or "12" when whole."""
    if value is None:
        return None
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def points_in_games(points: int, games: int) -> tuple[str, str]:
    """"1 point", "in 2 games": each counted in the language's plural forms."""
    return (ngettext("{n} point", "{n} points", points).format(n=points),
            ngettext("in {n} game", "in {n} games", games).format(n=games))


def decimal_text(value: Fraction | None) -> str:
    """A result for people: two decimals, rounded half up; "-" without a game."""
    if value is None:
        return "-"
    hundredths = math.floor(value * 100 + Fraction(1, 2))
    whole, frac = divmod(hundredths, 100)
    return f"{whole}.{frac:02d}"


def ours(line: str, setting: str | None) -> str:
    """A setting's line marked as the program's own choice where the regulation (seed 000)
    is silent, with the option that changes it (or none)."""
    if setting is None:
        return line + " " + _("Our choice: the regulation is silent; no setting changes it.")
    return line + " " + _("Our choice: the regulation is silent; {setting} changes it.").format(
        setting=setting)


def settings_lines(s: Settings) -> list[str]:
    """The event's settings, one line each: the regulation's numbers as they are, and each of
    the program's own choices marked as such with the setting that changes it."""
    time_up = (_("When the time is up, the deal in progress is played to its end and counts.")
               if s.time_up is TimeUp.FINISH else
               _("When the time is up, play stops at once and the deal in progress does not "
                 "count."))
    return [
        ours(_("Tables: {tables} of at most {size} players ({seating}).").format(
            tables=s.tables, size=s.table_size,
            seating=_("as few as seat a flight") if s.seating is Seating.FULL
            else _("every table used")), "--seating"),
        _("Qualifying: one flight of {q} min, or two of {f} min with a {fb}-min break; then "
          "a {b}-min break.").format(q=s.qualifying_minutes, f=s.flight_minutes,
                                     fb=s.flight_break_minutes, b=s.break_minutes),
        _("Final: {n} players, {m} min. Games to {t}; deck: {deck}.").format(
            n=s.finalists, m=s.final_minutes, t=s.target, deck=s.edition),
        ours(_("A result is points ÷ deals played at the table: a \"game\" of the formula is "
               "one deal, and a game to {t} has no winner of its own.").format(t=s.target),
             None),
        ours(time_up, "--time-up"),
        ours(_("Equal results: {order}.").format(order=s.tie_break_text()), "--tie-break"),
        ours(_("Late arrivals: registration closes when qualifying starts."), None),
        deck_line(s),
        _("The luckiest: {reading}.").format(reading=s.luckiest_text()),
    ]


def deck_line(s: Settings) -> str:
    """Rule 2.4.8 in one line: the classic deck and no house rules, or the director's
    explicit choice of another deck."""
    if s.edition == "classic":
        return _("Rule 2.4.8: no other rules apply, so the tables play the classic deck with "
                 "no house rules.")
    return _("Deck: {deck}, chosen by the director; rule 2.4.8 alone would play the classic "
             "deck with no house rules.").format(deck=s.edition)
