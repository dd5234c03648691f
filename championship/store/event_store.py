"""The championship's tables in the games file, beside the companion's.

The same SQLite file and connection as the games (`companion.store.games.Store`: WAL,
`synchronous=FULL`, one `BEGIN IMMEDIATE` transaction per change), so one organiser's change
(a draw: its seats, its games and their time boxes; a clock event and every table's box) is
written whole or not at all, and a reader sees one moment of both.

The tables are their own part of the file (`companion.store.schema`, part "championship"),
with their own `MIGRATIONS`; a file written by a newer version is refused.
Nothing here decides anything: `championship.desk.operations` does.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from championship.core.clock import FINAL, ClockChange, Kind
from championship.core.errors import ChampionshipError
from championship.core.i18n import _
from championship.core.model import (
    AuditRow,
    ChampionshipData,
    ChampionshipRow,
    HeldDeal,
    PlayerRow,
    TableRow,
)
from championship.core.presence import Heard
from championship.core.settings import Settings, TieKey
from championship.core.standings import FINAL as FINAL_STAGE
from championship.core.standings import (
    QUALIFYING,
    Deal,
    Sums,
    add_sums,
    game_deals,
    sums_of,
)
from championship.store import standings_sums as sums
from companion.store import schema
from companion.store.games import Store

_V1 = """
CREATE TABLE championship_events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER,
    stale TEXT
);
CREATE TABLE championship_players (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    lot INTEGER,
    withdrawn_at TEXT,
    PRIMARY KEY (event_id, number),
    UNIQUE (event_id, folded)
);
CREATE TABLE championship_tables (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    box_id INTEGER NOT NULL REFERENCES time_boxes(id),
    PRIMARY KEY (event_id, stage, table_no)
);
CREATE TABLE championship_seats (
    event_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    number INTEGER NOT NULL,
    PRIMARY KEY (event_id, stage, table_no, seat),
    FOREIGN KEY (event_id, stage, table_no)
        REFERENCES championship_tables(event_id, stage, table_no) ON DELETE CASCADE
);
CREATE TABLE championship_clock (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start', 'pause', 'resume', 'end')),
    stage TEXT NOT NULL,
    at_us INTEGER NOT NULL,
    PRIMARY KEY (event_id, seq)
);
"""

# Deals that tables on other machines reported (through the broker): each kept at its
# latest revision, a deal taken back as a row without points, so a late or repeated message
# never brings back what was replaced; and each table's own count of late deals.
_V2 = """
CREATE TABLE championship_remote_deals (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    deal_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    points TEXT,
    PRIMARY KEY (event_id, deal_id)
);
CREATE INDEX championship_remote_deals_by_table
    ON championship_remote_deals (event_id, stage, table_no);
"""

# A reported deal's identity holds the table's games file (its `source`), so a table whose
# file was replaced mid-flight has both files' deals counted; and a deal recorded after its
# stage's time was up (the deal in progress) is marked, so no more than the regulation allows
# are taken.
_V3 = """
ALTER TABLE championship_remote_deals ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
"""

# The standings kept as running sums, moved by each deal in the transaction that writes it
# (`championship.store.standings_sums`): per player and kind of stage, each table's deal count,
# what each game of the file added, and a version a reader compares (NULL: not summed yet,
# so an event written before is summed once from its deals when it is next read).
_V4 = """
CREATE TABLE championship_sums (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    number INTEGER NOT NULL,
    points INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (event_id, kind, number)
) WITHOUT ROWID;
CREATE TABLE championship_table_deals (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    PRIMARY KEY (event_id, stage, table_no)
) WITHOUT ROWID;
CREATE TABLE championship_game_sums (
    game_id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    sums TEXT NOT NULL,
    deals INTEGER NOT NULL
);
ALTER TABLE championship_events ADD COLUMN sums_version INTEGER;
CREATE INDEX championship_remote_deals_late ON championship_remote_deals
    (event_id, stage, table_no) WHERE late = 1;
