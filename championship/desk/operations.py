"""The organiser's operations on one event, each checked first and written in one transaction.

`Championship` is to the organiser what `companion.app.CompanionApp` is to a table: the CLI
and the director's screen ask it, it asks the pure cores (draw, clock, standings, results)
and writes through the stores. Every change reads the event inside its own write
transaction, so two organisers' commands (or the screen and a terminal) never act on a
stale view, and a refusal (`ChampionshipError`, one sentence) writes nothing.

How the event drives the tables: the draw makes every table a companion game under the
championship method, inside a time box (`companion.table.timebox`) that waits for its stage;
`start`, `pause`, `resume` and `end` write a clock event and every box of the stage in one
transaction. From then on the companion itself refuses a round at a table whose box is
closed, whichever process records it; the event only reads the games back to rank players.

The clock is wall-clock microseconds from `clock` (tests pass a simulated one).
"""

from __future__ import annotations

import secrets
import shlex
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import overload

from championship.core.clock import FINAL, Kind, Status, flight_key, stage_plan
from championship.core.draw import Draw, make_draw
from championship.core.errors import ChampionshipError
from championship.core.i18n import _, ngettext
from championship.core.model import ChampionshipData, HeldDeal, TableRow
from championship.core.ranking import moved
from championship.core.settings import MAX_TABLE_SIZE, Seating, Settings, TimeUp
from championship.core.snapshot import (
    Rankings,
    Reading,
    Snapshot,
    TablesAt,
    TableStatus,
    build_snapshot,
    game_deals,
    number_of,
    numbers,
    rankings_of,
    seated_numbers,
    stage_title,
    started,
    table_statuses,
    table_title,
)
from championship.core.standings import FINAL as FINAL_KIND
from championship.core.standings import QUALIFYING, Deal, Line, finalists
from championship.store.event_store import ChampionshipStore
from companion.scoring import Rules
from companion.store import wallclock
from companion.store.games import Store
from companion.store.games_file import default_db_path
from companion.store.wallclock import iso
from companion.table.game import Game, check_name
from companion.table.names import name_key
from companion.table.records import BoxedGame
from companion.table.timebox import State, TimeBox, clock_text
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import set_language
from showdown.contract.record import replace
from showdown.contract.text import check_plain

#: How a reader that keeps the stored event gives it, inside the read's transaction.
DataOf = Callable[[sqlite3.Connection], ChampionshipData]
#: The most players an event takes: two full flights at the most tables there can be.
MAX_PLAYERS = 2 * 100 * MAX_TABLE_SIZE
MAX_EVENT_NAME = 80
#: The largest seed a draw takes (it must fit the games file as an integer).
MAX_SEED = 2**63 - 1
#: Why a draw must be made again (stored with the event).
STALE_REGISTERED = "registered"
STALE_WITHDRAWN = "withdrawn"
STALE_SETTINGS = "settings"


@dataclass(frozen=True, slots=True)
class Seated:
    """A table as seated: the JSON of `event draw` and `event final`."""

    stage: str
    table: int
    game_id: int
    players: tuple[int, ...]


