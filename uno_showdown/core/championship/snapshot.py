"""The event as it stands at one moment, built from what was read: pure, no I/O.

`Championship.read` reads the stored event, its tables' time boxes and every game they
played in one read transaction (a `Reading`); `build_snapshot` turns a reading and a `now`
into a `Snapshot`: the clock, every table's state, the deals as records, the standings of
qualifying and of the final, and the awards. The deals and standings do not depend on the
time, so a reading works them out once and a screen can build a snapshot every second.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from uno_showdown.core.championship.clock import (
    FINAL,
    ClockView,
    Kind,
    StagePlan,
    Status,
    clock_view,
    flight_key,
    stage_plan,
)
from uno_showdown.core.championship.i18n import _
from uno_showdown.core.championship.model import ChampionshipData, ChampionshipRow
from uno_showdown.core.championship.results import Awards, awards
from uno_showdown.core.championship.settings import Settings
from uno_showdown.core.championship.standings import FINAL as FINAL_STAGE
from uno_showdown.core.championship.standings import (
    QUALIFYING,
    Deal,
    Entrant,
    Line,
    finalists,
    standings,
)
from uno_showdown.core.table.game import Game
from uno_showdown.core.table.records import BoxedGame
from uno_showdown.core.table.timebox import Phase, TimeBox


def stage_title(stage: str, flights: int) -> str:
    if stage == FINAL:
        return _("Final")
    number = int(stage.rsplit("-", 1)[1])
    return _("Qualifying") if flights <= 1 else _("Flight {n}").format(n=number)


def table_title(table: int) -> str:
    return _("Table {n}").format(n=table)


@dataclass(frozen=True, slots=True)
class TableStatus:
    """One table of one stage as it stands."""

    stage: str
    table: int
    box: TimeBox
    phase: Phase
    game_id: int  # the game the table plays now
    game_ids: tuple[int, ...]  # every game it played in the stage, in order
    seats: tuple[int, ...]  # player numbers as seated by the draw
    players: tuple[int, ...]  # player numbers at the table now
    deals: int  # deals recorded in the stage at this table
    left_us: int | None

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything about one event at one moment: what the CLI prints and the screens draw."""

    data: ChampionshipData
    now_us: int
    flights: int  # 0 before the draw
    plan: tuple[StagePlan, ...]
    clock: ClockView
    tables: tuple[TableStatus, ...]
    deals: tuple[Deal, ...]
    qualifying: tuple[Line, ...]
    final: tuple[Line, ...]
    awards: Awards

    @property
    def event(self) -> ChampionshipRow:
        return self.data.event

    @property
    def settings(self) -> Settings:
        return self.data.event.settings

    def stage_tables(self, stage: str) -> tuple[TableStatus, ...]:
        return tuple(t for t in self.tables if t.stage == stage)

    def stage_done(self, stage: str) -> bool:
        tables = self.stage_tables(stage)
        return bool(tables) and all(t.done for t in tables)

    @property
    def qualifying_stages(self) -> tuple[str, ...]:
        return tuple(flight_key(n) for n in range(1, self.flights + 1))

    @property
    def qualifying_done(self) -> bool:
        return self.flights > 0 and all(self.stage_done(s) for s in self.qualifying_stages)

    @property
    def final_seated(self) -> bool:
        return bool(self.stage_tables(FINAL))

    @property
    def over(self) -> bool:
        return self.stage_done(FINAL)

    def stage_title(self, stage: str) -> str:
        return stage_title(stage, self.flights)

    def name_of(self, number: int) -> str:
        player = self.data.player(number)
        return player.name if player is not None else str(number)

    def cut(self) -> list[int]:
        """Who would sit at the final now: the best qualifying results."""
        return finalists(self.qualifying, self.settings.finalists)


def started(data: ChampionshipData) -> set[str]:
    return {e.stage for e in data.clock if e.kind is Kind.START}