"""

# The director's word and the tables' presence. A reported deal keeps the director's own time
# of it (the table's stamp corrected by the table's measured clock offset, never later than
# its arrival) and, when a plausibility check failed, why it is held for the director (a held
# deal does not count until restored). The audit holds every void and restore: who, when,
# why; a deal counts unless its last audit row voids it. Presence is each table's last
# heartbeat: when it was heard (on the director's clock), its clock's offset, how many of its
# messages wait to be sent, and the games files (sources) it announced. A voided or held deal
# is out of the kept sums (`standings_sums`): each void, restore and release moves them.
_V5 = """
ALTER TABLE championship_remote_deals ADD COLUMN at_us INTEGER;
ALTER TABLE championship_remote_deals ADD COLUMN held TEXT;
CREATE TABLE championship_audit (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    deal_id TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    stage TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('void', 'restore')),
    who TEXT NOT NULL,
    at_us INTEGER NOT NULL,
    why TEXT NOT NULL,
    PRIMARY KEY (event_id, seq)
);
CREATE TABLE championship_presence (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    table_no INTEGER NOT NULL,
    heard_us INTEGER NOT NULL,
    offset_us INTEGER NOT NULL,
    waiting INTEGER NOT NULL,
    linked INTEGER NOT NULL,
    PRIMARY KEY (event_id, table_no)
);
CREATE TABLE championship_sources (
    event_id INTEGER NOT NULL REFERENCES championship_events(id) ON DELETE CASCADE,
    table_no INTEGER NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (event_id, table_no, source)
);
"""

# The standings' order kept in the file, so a reader walks it instead of sorting every
# player: each kept sum holds its result (points / games, NULL without a game), indexed with
# what the standings print (a query walks the index, it reads no row of the table), and
# the sums' version of its last change, so a reader that keeps the standings reads only the
# players whose sums moved since (each table's deal count the same). `shape_version` moves
# with every change of the event itself (settings, players, lots, tables, seats, clock): a
# reader keeps those until it moves.
# `tables_version` moves with every change of what the tables play (their time boxes, the
# games in them, who sits at each game), whichever program writes it: the file's own
# triggers move it, in the writer's transaction, and note in `championship_box_changes` the
# version each box last changed at, so a reader reads again only the boxes that changed.
_V6 = """
ALTER TABLE championship_sums ADD COLUMN result REAL;
ALTER TABLE championship_sums ADD COLUMN at_version INTEGER NOT NULL DEFAULT 0;
UPDATE championship_sums SET result = CAST(points AS REAL) / games WHERE games != 0;
CREATE INDEX championship_sums_by_result ON championship_sums
    (event_id, kind, result, points, games);
CREATE INDEX championship_sums_by_change ON championship_sums (event_id, at_version);
ALTER TABLE championship_table_deals ADD COLUMN at_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE championship_events ADD COLUMN shape_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE championship_events ADD COLUMN tables_version INTEGER NOT NULL DEFAULT 0;
CREATE TABLE championship_box_changes (
    box_id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL
);
"""



def _tables_triggers() -> str:
    """The triggers that move `tables_version` and note each changed box, on every write of
    what the tables play: a box, the games in it, who sits at a game in it (its box looked up
    from the game). Made here, one per table and change, so that all say the same."""
    now = "COALESCE((SELECT MAX(tables_version) FROM championship_events), 0)"
    of_game = "(SELECT box_id FROM time_box_games WHERE game_id = {}.game_id)"
    watched = [("time_boxes", "", "{}.id"), ("time_box_games", "", "{}.box_id"),
               ("players", " OF game_id, name, seat", of_game)]
    out = []
    for table, columns, box in watched:
        for verb, rows in (("insert", ["NEW"]), ("update", ["NEW", "OLD"]), ("delete", ["OLD"])):
            notes = "".join(
                f"INSERT INTO championship_box_changes (box_id, version) SELECT {box.format(r)}, "
                f"{now} WHERE {box.format(r)} IS NOT NULL ON CONFLICT (box_id) DO UPDATE SET "
                "version = excluded.version;\n" for r in rows)
            out.append(
                f"CREATE TRIGGER championship_{table}_{verb.rstrip('e')}ed AFTER {verb.upper()}"
                f"{columns if verb == 'update' else ''} ON {table} BEGIN\n"
                "UPDATE championship_events SET tables_version = tables_version + 1;\n"
                f"{notes}END;\n")
    return "".join(out)


_V6 += _tables_triggers()

# Beside each kept sum, what `event standings --json` and the kept order need, so that reading
# the standings walks the sums' own index instead of joining the players: the player's entry as
# printed after the rank (`championship.core.standings_json`, written with the sums), their
# lot and whether they withdrew. The file's triggers keep the last two equal to the player's
# and take back an entry whose sums changed without it, whichever program writes (an
# uno-showdown that does not know these columns included); a missing entry is rendered by
# the reader, and written once after this step (`ChampionshipStore.migrate`). Every player
# has qualifying sums from their registration, at nothing until they play, so the unranked
# come from the sums too.
_V7 = """
ALTER TABLE championship_sums ADD COLUMN entry TEXT;
ALTER TABLE championship_sums ADD COLUMN lot INTEGER;
ALTER TABLE championship_sums ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0;
INSERT INTO championship_sums (event_id, kind, number, points, games, at_version)
    SELECT p.event_id, 'qualifying', p.number, 0, 0, 0 FROM championship_players p
    WHERE NOT EXISTS (SELECT 1 FROM championship_sums s WHERE s.event_id = p.event_id AND
                      s.kind = 'qualifying' AND s.number = p.number);