class Championship:
    """One event in a games file; see the module docstring."""

    def __init__(self, store: Store, event_id: int | None, *,
                 clock: Callable[[], int] | None = None) -> None:
        self.store = store
        self.events = ChampionshipStore(store)
        self.event_id = event_id
        self.clock: Callable[[], int] = clock or wallclock.now
        #: The standings as last read, moved by what changed at the next reading.
        self._kept: _KeptStandings | None = None
        #: The tables' boxes and seats as last read, kept while they did not change.
        self._kept_tables: _KeptTables | None = None
        #: The tables' statuses of the last snapshot, and the tables whose deal count moved
        #: since (None: not known, so every status is built again).
        self._kept_statuses: TablesAt | None = None
        self._deals_moved: set[tuple[str, int]] | None = None
        #: The boxes read again since the last snapshot (None: every box was).
        self._boxes_moved: set[int] | None = None
        #: One snapshot at a time moves what is kept (a screen's thread and the director's).
        self._keeping = threading.RLock()
        #: Whether the games file was named (not the user's default one): the commands this
        #: event prints name it too, so that they run as printed.
        self.named_file = False

    @classmethod
    def open(cls, db_path: str | Path | None = None, event_id: int | None = None, *,
             lang: str | None = None, clock: Callable[[], int] | None = None,
             create: bool = True) -> Championship:
        """Open the games file and the event (the most recent one by default). Without
        `create`, a games file that does not exist is refused, not made (a typo in `--db`
        must not leave an empty file, or folders, behind)."""
        set_language(lang)
        if not create:
            path = Path(db_path if db_path is not None else default_db_path())
            try:
                missing = not path.exists()
            except (OSError, ValueError):  # a name too long, a NUL: the store says so
                missing = False
            if missing:
                raise ChampionshipError(_("there is no games file at {path}: check --db, or create "
                                   "an event with `uno-showdown event new NAME --tables N`"
                                   ).format(path=path))
        store = Store(db_path)
        try:
            champ = cls(store, None, clock=clock)
            champ.named_file = db_path is not None and not _is_default(db_path)
            ids = _event_ids(champ)
            if event_id is None:
                champ.event_id = ids[-1] if ids else None
            elif event_id not in ids:
                raise ChampionshipError(
                    _("there is no event {id} in {path}: see `uno-showdown event list`").format(
                        id=event_id, path=store.path))
            else:
                champ.event_id = event_id
            return champ
        except BaseException:
            store.close()
            raise

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Championship:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def typed(self, words: str) -> str:
        """A command for this event as it runs when typed: `uno-showdown WORDS`, with `--db`
        when the games file is not the default one and `--event` when the event is not the
        file's newest (a command the program prints must run as printed)."""
        extra = []
        if self.named_file:
            extra += ["--db", shlex.quote(str(self.store.path))]
        if self.event_id is not None and self.event_id != max(self.events.event_ids(),
                                                               default=None):
            extra += ["--event", str(self.event_id)]
        return " ".join(["uno-showdown", words, *extra])

    def decide_text(self, held: HeldDeal) -> str:
        """A deal held for the director, named with the two commands that decide it."""
        from championship.core.presence import held_text

        deal = short_deal_id(held.deal_id)
        where = f"--table {held.table} --deal {deal} --why \"…\""
        return _("table {table}, deal {deal} ({why}): `{restore}` counts it, `{void}` leaves "
                 "it out").format(table=held.table, deal=deal, why=held_text(held.reason),
                                  restore=self.typed(f"event restore {where}"),
                                  void=self.typed(f"event void {where}"))

    def _require_decided(self, snap: Snapshot, stages: Sequence[str]) -> None:
        """Refuse to close the results of `stages` while a deal of theirs is held for the
        director: once closed, it could never be decided, and it may change who goes on."""
        held = [h for h in snap.held if h.stage in stages]
        if held:
            raise ChampionshipError(
                ngettext("{n} deal of qualifying is held for the director and could change who "
                         "plays the final; decide it first: {deals}",
                         "{n} deals of qualifying are held for the director and could change "
                         "who plays the final; decide each first: {deals}", len(held)).format(
                    n=len(held), deals="; ".join(self.decide_text(h) for h in held)))

    def _require(self) -> int:
        if self.event_id is None:
            raise ChampionshipError(
                _("there is no event yet: create one with `uno-showdown event new "
                  "NAME --tables N`"))
        return self.event_id

    # -- reading --

    def events_list(self) -> list[tuple[int, str, str, int]]:
        """(id, name, created_at, players) of every event, oldest first."""
        if not self.events.event_ids():
            return []
        with self.events.reading() as conn:
            return self.events.listed(conn)

    def snapshot(self, data_of: DataOf | None = None) -> Snapshot:
        """The event now, read in one read transaction (a consistent moment of the file).
        The tables' statuses are kept from the last snapshot and only those of the tables
        whose deals moved since are built again (`table_statuses`)."""
        with self._keeping:
            reading = self.read(data_of)
            now = self.clock()
            deals, boxes = self._deals_moved, self._boxes_moved
            self._deals_moved, self._boxes_moved = set(), set()
            moved = None if deals is None or boxes is None else (deals, boxes)
            tables = table_statuses(reading, now, self._kept_statuses, moved)
            self._kept_statuses = tables
            return build_snapshot(reading, now, tables)

    def read(self, data_of: DataOf | None = None) -> Reading:
        """What the event's snapshot is built from, read at one moment; a screen keeps it and
        builds a snapshot every second without reading the file again. `data_of` gives the
        stored event (players, tables, clock) inside the read, for a reader that keeps it
        while the file says nobody changed it (the director, per deal)."""
        event_id = self._require()
        load = data_of or (lambda conn: self._event_in(conn, event_id))
        with self.events.reading() as conn:
            reading = self._read_in(conn, load(conn), summed=False)
        if reading is not None:
            return reading
        self._sum_once(event_id)
        with self.events.reading() as conn:
            return self._read_in(conn, load(conn))

    def _event_in(self, conn: sqlite3.Connection, event_id: int) -> ChampionshipData:
        """The stored event (players, tables, clock), kept from the last reading while its
        version in the file (`shape_version`) says nobody changed it: a reading after a
        deal reads no players."""
        kept = self._kept
        if kept is not None and kept.event_id == event_id and \
                kept.shape == self.events.shape_version(conn, event_id):
            return kept.data
        return self.events.load(conn, event_id)

    def _tables_in(self, conn: sqlite3.Connection, data: ChampionshipData) -> _KeptTables:
        """The tables' boxes, who sits at each and their numbers, in the caller's read
        transaction: kept from the last reading while the event (`shape_version`) did not
        change, and read again only for the boxes that changed since (their row, their
        games, who sits there: noted by the file's triggers whoever writes), so a reading
        after a deal reads no box and no seat, and one after a table's new game reads that
        table's."""
        event_id = data.event.id
        key = (event_id, self.events.shape_version(conn, event_id) or 0,
               self.events.tables_version(conn, event_id))
        kept = self._kept_tables
        if kept is not None and kept.key[:2] == key[:2] and (kept.tables is data.tables or all(
                t.box_id in kept.boxes for t in data.tables)):
            if kept.key == key:
                return kept
            changed = [b for b in self.events.boxes_changed_since(conn, kept.key[2])
                       if b in kept.boxes]
            boxes = {**kept.boxes, **self.store.boxes.load_many(changed)}
            seated: Mapping[int, Sequence[str]] = {**kept.seated, **self.events.seated_names(
                conn, [boxes[b].current_game_id for b in changed])}
            players_at = {**kept.players_at, **seated_numbers(
                data, {b: boxes[b] for b in changed}, seated)}
            if self._boxes_moved is not None:
                self._boxes_moved.update(changed)
        else:
            boxes = self.store.boxes.load_many([t.box_id for t in data.tables])
            seated = self.events.seated_names(conn, [b.current_game_id for b in boxes.values()])
            players_at = seated_numbers(data, boxes, seated)
            self._boxes_moved = None
        self._kept_tables = _KeptTables(key, data.tables, boxes, seated, players_at)
        return self._kept_tables

    def _standings_in(self, conn: sqlite3.Connection, data: ChampionshipData
                      ) -> _KeptStandings | None:
        """The kept sums and both standings, in the caller's read transaction; None if the
        event is not summed yet. What was kept from the last reading is moved by the sums
        that changed since (their rows carry the version they moved at), so a reading costs
        what changed, not what the event holds; a change of the event itself (players,
        lots, tie-break, tables: `shape_version`) or of the sums as a whole (summed again)
        ranks everyone afresh."""
        event_id = data.event.id
        version = self.events.sums_version(conn, event_id)
        if version is None:
            return None
        shape = self.events.shape_version(conn, event_id) or 0
        kept = self._kept
        if kept is not None and kept.event_id == event_id and kept.shape == shape \
                and kept.version <= version:
            if kept.version == version:
                return kept
            changes = self.events.sums_moved_since(conn, event_id, kept.version)
            qualifying, final = kept.rankings
            rankings = (moved(qualifying, changes.get(QUALIFYING, {})),
                        moved(final, changes.get(FINAL_KIND, {})) if final is not None
                        else None)
            deals = self.events.table_deals_moved_since(conn, event_id, kept.version)
            if self._deals_moved is not None:
                self._deals_moved.update(deals)
            table_deals = {**kept.table_deals, **deals} if deals else kept.table_deals
            data = kept.data
        else:
            found = self.events.kept_sums(conn, event_id)
            if found is None:
                return None
            rankings = rankings_of(data, found.by_kind)
            table_deals = found.table_deals
            self._deals_moved = None
        self._kept = _KeptStandings(event_id, shape, version, data, rankings, table_deals)
        return self._kept

    def standings(self) -> tuple[Settings, Sequence[Line], Sequence[Line]]:
        """The settings and the qualifying and final standings alone: the players and the
        kept sums, without the tables' boxes and seats a snapshot also reads."""
        event_id = self._require()
        with self.events.reading() as conn:
            data = self.events.load(conn, event_id)
            kept = self.events.kept_sums(conn, event_id)
        if kept is None:
            reading = self.read()
        else:
            reading = Reading(data, {}, {}, kept.by_kind, kept.table_deals, kept.version)
        qualifying, final = reading.lines
        return reading.data.event.settings, qualifying, final

    def ordered_standings(self) -> tuple[list[str], list[str]] | None:
        """The qualifying standings' entries as `event standings --json` prints them after
        the rank (`championship.core.standings_json`): the ranked in order (rank 1 first),
        walked from the order the file keeps (`ChampionshipStore.ordered_entries`) instead
        of ranked here, and the unranked by number. None for an event not summed yet."""
        event_id = self._require()
        with self.events.reading() as conn:
            if self.events.sums_version(conn, event_id) is None:
                return None
            tie_break = self.events.load_settings(conn, event_id).tie_break
            return self.events.ordered_entries(conn, event_id, tie_break)

    def _sum_once(self, event_id: int) -> None:
        """Sum an event written before the standings were kept (once, then kept)."""
        try:
            with self.store.transaction() as conn:
                if self.events.sums_version(conn, event_id) is None:
                    self.events.rebuild_sums(conn, event_id)
        except CompanionError:
            pass  # a file this program may not write: each reading sums the deals itself

    @overload
    def _read_in(self, conn: sqlite3.Connection, data: ChampionshipData) -> Reading: ...

    @overload
    def _read_in(self, conn: sqlite3.Connection, data: ChampionshipData, summed: bool
                 ) -> Reading | None: ...

    def _read_in(self, conn: sqlite3.Connection, data: ChampionshipData,
                 summed: bool = True) -> Reading | None:
        """The reading inside the caller's transaction. An event whose sums are not kept yet
        is summed from its deals here (`summed`), or None is returned so that the caller
        sums it once in a write transaction."""
        tables = self._tables_in(conn, data)
        boxes, seated = tables.boxes, tables.seated
        event_id, events = data.event.id, self.events
        kept = self._standings_in(conn, data)
        if kept is None and not summed:
            return None
        held = events.held_deals(conn, event_id) if data.tables else ()
        audit = events.audit(conn, event_id) if data.tables else ()
        presence = events.presence(conn, event_id) if data.tables else {}
        if kept is not None:
            return Reading(data, boxes, seated, kept.sums, kept.table_deals, kept.version, held,
                           audit, presence, kept.rankings, tables.players_at)
        by_kind, table_deals, _games = events.counted_sums(conn, data)
        return Reading(data, boxes, seated, by_kind, table_deals, -1, held, audit, presence)

    def deal_book(self, table: int | None = None) -> DealBook:
        """Every deal of a table (of every table without one) with the director's word on
        it, read at one moment: what `deal_list` and the director's void and restore look
        at. It reads the games and the reported deals themselves (a `Reading` holds only the
        kept sums), so it costs what the event's deals do."""
        event_id = self._require()
        with self.events.reading() as conn:
            return self._deal_book_in(conn, self.events.load(conn, event_id), table)

    def _deal_book_in(self, conn: sqlite3.Connection, data: ChampionshipData,
                      table: int | None = None) -> DealBook:
        event_id = data.event.id
        games: dict[int, Game] = {}
        boxes: dict[int, tuple[int, ...]] = {}
        for t in data.tables:
            if table is None or t.table == table:
                boxes[t.box_id] = tuple(self.store.boxes.load(t.box_id).game_ids)
                games.update((gid, self.store.games.load(gid)) for gid in boxes[t.box_id])
        return DealBook(data, boxes, games, self.events.remote_deals(conn, event_id),
                        self.events.voided(conn, event_id),
                        self.events.held_deals(conn, event_id))

    def check_sums(self) -> tuple[bool, int]:
        """Whether the standings kept deal by deal equal those worked out from every deal
        now (read at one moment), their kept order included (each sum's result), and how
        many deals were counted."""
        event_id = self._require()
        self.read()  # an event not summed yet is summed first
        with self.events.reading() as conn:
            data = self.events.load(conn, event_id)
            kept = self.events.kept_sums(conn, event_id)
            by_kind, table_deals, _games = self.events.counted_sums(conn, data)
            astray = self.events.kept_astray(conn, event_id)
        deals = sum(table_deals.values())
        if kept is None:
            return False, deals
        same = (not astray and _live(kept.by_kind) == _live(by_kind)
                and {k: v for k, v in kept.table_deals.items() if v} ==
                {k: v for k, v in table_deals.items() if v})
        return same, deals

    def resum(self) -> None:
        """Sum the standings again from every deal (after `check_sums` found them apart)."""
        event_id = self._require()
        with self.store.transaction() as conn:
            self.events.rebuild_sums(conn, event_id)

    # -- the event --

    def new_event(self, name: str, settings: Settings) -> int:
        clean = event_name(name)
        self.events.migrate()
        with self.store.transaction() as conn:
            self.event_id = self.events.create_event(conn, clean, settings, iso(self.clock()))
        return self.event_id

    def change_settings(self, **values: object) -> Settings:
        """Change settings (None leaves one as it is) before the championship starts; after a
        draw, the draw must be made again."""
        event_id = self._require()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            if data.clock:
                raise ChampionshipError(
                    _("the championship has started, so its settings are fixed"))
            settings = data.event.settings.changed(**values)
            if settings == data.event.settings:
                return settings
            self.events.set_settings(conn, event_id, settings)
            if data.tables:
                self.events.set_stale(conn, event_id, STALE_SETTINGS)
            return settings

    # -- registration --

    def register(self, names: Sequence[str]) -> list[tuple[int, str]]:
        """Register players; each gets the next number. All or none are registered."""
        event_id = self._require()
        if not names:
            raise ChampionshipError(_("give the names of the players to register"))
        clean = [check_name(n) for n in names]
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            if data.clock:
                raise ChampionshipError(_("qualifying has started, so registration is closed"))
            taken = {name_key(p.name): p for p in data.players}
            if len(data.players) + len(clean) > MAX_PLAYERS:
                raise ChampionshipError(
                    _("an event takes at most {n} players").format(n=MAX_PLAYERS))
            given: dict[str, str] = {}
            for name in clean:
                key = name_key(name)
                if key in given:
                    raise ChampionshipError(_("{name} is given twice: give each player a different "
                                       "name").format(name=given[key]))
                given[key] = name
                known = taken.get(key)
                if known is not None:
                    raise ChampionshipError(
                        _("{name} is already registered as number {n}: give each player a "
                          "different name, e.g. with an initial").format(
                            name=name, n=known.number))
            at = iso(self.clock())
            out = [(self.events.add_player(conn, event_id, name, at), name) for name in clean]
            if data.tables:
                self.events.set_stale(conn, event_id, STALE_REGISTERED)
            return out

    def withdraw(self, number: int) -> list[str]:
        """A player leaves: they take no further part and no award; their tables play on
        without them. Returns what happened at the tables, one line each (idempotent)."""
        event_id = self._require()
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            player = data.player(number)
            if player is None:
                raise ChampionshipError(_("there is no player number {n}: see `uno-showdown event "
                                   "show`").format(n=number))
            if player.withdrawn:
                return [_("{name} (number {n}) had already withdrawn.").format(
                    name=player.name, n=number)]
            snap = self._snapshot_in(conn, data, now)
            if snap.over:
                raise ChampionshipError(
                    _("the championship is over, so nobody can withdraw any more"))
            self.events.withdraw(conn, event_id, number, iso(now))
            data = self.events.load(conn, event_id)
            notes = [_("{name} (number {n}) has withdrawn.").format(name=player.name, n=number)]
            for table in snap.tables:
                if table.done or number not in table.players:
                    continue
                notes += self._table_without(conn, data, snap, table, number, now)
            return notes

    def _table_without(self, conn: sqlite3.Connection, data: ChampionshipData, snap: Snapshot,
                       table: TableStatus, number: int, now: int) -> list[str]:
        title = _("{stage}, {table}").format(stage=snap.stage_title(table.stage),
                                             table=table_title(table.table))
        if table.stage == FINAL and table.box.state is State.WAITING:
            self._reseat_final(conn, data, snap, now)
            return [_("The final is seated again without them.")]
        remaining = [n for n in table.players if n != number]
        if len(remaining) >= 2:
            self._play_on(table, remaining, data, now)
            if table.box.state is State.WAITING:
                return [_("{title} will play without them.").format(title=title)]
            return [_("{title} plays on without them.").format(title=title)]
        if table.box.state is State.WAITING and not data.clock:
            self.events.set_stale(conn, data.event.id, STALE_WITHDRAWN)
            return [_("{title} has one player left: draw the seats again with `uno-showdown "
                      "event draw`.").format(title=title)]
        if table.box.state is State.WAITING:
            return self._seat_lone_player(data, snap, table, remaining[0], now)
        self._save_box(table.box.finished())
        return [_("{title} has one player left and is done.").format(title=title)]

    def _seat_lone_player(self, data: ChampionshipData, snap: Snapshot, table: TableStatus,
                          lone: int, now: int) -> list[str]:
        """A later flight's table left with one player before it started: seat them at the
        flight's smallest table with room, or take a player from the largest one."""
        others = [t for t in snap.stage_tables(table.stage)
                  if t.table != table.table and t.box.state is State.WAITING]
        size = data.event.settings.table_size
        room = [t for t in others if len(t.players) < size]
        name = snap.name_of(lone)
        if room:
            target = min(room, key=lambda t: (len(t.players), t.table))
            self._play_on(target, [*target.players, lone], data, now)
            self._set_seats(data, target, [*target.players, lone])
            self._set_seats(data, table, [])
            self._save_box(table.box.finished())
            return [_("{name} moves to {table}.").format(name=name,
                                                          table=table_title(target.table))]
        donors = [t for t in others if len(t.players) >= 3]
        if donors:
            donor = max(donors, key=lambda t: (len(t.players), -t.table))
            moved = donor.players[-1]
            self._play_on(donor, list(donor.players[:-1]), data, now)
            self._play_on(table, [lone, moved], data, now)
            self._set_seats(data, donor, donor.players[:-1])
            self._set_seats(data, table, [lone, moved])
            return [_("{name} moves from {source} to {table}.").format(
                name=snap.name_of(moved), source=table_title(donor.table),
                table=table_title(table.table))]
        self._save_box(table.box.finished())
        return [_("{name} is left alone and sits this flight out.").format(name=name)]

    def _set_seats(self, data: ChampionshipData, table: TableStatus, seats: Sequence[int]) -> None:
        with self.store.transaction() as conn:  # the caller's
            self.events.set_seats(conn, data.event.id, table.stage, table.table, seats)

    def _save_box(self, box: TimeBox) -> None:
        self.store.boxes.save(box)

    def _play_on(self, table: TableStatus, players: Sequence[int], data: ChampionshipData,
                 now: int) -> int:
        """The table's game goes on with these players in a new game in its box, dealt by
        whoever deals next in the current one (or the next player left of them)."""
        current = self.store.games.load(table.game_id)
        seated = numbers(current, data)
        order = [n for n in seated if n in players] + [n for n in players if n not in seated]
        dealer = number_of(current.dealer, data)
        if dealer in seated:  # the dealer, or the first player still here to their left
            i = seated.index(dealer)
            first = next((n for n in seated[i:] + seated[:i] if n in order), order[0])
            k = order.index(first)
            order = order[k:] + order[:k]
        return self._new_game(table.box, order, data, now, current.rules)

    def _new_game(self, box: TimeBox, players: Sequence[int], data: ChampionshipData, now: int,
                  rules: Rules | None = None) -> int:
        settings = data.event.settings
        names = [data.player(n).name for n in players]  # type: ignore[union-attr]
        game = Game.new(settings.edition, rules or _rules(settings), names, created_at=iso(now))
        assert box.id is not None
        game_id = self.store.games.create(game)  # in the caller's transaction
        self.store.boxes.put_game(box.id, game_id)
        return game_id

    # -- the draw --

    def draw(self, seed: int | None = None) -> tuple[Draw, list[Seated]]:
        """Seat the players who have not withdrawn (again, until the first stage starts)."""
        event_id = self._require()
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ChampionshipError(
                _("a seed is a whole number from 0 to {max}").format(max=MAX_SEED))
        chosen = secrets.randbelow(1_000_000) if seed is None else seed
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            if data.clock:
                raise ChampionshipError(
                    _("qualifying has started, so the seats cannot be drawn again"))
            settings = data.event.settings
            data_before = data
            playing = [p.number for p in data.players if not p.withdrawn]
            draw = make_draw(playing, settings.tables, settings.table_size, chosen,
                             settings.seating is Seating.SPREAD)
            self.events.drop_tables(conn, event_id)
            self.events.set_draw(conn, event_id, chosen, dict(draw.lots))
            data = self.events.load(conn, event_id)
            flights = len(draw.flights)
            plan = {p.key: p for p in stage_plan(settings, flights)}
            seated: list[Seated] = []
            boxes: dict[tuple[int, int], int] = {}
            for flight in draw.flights:
                stage = flight_key(flight.number)
                for table in flight.tables:
                    box = TimeBox(
                        self._label(data, stage, table.number, flights), State.WAITING,
                        left_us=plan[stage].duration_us,
                        grace_rounds=1 if settings.time_up is TimeUp.FINISH else 0)
                    box_id = self.store.boxes.create(box)
                    game_id = self._new_game(_with_id(box, box_id), table.players, data, now)
                    self.events.add_table(conn, event_id, stage, table.number, box_id,
                                          table.players)
                    boxes[(flight.number, table.number)] = box_id
                    seated.append(Seated(stage, table.number, game_id, table.players))
            for (flight_no, table_no), box_id in boxes.items():  # the table's next flight
                following = boxes.get((flight_no + 1, table_no))
                if following is not None:
                    boxed = self.store.boxes.load(box_id)
                    self.store.boxes.save(_next(boxed.box, following))
            # The draw it replaces goes last, so its game ids are never given out again.
            for old in data_before.tables:
                self.store.boxes.remove(old.box_id)
            self.events.rebuild_sums(conn, event_id)  # no deal yet: nothing to sum but zeros
            return draw, seated

    def _label(self, data: ChampionshipData, stage: str, table: int, flights: int) -> str:
        where = stage_title(stage, flights)
        if stage != FINAL:
            where = _("{stage}, {table}").format(stage=where, table=table_title(table))
        return f"{data.event.name} · {where}"

    # -- the clock --

    def start(self) -> Snapshot:
        """Start the next stage's clock: the first flight, the second, then the final."""
        event_id = self._require()
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            snap = self._snapshot_in(conn, data, now)
            stage = self._next_stage(snap)
            for table in snap.stage_tables(stage):
                if table.box.state is State.WAITING and len(table.players) < 2:
                    raise ChampionshipError(
                        _("{table} of {stage} has fewer than 2 players: draw the seats "
                          "again with `uno-showdown event draw`").format(
                            table=table_title(table.table), stage=snap.stage_title(stage)))
            duration = next(p.duration_us for p in snap.plan if p.key == stage)
            self.events.add_clock_event(conn, event_id, Kind.START, stage, now)
            for table in snap.stage_tables(stage):
                if table.box.state is State.WAITING:
                    self._save_box(table.box.opened(now, duration))
        return self.snapshot()

    def _next_stage(self, snap: Snapshot) -> str:
        if snap.flights == 0:
            raise ChampionshipError(_("draw the seats first: `uno-showdown event draw`"))
        stale = snap.event.stale
        if stale is not None:
            reasons = {
                STALE_REGISTERED: _("players were registered after the draw"),
                STALE_WITHDRAWN: _("a table was left with one player after the draw"),
                STALE_SETTINGS: _("the settings changed after the draw"),
            }
            raise ChampionshipError(
                _("{reason}: draw the seats again with `uno-showdown event draw` "
                  "(--seed {seed} uses the same seed, but with other players or "
                  "settings the seats come out differently)").format(
                reason=reasons.get(stale, stale), seed=snap.event.seed))
        view = snap.clock
        if view.status in (Status.RUNNING, Status.PAUSED):
            assert view.stage is not None
            raise ChampionshipError(
                _("{stage} is under way: `uno-showdown event end` ends it now").format(
                stage=snap.stage_title(view.stage)))
        if view.stage is not None:
            self._require_done(snap, view.stage)
        stage = view.next_stage
        if stage is None:
            raise ChampionshipError(_("the championship is over: see `uno-showdown event results`"))
        if stage == FINAL and not snap.final_seated:
            raise ChampionshipError(_("seat the finalists first: `uno-showdown event final`"))
        return stage

    def _require_done(self, snap: Snapshot, stage: str) -> None:
        view = snap.clock
        if view.stage == stage and view.status in (Status.RUNNING, Status.PAUSED):
            raise ChampionshipError(_("{stage} is still running ({time} left): `uno-showdown event "
                               "end` calls time").format(stage=snap.stage_title(stage),
                                                         time=clock_text(view.left_us or 0)))
        waiting = [t for t in snap.stage_tables(stage) if not t.done]
        if waiting:
            raise ChampionshipError(
                _("{stage} is not over: {tables} may still record the deal in progress; "
                  "record it, or mark each table done: {commands}").format(
                    stage=snap.stage_title(stage),
                    tables=", ".join(table_title(t.table) for t in waiting),
                    commands=", ".join("`" + self.typed(f"event done --table {t.table}") + "`"
                                       for t in waiting)))

    def _running(self, snap: Snapshot, *allowed: Status) -> str:
        view = snap.clock
        if view.stage is None:
            raise ChampionshipError(_("no stage has started yet: `uno-showdown event start` starts "
                               "the first"))
        if view.status not in allowed:
            title = snap.stage_title(view.stage)
            if view.status is Status.TIME_UP:
                raise ChampionshipError(_("the time of {stage} is already up").format(stage=title))
            if view.status is Status.PAUSED:
                raise ChampionshipError(_("{stage} is already paused: `uno-showdown event resume` "
                                   "goes on").format(stage=title))
            raise ChampionshipError(_("{stage} is running, not paused").format(stage=title))
        return view.stage

    def _clock_change(self, kind: Kind, allowed: tuple[Status, ...],
                      change: Callable[[TimeBox, int], TimeBox]) -> Snapshot:
        event_id = self._require()
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            snap = self._snapshot_in(conn, data, now)
            stage = self._running(snap, *allowed)
            self.events.add_clock_event(conn, event_id, kind, stage, now)
            for table in snap.stage_tables(stage):
                changed = change(table.box, now)
                if changed != table.box:
                    self._save_box(changed)
        return self.snapshot()

    def pause(self) -> Snapshot:
        return self._clock_change(Kind.PAUSE, (Status.RUNNING,), TimeBox.paused)

    def resume(self) -> Snapshot:
        return self._clock_change(Kind.RESUME, (Status.PAUSED,), TimeBox.resumed)

    def end(self) -> Snapshot:
        """Call time on the stage now: the same as its clock running out."""
        return self._clock_change(Kind.END, (Status.RUNNING, Status.PAUSED), TimeBox.ended)

    def done(self, table_no: int) -> tuple[TableStatus, bool]:
        """Mark a table of the current stage done (no deal in progress); True if it changed."""
        event_id = self._require()
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            snap = self._snapshot_in(conn, data, now)
            view = snap.clock
            if view.stage is None:
                raise ChampionshipError(_("no stage has started yet: `uno-showdown event start` "
                                   "starts the first"))
            title = snap.stage_title(view.stage)
            table = next((t for t in snap.stage_tables(view.stage) if t.table == table_no), None)
            if table is None:
                known = ", ".join(str(t.table) for t in snap.stage_tables(view.stage))
                raise ChampionshipError(
                    _("{stage} has no table {n}: its tables are {tables}").format(
                    stage=title, n=table_no, tables=known))
            if table.done:
                return table, False
            if view.status is not Status.TIME_UP:
                left = table.left_us(now) or 0
                raise ChampionshipError(
                    _("{table} still has {time} to play: a table is done once the time is up "
                      "(`uno-showdown event end` calls time now)").format(
                        table=table_title(table_no), time=clock_text(left)))
            self._save_box(table.box.finished())
        after = self.snapshot()
        return next(t for t in after.stage_tables(view.stage) if t.table == table_no), True

    # -- the director's word on a deal --

    def void_deal(self, table_no: int, deal: str, why: str, who: str) -> DealRef:
        """The director voids a deal of table `table_no`: it no longer counts. Recorded in
        the audit with who, when and why; `restore_deal` undoes it. A deal held for the
        director is decided by this too (it stays out)."""
        return self._word(table_no, deal, why, who, "void")

    def restore_deal(self, table_no: int, deal: str, why: str, who: str) -> DealRef:
        """The director counts a voided deal again, or a deal held for the director."""
        return self._word(table_no, deal, why, who, "restore")

    def _word(self, table_no: int, deal: str, why: str, who: str, action: str) -> DealRef:
        event_id = self._require()
        why = " ".join(why.split())
        if not why or len(why) > 200:
            raise ChampionshipError(_("say why in a few words with --why TEXT (at most 200 "
                                      "characters)"))
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            book = self._deal_book_in(conn, data, table_no)
            ref = _find_deal(book, table_no, deal)
            final_seated = any(t.stage == FINAL for t in data.tables)
            if ref.stage != FINAL and final_seated:
                raise ChampionshipError(
                    _("the final is seated, so the qualifying results are closed: deal {deal} "
                      "of table {table} stays as it is").format(deal=deal, table=table_no))
            voided = ref.deal_id in book.voided
            held = any(h.deal_id == ref.deal_id for h in book.held)
            if action == "void" and voided:
                raise ChampionshipError(_("deal {deal} of table {table} is already void").format(
                    deal=deal, table=table_no))
            if action == "restore" and not (voided or held):
                raise ChampionshipError(
                    _("deal {deal} of table {table} counts already: only a void or held deal "
                      "can be restored").format(deal=deal, table=table_no))
            if held:
                self.events.release_held(conn, event_id, ref.deal_id)
            if action == "void" or voided:
                self.events.add_audit(conn, event_id, ref.deal_id, table_no, ref.stage,
                                      action, who, now, why)
            else:  # a held deal restored: the audit says so too
                self.events.add_audit(conn, event_id, ref.deal_id, table_no, ref.stage,
                                      "restore", who, now, why)
        return DealRef(ref.deal_id, ref.short, ref.stage, ref.table, held)

    # -- the final --

    def seat_final(self) -> Seated:
        """Seat the best qualifiers at the final's table (once every qualifying table is
        done); again, the same seating."""
        event_id = self._require()
        now = self.clock()
        with self.store.transaction() as conn:
            data = self.events.load(conn, event_id)
            snap = self._snapshot_in(conn, data, now)
            existing = snap.stage_tables(FINAL)
            if existing:
                t = existing[0]
                return Seated(FINAL, t.table, t.game_id, t.seats)
            if snap.flights == 0:
                raise ChampionshipError(_("draw the seats first: `uno-showdown event draw`"))
            for stage in snap.qualifying_stages:
                if stage not in started(data):
                    raise ChampionshipError(
                        _("{stage} has not been played yet: `uno-showdown event "
                          "start` starts it").format(stage=snap.stage_title(stage)))
                self._require_done(snap, stage)
            self._require_decided(snap, snap.qualifying_stages)
            return self._reseat_final(conn, data, snap, now)

    def _reseat_final(self, conn: sqlite3.Connection, data: ChampionshipData, snap: Snapshot,
                      now: int) -> Seated:
        settings = data.event.settings
        withdrawn = {p.number for p in data.players if p.withdrawn}
        chosen = [n for n in finalists(snap.qualifying, len(snap.qualifying))
                  if n not in withdrawn][:settings.finalists]
        if len(chosen) < 2:
            raise ChampionshipError(
                _("the final needs at least 2 players who played in qualifying, "
                  "and there are {n}").format(n=len(chosen)))
        existing = snap.stage_tables(FINAL)
        if existing:
            table = existing[0]
            game_id = self._new_game(table.box, chosen, data, now)
            self.events.set_seats(conn, data.event.id, FINAL, table.table, chosen)
            return Seated(FINAL, table.table, game_id, tuple(chosen))
        box = TimeBox(self._label(data, FINAL, 1, snap.flights), State.WAITING,
                      left_us=next(p.duration_us for p in snap.plan if p.key == FINAL),
                      grace_rounds=1 if settings.time_up is TimeUp.FINISH else 0)
        box_id = self.store.boxes.create(box)
        game_id = self._new_game(_with_id(box, box_id), chosen, data, now)
        self.events.add_table(conn, data.event.id, FINAL, 1, box_id, chosen)
        for stage in snap.qualifying_stages:  # their results are taken: no more changes
            for t in snap.stage_tables(stage):
                self._save_box(t.box.sealed())
        last = snap.qualifying_stages[-1]
        at_one = [t for s in snap.qualifying_stages for t in snap.stage_tables(s)
                  if t.table == 1]
        if at_one:  # the final is played at table 1: its screen moves on to it
            source = max(at_one, key=lambda t: t.stage == last)
            self._save_box(_next(source.box.sealed(), box_id))
        return Seated(FINAL, 1, game_id, tuple(chosen))

    def _snapshot_in(self, conn: sqlite3.Connection, data: ChampionshipData, now: int) -> Snapshot:
        return build_snapshot(self._read_in(conn, data), now)



