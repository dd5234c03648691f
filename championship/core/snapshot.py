"""The event as it stands at one moment, built from what was read: pure, no I/O.

`Championship.read` reads the stored event, its tables' time boxes, who sits at each table
and the standings' sums kept in the file, in one read transaction (a `Reading`);
`build_snapshot` turns a reading and a `now` into a `Snapshot`: the clock, every table's
state and deal count, the standings of qualifying and of the final, and the awards. The
standings do not depend on the time, so a reading works them out once and a screen can
build a snapshot every second.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from championship.core.clock import (
    FINAL,
    ClockView,
    Kind,
    StagePlan,
    Status,
    clock_view,
    flight_key,
    stage_plan,
)
from championship.core.i18n import _
from championship.core.model import (
    AuditRow,
    ChampionshipData,
    ChampionshipRow,
    HeldDeal,
    TableRow,
)
from championship.core.presence import Heard, table_state
from championship.core.ranking import Ranking, rank
from championship.core.results import Awards, awards
from championship.core.settings import Settings
from championship.core.standings import FINAL as FINAL_STAGE
from championship.core.standings import (
    QUALIFYING,
    Deal,
    Entrant,
    Line,
    finalists,
)
from championship.core.standings import game_deals as standings_game_deals
from companion.table.game import Game
from companion.table.records import BoxedGame
from companion.table.timebox import Phase, State, TimeBox


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

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE

    def left_us(self, now_us: int) -> int | None:
        """Microseconds still to play at `now_us` (see `TimeBox.left`)."""
        return self.box.left(now_us)


@dataclass(frozen=True, slots=True)
class TablesAt:
    """Every table's status as built at `since_us`, with what it was built from: it holds
    unchanged, and a reader that keeps it builds again only the tables whose deals or box
    moved, while the stored tables are the same object and no open box's time ran out
    (`until_us`, the first moment a phase changes with the time alone; None: none does). A
    phase is the one thing of a table the time changes."""

    tables: tuple[TableStatus, ...]
    index: Mapping[tuple[str, int], int]  # (stage, table) -> its place in `tables`
    built_from: tuple[TableRow, ...]  # the stored tables they were built for (by identity)
    deals: Mapping[tuple[str, int], int]
    since_us: int
    until_us: int | None
    flights: int
    final_over: bool


def _status(t: TableRow, boxed: BoxedGame, players: tuple[int, ...], deals: int, now: int
            ) -> TableStatus:
    box = boxed.box
    return TableStatus(t.stage, t.table, box, box.phase(now), boxed.current_game_id,
                       boxed.game_ids, t.seats, players, deals)


def table_statuses(reading: Reading, now: int, before: TablesAt | None = None,
                   moved: tuple[Iterable[tuple[str, int]], Iterable[int]] | None = None
                   ) -> TablesAt:
    """Every table's status at `now`. With `before` (what the same reader built last) that
    still holds and `moved` (the tables whose deal count moved since it was built, and the
    boxes read again since), only those tables are built again; otherwise every table is."""
    data, boxes, players_at = reading.data, reading.boxes, reading.players_by_box
    deals = reading.table_deals
    if before is not None and moved is not None and before.built_from is data.tables \
            and before.since_us <= now and (before.until_us is None or now < before.until_us):
        tables = list(before.tables)
        moved_deals, moved_boxes = moved
        places = {before.index[key] for key in moved_deals if key in before.index}
        if moved_boxes:
            box_ids = set(moved_boxes)
            places.update(i for i, t in enumerate(data.tables) if t.box_id in box_ids)
        for at in places:
            row = data.tables[at]
            tables[at] = _status(row, boxes[row.box_id], players_at.get(row.box_id, ()),
                                 deals.get((row.stage, row.table), 0), now)
        if not moved_boxes:
            return replace(before, tables=tuple(tables), deals=deals)
        return _tables_at(tuple(tables), data, deals, now)  # a box changed: its time too
    statuses = tuple(_status(t, boxes[t.box_id], players_at.get(t.box_id, ()),
                             deals.get((t.stage, t.table), 0), now) for t in data.tables)
    return _tables_at(statuses, data, deals, now)


def _tables_at(statuses: tuple[TableStatus, ...], data: ChampionshipData,
               deals: Mapping[tuple[str, int], int], now: int) -> TablesAt:
    ends = [s.box.ends_at_us for s in statuses if s.box.state is State.OPEN
            and s.box.ends_at_us is not None and now < s.box.ends_at_us]
    return TablesAt(statuses, {(s.stage, s.table): i for i, s in enumerate(statuses)},
                    data.tables, deals, now, min(ends) if ends else None,
                    len({t.stage for t in data.tables if t.stage != FINAL}),
                    any(s.stage == FINAL and s.done for s in statuses))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything about one event at one moment: what the CLI prints and the screens draw."""

    data: ChampionshipData
    now_us: int
    flights: int  # 0 before the draw
    plan: tuple[StagePlan, ...]
    clock: ClockView
    tables: tuple[TableStatus, ...]
    #: The standings' lines (`ranking.Lines`, or a tuple: any sequence of `Line`s).
    qualifying: Sequence[Line]
    final: Sequence[Line]
    awards: Awards
    version: int = 0  # the standings' sums' version it was built from
    held: tuple[HeldDeal, ...] = ()
    audit: tuple[AuditRow, ...] = ()
    presence: Mapping[int, Heard] = field(default_factory=dict)

    def deals_in(self, *stages: str) -> int:
        """How many deals the tables of these stages (all, without any) played."""
        return sum(t.deals for t in self.tables if not stages or t.stage in stages)

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

    def stage_closed(self, stage: str) -> bool:
        """Whether a stage's results are closed: a qualifying flight's once the final is
        seated (its results chose the finalists). The final's never close: a deal of the
        final can be decided until the awards are given, and they wait for it."""
        return stage != FINAL and self.final_seated

    @property
    def undecided(self) -> tuple[HeldDeal, ...]:
        """The deals held for the director that can still be decided (their stage is not
        closed): what the director is asked to restore or void."""
        return tuple(h for h in self.held if not self.stage_closed(h.stage))

    @property
    def awards_final(self) -> bool:
        """Whether the awards are given: the final is over and none of its deals is held for
        the director (a held deal could change the places)."""
        return self.over and not any(h.stage == FINAL for h in self.held)

    def stage_title(self, stage: str) -> str:
        return stage_title(stage, self.flights)

    def name_of(self, number: int) -> str:
        player = self.data.player(number)
        return player.name if player is not None else str(number)

    def table_presence(self, table: int) -> str:
        """The table's state as the director hears it (see `presence.table_state`)."""
        open_box = any(t.table == table and t.phase not in (Phase.WAITING, Phase.DONE)
                       for t in self.tables)
        return table_state(self.presence.get(table), self.now_us, open_box)

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
    return standings_game_deals(game, data.number_of, stage)


