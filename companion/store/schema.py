"""One way to version the games file: every owner of tables in it is a `Part` with its own
ordered steps, and one table, `schema_parts`, says how far each part's steps have run.

The games file has several owners (the score keeper's games, rounds, duels and time boxes;
the championship; a table's sync outbox; the director's sync ledger), each adding tables as
it grows. Each registers its steps here once (`register`) and brings its tables up to date
through `migrate` when it opens the file, so a part nobody uses (a score keeper's file holds
no championship) adds nothing to it.

Each step runs in its own write transaction, which first reads the part's version again: a
second program opening the same file at the same moment waits for the first one's step and
then finds it done, instead of running it twice. A part whose file says it is further on
than this program knows is refused with the part's own one-line message, before anything is
written.

Files written before this table existed kept their versions in three other ways (SQLite's
`user_version` for the games, a `championship_meta` row, the mere presence of the sync's
tables); a part's `legacy` reader gives the version such a file holds, so it opens and
migrates. Once the table exists, `user_version` holds `FILE_FORMAT`: more than the last
version those programs knew, so they refuse the file as newer instead of misreading it. The
old markers stay where they were (a `championship_meta` row): nothing reads them once the
part has its row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator

from showdown.contract.record import record

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from contextlib import AbstractContextManager
    from typing import Protocol
else:
    Protocol = object  # the protocols only describe: nothing checks them at run time

#: SQLite's `user_version` of a file whose versions are in `schema_parts` (the games' last
#: version kept in `user_version` was 7).
FILE_FORMAT = 8
_TABLE = "schema_parts"


@record
class Part:
    """One owner's tables: `steps[i]` takes them from version i to version i + 1."""

    name: str
    steps: tuple[str, ...]
    #: The version a file written before `schema_parts` holds (0: none of these tables).
    legacy: Callable[[sqlite3.Connection], int]
    #: The refusal of a file whose version of this part is `found`, beyond `version`.
    newer: Callable[[str, int], Exception]

    @property
    def version(self) -> int:
        """The version this program writes: every step run."""
        return len(self.steps)


class File(Protocol):
    """What the runner needs of an open games file (`companion.store.games_file.GamesFile`)."""

    path: str
    conn: sqlite3.Connection

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def reading(self) -> AbstractContextManager[sqlite3.Connection]: ...


_PARTS: dict[str, Part] = {}


def register(part: Part) -> Part:
    """Make `part` known (its module does it once, at import); returns it. A module loaded
    again registers the same steps again; two owners may not share a name."""
    known = _PARTS.get(part.name)
    if known is not None and known.steps != part.steps:
        raise ValueError(f"two parts of the games file are named {part.name!r}")
    _PARTS[part.name] = part
    return part


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the file holds a table of that name (what the old schemes went by)."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (name,)).fetchone() is not None


def version_of(conn: sqlite3.Connection, part: Part) -> int:
    """How far the file's tables of `part` are: its row, or what an older file says.

    Read it inside a transaction: between the look for `schema_parts` and the old marker,
    another program may adopt the file and change what `user_version` means.
    """
    if has_table(conn, _TABLE):
        row = conn.execute(f"SELECT version FROM {_TABLE} WHERE part = ?",
                           (part.name,)).fetchone()
        if row is not None:
            return int(row[0])
    return part.legacy(conn)


def statements(script: str) -> Iterator[str]:
    """A step's statements, one by one: split at each `;` that ends a whole statement, so a
    trigger's body (statements of its own between BEGIN and END) stays one."""
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n\t;"):
                yield pending
            pending = ""
    if pending.strip(" \n\t;"):
        yield pending


def migrate(file: File, part: Part, found: int | None = None) -> None:
    """Bring `part`'s tables up to date; refuse a file a newer program wrote.

    Nothing is written when the tables are already current, so an up-to-date file opens
    even where it cannot be written. `found`: the part's version as the caller has just read
    it, so opening a current file does not read it twice (each step reads it again in its
    own write transaction all the same).
    """
    if found is None:
        with file.reading() as conn:
            found = version_of(conn, part)
    if found > part.version:
        raise part.newer(file.path, found)
    for step in range(found, part.version):
        with file.transaction() as conn:
            now = version_of(conn, part)
            if now > part.version:
                raise part.newer(file.path, now)
            if now != step:  # another program ran this step meanwhile
                continue
            _adopt(conn)
            for statement in statements(part.steps[step]):
                conn.execute(statement)
            conn.execute(f"INSERT INTO {_TABLE} (part, version) VALUES (?, ?) ON CONFLICT "
                         "(part) DO UPDATE SET version = excluded.version",
                         (part.name, step + 1))


def make_beside(file: File, conn: sqlite3.Connection, part: Part) -> None:
    """Bring `part` up to date from inside the caller's write transaction (`conn`), as the
    first write that needs its tables does, without adopting a file of the older schemes:
    where there is no `schema_parts`, the part's steps only add its tables, which its
    `legacy` reader then finds, and the file's `user_version` stays what the programs that
    wrote it read, so they still open it. Elsewhere this is `migrate`."""
    if has_table(conn, _TABLE):
        migrate(file, part)
        return
    found = part.legacy(conn)
    for step in part.steps[found:]:
        for statement in statements(step):
            conn.execute(statement)


def _adopt(conn: sqlite3.Connection) -> None:
    """Give a file of the older schemes its `schema_parts`, with every part's version as
    the file held it, in the caller's transaction (so the old markers are read once, before
    `user_version` changes meaning)."""
    if has_table(conn, _TABLE):
        return
    versions = [(p.name, p.legacy(conn)) for p in _PARTS.values()]
    conn.execute(f"CREATE TABLE {_TABLE} (part TEXT PRIMARY KEY, "
                 "version INTEGER NOT NULL CHECK (version >= 0))")
    conn.executemany(f"INSERT INTO {_TABLE} (part, version) VALUES (?, ?)",
                     [(name, v) for name, v in versions if v])
    conn.execute(f"PRAGMA user_version = {FILE_FORMAT}")


def tables_at(part: Part, version: int) -> dict[str, frozenset[str]]:
    """The tables and columns `part`'s first `version` steps make, with their columns."""
    conn = sqlite3.connect(":memory:")
    try:
        for script in part.steps[:version]:
            conn.executescript(script)
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: frozenset(r[1] for r in conn.execute(f"PRAGMA table_info({t})"))
                for t in tables}
    finally:
        conn.close()
