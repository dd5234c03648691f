"""The games file itself: one SQLite connection with WAL, foreign keys, `synchronous=FULL`,
and the one way everything in it is read and written.

A change is one write transaction (`GamesFile.transaction`), taken before reading so that
writers queue instead of failing, and committed before the call returns: a round shown as
saved survives a kill -9 or a power cut. A change made of several (a draw's boxes, games and
seats) opens the transaction itself and calls the repositories inside it; each of their
methods joins it, so the whole commits together or not at all. A read is one read
transaction (`GamesFile.reading`): all its queries see one committed state. A transaction
that cannot commit (disk full, file locked) is rolled back and reported as a `StoreError`, so
the next change starts clean.

Opening refuses a file of another program before changing anything, then brings the games'
tables up to date (`companion.store.schema`, part "games").
"""

from __future__ import annotations

import _thread  # its RLock is threading's, without threading.py's import at start
import errno
import functools
import os
import sqlite3
import stat
import sys
import time

from companion.store import schema
from companion.store.errors import StoreBusyError, StoreError
from companion.store.games_schema import CURRENT_TABLES, PART, SCHEMA_VERSION
from showdown.contract.i18n import _

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike
    from typing import Self

APP_NAME = "uno-showdown"
DB_NAME = "games.sqlite3"


def default_db_path() -> str:
    """The games file in the user's data directory (e.g. ~/.local/share/uno-showdown).

    On Linux (the Pi) this is platformdirs' own rule, `$XDG_DATA_HOME` or else
    `~/.local/share`, without importing it: `uno-showdown game list` pays for every import
    at every start, and under a Pi-class CPU platformdirs alone was a good part of that.
    Elsewhere platformdirs says, imported here, not with the module. A string, as
    `GamesFile.path` is: pathlib (with urllib.parse and ipaddress behind it) would cost a
    `game` command at a Pi a tenth of its start."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser(
            "~/.local/share")
        return as_pathlib_writes(os.path.join(base, APP_NAME, DB_NAME))
    import platformdirs

    return os.path.join(platformdirs.user_data_dir(APP_NAME, appauthor=False), DB_NAME)


def as_pathlib_writes(text: str) -> str:
    """`text` as `str(pathlib.Path(text))` writes it, without importing pathlib (see
    `default_db_path`): "" is ".", and "./", "//" and a trailing "/" go ("./g.db" is
    "g.db", "f.db/" is "f.db"); ".." stays, as pathlib leaves it. The games file is opened
    and named in every message by this one string."""
    if os.sep != "/":  # Windows: pathlib's own rules (drives, both slashes); no Pi pays there
        from pathlib import Path

        return str(Path(text))
    root = "//" if text.startswith("//") and not text.startswith("///") else (
        "/" if text.startswith("/") else "")
    return root + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."


def _is_dir(path: str) -> bool:
    """Is `path` a folder? As pathlib's `is_dir` answers: False where nothing is, but a name
    too long or a folder that cannot be read is an error, reported as such."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise


def _short(path: str) -> str:
    """A path as a one-line message shows it: at most 200 characters."""
    text = str(path)
    return text if len(text) <= 200 else text[:100] + "…" + text[-99:]


@functools.cache
def _tables_at(version: int) -> dict[str, frozenset[str]]:
    """The tables and columns a games file of schema `version` holds, from `MIGRATIONS` itself
    (a current file's written out: each command opens one, and the steps cost a Pi time)."""
    return dict(CURRENT_TABLES) if version == SCHEMA_VERSION else schema.tables_at(PART, version)


def _read_only_text() -> str:
    return _("cannot open the games file {path} for writing ({reason}): make the file "
             "and its folder writable, or choose another with --db")


#: SQLite's primary result codes (sqlite3.h) that say why a file cannot be the games file:
#: READONLY, PERM, CANTOPEN and AUTH (not ours to write), BUSY and LOCKED (held by another
#: program), FULL (no space).
_READ_ONLY = frozenset({8, 3, 14, 23})
_BUSY = frozenset({5, 6})
_FULL = 13
_IOERR = 10


def _disk_full(path: str) -> bool:
    """Is the disk of the games file `path` full (so SQLite's I/O error means just that)?"""
    try:
        info = os.statvfs(os.path.dirname(os.path.realpath(path)))
    except (OSError, ValueError):
        return False
    return info.f_bavail * info.f_frsize < 64 * 1024