def number_of(name: str, data: ChampionshipData) -> int | None:
    return data.number_of(name)


def numbers(game: Game, data: ChampionshipData) -> list[int]:
    """The event's numbers of a game's players, in their seating order."""
    out = []
    for name in game.names:
        number = data.number_of(name)
        if number is not None:
            out.append(number)
    return out


def game_deals(game: Game, data: ChampionshipData, stage: str) -> Iterable[Deal]:
    """A game's deals as records keyed by game and round, at the game's revision."""
    for row in game.history():
        points = {}
        for name in row.hands:
            number = number_of(name, data)
            if number is not None:
                points[number] = int(row.points.get(name, 0))
        yield Deal(f"{game.id}:{row.number}", game.revision, stage, points)


@dataclass(frozen=True)
class Reading:
    """The stored event, its tables' boxes and every game they played, read at one moment.

    What does not depend on the time (the deals, the standings) is worked out once per
    reading, so a screen can build a snapshot every second for its clock cheaply.
    """

    data: ChampionshipData
    boxes: dict[int, BoxedGame]
    games: dict[int, Game]
    #: Deals that tables on other machines reported, by (stage, table): their latest
    #: revisions, a deal taken back without points.
    remote: Mapping[tuple[str, int], tuple[Deal, ...]] = field(default_factory=dict)

    @cached_property
    def table_deals(self) -> dict[int, tuple[Deal, ...]]:
        """Each table's live deals (by its box): those recorded in this file, across the
        games it played, and those its own machine reported."""
        out = {}
        for t in self.data.tables:
            stage = FINAL_STAGE if t.stage == FINAL else QUALIFYING
            local = (d for gid in self.boxes[t.box_id].game_ids
                     for d in game_deals(self.games[gid], self.data, stage))
            reported = (d for d in self.remote.get((t.stage, t.table), ())
                        if d.points is not None)
            out[t.box_id] = (*local, *reported)
        return out

    @cached_property
    def deals(self) -> tuple[Deal, ...]:
        return tuple(d for deals in self.table_deals.values() for d in deals)

    @cached_property
    def lines(self) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
        """The qualifying standings, and the final's."""
        data = self.data
        tie_break = data.event.settings.tie_break
        entrants = [Entrant(p.number, p.name, p.lot, p.withdrawn) for p in data.players]
        qualifying = standings(entrants, self.deals, QUALIFYING, tie_break)
        final_table = next((t for t in data.tables if t.stage == FINAL), None)
        seated = set(final_table.seats) if final_table is not None else set()
        in_final = [e for e in entrants if e.number in seated]
        final = standings(in_final, self.deals, FINAL_STAGE, tie_break) if in_final else []
        return tuple(qualifying), tuple(final)


def build_snapshot(reading: Reading, now: int) -> Snapshot:
    """The event as it stands at `now`, from what was read (pure)."""
    data, boxes, games = reading.data, reading.boxes, reading.games
    settings = data.event.settings
    flights = len({t.stage for t in data.tables if t.stage != FINAL})
    plan = stage_plan(settings, flights) if flights else ()
    view = clock_view(data.clock, plan, now) if plan else ClockView(
        None, Status.NOT_STARTED, None, None, None, None)
    tables: list[TableStatus] = []
    for t in data.tables:
        boxed = boxes[t.box_id]
        current = games.get(boxed.current_game_id)
        players = tuple(numbers(current, data)) if current is not None else ()
        tables.append(TableStatus(t.stage, t.table, boxed.box, boxed.box.phase(now),
                                  boxed.current_game_id, boxed.game_ids, t.seats, players,
                                  len(reading.table_deals[t.box_id]), boxed.box.left(now)))
    qualifying, final = reading.lines
    final_over = any(t.stage == FINAL and t.done for t in tables)
    return Snapshot(data, now, flights, plan, view, tuple(tables), reading.deals,
                    qualifying, final, awards(qualifying, final, final_over,
                                               settings.luckiest))