@dataclass(frozen=True)
class Reading:
    """The stored event, its tables' boxes, who sits at each table now, and the standings'
    sums (`championship.store.standings_sums`), read at one moment.

    None of it grows with the deals played: the sums are kept deal by deal in the file, so
    a reading of deal 10,000 costs what one of deal 10 does. What does not depend on the
    time (the standings) is worked out once per reading, so a screen can build a snapshot
    every second for its clock cheaply.
    """

    data: ChampionshipData
    boxes: dict[int, BoxedGame]
    #: The names at each game a table plays now, by game id, in their seating order.
    seated: Mapping[int, Sequence[str]]
    #: (points, games) per player number, by kind of stage (QUALIFYING, FINAL).
    sums: Mapping[str, Mapping[int, tuple[int, int]]] = field(default_factory=dict)
    #: Each table's deals, by (stage, table).
    table_deals: Mapping[tuple[str, int], int] = field(default_factory=dict)
    #: The sums' version in the file (moves on with every deal).
    version: int = 0
    #: Reported deals held for the director (a plausibility check failed): not counted.
    held: tuple[HeldDeal, ...] = ()
    #: Every void and restore, in order.
    audit: tuple[AuditRow, ...] = ()
    #: Each table's last heartbeat, by table number.
    presence: Mapping[int, Heard] = field(default_factory=dict)
    #: The qualifying and the final's standings as kept by a reader that moved them by the
    #: sums that changed since its last reading (`ranking.moved`); None: rank from `sums`.
    rankings: Rankings | None = None
    #: The player numbers at the game each table plays now, by box id, as kept by a reader
    #: while the tables did not change (`seated_numbers`); None: worked out from `seated`.
    players_at: Mapping[int, tuple[int, ...]] | None = None

    @cached_property
    def players_by_box(self) -> Mapping[int, tuple[int, ...]]:
        if self.players_at is not None:
            return self.players_at
        return seated_numbers(self.data, self.boxes, self.seated)

    @cached_property
    def ranked(self) -> Rankings:
        """The qualifying ranking and the final's: as kept, or worked out from the sums."""
        return self.rankings or rankings_of(self.data, self.sums)

    @cached_property
    def lines(self) -> tuple[Sequence[Line], Sequence[Line]]:
        """The qualifying standings, and the final's."""
        qualifying, final = self.ranked
        return qualifying.lines, final.lines if final is not None else ()


