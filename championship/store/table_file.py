"""The table's side of the sync in the table's own games file: what the director seated here,
what has been put in the outbox, and the outbox itself.

Offline-first: the companion (its screen, `uno-showdown game round`) commits a round to the
games file as it always does and knows nothing of the broker. The table's agent then reads
the file and, in one transaction, compares every deal, duel and stage status with what it
last queued (`table_sync_sent`) and queues what changed (`table_sync_outbox`). A message
leaves the outbox only when the director acknowledges it. So a table killed between the
round's commit and the publish loses nothing: the next scan finds the round not queued yet,
or finds it queued and sends it again; the director takes each deal at its highest
revision, so sending twice counts once.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from championship.core import messages as wire
from championship.store.event_store import newer
from companion.scoring import Rules
from companion.store import schema, wallclock
from companion.store.games import HeldChange, Store
from companion.table.game import Game
from companion.table.timebox import State, TimeBox

_V1 = """
CREATE TABLE table_sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE table_sync_stages (
    stage TEXT PRIMARY KEY,
    box_id INTEGER NOT NULL REFERENCES time_boxes(id),
    seating_id INTEGER NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE table_sync_sent (
    key TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    revision INTEGER NOT NULL
);
CREATE TABLE table_sync_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
"""


def _tables_made(conn: sqlite3.Connection) -> int:
    """Before `schema_parts`, the tables were made all at once when missing: 1 if they are."""
    return int(schema.has_table(conn, "table_sync_meta"))


#: The table's side of the sync: its seating, what it queued, its outbox.
PART = schema.register(schema.Part("table sync", (_V1,), _tables_made, newer))


@dataclass(frozen=True, slots=True)
class Queued:
    seq: int
    body: dict[str, Any]


class TableFile:
    """The sync's rows in one table's games file (a companion `Store`)."""

    def __init__(self, store: Store, event_id: int, table: int) -> None:
        self.store = store
        schema.migrate(store, PART)
        with store.transaction() as conn:
            meta = dict(conn.execute("SELECT key, value FROM table_sync_meta"))
            if "source" not in meta:
                conn.execute("INSERT INTO table_sync_meta VALUES ('source', ?)",
                             (secrets.token_hex(8),))
                conn.execute("INSERT INTO table_sync_meta VALUES ('event', ?)", (str(event_id),))
                conn.execute("INSERT INTO table_sync_meta VALUES ('table', ?)", (str(table),))
            elif (meta.get("event"), meta.get("table")) != (str(event_id), str(table)):
                from championship.core.errors import ChampionshipError
                from championship.core.i18n import _

                raise ChampionshipError(
                    _("{path} is the games file of table {table} of event {event}: "
                      "give this table a file of its own with --db").format(
                    path=store.path, table=meta.get("table"), event=meta.get("event")))
        self.event_id, self.table = event_id, table
        self.source = self.meta("source") or ""

    # -- meta --

    @staticmethod
    def joined(store: Store) -> dict[str, str] | None:
        """The sync's notes of a table's file (its event, table, the director's standings),
        or None if the file has not joined a championship."""
        with store.reading() as conn:
            if not schema.has_table(conn, "table_sync_meta"):
                return None
            return {str(k): str(v) for k, v in conn.execute(
                "SELECT key, value FROM table_sync_meta")}

    def meta(self, key: str) -> str | None:
        with self.store.reading() as conn:
            row = conn.execute("SELECT value FROM table_sync_meta WHERE key = ?",
                               (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, conn: sqlite3.Connection, key: str, value: str) -> None:
        conn.execute("INSERT OR REPLACE INTO table_sync_meta (key, value) VALUES (?, ?)",
                     (key, value))

    def stages(self) -> dict[str, tuple[int, int, dict[str, int]]]:
        """stage -> (box id, seating id, player numbers by folded name)."""
        with self.store.reading() as conn:
            return {s: (int(b), int(i), json.loads(p)) for s, b, i, p in conn.execute(
                "SELECT stage, box_id, seating_id, players FROM table_sync_stages")}

    # -- the seating from the director --

    def apply_seating(self, seating: wire.Seating, offset_us: int = 0) -> list[str]:
        """Make the games file hold what the director seated here: a time box per stage, a
        game with the drawn players in it (a new one when the director seats the table
        again), and the director's clock, moved onto this machine's clock by `offset_us`
        (this clock minus the director's, as measured), so the table's screen counts down
        and judges a late deal on the director's time. The box's count of late deals stays
        the table's own. Returns the stages that were new."""
        new: list[str] = []
        rules = Rules.make("championship", seating.target)
        now = wallclock.now()
        with self.store.transaction() as conn:
            known = {s: (int(b), int(i), json.loads(p)) for s, b, i, p in conn.execute(
                "SELECT stage, box_id, seating_id, players FROM table_sync_stages")}
            boxes: dict[str, int] = {}
            for s in seating.stages:
                names = [name for _n, name in s.players]
                numbers = {name.casefold(): n for n, name in s.players}
                ends = None if s.box.ends_at_us is None else s.box.ends_at_us + offset_us
                if s.stage not in known:
                    box = TimeBox(s.label, State(s.box.state), ends, s.box.left_us,
                                  s.box.grace_rounds)
                    box_id = self.store.boxes.create(box)
                    if len(names) >= 2:
                        self._new_game(conn, box_id, seating.edition, rules, names, now,
                                       s.seating_id)
                    conn.execute("INSERT INTO table_sync_stages VALUES (?, ?, ?, ?)",
                                 (s.stage, box_id, s.seating_id, json.dumps(numbers)))
                    new.append(s.stage)
                else:
                    box_id, seating_id, players = known[s.stage]
                    boxed = self.store.boxes.load(box_id)
                    current = (self.store.games.load(boxed.current_game_id)
                               if boxed.game_ids else None)
                    seated = [n.casefold() for n in names]
                    if (s.seating_id != seating_id and len(names) >= 2
                            and boxed.box.state not in (State.FINISHED, State.SEALED)
                            and (current is None
                                 or [n.casefold() for n in current.names] != seated)):
                        self._new_game(conn, box_id, seating.edition, rules, names, now,
                                       s.seating_id)
                    conn.execute("UPDATE table_sync_stages SET seating_id = ?, players = ? "
                                 "WHERE stage = ?",
                                 (s.seating_id, json.dumps({**players, **numbers}), s.stage))
                    box = boxed.box
                    self.store.boxes.save(TimeBox(
                        s.label, State(s.box.state), ends, s.box.left_us,
                        s.box.grace_rounds, box.late_rounds, box.play_on, box.fixed_players,
                        box.next_box_id, box_id))
                boxes[s.stage] = box_id
            for s in seating.stages:
                nxt = boxes.get(s.next_stage) if s.next_stage else None
                self.store.boxes.link(boxes[s.stage], nxt)
            self.set_meta(conn, "seating", json.dumps(
                {"event": seating.event, "stages": [s.stage for s in seating.stages]}))
        return new

    def _new_game(self, conn: sqlite3.Connection, box_id: int, edition: str, rules: Rules,
                  names: list[str], now: int, number: int) -> int:
        """The seated game, numbered as the director numbers it (`number`, the director's
        game) where this file has that number free: the director, the page, the table's
        screen and `game ... --game N` at the table then name one game alike."""
        from companion.store.wallclock import iso

        game = Game.new(edition, rules, names, created_at=iso(now))
        game_id = self.store.games.create(game, game_id=number or None)
        self.store.boxes.put_game(box_id, game_id)
        return game_id

    def current_game(self, stage: str) -> int | None:
        stages = self.stages()
        if stage not in stages:
            return None
        return self.store.boxes.load(stages[stage][0]).current_game_id or None

    # -- the outbox --

    def scan(self, *, dry: bool = False) -> int:
        """Queue every deal, duel and stage status that changed since it was last queued, in
        one transaction; returns how many messages were queued. `dry`: only count them,
        writing nothing (what a stopped agent left unqueued, for `table status`)."""
        queued = 0
        with self.store.reading() if dry else self.store.transaction() as conn:
            sent = {k: (d, r) for k, d, r in conn.execute(
                "SELECT key, digest, revision FROM table_sync_sent")}
            seen: set[str] = set()
            for stage, (box_id, _seating, numbers) in self._stages_in(conn):
                boxed = self.store.boxes.load(box_id)
                deals = 0
                for gid in boxed.game_ids:
                    game = self.store.games.load(gid)
                    for row in game.history():
                        points = {numbers[n.casefold()]: int(row.points.get(n, 0))
                                  for n in row.hands if n.casefold() in numbers}
                        key = f"{stage}/g{gid}:{row.number}"
                        seen.add(key)
                        deals += 1
                        report: dict[str, Any] = {
                            "kind": "deal", "stage": stage, "deal": f"g{gid}:{row.number}",
                            "points": {str(k): v for k, v in sorted(points.items())}}
                        at = _wall_us(row.played_at)
                        if at is not None:  # the director judges a late deal by it
                            report["at"] = at
                        queued += self._queue(conn, sent, key, {str(k): v for k, v in sorted(
                            points.items())}, game.revision, report, dry)
                    for duel in self.store.duels.of_game(gid):
                        key = f"{stage}/g{gid}:d{duel.id}"
                        body = {"kind": "duel", "stage": stage, "duel": f"g{gid}:d{duel.id}",
                                "challenger": numbers.get(duel.challenger.casefold(), 0),
                                "opponent": numbers.get(duel.opponent.casefold(), 0),
                                "outcome": duel.outcome[:32],
                                "winner": numbers.get((duel.winner or "").casefold())}
                        seen.add(key)
                        queued += self._queue(conn, sent, key, body, None, body, dry)
                key = f"{stage}/status"
                seen.add(key)
                body = {"kind": "status", "stage": stage, "late": boxed.box.late_rounds,
                        "deals": deals}
                queued += self._queue(conn, sent, key, body, None, body, dry)
            for key, (digest, revision) in sent.items():
                if key in seen or digest == "null" or "/status" in key or ":d" in key:
                    continue
                stage, deal = key.split("/", 1)
                gid = int(deal[1:].split(":")[0])
                game_rev = self.store.games.revision(gid)
                rev = max(revision + 1, game_rev or 0)
                queued += self._queue(conn, sent, key, None, rev, {
                    "kind": "deal", "stage": stage, "deal": deal, "points": None}, dry)
        return queued

    def _stages_in(self, conn: sqlite3.Connection) -> Iterator[
            tuple[str, tuple[int, int, dict[str, int]]]]:
        rows = conn.execute("SELECT stage, box_id, seating_id, players FROM table_sync_stages"
                            ).fetchall()
        for s, b, i, p in rows:
            yield s, (int(b), int(i), json.loads(p))

    def _queue(self, conn: sqlite3.Connection, sent: Mapping[str, tuple[str, int]], key: str,
               content: object, revision: int | None, body: dict[str, Any],
               dry: bool = False) -> int:
        digest = json.dumps(content, sort_keys=True)
        known = sent.get(key)
        if known is not None and known[0] == digest:
            return 0
        if dry:
            return 1
        if revision is None:  # duels and statuses: their own counter
            revision = (known[1] + 1) if known is not None else 1
        elif known is not None:
            revision = max(revision, known[1] + 1)
        conn.execute("INSERT OR REPLACE INTO table_sync_sent (key, digest, revision) VALUES "
                     "(?, ?, ?)", (key, digest, revision))
        conn.execute("INSERT INTO table_sync_outbox (body) VALUES (?)",
                     (json.dumps({**body, "rev": revision}),))
        return 1

    def outbox(self, limit: int = 1000, *, after: int = 0) -> list[Queued]:
        """The queued messages numbered above `after` (those not sent yet), oldest first."""
        with self.store.reading() as conn:
            return [Queued(int(seq), json.loads(body)) for seq, body in conn.execute(
                "SELECT seq, body FROM table_sync_outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                (after, limit))]

    def pending(self) -> int:
        with self.store.reading() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM table_sync_outbox").fetchone()[0])

    def acknowledged(self, source: str, seq: int) -> int:
        """The director has taken every message up to `seq`: drop them; how many went."""
        if source != self.source:
            return 0
        with self.store.transaction() as conn:
            return conn.execute("DELETE FROM table_sync_outbox WHERE seq <= ?",
                                (seq,)).rowcount

    def note_refused(self, refused: Sequence[wire.Refused]) -> list[str]:
        """Keep the deals the director took without counting that are new to this file (for
        `table status`); returns a line for each, to say now."""
        lines: list[str] = []
        with self.store.transaction() as conn:
            row = conn.execute("SELECT value FROM table_sync_meta WHERE key = 'refused'"
                               ).fetchone()
            kept: list[list[Any]] = json.loads(row[0]) if row else []
            said = max((int(k[0]) for k in kept), default=0)
            for r in refused:
                if r.seq <= said:
                    continue
                line = refused_text(r)
                kept.append([r.seq, line])
                lines.append(line)
            if lines:
                self.set_meta(conn, "refused", json.dumps(kept[-wire.MAX_REFUSED:]))
        return lines

    def note_words(self, words: Sequence[wire.Word]) -> list[str]:
        """Keep the director's words on this file's deals (for `table status` and the
        screen); returns a line for each word new since the last seating, to say now."""
        ours: list[list[Any]] = [[w.stage, w.deal, w.state, w.why, w.at_us] for w in words
                if w.source == self.source]
        told = self._hold(ours)
        with self.store.transaction() as conn:
            row = conn.execute("SELECT value FROM table_sync_meta WHERE key = 'words'"
                               ).fetchone()
            kept = json.loads(row[0]) if row else []
            if kept == ours:
                return told
            self.set_meta(conn, "words", json.dumps(ours))
        return [word_text(*w) for w in ours if w not in kept] + told

    def _hold(self, words: Sequence[Sequence[Any]]) -> list[str]:
        """Make the table's games hold out of their end (rule 2.1) the rounds the director
        holds or voided, and count again those it restored (`Games.set_held`, the
        companion's own): a deal held does not end the table's game. Returns a line for
        each game whose end this changed."""
        wanted: dict[int, set[int]] = {}
        for _stage, deal, state, _why, _at in words:  # in order: the newest word wins
            game, _sep, number = str(deal).lstrip("g").partition(":")
            if not (game.isdigit() and number.isdigit()):
                continue
            numbers = wanted.setdefault(int(game), set())
            if state == wire.WORD_RESTORED:
                numbers.discard(int(number))
            else:
                numbers.add(int(number))
        with self.store.reading() as conn:
            if schema.has_table(conn, "held_rounds"):
                for (gid,) in conn.execute("SELECT DISTINCT game_id FROM held_rounds"):
                    wanted.setdefault(int(gid), set())
        from companion.store.wallclock import iso

        lines: list[str] = []
        for gid, numbers in sorted(wanted.items()):
            if self.store.games.revision(gid) is None:
                continue
            change = self.store.games.set_held(gid, frozenset(numbers), iso(wallclock.now()))
            line = held_change_text(change)
            if line:
                lines.append(line)
        return lines

    def words(self) -> list[str]:
        """The director's word on each of this file's deals it decided or holds, as said."""
        text = self.meta("words")
        return [word_text(*w) for w in json.loads(text)] if text else []

    def refused(self) -> list[str]:
        """What the director refused, newest last."""
        text = self.meta("refused")
        return [str(k[1]) for k in json.loads(text)] if text else []

    def payload(self, q: Queued, secret: str) -> bytes:
        """A queued message as sent: numbered, and signed with the table's secret."""
        return wire.sign({"v": wire.VERSION, "table": self.table, "source": self.source,
                          "seq": q.seq, **q.body}, secret)


@dataclass(frozen=True, slots=True)
class LinkState:
    """What the table's agent last noted of its link to the director, and its outbox."""

    linked: bool
    since_us: int
    stopped: bool  # `table join` is not running
    waiting: int
    #: The director's word on the table's deals, one line each, newest last.
    words: tuple[str, ...] = ()
    held: int = 0  # of them, the deals the director holds now


def link_state(store: Store) -> LinkState | None:
    """The table's link as its agent last noted it; None for a games file that never joined
    a championship. Cheap, for a screen to read on every poll, and it writes nothing."""
    with store.reading() as conn:
        if not schema.has_table(conn, "table_sync_meta"):
            return None
        row = conn.execute("SELECT value FROM table_sync_meta WHERE key = 'link'").fetchone()
        if row is None:
            return None
        waiting = int(conn.execute("SELECT COUNT(*) FROM table_sync_outbox").fetchone()[0])
        said = conn.execute("SELECT value FROM table_sync_meta WHERE key = 'words'"
                            ).fetchone()
    note = json.loads(row[0])
    kept = json.loads(said[0]) if said else []
    return LinkState(bool(note["linked"]), int(note["since"]), bool(note.get("stopped")),
                     waiting, tuple(word_text(*w) for w in kept),
                     sum(w[2] == wire.WORD_HELD for w in kept))


def _wall_us(played_at: str) -> int | None:
    """A round's stored wall-clock time (ISO, to the second) in µs; None if there is none."""
    from datetime import UTC, datetime

    try:
        when = datetime.fromisoformat(played_at)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp()) * 1_000_000 + when.microsecond


def word_text(stage: str, deal: str, state: str, why: str, _at_us: int) -> str:
    """The director's word on one of the table's deals, as the table says it, in the
    table's language."""
    from championship.core.i18n import _
    from championship.core.presence import held_text

    game, _sep, number = deal.lstrip("g").partition(":")
    if state == wire.WORD_HELD:
        return _("The director holds round {round} of game {game} ({stage}): {why}; it does "
                 "not count until the director decides.").format(
            round=number, game=game, stage=stage, why=held_text(why))
    if state == wire.WORD_VOID:
        return _("The director voided round {round} of game {game} ({stage}): {why}.").format(
            round=number, game=game, stage=stage, why=why)
    return _("The director counts round {round} of game {game} ({stage}) now: {why}.").format(
        round=number, game=game, stage=stage, why=why)


def held_change_text(change: HeldChange) -> str | None:
    """What the director's word did to the end of one of the table's games, as the table
    says it (None: nothing)."""
    from championship.core.i18n import _

    if change.dropped is not None:
        return _("Game {game} is not over: the deal that took it to the target is held, so "
                 "the table plays on in game {game} (game {dropped} had no round and is "
                 "taken back).").format(game=change.game_id, dropped=change.dropped)
    if change.plays_on is not None:
        return _("Game {game} would not be over without the held deal, but game {next} has "
                 "rounds already: the table plays on in game {next}, and game {game} stays "
                 "as it was played.").format(game=change.game_id, next=change.plays_on)
    if change.started is not None:
        return _("Game {game} is over again now that its deal counts (rule 2.1): the table "
                 "plays on in game {next}.").format(game=change.game_id, next=change.started)
    return None


def refused_text(r: wire.Refused) -> str:
    """A refusal as the table says it, in the table's language."""
    from championship.core.i18n import _

    reasons = {
        wire.REFUSED_SEALED: _("the results of that stage were already taken"),
        wire.REFUSED_LATE: _("it was recorded after the time was up and after the deal in "
                             "progress"),
        wire.REFUSED_SEATS: _("a player in it is not seated at this table"),
    }
    game, _sep, number = r.deal_id.lstrip("g").partition(":")
    return _("The director did not count round {round} of game {game} ({stage}): "
             "{reason}.").format(round=number, game=game, stage=r.stage,
                                 reason=reasons[r.reason])


def director_file(path: str | Path) -> bool:
    """Whether the games file at `path` holds a championship (it is the director's, and a
    table must never record into it): read without writing, and false for no file."""
    try:
        if not Path(path).is_file():
            return False
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
    except (OSError, ValueError, sqlite3.Error):
        return False
    try:
        return bool(conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND "
                                 "name LIKE 'championship\\_%' ESCAPE '\\'").fetchone()[0])
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def agent_running(path: str | Path) -> bool:
    """Whether a `table join` runs on the games file now: its hold (`hold`), which ends with
    the process however it ends, not the last words it wrote. Call it before the file is
    opened as a store: closing a second descriptor of the file would drop SQLite's locks."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # the probe's shared hold goes with it
    return False


def hold(path: str | Path) -> int | None:
    """An exclusive hold on a table's games file for one `table join` (an advisory `flock`,
    released when the process ends, however it ends): the file descriptor, or None when
    another agent holds it. The file is made if it is not there (SQLite takes an empty file
    as a new one). `flock` and SQLite's own locks (POSIX record locks) do not meet; the
    descriptor is closed only after the store, as SQLite asks of a second descriptor."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd
