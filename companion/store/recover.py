"""Taking duels back from the duel log: what the table decided, for a games file that missed it.

The table appends every duel to its duel log (JSON lines, see `showdown.service.duel_log`) before
anything else hears of it; the games file records them afterwards and may miss some (it was
locked by another program until the table shut down). The log's record of a duel is enough
to store it again: the load line names the players at each side (`players`) and the cards,
each `verdict` line holds the result and the instant it was given (`t_us`) with the
wall-clock time (`at`), a `reactions` line both players' times, a `contested` line a late
press. Only those lines are read; the rest of the log (the inputs) is the replay's.

Each duel is named by its number in the log and the instant of its verdict (the same
`companion.store.duels.log_key` the recorder stores), so taking duels back twice stores each once.
The lines are read with the contract's reader (`showdown.contract.events.log_lines` and
`parse_log_line`), the one the replay uses too; which duels belong to a game, and after
which round, is the game's to say (`CompanionApp.recover_duels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.store.duels import log_key
from showdown.contract.events import Outcome, Side
from showdown.contract.i18n import _
from showdown.duel.log_lines import (
    MAX_LOG_LINE_CHARS,
    LogLineError,
    LogLineTooLong,
    log_lines,
    parse_log_line,
)


@dataclass
class LoggedDuel:
    """One verdict of the log, as the games file stores a duel."""

    log_key: str
    line: int  # the verdict's line in the log
    players: dict[Side, str]
    challenger: Side
    opponent: Side
    cards: int
    outcome: Outcome
    winner: Side | None
    loser: Side | None
    reaction_us: dict[Side, int | None] = field(default_factory=dict)
    at: str | None = None
    contested: bool = False

    def name(self, side: Side | None) -> str | None:
        return None if side is None else self.players.get(side)

    def launch_failed(self) -> None:
        """The log says the unit never confirmed this duel's launch: nobody won or takes
        the cards, as the table recorded it."""
        self.outcome = Outcome.LAUNCH_FAILED
        self.winner = self.loser = None


@dataclass
class _Loaded:
    players: dict[Side, str] | None
    challenger: Side
    opponent: Side
    cards: int
    verdicts: list[LoggedDuel] = field(default_factory=list)


@dataclass
class LogReading:
    """What the log holds: the duels it can give back, and how many it cannot."""

    duels: list[LoggedDuel] = field(default_factory=list)
    without_players: int = 0  # verdicts whose load line names no players (older logs)
    unreadable: int = 0  # lines that are not JSON objects


def _side(value: Any) -> Side | None:
    try:
        return Side.parse(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _players(value: Any) -> dict[Side, str] | None:
    if not isinstance(value, dict):
        return None
    out = {_side(k): v for k, v in value.items()}
    if None in out or not all(isinstance(v, str) and v.strip() for v in out.values()):
        return None
    return {k: v for k, v in out.items() if k is not None}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_log(lines: Iterable[str]) -> LogReading:
    """The duels a duel log records, in its order (aborted duels are not duels played)."""
    reading = LogReading()
    current: dict[int, _Loaded] = {}
    for number, text in enumerate(lines, start=1):
        try:
            obj = parse_log_line(text)
        except LogLineError:  # not JSON, nested too deep, a 5,000-digit number
            reading.unreadable += 1
            continue
        if obj is None:
            continue
        duel = _int(obj.get("duel"))
        kind = obj.get("input")
        if duel is None:
            continue
        if kind == "load":
            challenger, opponent = _side(obj.get("challenger")), _side(obj.get("opponent"))
            cards = _int(obj.get("cards"))
            if challenger is None or opponent is None or cards is None:
                continue
            current[duel] = _Loaded(_players(obj.get("players")), challenger, opponent, cards)
        elif kind == "verdict" and duel in current:
            _verdict(reading, current[duel], duel, number, obj)
        elif kind == "reactions" and duel in current and current[duel].verdicts:
            times = obj.get("reaction_us")
            if isinstance(times, dict):
                last = current[duel].verdicts[-1]
                for side in Side:
                    value = _int(times.get(side.value))
                    if value is not None:
                        last.reaction_us[side] = value
        elif kind == "contested" and duel in current and current[duel].verdicts:
            current[duel].verdicts[-1].contested = True
        elif kind == "launch_failed" and duel in current and current[duel].verdicts:
            current[duel].verdicts[-1].launch_failed()
    return reading


def _verdict(reading: LogReading, loaded: _Loaded, duel: int, number: int,
             obj: dict[str, Any]) -> None:
    result = obj.get("result")
    t_us = _int(obj.get("t_us"))
    if not isinstance(result, dict) or t_us is None:
        return  # a log older than verdict instants: its duels have no name to keep
    try:
        outcome = Outcome(str(result.get("outcome")))
    except ValueError:
        return
    if outcome is Outcome.ABORTED:
        return
    if loaded.players is None or not {loaded.challenger, loaded.opponent} <= set(loaded.players):
        reading.without_players += 1
        return
    given = result.get("reaction_us")
    times: dict[str, Any] = given if isinstance(given, dict) else {}
    at = obj.get("at")
    logged = LoggedDuel(
        str(log_key(duel, t_us)), number, dict(loaded.players), loaded.challenger, loaded.opponent,
        loaded.cards, outcome, _side(result.get("winner")), _side(result.get("loser")),
        {side: _int(times.get(side.value)) for side in Side},
        at if isinstance(at, str) else None,
    )
    loaded.verdicts.append(logged)
    reading.duels.append(logged)


#: The longest line read: the contract's limit, the replay's too.
MAX_LINE_CHARS = MAX_LOG_LINE_CHARS


class LogTooLong(ValueError):
    """A line longer than `MAX_LINE_CHARS`: the file is not a duel log."""


def iter_lines(path: str) -> Iterator[str]:
    """The log's lines one at a time, none longer than `MAX_LINE_CHARS` (`LogTooLong`)."""
    with open(path, encoding="utf-8") as stream:
        try:
            yield from log_lines(stream)
        except LogLineTooLong as exc:
            raise LogTooLong(_("line {n} is longer than {max} characters: this is not a "
                               "duel log").format(n=exc.line, max=exc.limit)) from None
