"""The duel log's writer: the service's lines (see `showdown.duel.log_format`) on a file or a
stream, written on a thread of its own so the loop that owns time never waits on a disk."""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from showdown.contract.events import DuelResult, Side
from showdown.contract.worker import DropPolicy, Worker
from showdown.duel.engine import (
    Contest,
    DuelConfig,
    DuelInput,
)
from showdown.duel.log_format import (
    encode_config,
    encode_contest,
    encode_input,
    encode_verdict,
)
from showdown.service.dispatch import number_ranges

log = logging.getLogger(__name__)

def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: The most lines waiting for the writer thread: about a thousand duels. A log that has
#: taken no line for that long is stalled (a pipe nobody reads, a network disk hung).
QUEUE_LIMIT = 10_000
#: How long `close()` waits, by default, for the writer to put the queued lines on the file.
CLOSE_TIMEOUT_S = 3.0


class DuelLog:
    """Appends duel records to a JSON-lines file, on a writer thread of its own.

    The loop that owns time only queues a line (`write` never waits for the file): the
    writer (a `showdown.contract.worker.Worker`) takes them in order, writes and flushes each, and
    fsyncs each verdict, contested and launch_failed line on a file (a pipe or a terminal
    cannot be fsynced), so a duel someone may dispute survives a power cut.

    The queue is bounded (`limit` lines) with `DropPolicy.NEWEST`: when the file takes
    nothing for that long (a pipe nobody reads), lines are dropped, never waited for: one
    logged error says so, `dropped` counts them and `dropped_duels` names their duels;
    writing resumes at the next duel's first line once the writer has caught up, so only
    the duel in hand when it overflowed can miss its tail. `close()` waits a bounded time
    and names what could not be written.

    A write that fails (the disk full, the device gone) never reaches the caller: the table
    goes on judging, which matters more than its log. The first failure is logged as a
    warning and kept in `failed`, and nothing more is written, so the file never holds a
    duel with lines missing in the middle; a command whose output *is* the log (`simulate
    --log`) reads `failed` and says so.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, stream: IO[str] | None = None,
                 *, warn: bool = True, wall_clock: Callable[[], str] | None = None,
                 limit: int = QUEUE_LIMIT):
        """`warn=False`: the owner reports `failed` itself, so no warning is logged.
        `wall_clock`: the date and time written on each verdict line (default: now, UTC).
        `limit`: the most lines queued for the writer before lines are dropped."""
        if (path is None) == (stream is None):
            raise ValueError("give a path or a stream")
        self.wall_clock = wall_clock or _utc_now
        self.path = Path(path) if path is not None else None
        self.failed: OSError | None = None
        self.dropped_duels: set[int] = set()
        #: What `close()` found still queued when its time was up (0: everything written).
        self.unwritten = 0
        self._warn = warn
        if self.path is not None:
            self._stream: IO[str] = _open_for_append(self.path)  # its folder must be there
            self._owned = True
            # A pipe or a terminal (`--log /dev/stdout`) cannot be fsynced, only a file.
            self._syncable = stat.S_ISREG(os.fstat(self._stream.fileno()).st_mode)
        else:
            assert stream is not None
            self._stream = stream
            self._owned = False
            self._syncable = False
        self._lines: Worker[_Line] = Worker(
            f"the duel log {self.name}", self._put, limit, DropPolicy.NEWEST,
            resumes=_starts_a_duel, noun=("a line", "lines"))
        self._closed = False
        self._stuck = False

    @property
    def name(self) -> str:
        return str(self.path) if self.path is not None else "stream"

    @property
    def dropped(self) -> int:
        """Lines dropped because the file took none for `limit` lines."""
        return self._lines.dropped

    def write(self, line: dict[str, Any], *, sync: bool = False) -> None:
        """Queue `line` for the writer thread; returns at once, whatever the file does."""
        if self.failed is not None:
            return
        lost = self._lines.put((line, sync))
        if lost is not None:
            self._count_lost(lost)

    def _count_lost(self, lost: _Line) -> None:
        duel = lost[0].get("duel")
        if isinstance(duel, int):
            self.dropped_duels.add(duel)

    def _put(self, item: _Line) -> None:
        """The writer thread: one line on the file (nothing once a write has failed)."""
        if self.failed is not None:
            return
        line, sync = item
        try:
            self._stream.write(json.dumps(line, separators=(", ", ": ")) + "\n")
            self._stream.flush()
            if sync and self._syncable:
                os.fsync(self._stream.fileno())
        except OSError as exc:
            # Said before it is marked failed: whoever waits in `flush()` for the failure
            # then finds it said too.
            if self._warn:
                log.warning("cannot write the duel log %s (%s): duels are no longer logged",
                            self.name, exc.strerror or exc)
            self.failed = exc  # nothing more is written: no duel with a gap

    def flush(self, timeout_s: float = CLOSE_TIMEOUT_S) -> bool:
        """Wait (at most `timeout_s`) until every line queued so far is written (or given
        up after a failure); False if some are still waiting. For tests and owners, never
        for the loop that owns time."""
        return self._lines.flush(timeout_s)

    def input(self, event: DuelInput, arrived_us: int | None, duel: int,
              players: Mapping[Side, str] | None = None) -> None:
        self.write(encode_input(event, arrived_us, duel, players))

    def config(self, config: DuelConfig, duel: int, *, await_go_report: bool = False) -> None:
        self.write(encode_config(config, duel, await_go_report=await_go_report))

    def verdict(self, result: DuelResult, duel: int) -> None:
        self.write(encode_verdict(result, duel, self.wall_clock()), sync=True)

    def reactions(self, reaction_us: Mapping[Side, int | None], duel: int) -> None:
        """Both players' times, once the slower press is in (after the verdict line)."""
        self.write({"input": "reactions", "duel": duel,
                    "reaction_us": {s.value: reaction_us.get(s) for s in Side}})

    def contested(self, contest: Contest, arrived_us: int, duel: int) -> None:
        self.write(encode_contest(contest, arrived_us, duel), sync=True)

    def launch_failed(self, reason: str, t_us: int, duel: int) -> None:
        """The unit never confirmed this duel's launch: it ends as launch failed."""
        self.write({"input": "launch_failed", "duel": duel, "t_us": t_us, "reason": reason},
                   sync=True)

    def close(self, timeout_s: float = CLOSE_TIMEOUT_S) -> str | None:
        """Write what is queued (waiting at most `timeout_s`), then close the file.

        Returns None when every line was written, else one sentence naming what was not
        (lines dropped while the file took none, lines still queued when the time was up),
        which is also logged unless `warn=False`. A writer still stuck in the file is left
        to the process's exit: closing the file under it would wait for it.
        """
        if self._closed:
            return self._lost()
        self._closed = True
        left = self._lines.close(timeout_s)
        self._stuck = left.stuck
        self.unwritten = len(left.items)
        for line in left.items:
            self._count_lost(line)
        if self._owned and not left.stuck:
            try:
                self._stream.close()
            except OSError as exc:  # the last flush failed: already the first failure?
                self.failed = self.failed or exc
        lost = self._lost()
        if lost is not None and self._warn:
            log.warning("%s", lost)
        return lost

    def _lost(self) -> str | None:
        if not self.dropped and not self.unwritten:
            return None
        parts = []
        if self.dropped:
            parts.append(f"{self.dropped} line(s) dropped while it took none")
        if self.unwritten:
            parts.append(f"{self.unwritten} line(s) still waiting "
                         + ("for the file when it was closed" if self._stuck else "at close"))
        return (f"the duel log {self.name} is missing " + " and ".join(parts)
                + f" (duels {_ranges(self.dropped_duels)})")


#: A line for the writer, and whether to fsync it.
_Line = tuple[dict[str, Any], bool]


def _starts_a_duel(item: _Line) -> bool:
    """After a gap, writing resumes at a duel's first line: the duels after it are whole."""
    return item[0].get("input") == "config"


def _open_for_append(path: Path) -> IO[str]:
    """Open `path` to append; a named pipe without a reader is refused at once, never
    waited for (opening one to write blocks until some program opens it to read)."""
    try:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return open(path, "a", encoding="utf-8")
    except FileNotFoundError:
        return open(path, "a", encoding="utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "it is a named pipe no program is reading",
                          str(path)) from None
        raise
    os.set_blocking(fd, True)  # the writer thread may wait on it; the loop never does
    return open(fd, "a", encoding="utf-8")



def _ranges(numbers: set[int]) -> str:
    """`{1, 2, 3, 5}` -> `"1-3, 5"`; "unknown" when no line named its duel."""
    return number_ranges(list(numbers)) if numbers else "unknown"