UPDATE championship_sums SET
    lot = (SELECT p.lot FROM championship_players p WHERE p.event_id =
           championship_sums.event_id AND p.number = championship_sums.number),
    withdrawn = COALESCE((SELECT p.withdrawn_at IS NOT NULL FROM championship_players p
                          WHERE p.event_id = championship_sums.event_id AND
                          p.number = championship_sums.number), 0);
DROP INDEX championship_sums_by_result;
CREATE INDEX championship_sums_in_order ON championship_sums
    (event_id, kind, withdrawn, result, points, games DESC, lot IS NULL, lot, number, entry);
CREATE TRIGGER championship_sums_inserted AFTER INSERT ON championship_sums BEGIN
UPDATE championship_sums SET
    lot = (SELECT p.lot FROM championship_players p WHERE p.event_id = NEW.event_id AND
           p.number = NEW.number),
    withdrawn = COALESCE((SELECT p.withdrawn_at IS NOT NULL FROM championship_players p
                          WHERE p.event_id = NEW.event_id AND p.number = NEW.number), 0)
    WHERE event_id = NEW.event_id AND kind = NEW.kind AND number = NEW.number;
END;
CREATE TRIGGER championship_players_standing AFTER UPDATE OF lot, withdrawn_at
    ON championship_players BEGIN
UPDATE championship_sums SET lot = NEW.lot, withdrawn = NEW.withdrawn_at IS NOT NULL
    WHERE event_id = NEW.event_id AND number = NEW.number;
END;
CREATE TRIGGER championship_sums_moved AFTER UPDATE OF points, games ON championship_sums
    WHEN NEW.entry IS OLD.entry AND (NEW.points IS NOT OLD.points OR
                                     NEW.games IS NOT OLD.games) BEGIN
UPDATE championship_sums SET entry = NULL
    WHERE event_id = NEW.event_id AND kind = NEW.kind AND number = NEW.number;
