"""An event's settings: the seed's championship by default, each one a stated choice.

Seed 000 fixes: at most 7 players at a table; qualifying of 1 hour, or two flights of 45
minutes with a 15-minute break when the bar cannot seat everyone at once; a 10-minute break
after qualifying while the results are copied; a 1-hour final of the 7 best; games to 500.
It is silent on the deal in progress when the time is up (`time_up`: by default it is played
to its end and counts), on ties (`tie_break`: by default fewer points, then more games, then
the draw's lot), on the break after a second flight (we keep the 10-minute break), on how
many of the bar's tables a flight uses (`seating`: by default as few as seat everyone, the
seed playing "in teams of 7"; or all of them) and on the deck (classic: the seed's card
values are the classic deck's, and rule 2.4.8 allows no other rule; another deck only when
the director chooses it by name, `deck_chosen`).

The "luckiest" award is the seed's "participant who collected the most points in the
qualifying round" (`luckiest`: by default the most points; `result`, the highest points ÷
games, is a reading an event may choose instead).

Settings are stored as JSON with the event; a key missing from an older file takes its
default, so adding a setting needs no migration.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from championship.core.errors import ChampionshipError
from championship.core.i18n import N_, _
from companion.deck.editions import EDITIONS, edition_key
from companion.scoring import MAX_TARGET
from showdown.contract.errors import CompanionError

#: The seed's rule 1: a championship table seats at most seven.
MAX_TABLE_SIZE = 7
MAX_TABLES = 100
MAX_MINUTES = 600
MAX_BREAK_MINUTES = 240


class TimeUp(StrEnum):
    """What happens to the deal in progress when a table's time is up."""

    FINISH = "finish"  # it is played to its end and counts
    STOP = "stop"  # play stops at once; the deal does not count


class Seating(StrEnum):
    """How a flight's players are spread over the bar's tables."""

    FULL = "full"  # as few tables as seat them (the seed plays "in teams of 7")
    SPREAD = "spread"  # every table of the bar, fewer players at each (at least 2)


class TieKey(StrEnum):
    POINTS = "points"  # fewer points first
    GAMES = "games"  # more games first
    LOT = "lot"  # the draw's lot: drawn earlier first


class LuckyBy(StrEnum):
    """How the "luckiest" award is read."""

    POINTS = "points"  # the seed's words: the most points collected in qualifying
    RESULT = "result"  # the highest qualifying result (points ÷ games)


LUCKY_TITLES: Mapping[LuckyBy, str] = {
    LuckyBy.POINTS: N_("most qualifying points (seed 000)"),
    LuckyBy.RESULT: N_("highest qualifying result, points ÷ games (the event's setting)"),
}


TIE_KEY_TITLES: Mapping[TieKey, str] = {
    TieKey.POINTS: N_("fewer points"),
    TieKey.GAMES: N_("more games"),
    TieKey.LOT: N_("the draw's lot"),
}


@dataclass(frozen=True, slots=True)
class Settings:
    tables: int
    table_size: int = MAX_TABLE_SIZE
    qualifying_minutes: int = 60
    flight_minutes: int = 45
    flight_break_minutes: int = 15
    break_minutes: int = 10
    final_minutes: int = 60
    finalists: int = 7
    time_up: TimeUp = TimeUp.FINISH
    tie_break: tuple[TieKey, ...] = (TieKey.POINTS, TieKey.GAMES, TieKey.LOT)
    seating: Seating = Seating.FULL
    edition: str = "classic"
    target: int = 500
    luckiest: LuckyBy = LuckyBy.POINTS
    #: The director chose the deck by name (rule 2.4.8 plays the classic deck otherwise).
    deck_chosen: bool = False
    #: Whether the organiser gave `finalists`; if not, it follows the table size (the
    #: seed's 7, or a whole table when tables are smaller).
    finalists_given: bool = False

    # -- reading and writing --

    def to_json(self) -> str:
        data = asdict(self)
        data["time_up"] = self.time_up.value
        data["tie_break"] = [k.value for k in self.tie_break]
        data["seating"] = self.seating.value
        data["luckiest"] = self.luckiest.value
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        data = json.loads(text)
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "luckiest" in values:
            values["luckiest"] = LuckyBy(values["luckiest"])
        if "finalists_given" not in values and "finalists" in values:  # an older file
            size = values.get("table_size", MAX_TABLE_SIZE)
            values["finalists_given"] = values["finalists"] != _default_finalists(size)
        return make(**values)

    def changed(self, **values: Any) -> Settings:
        """These settings with some changed (None leaves a setting as it is), checked. A
        finalists count nobody gave follows a changed table size."""
        given = {k: v for k, v in values.items() if v is not None}
        kept = {f.name: getattr(self, f.name) for f in fields(self)}
        if "edition" in given:
            given["deck_chosen"] = True
        if "finalists" in given:
            given["finalists_given"] = True
        elif not self.finalists_given:
            del kept["finalists"]
        return make(**{**kept, **given})

    # -- what the stages are --

    def luckiest_text(self) -> str:
        """Which reading of the "luckiest" award this event uses, in words."""
        return _(LUCKY_TITLES[self.luckiest])

    def tie_break_text(self) -> str:
        return ", ".join(_(TIE_KEY_TITLES[k]) for k in self.tie_break)


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ChampionshipError(
            _("{name} must be a whole number from {low} to {high}, not {value}").format(
                name=name, low=low, high=high, value=value))
    return value