#: The qualifying standings, and the final's (None before the final is seated).
Rankings = tuple[Ranking, Ranking | None]


def seated_numbers(data: ChampionshipData, boxes: Mapping[int, BoxedGame],
                   seated: Mapping[int, Sequence[str]]) -> dict[int, tuple[int, ...]]:
    """The player numbers at the game each table plays now, by box id, in seating order."""
    out = {}
    for box_id, boxed in boxes.items():
        names = seated.get(boxed.current_game_id, ())
        out[box_id] = tuple(n for n in map(data.number_of, names) if n is not None)
    return out


def rankings_of(data: ChampionshipData, sums: Mapping[str, Mapping[int, tuple[int, int]]]
                ) -> Rankings:
    """Everyone ranked from the sums: every player in the qualifying, those seated at the
    final in the final's."""
    tie_break = data.event.settings.tie_break
    entrants = [Entrant(p.number, p.name, p.lot, p.withdrawn) for p in data.players]
    qualifying = rank(entrants, sums.get(QUALIFYING, {}), tie_break)
    final_table = next((t for t in data.tables if t.stage == FINAL), None)
    seated = set(final_table.seats) if final_table is not None else set()
    in_final = [e for e in entrants if e.number in seated]
    final = rank(in_final, sums.get(FINAL_STAGE, {}), tie_break) if in_final else None
    return qualifying, final


def build_snapshot(reading: Reading, now: int, tables: TablesAt | None = None) -> Snapshot:
    """The event as it stands at `now`, from what was read (pure); `tables`: every table's
    status at `now` as a reader that keeps them built it (`table_statuses`)."""
    data = reading.data
    settings = data.event.settings
    at = tables if tables is not None else table_statuses(reading, now)
    flights = at.flights
    plan = stage_plan(settings, flights) if flights else ()
    view = clock_view(data.clock, plan, now) if plan else ClockView(
        None, Status.NOT_STARTED, None, None, None, None)
    qualifying, final = reading.lines
    final_over = at.final_over and not any(h.stage == FINAL for h in reading.held)
    return Snapshot(data, now, flights, plan, view, at.tables, qualifying, final,
                    awards(qualifying, final, final_over, settings.luckiest,
                           reading.ranked[0].leaders), reading.version,
                    reading.held, reading.audit, reading.presence)