END;
"""

#: The step from which the sums keep their entries (`_V7`): a file brought past it has them
#: written once (`ChampionshipStore.migrate`). Fixed, unlike `standings_sums.LAYOUT`.
_ENTRIES_STEP = 7

#: MIGRATIONS[i] takes the championship's tables from version i to version i + 1.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
SCHEMA_VERSION = len(MIGRATIONS)
if SCHEMA_VERSION != sums.LAYOUT:
    raise RuntimeError("standings_sums.LAYOUT must name the championship's last schema step")


@dataclass(frozen=True, slots=True)
class KeptDeal:
    """What the director keeps of a reported deal."""

    revision: int
    counted: bool  # it has points (it was not taken back)
    late: bool
    held: str | None
    at_us: int | None  # the director's time of it


def _meta_version(conn: sqlite3.Connection) -> int:
    """Where the version was kept before `schema_parts`: a `championship_meta` row."""
    if not schema.has_table(conn, "championship_meta"):
        return 0
    row = conn.execute("SELECT value FROM championship_meta WHERE key = 'schema_version'"
                       ).fetchone()
    return int(row[0]) if row else 0


def newer(path: str, found: int) -> ChampionshipError:
    """The refusal of a file whose championship (or its sync) a newer version wrote."""
    return ChampionshipError(
        _("{path} holds a championship written by a newer uno-showdown (schema "
          "{found}): update uno-showdown to open it").format(path=path, found=found))


PART = schema.register(schema.Part("championship", MIGRATIONS, _meta_version, newer))


class ChampionshipStore:
    """The championship's rows in a companion `Store`'s file; one instance per store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        if self.schema_version():  # a file without events stays as it is until the first one
            self.migrate()

    # -- schema --

    def schema_version(self) -> int:
        with self.store.reading() as conn:
            return schema.version_of(conn, PART)

    def migrate(self) -> None:
        """Bring the championship's tables up to date (creating them for the first event),
        and write the standings' entries a file brought past step 7 lacks."""
        before = self.schema_version()
        schema.migrate(self.store, PART)
        if 0 < before < _ENTRIES_STEP:
            with self.store.transaction() as conn:
                sums.fill_entries(conn)

    def missing_tables(self) -> list[str]:
        """The championship's tables its schema version should have and the file has not (a
        table dropped by hand, a file cut short): empty for a file without events."""
        if not self.schema_version():
            return []
        have = {r[0] for r in self.store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        wanted = re.findall(r"CREATE TABLE (\w+)", "".join(MIGRATIONS))
        return [name for name in wanted if name not in have]

    # -- reading --

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: everything read inside sees the same moment of the file."""
        with self.store.reading() as conn:
            yield conn

    def event_ids(self) -> list[int]:
        if not self.schema_version():
            return []
        with self.reading() as conn:
            return [int(r[0]) for r in conn.execute(
                "SELECT id FROM championship_events ORDER BY id")]

    @staticmethod
    def listed(conn: sqlite3.Connection) -> list[tuple[int, str, str, int]]:
        """(id, name, created_at, players still in) of every event, oldest first."""
        return [(int(i), n, c, int(p)) for i, n, c, p in conn.execute(
            "SELECT e.id, e.name, e.created_at, (SELECT COUNT(*) FROM championship_players "
            "p WHERE p.event_id = e.id AND p.withdrawn_at IS NULL) FROM "
            "championship_events e ORDER BY e.id")]

    def load(self, conn: sqlite3.Connection, event_id: int) -> ChampionshipData:
        row = conn.execute("SELECT id, name, created_at, settings, seed, stale FROM "
                           "championship_events WHERE id = ?", (event_id,)).fetchone()
        if row is None:
            raise ChampionshipError(
                _("there is no event {id} in {path}: see `uno-showdown event list`").format(
                    id=event_id, path=self.store.path))
        event = ChampionshipRow(int(row[0]), row[1], row[2], Settings.from_json(row[3]), row[4],
                                row[5])
        players = tuple(PlayerRow(*r) for r in conn.execute(
            "SELECT number, name, registered_at, lot, withdrawn_at FROM championship_players "
            "WHERE event_id = ? ORDER BY number", (event_id,)))
        seats: dict[tuple[str, int], list[int]] = {}
        for stage, table, number in conn.execute(
                "SELECT stage, table_no, number FROM championship_seats WHERE event_id = ? "
                "ORDER BY stage, table_no, seat", (event_id,)):
            seats.setdefault((stage, table), []).append(int(number))
        tables = tuple(
            TableRow(stage, int(table), int(box), tuple(seats.get((stage, table), ())))
            for stage, table, box in conn.execute(
                "SELECT stage, table_no, box_id FROM championship_tables WHERE event_id = ? "
                "ORDER BY stage, table_no", (event_id,)))
        clock = tuple(ClockChange(Kind(kind), stage, int(at)) for kind, stage, at in conn.execute(
            "SELECT kind, stage, at_us FROM championship_clock WHERE event_id = ? ORDER BY seq",
            (event_id,)))
        return ChampionshipData(event, players, tables, clock)

    def load_settings(self, conn: sqlite3.Connection, event_id: int) -> Settings:
        """The event's settings alone (one row), for a reader that needs no players."""
        row = conn.execute("SELECT settings FROM championship_events WHERE id = ?",
                           (event_id,)).fetchone()
        if row is None:
            raise ChampionshipError(
                _("there is no event {id} in {path}: see `uno-showdown event list`").format(
                    id=event_id, path=self.store.path))
        return Settings.from_json(row[0])

    @staticmethod
    def remote_deals(conn: sqlite3.Connection, event_id: int
                     ) -> dict[tuple[str, int], tuple[Deal, ...]]:
        """The deals tables elsewhere reported, by (stage, table), each at its latest
        revision (a deal taken back, or held for the director, has no points)."""
        out: dict[tuple[str, int], list[Deal]] = {}
        for deal_id, stage, table, revision, points, held in conn.execute(
                "SELECT deal_id, stage, table_no, revision, points, held FROM "
                "championship_remote_deals WHERE event_id = ? ORDER BY rowid", (event_id,)):
            kind = FINAL_STAGE if stage == FINAL else QUALIFYING
            pts = None if points is None or held is not None else {
                int(k): int(v) for k, v in json.loads(points).items()}
            out.setdefault((stage, int(table)), []).append(
                Deal(deal_id, int(revision), kind, pts))
        return {k: tuple(v) for k, v in out.items()}

    @staticmethod
    def held_deals(conn: sqlite3.Connection, event_id: int) -> tuple[HeldDeal, ...]:
        """The reported deals held for the director (a plausibility check failed), oldest
        first."""
        return tuple(HeldDeal(d, s, int(t), json.loads(p) if p else None, h, a)
                     for d, s, t, p, h, a in conn.execute(
            "SELECT deal_id, stage, table_no, points, held, at_us FROM "
            "championship_remote_deals WHERE event_id = ? AND held IS NOT NULL ORDER BY rowid",
            (event_id,)))

    @staticmethod
    def voided(conn: sqlite3.Connection, event_id: int) -> frozenset[str]:
        """The deals the director voided: those whose last audit row is a void."""
        return sums.voided_ids(conn, event_id)

    @staticmethod
    def audit(conn: sqlite3.Connection, event_id: int) -> tuple[AuditRow, ...]:
        """Every void and restore, in the order the director made them."""
        return tuple(AuditRow(int(q), d, int(t), s, a, w, int(at), y)
                     for q, d, t, s, a, w, at, y in conn.execute(
            "SELECT seq, deal_id, table_no, stage, action, who, at_us, why FROM "
            "championship_audit WHERE event_id = ? ORDER BY seq", (event_id,)))

    @staticmethod
    def presence(conn: sqlite3.Connection, event_id: int) -> dict[int, Heard]:
        """Each table's last heartbeat, by table number."""
        return {int(t): Heard(int(h), int(o), int(w), bool(lk))
                for t, h, o, w, lk in conn.execute(
            "SELECT table_no, heard_us, offset_us, waiting, linked FROM championship_presence "
            "WHERE event_id = ?", (event_id,))}

    @staticmethod
    def sources(conn: sqlite3.Connection, event_id: int, table: int) -> set[str]:
        """The games files (sources) table `table` announced in its heartbeats."""
        return {r[0] for r in conn.execute(
            "SELECT source FROM championship_sources WHERE event_id = ? AND table_no = ?",
            (event_id, table))}

    @staticmethod
    def remote_deal(conn: sqlite3.Connection, event_id: int, deal_id: str) -> KeptDeal | None:
        """What is kept of a reported deal, or None if it never came."""
        row = conn.execute("SELECT revision, points IS NOT NULL, late, held, at_us FROM "
                           "championship_remote_deals WHERE event_id = ? AND deal_id = ?",
                           (event_id, deal_id)).fetchone()
        return None if row is None else KeptDeal(int(row[0]), bool(row[1]), bool(row[2]),
                                                 row[3], row[4])

    @staticmethod
    def seated_names(conn: sqlite3.Connection, game_ids: Sequence[int]
                     ) -> dict[int, list[str]]:
        """The players' names of these games, by game, in their seating order: one
        statement for every table of the event."""
        out: dict[int, list[str]] = {g: [] for g in game_ids}
        ids = list(game_ids)
        for start in range(0, len(ids), 500):  # SQLite's limit on bound values
            chunk = ids[start:start + 500]
            for gid, name in conn.execute(
                    "SELECT game_id, name FROM players WHERE game_id IN "
                    f"({','.join('?' * len(chunk))}) ORDER BY game_id, seat", chunk):
                out[int(gid)].append(name)
        return out

    # -- writing (inside the caller's transaction) --

    @staticmethod
    def late_remote_deals(conn: sqlite3.Connection, event_id: int, stage: str,
                          table: int, *, besides: str = "") -> int:
        """How many deals recorded after the time was up a table's stage holds (not counting
        the deal `besides`, the one being judged again)."""
        return int(conn.execute(
            "SELECT COUNT(*) FROM championship_remote_deals WHERE event_id = ? AND stage = ? "
            "AND table_no = ? AND late = 1 AND points IS NOT NULL AND deal_id != ?",
            (event_id, stage, table, besides)).fetchone()[0])

    @staticmethod
    def put_remote_deal(conn: sqlite3.Connection, event_id: int, stage: str, table: int,
                        deal_id: str, revision: int, points: dict[int, int] | None,
                        late: bool = False, *, at_us: int | None = None,
                        held: str | None = None) -> bool:
        """Keep a reported deal if it is newer than what is kept, and move the standings by
        what it adds now less what it added (same transaction); True if it changed. Each
        revision is judged afresh, so its lateness and hold replace the kept ones; a held or
        voided deal adds nothing."""
        kept = conn.execute(
            "SELECT revision, stage, table_no FROM championship_remote_deals WHERE "
            "event_id = ? AND deal_id = ?", (event_id, deal_id)).fetchone()
        if kept is not None and (revision <= int(kept[0]) or stage != kept[1]
                                 or table != int(kept[2])):
            return False
        before = sums.remote_counted(conn, event_id, deal_id)
        conn.execute(
            "INSERT INTO championship_remote_deals (event_id, deal_id, stage, table_no, "
            "revision, points, late, at_us, held) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (event_id, deal_id) DO UPDATE SET revision = excluded.revision, "
            "points = excluded.points, late = excluded.late, at_us = excluded.at_us, "
            "held = excluded.held",
            (event_id, deal_id, stage, table, revision, sums.points_text(points), int(late),
             at_us, held))
        after = sums.remote_counted(conn, event_id, deal_id)
        sums.remote_changed(conn, event_id, stage, table,
                            before[2] if before is not None else None,
                            after[2] if after is not None else None)
        return True

    # -- the standings' sums --

    @staticmethod
    def kept_sums(conn: sqlite3.Connection, event_id: int) -> sums.KeptSums | None:
        """The standings' sums as kept (None: not summed yet, see `rebuild_sums`)."""
        return sums.read(conn, event_id)

    @staticmethod
    def sums_version(conn: sqlite3.Connection, event_id: int) -> int | None:
        return sums.version(conn, event_id)

    @staticmethod
    def sums_moved_since(conn: sqlite3.Connection, event_id: int, since: int
                         ) -> dict[str, dict[int, tuple[int, int]]]:
        """The sums that moved after version `since`, by kind (see `standings_sums`)."""
        return sums.moved_since(conn, event_id, since)

    @staticmethod
    def table_deals(conn: sqlite3.Connection, event_id: int) -> dict[tuple[str, int], int]:
        return sums.table_deals(conn, event_id)

    @staticmethod
    def table_deals_moved_since(conn: sqlite3.Connection, event_id: int, since: int
                                ) -> dict[tuple[str, int], int]:
        """The tables whose deal count moved after sums' version `since`, with the count."""
        return sums.table_deals(conn, event_id, since)

    @staticmethod
    def ordered_entries(conn: sqlite3.Connection, event_id: int, tie_break: Sequence[TieKey]
                        ) -> tuple[list[str], list[str]]:
        """The qualifying players' entries as `event standings --json` prints them, in
        order (see `standings_sums.ordered_entries`)."""
        return sums.ordered_entries(conn, event_id, tie_break)

    @staticmethod
    def kept_astray(conn: sqlite3.Connection, event_id: int) -> int:
        """How many kept sums disagree with what is kept beside them (`--check`)."""
        return sums.kept_astray(conn, event_id)

    def counted_sums(self, conn: sqlite3.Connection, data: ChampionshipData
                     ) -> tuple[dict[str, Sums], dict[tuple[str, int], int],
                                dict[int, tuple[str, int, Sums, int]]]:
        """The standings' sums worked out from every deal the event holds (every round of
        every game at its tables, every reported deal; neither a voided nor a held one):
        what the kept sums must equal. Returns the sums by kind, each table's deals, and
        each game's own sums."""
        voided = self.voided(conn, data.event.id)
        by_kind: dict[str, Sums] = {QUALIFYING: {}, FINAL_STAGE: {}}
        table_deals: dict[tuple[str, int], int] = {}
        games: dict[int, tuple[str, int, Sums, int]] = {}
        for t in data.tables:
            kind = sums.kind_of(t.stage)
            for gid in self.store.boxes.load(t.box_id).game_ids:
                game = self.store.games.load(gid)
                found = [d.points for d in game_deals(game, data.number_of, kind)
                         if d.points is not None and d.deal_id not in voided]
                own = sums_of(found)
                games[gid] = (t.stage, t.table, own, len(found))
                add_sums(by_kind[kind], own)
                key = (t.stage, t.table)
                table_deals[key] = table_deals.get(key, 0) + len(found)
        for (stage, table), deals in self.remote_deals(conn, data.event.id).items():
            kind = sums.kind_of(stage)
            live = [d.points for d in deals
                    if d.points is not None and d.deal_id not in voided]
            add_sums(by_kind[kind], sums_of(live))
            table_deals[(stage, table)] = table_deals.get((stage, table), 0) + len(live)
        return by_kind, table_deals, games

    def rebuild_sums(self, conn: sqlite3.Connection, event_id: int) -> None:
        """Sum the event again from every deal (in the caller's write transaction): once for
        an event written before the sums were kept, and after a draw made again."""
        by_kind, table_deals, games = self.counted_sums(conn, self.load(conn, event_id))
        sums.replace_all(conn, event_id, by_kind, table_deals, games)

    @staticmethod
    def release_held(conn: sqlite3.Connection, event_id: int, deal_id: str) -> None:
        """A held deal counts from now on (the director restored it): its points join the
        standings."""
        before = sums.remote_counted(conn, event_id, deal_id)
        conn.execute("UPDATE championship_remote_deals SET held = NULL WHERE event_id = ? AND "
                     "deal_id = ?", (event_id, deal_id))
        _moved(conn, event_id, deal_id, before)

    @classmethod
    def release_source(cls, conn: sqlite3.Connection, event_id: int, table: int,
                       source: str, reason: str) -> int:
        """Deals held only because their file was not announced yet: the table announced
        it now, so they count; returns how many."""
        ids = [r[0] for r in conn.execute(
            "SELECT deal_id FROM championship_remote_deals WHERE event_id = ? AND "
            "table_no = ? AND held = ? AND deal_id LIKE ?",
            (event_id, table, reason, f"t{table}/%/{source}/%"))]
        for deal_id in ids:
            cls.release_held(conn, event_id, deal_id)
        return len(ids)

    def add_audit(self, conn: sqlite3.Connection, event_id: int, deal_id: str, table: int,
                  stage: str, action: str, who: str, at_us: int, why: str) -> None:
        """Record the director's void or restore of a deal, and move the standings by it: a
        reported deal by its row's points, a deal of this file by its game summed again
        without its voided rounds."""
        before = sums.remote_counted(conn, event_id, deal_id)
        conn.execute(
            "INSERT INTO championship_audit (event_id, seq, deal_id, table_no, stage, action, "
            "who, at_us, why) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM "
            "championship_audit WHERE event_id = ?), ?, ?, ?, ?, ?, ?, ?)",
            (event_id, event_id, deal_id, table, stage, action, who, at_us, why))
        if before is not None:
            _moved(conn, event_id, deal_id, before)
            return
        game_id = int(deal_id.split(":", 1)[0])
        sums.game_changed(conn, self.store.games.load(game_id), game_id, rewrite=True)

    @staticmethod
    def put_presence(conn: sqlite3.Connection, event_id: int, table: int, p: Heard) -> None:
        conn.execute("INSERT OR REPLACE INTO championship_presence (event_id, table_no, "
                     "heard_us, offset_us, waiting, linked) VALUES (?, ?, ?, ?, ?, ?)",
                     (event_id, table, p.heard_us, p.offset_us, p.waiting, int(p.linked)))

    @staticmethod
    def put_source(conn: sqlite3.Connection, event_id: int, table: int, source: str) -> bool:
        """Note a games file the table announced; True if it is new."""
        return conn.execute("INSERT OR IGNORE INTO championship_sources (event_id, table_no, "
                            "source) VALUES (?, ?, ?)", (event_id, table, source)).rowcount > 0

    @staticmethod
    def create_event(conn: sqlite3.Connection, name: str, settings: Settings,
                     created_at: str) -> int:
        cur = conn.execute("INSERT INTO championship_events (name, created_at, settings, "
                           "sums_version) VALUES (?, ?, ?, 0)",
                           (name, created_at, settings.to_json()))
        return int(cur.lastrowid or 0)

    @staticmethod
    def shape_version(conn: sqlite3.Connection, event_id: int) -> int | None:
        """The version of the event itself (settings, players, lots, tables, seats, clock):
        moves on with each of their changes, so a reader keeps them until it moves."""
        row = conn.execute("SELECT shape_version FROM championship_events WHERE id = ?",
                           (event_id,)).fetchone()
        return None if row is None else int(row[0])

    @staticmethod
    def tables_version(conn: sqlite3.Connection, event_id: int) -> int:
        """The version of what the tables play (boxes, games, who sits there): moved by the
        file's triggers with each of their changes."""
        row = conn.execute("SELECT tables_version FROM championship_events WHERE id = ?",
                           (event_id,)).fetchone()
        return 0 if row is None else int(row[0])

    @staticmethod
    def boxes_changed_since(conn: sqlite3.Connection, since: int) -> set[int]:
        """The time boxes that changed (their row, their games, who sits at a game in them)
        after `tables_version` `since`, as the file's triggers noted them."""
        return {int(r[0]) for r in conn.execute(
            "SELECT box_id FROM championship_box_changes WHERE version > ?", (since,))}

    @staticmethod
    def _reshaped(conn: sqlite3.Connection, event_id: int) -> None:
        """The event itself changed (in the caller's transaction): one place moves its
        version, and every writer of the event's own rows below calls it."""
        sums.reshaped(conn, event_id)

    @staticmethod
    def set_settings(conn: sqlite3.Connection, event_id: int, settings: Settings) -> None:
        conn.execute("UPDATE championship_events SET settings = ? WHERE id = ?",
                     (settings.to_json(), event_id))
        ChampionshipStore._reshaped(conn, event_id)

    @staticmethod
    def set_stale(conn: sqlite3.Connection, event_id: int, reason: str | None) -> None:
        conn.execute("UPDATE championship_events SET stale = ? WHERE id = ?", (reason, event_id))
        ChampionshipStore._reshaped(conn, event_id)

    @staticmethod
    def add_player(conn: sqlite3.Connection, event_id: int, name: str, at: str) -> int:
        number = conn.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM championship_players "
                              "WHERE event_id = ?", (event_id,)).fetchone()[0]
        conn.execute("INSERT INTO championship_players (event_id, number, name, folded, "
                     "registered_at) VALUES (?, ?, ?, ?, ?)",
                     (event_id, number, name, name.casefold(), at))
        sums.player_added(conn, event_id, number)
        ChampionshipStore._reshaped(conn, event_id)
        return int(number)

    @staticmethod
    def withdraw(conn: sqlite3.Connection, event_id: int, number: int, at: str) -> None:
        conn.execute("UPDATE championship_players SET withdrawn_at = ? WHERE event_id = ? AND "
                     "number = ?", (at, event_id, number))
        ChampionshipStore._reshaped(conn, event_id)

    @staticmethod
    def set_draw(conn: sqlite3.Connection, event_id: int, seed: int | None,
                 lots: dict[int, int]) -> None:
        ChampionshipStore._reshaped(conn, event_id)
        conn.execute("UPDATE championship_events SET seed = ?, stale = NULL WHERE id = ?",
                     (seed, event_id))
        conn.execute("UPDATE championship_players SET lot = NULL WHERE event_id = ?",
                     (event_id,))
        conn.executemany("UPDATE championship_players SET lot = ? WHERE event_id = ? AND "
                         "number = ?", [(lot, event_id, n) for n, lot in lots.items()])

    @staticmethod
    def add_table(conn: sqlite3.Connection, event_id: int, stage: str, table: int,
                  box_id: int, seats: Sequence[int]) -> None:
        conn.execute("INSERT INTO championship_tables (event_id, stage, table_no, box_id) "
                     "VALUES (?, ?, ?, ?)", (event_id, stage, table, box_id))
        ChampionshipStore._reshaped(conn, event_id)
        ChampionshipStore.set_seats(conn, event_id, stage, table, seats)

    @staticmethod
    def set_seats(conn: sqlite3.Connection, event_id: int, stage: str, table: int,
                  seats: Sequence[int]) -> None:
        conn.execute("DELETE FROM championship_seats WHERE event_id = ? AND stage = ? AND "
                     "table_no = ?", (event_id, stage, table))
        ChampionshipStore._reshaped(conn, event_id)
        conn.executemany(
            "INSERT INTO championship_seats (event_id, stage, table_no, seat, number) "
            "VALUES (?, ?, ?, ?, ?)",
            [(event_id, stage, table, i + 1, n) for i, n in enumerate(seats)])

    @staticmethod
    def drop_tables(conn: sqlite3.Connection, event_id: int, stage: str | None = None) -> None:
        """Forget the event's tables (of one stage); their boxes are the caller's to remove."""
        where, args = "event_id = ?", [event_id]
        if stage is not None:
            where, args = where + " AND stage = ?", [*args, stage]  # type: ignore[list-item]
        conn.execute(f"DELETE FROM championship_seats WHERE {where}", args)
        conn.execute(f"DELETE FROM championship_tables WHERE {where}", args)
        ChampionshipStore._reshaped(conn, event_id)

    @staticmethod
    def add_clock_event(conn: sqlite3.Connection, event_id: int, kind: Kind, stage: str,
                        at_us: int) -> None:
        conn.execute(
            "INSERT INTO championship_clock (event_id, seq, kind, stage, at_us) VALUES (?, "
            "(SELECT COALESCE(MAX(seq), 0) + 1 FROM championship_clock WHERE event_id = ?), "
            "?, ?, ?)", (event_id, event_id, kind.value, stage, at_us))
        ChampionshipStore._reshaped(conn, event_id)


def _moved(conn: sqlite3.Connection, event_id: int, deal_id: str,
           before: tuple[str, int, dict[int, int] | None] | None) -> None:
    """Move the standings by what a reported deal adds now less what it added `before` (its
    hold released, a void or restore recorded)."""
    after = sums.remote_counted(conn, event_id, deal_id)
    if after is None:
        return
    sums.remote_changed(conn, event_id, after[0], after[1],
                        before[2] if before is not None else None, after[2])