# -- small helpers --


@dataclass(frozen=True, slots=True)
class _KeptTables:
    """What a `Championship` keeps of its last reading of the tables: their boxes (by box
    id), the names at each game played now and their numbers (by box id), for the event at
    (event id, `shape_version`, `tables_version`) `key`. Immutable, shared by snapshots."""

    key: tuple[int, int, int]
    tables: tuple[TableRow, ...]  # the stored tables they were read for
    boxes: dict[int, BoxedGame]
    seated: Mapping[int, Sequence[str]]
    players_at: Mapping[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class _KeptStandings:
    """What a `Championship` keeps of its last reading of the standings: both rankings (and
    the sums they hold) and each table's deals at sums' version `version`, for the event as
    it stood at `shape_version` `shape` (`data`). Immutable: a snapshot built from it keeps
    it whole."""

    event_id: int
    shape: int
    version: int
    data: ChampionshipData
    rankings: Rankings
    table_deals: Mapping[tuple[str, int], int]

    @property
    def sums(self) -> dict[str, Mapping[int, tuple[int, int]]]:
        """(points, games) by player, by kind: what the rankings were moved by."""
        qualifying, final = self.rankings
        return {QUALIFYING: qualifying.sums, FINAL_KIND: final.sums if final else {}}


@dataclass(frozen=True, slots=True)
class DealRef:
    """A deal as the director names it: its full id, the table's short id, its stage."""

    deal_id: str
    short: str
    stage: str
    table: int
    held: bool = False  # it was held for the director (restored: it never counted before)


@dataclass(frozen=True, slots=True)
class DealItem:
    """A deal as the director looks at it: where, what, and whether it counts."""

    table: int
    stage: str
    deal_id: str
    points: dict[int, int]
    state: str  # "counts", "void" or "held"
    held: str = ""  # why it is held (one of presence.HELD_REASONS)
    #: Its stage's results are closed (a qualifying deal once the final is seated): the
    #: director's word on it is refused, so nothing offers it.
    closed: bool = False

    @property
    def short(self) -> str:
        return short_deal_id(self.deal_id)


@dataclass(frozen=True)
class DealBook:
    """Every deal of some tables, read at one moment (`Championship.deal_book`): the games
    they played (by box), the deals reported from elsewhere, and the director's word."""

    data: ChampionshipData
    games_of: Mapping[int, tuple[int, ...]]  # box id -> its games' ids, oldest first
    games: Mapping[int, Game]
    remote: Mapping[tuple[str, int], tuple[Deal, ...]]
    voided: frozenset[str]
    held: tuple[HeldDeal, ...]

    def local(self, box_id: int, stage: str) -> list[Deal]:
        """The deals recorded in this file at a table (by its box), across its games."""
        return [d for gid in self.games_of.get(box_id, ())
                for d in game_deals(self.games[gid], self.data, stage)]


def deal_list(book: DealBook, table: int | None = None) -> list[DealItem]:
    """Every deal of a table (of every table without one): those held for the director
    first, then the void ones, then those that count, newest last in each."""
    held = {h.deal_id: h for h in book.held}
    out: dict[str, list[DealItem]] = {"held": [], "void": [], "counts": []}
    final_seated = any(t.stage == FINAL for t in book.data.tables)
    for t in book.data.tables:
        if table is not None and t.table != table:
            continue
        local = book.local(t.box_id, t.stage)
        closed = final_seated and t.stage != FINAL
        for d in (*local, *book.remote.get((t.stage, t.table), ())):
            if d.deal_id in held:
                h = held[d.deal_id]
                out["held"].append(DealItem(t.table, t.stage, d.deal_id, {
                    int(k): int(v) for k, v in (h.points or {}).items()}, "held", h.reason,
                    closed))
            elif d.deal_id in book.voided:
                out["void"].append(DealItem(t.table, t.stage, d.deal_id, dict(d.points or {}),
                                            "void", closed=closed))
            elif d.points is not None:
                out["counts"].append(DealItem(t.table, t.stage, d.deal_id, dict(d.points),
                                              "counts", closed=closed))
    return [*out["held"], *out["void"], *out["counts"]]


def short_deal_id(deal_id: str) -> str:
    """How a deal is named to people: `g5:3` (game 5, round 5 of the table's file)."""
    tail = deal_id.rsplit("/", 1)[-1]
    return tail if tail.startswith("g") else f"g{tail}"


def _find_deal(book: DealBook, table_no: int, deal: str) -> DealRef:
    """The one deal of table `table_no` named `deal` (its full id or its short one)."""
    want = deal.strip()
    found: dict[str, DealRef] = {}
    for t in book.data.tables:
        if t.table != table_no:
            continue
        ids = [d.deal_id for d in book.local(t.box_id, t.stage)]
        ids += [d.deal_id for d in book.remote.get((t.stage, t.table), ())]
        ids += [h.deal_id for h in book.held if (h.stage, h.table) == (t.stage, t.table)]
        for deal_id in ids:
            if want in (deal_id, short_deal_id(deal_id)):
                found[deal_id] = DealRef(deal_id, short_deal_id(deal_id), t.stage, table_no)
    if len(found) == 1:
        return next(iter(found.values()))
    if not found:
        raise ChampionshipError(
            _("table {table} has no deal {deal}: `uno-showdown event deals --table {table}` "
              "lists them").format(table=table_no, deal=deal))
    raise ChampionshipError(_("table {table} has several deals {deal}: give one of {ids}"
                              ).format(table=table_no, deal=deal,
                                       ids=", ".join(sorted(found))))


def event_name(name: str) -> str:
    """An event's name as kept (spaces tidied), checked."""
    clean = " ".join(check_plain(name, _("an event's name")).split())
    if not clean:
        raise ChampionshipError(_("an event needs a name, e.g. \"UNO Cup\""))
    if len(clean) > MAX_EVENT_NAME:
        raise ChampionshipError(_("an event's name can have at most {n} characters").format(
            n=MAX_EVENT_NAME))
    return clean


def _live(by_kind: Mapping[str, Mapping[int, tuple[int, int]]]
          ) -> dict[str, dict[int, tuple[int, int]]]:
    """Sums without the players at nought (kept rows a correction took back to zero)."""
    return {k: {n: v for n, v in sums.items() if v != (0, 0)} for k, sums in by_kind.items()
            if any(v != (0, 0) for v in sums.values())}


def _is_default(db_path: str | Path) -> bool:
    """Whether `db_path` names the user's default games file."""
    try:
        return Path(db_path).resolve() == Path(default_db_path()).resolve()
    except (OSError, ValueError, RuntimeError):
        return False


def _rules(settings: Settings) -> Rules:
    return Rules.make("championship", settings.target)


def _with_id(box: TimeBox, box_id: int) -> TimeBox:
    return replace(box, id=box_id)


def _next(box: TimeBox, next_box_id: int) -> TimeBox:
    return replace(box, next_box_id=next_box_id)


__all__ = [
    "Championship",
    "ChampionshipError",
    "CompanionError",
    "Reading",
    "Seated",
    "Snapshot",
    "TableStatus",
    "build_snapshot",
]


def _event_ids(champ: Championship) -> list[int]:
    """The file's events, once its championship tables are known whole: a table dropped or
    a file damaged is one sentence naming what is wrong and how to recover, for every
    `event` command alike."""
    path = champ.store.path
    recover = _("restore the file from a copy, or choose another with --db")
    try:
        missing = champ.events.missing_tables()
        if missing:
            raise ChampionshipError(_("the championship's table {table} is missing from {path}, "
                                      "so the file is damaged: {recover}").format(
                table=missing[0], path=path, recover=recover))
        return champ.events.event_ids()
    except sqlite3.DatabaseError as exc:
        raise ChampionshipError(_("the championship in {path} is damaged ({reason}): {recover}"
                                  ).format(path=path, reason=exc, recover=recover)) from None
