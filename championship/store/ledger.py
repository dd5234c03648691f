"""The director's side of the sync in its games file: each table's credentials, how far each
table's messages have been taken (the acknowledgements), the duels tables reported and the
latest status revision of each table's stage.

The deals themselves go to the championship's own table of reported deals
(`championship.store.event_store`), where the standings read them. Everything here is written in the
caller's transaction, so a batch of messages is taken whole or not at all, acknowledgements
included: a table drops from its outbox only what is on the director's disk.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from championship.core.access import (
    Credentials,
    director_user,
    new_secret,
    new_signing_key,
    table_user,
)
from championship.store.event_store import newer
from companion.store import schema
from companion.store.games import Store

_V1 = """
CREATE TABLE director_sync_users (
    event_id INTEGER NOT NULL,
    username TEXT NOT NULL,
    table_no INTEGER,
    secret TEXT NOT NULL,
    PRIMARY KEY (event_id, username)
);
CREATE TABLE director_sync_acks (
    event_id INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    source TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (event_id, table_no, source)
);
CREATE TABLE director_sync_status (
    event_id INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    stage TEXT NOT NULL,
    revision INTEGER NOT NULL,
    PRIMARY KEY (event_id, table_no, stage)
);
CREATE TABLE director_sync_duels (
    event_id INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    duel_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    revision INTEGER NOT NULL,
    challenger INTEGER NOT NULL,
    opponent INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    winner INTEGER,
    PRIMARY KEY (event_id, table_no, duel_id)
);
"""

# Each games file numbers its outbox from 1 (`championship.store.table_file`), so a status's
# number orders it only against the same file's: after a take-over by an agent on a fresh
# file, that file's first status must count, not lose to the numbers the old file reached.
# The old rows, keyed by table and stage alone, say nothing of which file they came from,
# and order nothing once each file is kept apart (the acknowledgements already set aside a
# message taken before): they go.
_V2 = """
DROP TABLE director_sync_status;
CREATE TABLE director_sync_status (
    event_id INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    stage TEXT NOT NULL,
    source TEXT NOT NULL,
    revision INTEGER NOT NULL,
    PRIMARY KEY (event_id, table_no, stage, source)
);
"""
# The director's signing key (`access.new_signing_key`), on the director's row: made when
# the credentials are next asked for (`Ledger.credentials`).
_V3 = """
ALTER TABLE director_sync_users ADD COLUMN signing_key TEXT;
"""


# One agent per table (`championship.core.agents`): the agent that holds each table (its
# computer, since when) and the last time a second agent was told to stop, so `event show`
# says it after the director's log has scrolled away. A part of its own, made when a
# director first serves the file: a file only opened by the ledger stays as it was.
_AGENTS_V1 = """
CREATE TABLE director_sync_agents (
    event_id INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    host TEXT NOT NULL,
    since_us INTEGER NOT NULL,
    contest TEXT,
    contest_host TEXT,
    contest_us INTEGER,
    PRIMARY KEY (event_id, table_no)
);
"""
# The holder's games file, so the director that starts again knows which file speaks for the
# table before it hears any agent (NULL: noted before it was kept).
_AGENTS_V2 = """
ALTER TABLE director_sync_agents ADD COLUMN source TEXT;
"""
# The holder's token, and whether it left the table (its last word): a director that starts
# again holds the table for that agent, unless it had left (`holder_note`).
_AGENTS_V3 = """
ALTER TABLE director_sync_agents ADD COLUMN agent TEXT;
ALTER TABLE director_sync_agents ADD COLUMN left_table INTEGER NOT NULL DEFAULT 0;
"""


@dataclass(frozen=True, slots=True)
class AgentNote:
    """The agent that holds a table as the director last decided, and the last contest: a
    second agent told to stop (`contest`: messages.STOP_HELD or STOP_TAKEN), its computer
    and when."""

    host: str
    since_us: int
    contest: str | None
    contest_host: str | None
    contest_us: int | None


def _tables_made(conn: sqlite3.Connection) -> int:
    """Before `schema_parts`, the tables were made all at once when missing: 1 if they are."""
    return int(schema.has_table(conn, "director_sync_users"))


#: The director's side of the sync: credentials, acknowledgements, reported duels.
PART = schema.register(schema.Part("director sync", (_V1, _V2, _V3), _tables_made, newer))
#: The agent that holds each table, as the director decided (`Ledger.serve`).
AGENTS_PART = schema.register(schema.Part("director agents",
                                          (_AGENTS_V1, _AGENTS_V2, _AGENTS_V3),
                                          lambda _c: 0, newer))


class Ledger:
    """The sync's rows in the director's games file."""

    def __init__(self, store: Store) -> None:
        self.store = store
        schema.migrate(store, PART)

    def credentials(self, event_id: int, tables: range | list[int]) -> tuple[
            Credentials, dict[int, Credentials]]:
        """The director's and each table's credentials, made once and kept (so a table's
        file stays good across restarts of the director). The director's hold its signing
        key; the public half goes into the tables' files where they are written."""
        director_name = director_user(event_id)
        with self.store.transaction() as conn:
            known = {u: (t, s) for u, t, s in conn.execute(
                "SELECT username, table_no, secret FROM director_sync_users WHERE event_id = ?",
                (event_id,))}
            wanted = [(director_name, None)] + [(table_user(event_id, t), t) for t in tables]
            for user, table in wanted:
                if user not in known:
                    secret = new_secret()
                    conn.execute("INSERT INTO director_sync_users (event_id, username, "
                                 "table_no, secret) VALUES (?, ?, ?, ?)",
                                 (event_id, user, table, secret))
                    known[user] = (table, secret)
            row = conn.execute("SELECT signing_key FROM director_sync_users WHERE event_id = ? "
                               "AND username = ?", (event_id, director_name)).fetchone()
            signing_key = row[0]
            if signing_key is None:  # a new event, or one served before directors signed
                signing_key = new_signing_key()
                conn.execute("UPDATE director_sync_users SET signing_key = ? WHERE "
                             "event_id = ? AND username = ?",
                             (signing_key, event_id, director_name))
        director = Credentials(event_id, None, director_name, known[director_name][1],
                               signing_key=str(signing_key))
        out = {t: Credentials(event_id, t, table_user(event_id, t),
                              known[table_user(event_id, t)][1]) for t in tables}
        return director, out

    @staticmethod
    def acked(conn: sqlite3.Connection, event_id: int, table: int, source: str) -> int:
        row = conn.execute("SELECT seq FROM director_sync_acks WHERE event_id = ? AND "
                           "table_no = ? AND source = ?", (event_id, table, source)).fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def set_acked(conn: sqlite3.Connection, event_id: int, table: int, source: str,
                  seq: int) -> None:
        conn.execute("INSERT INTO director_sync_acks (event_id, table_no, source, seq) VALUES "
                     "(?, ?, ?, ?) ON CONFLICT (event_id, table_no, source) DO UPDATE SET "
                     "seq = MAX(seq, excluded.seq)", (event_id, table, source, seq))

    @staticmethod
    def newer_status(conn: sqlite3.Connection, event_id: int, table: int, stage: str,
                     source: str, revision: int) -> bool:
        """Note a status revision from one games file (`source`); True if it is newer than
        any that file sent for the stage. Which file may speak for the table is the
        caller's to decide (`holder_source`): this only orders one file's messages."""
        cur = conn.execute(
            "INSERT INTO director_sync_status (event_id, table_no, stage, source, revision) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id, table_no, stage, source) DO UPDATE "
            "SET revision = excluded.revision WHERE excluded.revision > "
            "director_sync_status.revision", (event_id, table, stage, source, revision))
        return cur.rowcount > 0

    @staticmethod
    def put_duel(conn: sqlite3.Connection, event_id: int, table: int, duel_id: str,
                 stage: str, revision: int, challenger: int, opponent: int, outcome: str,
                 winner: int | None) -> None:
        conn.execute(
            "INSERT INTO director_sync_duels (event_id, table_no, duel_id, stage, revision, "
            "challenger, opponent, outcome, winner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (event_id, table_no, duel_id) DO UPDATE SET revision = "
            "excluded.revision, outcome = excluded.outcome, winner = excluded.winner "
            "WHERE excluded.revision > director_sync_duels.revision",
            (event_id, table, duel_id, stage, revision, challenger, opponent, outcome, winner))

    def duels(self, event_id: int) -> int:
        with self.store.reading() as conn:
            return int(conn.execute(
                "SELECT COUNT(*) FROM director_sync_duels WHERE event_id = ?",
                (event_id,)).fetchone()[0])

    def serve(self) -> None:
        """Ready the file for a director that serves it (the agents' notes)."""
        schema.migrate(self.store, AGENTS_PART)

    @staticmethod
    def put_holder(conn: sqlite3.Connection, event_id: int, table: int, agent: str,
                   host: str, source: str, since_us: int) -> None:
        """Note the agent that holds a table now (its token, computer and games file; its
        last contest stays)."""
        conn.execute("INSERT INTO director_sync_agents (event_id, table_no, host, since_us, "
                     "source, agent) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, "
                     "table_no) DO UPDATE SET host = excluded.host, since_us = "
                     "excluded.since_us, source = excluded.source, agent = excluded.agent, "
                     "left_table = 0", (event_id, table, host, since_us, source, agent))

    @staticmethod
    def put_left(conn: sqlite3.Connection, event_id: int, table: int) -> None:
        """Note that the holder left the table (its games file still noted)."""
        conn.execute("UPDATE director_sync_agents SET left_table = 1 WHERE event_id = ? AND "
                     "table_no = ?", (event_id, table))

    @staticmethod
    def holder_note(conn: sqlite3.Connection, event_id: int, table: int
                    ) -> tuple[str | None, str, str, int] | None:
        """The token (None: noted before it was kept), computer, games file and since-when
        of the agent that held the table when the director last ran, unless it had left
        (None also when no file was noted)."""
        row = conn.execute("SELECT agent, host, source, since_us FROM director_sync_agents "
                           "WHERE event_id = ? AND table_no = ? AND left_table = 0",
                           (event_id, table)).fetchone()
        if row is None or row[2] is None:
            return None
        return (None if row[0] is None else str(row[0]), str(row[1]), str(row[2]),
                int(row[3]))

    @staticmethod
    def holder_source(conn: sqlite3.Connection, event_id: int, table: int) -> str | None:
        """The games file of the agent that last held the table, as noted (None: no agent
        was ever arbitrated for it, or it was noted before the file was kept)."""
        row = conn.execute("SELECT source FROM director_sync_agents WHERE event_id = ? AND "
                           "table_no = ?", (event_id, table)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    @staticmethod
    def put_contest(conn: sqlite3.Connection, event_id: int, table: int, why: str,
                    host: str, at_us: int) -> None:
        """Note that a second agent of a table (on `host`) was told to stop."""
        conn.execute("UPDATE director_sync_agents SET contest = ?, contest_host = ?, "
                     "contest_us = ? WHERE event_id = ? AND table_no = ?",
                     (why, host, at_us, event_id, table))


def agent_notes(conn: sqlite3.Connection, event_id: int) -> dict[int, AgentNote]:
    """Each table's agent as the director noted it (none in a file no director served)."""
    if not schema.has_table(conn, "director_sync_agents"):
        return {}
    return {int(t): AgentNote(h, int(s), c, ch, None if cu is None else int(cu))
            for t, h, s, c, ch, cu in conn.execute(
                "SELECT table_no, host, since_us, contest, contest_host, contest_us FROM "
                "director_sync_agents WHERE event_id = ?", (event_id,))}