class GamesFile:
    """One open games file: its connection, its lock and its transactions; the
    repositories (`companion.store.games.Store`) read and write through it."""

    def __init__(self, path: str | PathLike[str] | None = None, *,
                 busy_timeout_s: float = 10.0) -> None:
        """`busy_timeout_s`: how long a write waits for another program's lock on the file
        before it gives up with `StoreBusyError`."""
        #: The file as given (or the default), a string: see `default_db_path`.
        self.path = as_pathlib_writes(os.fspath(path)) if path is not None else default_db_path()
        # The service thread records duels while the screen thread records rounds.
        self.lock = _thread.RLock()
        self._writing = 0  # how deep in `transaction` the thread holding `lock` is
        try:
            folder = os.path.dirname(self.path) or os.curdir
            if _is_dir(self.path):
                raise StoreError(
                    _("{path} is a folder, not a games file: give a file name with --db").format(
                        path=self.path)
                )
            if path is None:  # the user's data directory is ours to make
                os.makedirs(folder, exist_ok=True)
            elif not _is_dir(folder):  # a path given: never plant its folders
                raise StoreError(
                    _("there is no folder {folder} (create it first)").format(folder=folder))
            self.conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=busy_timeout_s,
                check_same_thread=False
            )
        except StoreError:  # already says what to do: never wrapped in a second piece of advice
            raise
        except sqlite3.Error as exc:
            raise self._unusable(exc) from exc
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM,
                                                          errno.EROFS):
                raise StoreError(_read_only_text().format(path=_short(self.path),
                                                          reason=reason)) from exc
            raise StoreError(
                _("cannot open the games file {path}: {reason}; choose another with --db").format(
                    path=_short(self.path), reason=reason
                )
            ) from exc
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            with self.reading():  # one moment of the file, whoever else opens it now
                version = self._refuse_foreign_database()
            self._into_wal(busy_timeout_s)
            self.conn.execute("PRAGMA synchronous = FULL")
            self._migrate(version)
        except (sqlite3.Error, StoreError) as exc:
            self.conn.close()
            cause = exc.__cause__ if isinstance(exc, StoreError) else exc
            if isinstance(cause, sqlite3.Error):  # a migration's write failed: say why
                raise self._unusable(cause) from exc
            raise
        except UnicodeDecodeError as exc:  # SQLite's own message quotes a schema that is
            self.conn.close()  # not UTF-8 (one flipped bit), which Python cannot decode
            raise StoreError(_("{path} is not a games file ({reason}): choose another with "
                               "--db").format(path=self.path, reason=_(
                                   "its schema is damaged: not UTF-8 text"))) from exc

    def _into_wal(self, timeout_s: float) -> None:
        """Put the file in WAL mode (a no-op for a file already in it). Switching a file of
        an older program, which kept a rollback journal, needs the file alone, and SQLite does
        not wait for that as it waits for other locks: a connection that reads and then
        needs the file alone is refused at once, without its busy handler, lest two of them
        wait for each other. Two programs opening such a file at the same moment (the screen
        and a command after an update) would see one refused as "locked"; this one waits
        instead, as long as the busy timeout allows any other lock."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
                if code not in _BUSY or time.monotonic() >= deadline:
                    raise
            time.sleep(0.002)  # the other opener's switch is a few page writes

    def _unusable(self, exc: sqlite3.Error) -> StoreError:
        """Why the file cannot be the games file, told apart by SQLite's error code."""
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF  # extended -> primary
        if code in _READ_ONLY:
            text = _read_only_text()
        elif code in _BUSY:
            text = _("the games file {path} is locked by another program ({reason}): close "
                     "it and try again, or choose another with --db")
        elif code == _FULL or (code == _IOERR and _disk_full(self.path)):
            # a full disk reaches SQLite as a failed write of the journal: "disk I/O error"
            text = _("cannot write the games file {path} ({reason}): free some disk space, "
                     "or choose another with --db")
            if code == _IOERR:
                exc = sqlite3.OperationalError(_("the disk is full"))
        else:
            text = _("{path} is not a games file ({reason}): choose another with --db")
        return StoreError(text.format(path=self.path, reason=exc))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> _Transaction:
        """One write transaction, taken before reading so that writers queue, not fail.

        Inside another write transaction of this store it joins that one: several changes
        made by separate methods (a draw's boxes, games and seats) commit as one, or not at
        all. Whatever goes wrong inside, COMMIT included (a full disk, a deferred
        constraint), the transaction is rolled back before the error leaves: otherwise the
        connection would stay inside it and every later BEGIN would fail. SQLite's own
        errors become a `StoreError`.
        """
        return _Transaction(self)

    def reading(self) -> _Reading:
        """One read transaction: every query inside sees the same committed state of the file.

        Without it, a game read in several queries (the game, its players, its rounds, their
        hands) while another program commits could pair rounds of one state with players of
        another. In WAL mode the snapshot costs nothing and blocks no writer. Nested reads,
        and reads inside a write, share the transaction already open. SQLite's errors (a
        damaged file, a table gone) become a one-sentence `StoreError`.
        """
        return _Reading(self)

    def _unreadable(self, exc: sqlite3.Error) -> StoreError:
        return StoreError(
            _("cannot read the games file {path} ({reason}): check the file, or "
              "choose another with --db").format(path=self.path, reason=exc))

    def _roll_back(self) -> None:
        """End the open transaction, if SQLite has not already ended it itself."""
        if self.conn.in_transaction:
            # a failing ROLLBACK says less than the error being reported, which goes on
            # (not contextlib.suppress: see `_Transaction`)
            try:  # noqa: SIM105
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _cannot_save(self, exc: BaseException) -> StoreError:
        kind = StoreBusyError if isinstance(exc, sqlite3.OperationalError) else StoreError
        return kind(
            _("cannot save to {path}: {reason}; nothing was changed, so try again").format(
                path=self.path, reason=exc
            )
        )

    # -- schema --

    def schema_version(self) -> int:
        """How far the games' tables are (`schema.Part` "games")."""
        with self.reading() as conn:
            return schema.version_of(conn, PART)

    def _refuse_foreign_database(self) -> int:
        """A database of another program is left alone: tables without a schema version, or
        a version whose tables and columns are not there (a file that only says it is ours).

        Checked before any migration, so a foreign file is never changed. Returns the games'
        version it read (what `_migrate` starts from).
        """
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            return version  # refused by `_migrate`, with its own message
        tables = {name for (name,) in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        reason = None
        if version == 0 and tables:
            reason = _("it holds another program's tables")
        for table, columns in _tables_at(version).items():
            if reason is None and not (table in tables and columns <= self._columns(table)):
                reason = _("its table {table} is missing or incomplete").format(table=table)
        if reason is not None:
            raise StoreError(
                _("{path} is not a games file ({reason}): choose another with --db").format(
                    path=self.path, reason=reason
                )
            )
        return version

    def _columns(self, table: str) -> set[str]:
        """The columns of `table` (one of ours, by name). The pragma, not its table-valued
        form joined with `sqlite_master`: that one runs SQLite's virtual-table machinery,
        which under a Pi-class CPU cost every command that opens the file a twentieth of
        `python3 -c pass` more than these few statements."""
        quoted = table.replace('"', '""')
        return {row[1] for row in self.conn.execute(f'PRAGMA table_info("{quoted}")')}

    def _migrate(self, found: int) -> None:
        """Bring the games' tables up to date from version `found`, just read."""
        schema.migrate(self, PART, found)

    def data_version(self) -> int:
        """Changes whenever another connection (another program) commits to the file. It is
        polled, so it is one statement: it needs no read transaction of its own."""
        with self.lock:
            try:
                return int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error as exc:
                raise self._unreadable(exc) from exc


# The two transactions are classes, not `contextlib.contextmanager` generators: every command
# that opens the games file takes them, and importing contextlib cost a `game` command at a
# Pi-class CPU more than these few lines do.


class _Transaction:
    """`GamesFile.transaction`: the file's lock held from `__enter__` to `__exit__`."""

    __slots__ = ("file", "joined")

    def __init__(self, file: GamesFile) -> None:
        self.file = file
        self.joined = False

    def __enter__(self) -> sqlite3.Connection:
        file = self.file
        file.lock.acquire()
        self.joined = False
        try:
            if file._writing:  # inside another of this store's: join it
                self.joined = True
                file._writing += 1
                return file.conn
            try:
                file.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise file._cannot_save(exc) from exc
            file._writing = 1
            return file.conn
        except BaseException:
            file.lock.release()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: object) -> None:
        file = self.file
        try:
            if self.joined:  # the outer one commits or rolls back
                return
            if exc is None:
                try:
                    file.conn.execute("COMMIT")
                    return
                except BaseException as failed:
                    file._roll_back()
                    if isinstance(failed, (sqlite3.Error, OverflowError)):
                        raise file._cannot_save(failed) from failed
                    raise
            file._roll_back()
            if isinstance(exc, (sqlite3.Error, OverflowError)):
                raise file._cannot_save(exc) from exc
            # any other error of the body goes on as it is
        finally:
            file._writing = file._writing - 1 if self.joined else 0
            file.lock.release()


class _Reading:
    """`GamesFile.reading`: the file's lock held from `__enter__` to `__exit__`."""

    __slots__ = ("file", "own")

    def __init__(self, file: GamesFile) -> None:
        self.file = file
        self.own = False

    def __enter__(self) -> sqlite3.Connection:
        file = self.file
        file.lock.acquire()
        self.own = False
        try:
            self.own = not file.conn.in_transaction
            if self.own:
                file.conn.execute("BEGIN")
            return file.conn
        except BaseException as exc:
            try:
                if self.own:
                    file._roll_back()
            finally:
                file.lock.release()
            if isinstance(exc, sqlite3.Error):
                raise file._unreadable(exc) from exc
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: object) -> None:
        file = self.file
        try:
            if isinstance(exc, sqlite3.Error):
                raise file._unreadable(exc) from exc
        finally:
            try:
                if self.own:
                    file._roll_back()
            finally:
                file.lock.release()