def parse_tie_break(value: str | tuple[str, ...] | list[str]) -> tuple[TieKey, ...]:
    """`points,games,lot` in any order; the lot is added last when left out (it never ties)."""
    items = value.split(",") if isinstance(value, str) else list(value)
    keys: list[TieKey] = []
    for item in items:
        word = str(item).strip().lower()
        if not word:
            continue
        try:
            key = TieKey(word)
        except ValueError:
            raise ChampionshipError(
                _("unknown tie-break {name!r}: use points, games and lot in the order "
                  "wanted, e.g. points,games,lot").format(name=word)) from None
        if key in keys:
            raise ChampionshipError(
                _("{name} is given twice in the tie-break: give it once").format(
                name=word))
        keys.append(key)
    if TieKey.LOT not in keys:
        keys.append(TieKey.LOT)
    return tuple(keys)


def make(**values: Any) -> Settings:
    """Settings from keyword values, every one checked; ChampionshipError names the first bad
    one."""
    base = Settings(tables=values.get("tables", 1))
    merged = {f.name: values.get(f.name, getattr(base, f.name)) for f in fields(Settings)}
    out = replace(
        base,
        tables=_whole("--tables", merged["tables"], 1, MAX_TABLES),
        table_size=_whole("--table-size", merged["table_size"], 2, MAX_TABLE_SIZE),
        qualifying_minutes=_whole("--qualifying-minutes", merged["qualifying_minutes"], 1,
                                  MAX_MINUTES),
        flight_minutes=_whole("--flight-minutes", merged["flight_minutes"], 1, MAX_MINUTES),
        flight_break_minutes=_whole("--flight-break-minutes", merged["flight_break_minutes"],
                                    0, MAX_BREAK_MINUTES),
        break_minutes=_whole("--break-minutes", merged["break_minutes"], 0,
                             MAX_BREAK_MINUTES),
        final_minutes=_whole("--final-minutes", merged["final_minutes"], 1, MAX_MINUTES),
        target=_whole("--target", merged["target"], 1, MAX_TARGET),
        tie_break=parse_tie_break(merged["tie_break"]),
    )
    try:
        time_up = TimeUp(str(merged["time_up"]).strip().lower())
    except ValueError:
        raise ChampionshipError(
            _("--time-up must be finish (the deal in progress is played to its end and "
              "counts) or stop (it does not count), not {value!r}").format(
                value=merged["time_up"])) from None
    try:
        seating = Seating(str(merged["seating"]).strip().lower())
    except ValueError:
        raise ChampionshipError(
            _("--seating must be full (as few tables as seat everyone) or spread (every "
              "table of the bar), not {value!r}").format(value=merged["seating"])) from None
    try:
        edition = edition_key(str(merged["edition"]))
    except CompanionError:
        raise ChampionshipError(_("unknown edition {name!r}: choose one of {choices}").format(
            name=merged["edition"], choices=", ".join(EDITIONS))) from None
    try:
        luckiest = LuckyBy(str(merged["luckiest"]).strip().lower())
    except ValueError:
        raise ChampionshipError(
            _("--luckiest must be points (the seed's most qualifying points) or result (the "
              "highest points ÷ games), not {value!r}").format(value=merged["luckiest"])
        ) from None
    if edition == "teams":
        raise ChampionshipError(
            _("the UNO Teams deck is played only with the teams scoring method, and a "
              "championship has its own: choose another deck (rule 2.4.8 plays the classic)"))
    deck_chosen = (bool(values["deck_chosen"]) if "deck_chosen" in values
                   else "edition" in values)
    given = "finalists" in values and bool(values.get("finalists_given", True))
    wanted = merged["finalists"] if given else _default_finalists(out.table_size)
    finalists = _whole("--finalists", wanted, 2, MAX_TABLE_SIZE)
    if finalists > out.table_size:
        raise ChampionshipError(
            _("the final is played at one table, so --finalists ({n}) cannot be more than "
              "--table-size ({size})").format(n=finalists, size=out.table_size))
    return replace(out, time_up=time_up, seating=seating, edition=edition,
                   finalists=finalists, finalists_given=given, luckiest=luckiest,
                   deck_chosen=deck_chosen)


def _default_finalists(table_size: int) -> int:
    """The seed's 7 finalists, or a whole table when tables are smaller."""
    return min(7, table_size)
