"""The duel log: every input of every duel as JSON lines, so a verdict can be replayed.

One line per input, in arrival order:

    {"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}
    {"t_us": 1000, "input": "start", "countdown_us": 3000000}
    {"t_us": 3150000, "input": "press", "side": "right"}

`t_us` is the unit's stamp. The service adds `arrived_us` (when the input
reached it) and `duel` (a number). Before each duel it writes a `config` line with
every setting the engine used, `await_go_report` included (whether the verdict waited
for the unit's own report of go); "go" itself is an input line (`"input": "go"`, the
instant the unit showed it). After each verdict it writes a `verdict` line whose
`t_us` is the instant the engine committed to it, which replay commits at too and
checks against (with `at`, the wall-clock time), and once the slower press is in, a
`reactions` line with both players' times. The load line names the players
(`"players": {"left": "Ann", "right": "Bob"}`) when the table knew them: with those lines
`uno-showdown game duels --recover-from` takes back a duel the games file missed. A press
that arrived after the verdict with a stamp that would have changed it gets a
`contested` line:

    {"input": "contested", "duel": 7, "side": "left", "t_us": 3149000,
     "arrived_us": 3190000, "given": "faster", "would_be": "faster", "would_win": "left"}

A launch the unit never confirmed (not sent, not acknowledged, refused) gets a
`launch_failed` line: the duel ends as launch failed and nobody takes its cards. Replay
still judges the presses (the verdict line stays what the table judged); whether the cards
flew is the unit's news, not an input.

    {"input": "launch_failed", "duel": 7, "t_us": 3290000,
     "reason": "lost the board: the board did not acknowledge command LA #12"}
"""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from showdown.dispatch import number_ranges
from showdown.duel import (
    MAX_CARDS,
    MAX_COUNTDOWN_US,
    Abort,
    Contest,
    DuelConfig,
    DuelError,
    DuelInput,
    Load,
    Start,
)
from showdown.events import (
    DuelResult,
    GoShown,
    LogLineError,
    PaddlePressed,
    Side,
    TiePolicy,
    parse_log_line,
)

log = logging.getLogger(__name__)

CONFIG_FIELDS = (
    "countdown_min_us",
    "countdown_max_us",
    "tie_window_us",
    "tie_policy",
    "response_timeout_us",
    "settle_us",
)
#: Engine settings that are not part of `DuelConfig` (they come from the unit).
ENGINE_FIELDS = ("await_go_report",)


#: A line that is not a duel-log record; the message says what is wrong with it.
LogError = LogLineError


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One decoded line: an input (or a config or a recorded verdict) and when it arrived."""

    kind: str  # "input", "config", "verdict", "reactions", "contested" or "launch_failed"
    event: DuelInput | None = None
    arrived_us: int | None = None
    config: dict[str, Any] | None = None
    verdict: dict[str, Any] | None = None
    duel: int | None = None
    #: config: whether the engine waited for the unit's go report (None: not recorded).
    await_go_report: bool | None = None
    #: verdict: the instant the engine committed to it (None in logs older than that).
    decided_at_us: int | None = None
    #: contested: the line as written.
    contest: dict[str, Any] | None = None
    #: load: who sat at each side, when the table knew (side -> name).
    players: dict[Side, str] | None = None
    #: verdict: the wall-clock time it was given (ISO 8601), when the log says.
    at: str | None = None


def encode_input(
    event: DuelInput, arrived_us: int | None = None, duel: int | None = None,
    players: Mapping[Side, str] | None = None,
) -> dict[str, Any]:
    line: dict[str, Any] = {"t_us": event.t_us}
    if isinstance(event, Load):
        line |= {
            "input": "load",
            "challenger": event.challenger.value,
            "opponent": event.opponent.value,
            "cards": event.cards,
        }
        if players:  # who sat where: what taking the duel back into a game needs
            line["players"] = {side.value: name for side, name in players.items()}
    elif isinstance(event, Start):
        line["input"] = "start"
        if event.countdown_us is not None:
            line["countdown_us"] = event.countdown_us
    elif isinstance(event, PaddlePressed):
        line |= {"input": "press", "side": event.side.value}
    elif isinstance(event, GoShown):
        line["input"] = "go"
    elif isinstance(event, Abort):
        line |= {"input": "abort", "reason": event.reason}
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"not a duel input: {event!r}")
    if arrived_us is not None:
        line["arrived_us"] = arrived_us
    if duel is not None:
        line["duel"] = duel
    return line


def encode_config(
    config: DuelConfig, duel: int | None = None, *, await_go_report: bool | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "config"}
    for name in CONFIG_FIELDS:
        value = getattr(config, name)
        line[name] = value.value if isinstance(value, TiePolicy) else value
    if await_go_report is not None:
        line["await_go_report"] = await_go_report
    if duel is not None:
        line["duel"] = duel
    return line


#: Stamps and durations fit the device clock: a signed 64-bit count of microseconds.
_MAX_US = 2**63 - 1
def encode_verdict(
    result: DuelResult, duel: int | None = None, at: str | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "verdict"}
    if duel is not None:
        line["duel"] = duel
    if result.decided_at_us is not None:
        line["t_us"] = result.decided_at_us
    if at is not None:
        line["at"] = at  # wall-clock time, for the record of when it was played
    line["result"] = result.to_json()
    return line


def encode_contest(contest: Contest, arrived_us: int, duel: int | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {"input": "contested"}
    if duel is not None:
        line["duel"] = duel
    line |= {
        "side": contest.side.value,
        "t_us": contest.t_us,
        "arrived_us": arrived_us,
        "given": contest.given.value,
        "would_be": contest.would_be.value,
        "would_win": contest.would_win.value if contest.would_win is not None else None,
    }
    return line


def _int(obj: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise LogError(f'missing "{key}"')
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -_MAX_US <= value <= _MAX_US:
        shown = f"{value!r}"[:40]
        raise LogError(f'"{key}" must be an integer number of microseconds (64-bit), '
                       f"not {shown}")
    return value


def _side(obj: dict[str, Any], key: str) -> Side:
    value = obj.get(key)
    if not isinstance(value, str):
        raise LogError(f'"{key}" must be "left" or "right", not {value!r}')
    try:
        return Side.parse(value)
    except ValueError as exc:
        raise LogError(f'"{key}" must be "left" or "right", not {value!r}') from exc


def decode_line(text: str) -> LogRecord | None:
    """Decode one line; None for a blank line. Raises LogError when malformed."""
    obj = parse_log_line(text)
    if obj is None:
        return None
    kind = obj.get("input")
    duel = obj.get("duel") if isinstance(obj.get("duel"), int) else None
    if kind == "config":
        # A hand-edited log may say 25000.0: a whole number is a whole number.
        config = {
            k: int(v) if isinstance(v, float) and v.is_integer() else v
            for k, v in obj.items() if k in CONFIG_FIELDS
        }
        bad = [k for k, v in config.items()
               if k != "tie_policy" and (isinstance(v, bool) or not isinstance(v, int))]
        if bad:
            raise LogError(f'bad config: "{bad[0]}" must be a whole number of microseconds')
        await_go = obj.get("await_go_report")
        if await_go is not None and not isinstance(await_go, bool):
            raise LogError(f'bad config: "await_go_report" must be true or false, not {await_go!r}')
        # Values out of bounds are reported where the config is used, after the replay's
        # own options (which may correct them) are applied.
        return LogRecord("config", config=config, duel=duel, await_go_report=await_go)
    if kind == "verdict":
        result = obj.get("result")
        if not isinstance(result, dict):
            raise LogError('a "verdict" line needs a "result" object')
        at = obj.get("at")
        return LogRecord("verdict", verdict=result, duel=duel,
                         decided_at_us=_int(obj, "t_us", required=False),
                         at=at if isinstance(at, str) else None)
    if kind == "contested":
        return LogRecord("contested", contest=obj, duel=duel)
    if kind == "launch_failed":  # the unit's news, not an input: replay judges presses
        return LogRecord("launch_failed", duel=duel)
    if kind == "reactions":
        return LogRecord("reactions", duel=duel)
    t_us = _int(obj, "t_us")
    assert t_us is not None
    arrived = _int(obj, "arrived_us", required=False)
    try:
        event: DuelInput
        if kind == "load":
            cards = obj.get("cards", 1)
            if isinstance(cards, bool) or not isinstance(cards, int) or not (
                    1 <= cards <= MAX_CARDS):
                raise LogError(f'"cards" must be a whole number from 1 to {MAX_CARDS}, '
                               f"not {f'{cards!r}'[:40]}")
            event = Load(_side(obj, "challenger"), _side(obj, "opponent"), cards, t_us)
        elif kind == "start":
            countdown = _int(obj, "countdown_us", required=False)
            if countdown is not None and not 1 <= countdown <= MAX_COUNTDOWN_US:
                raise LogError(f'"countdown_us" must be from 1 to {MAX_COUNTDOWN_US} '
                               f"microseconds, as in a config line, not {countdown}")
            event = Start(t_us, countdown)
        elif kind == "press":
            event = PaddlePressed(_side(obj, "side"), t_us)
        elif kind == "go":
            event = GoShown(t_us)
        elif kind == "abort":
            event = Abort(t_us, str(obj.get("reason", "aborted")))
        else:
            raise LogError(
                f'unknown "input" {kind!r}: expected load, start, press, go, abort, config, '
                "verdict, reactions, contested or launch_failed"
            )
    except DuelError as exc:
        raise LogError(str(exc)) from exc
    return LogRecord("input", event=event, arrived_us=arrived, duel=duel,
                     players=_players(obj) if kind == "load" else None)


def _players(obj: dict[str, Any]) -> dict[Side, str] | None:
    """A load line's `players` (side -> name), or None when it has none or they are unclear."""
    given = obj.get("players")
    if not isinstance(given, dict):
        return None
    out: dict[Side, str] = {}
    for key, name in given.items():
        try:
            side = Side.parse(str(key))
        except ValueError:
            return None
        if not isinstance(name, str) or not name.strip():
            return None
        out[side] = name
    return out


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
    writer thread takes them in order, writes and flushes each, and fsyncs each verdict,
    contested and launch_failed line on a file (a pipe or a terminal cannot be fsynced),
    so a duel someone may dispute survives a power cut.

    The queue is bounded (`limit` lines). When the file takes nothing for that long (a pipe
    nobody reads), lines are dropped, never waited for: one logged error says so, `dropped`
    counts them and `dropped_duels` names their duels; writing resumes at the next duel's
    first line once the writer has caught up, so only the duel in hand when it overflowed
    can miss its tail. `close()` waits a bounded time and names what could not be written.

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
        self.dropped = 0
        self.dropped_duels: set[int] = set()
        #: What `close()` found still queued when its time was up (0: everything written).
        self.unwritten = 0
        self._warn = warn
        self._limit = limit
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._stream: IO[str] = _open_for_append(self.path)
            self._owned = True
            # A pipe or a terminal (`--log /dev/stdout`) cannot be fsynced, only a file.
            self._syncable = stat.S_ISREG(os.fstat(self._stream.fileno()).st_mode)
        else:
            assert stream is not None
            self._stream = stream
            self._owned = False
            self._syncable = False
        self._cond = threading.Condition()
        self._queue: deque[tuple[dict[str, Any], bool]] = deque()
        self._queued = 0  # lines ever queued, and written (or given up) by the writer
        self._done = 0
        self._dropping = False
        self._closing = False
        self._closed = False
        self._writer = threading.Thread(target=self._run, daemon=True,
                                         name=f"duel log {self.path or 'stream'}")
        self._writer.start()

    @property
    def name(self) -> str:
        return str(self.path) if self.path is not None else "stream"

    def write(self, line: dict[str, Any], *, sync: bool = False) -> None:
        """Queue `line` for the writer thread; returns at once, whatever the file does."""
        with self._cond:
            if self._closing or self.failed is not None:
                return
            if self._dropping and line.get("input") == "config" and (
                    len(self._queue) <= self._limit // 2):
                self._dropping = False  # the writer caught up: a new duel starts whole
                log.warning("the duel log %s takes lines again from duel %s on; %d line(s) "
                            "of duels %s were not written", self.name, line.get("duel"),
                            self.dropped, _ranges(self.dropped_duels))
            if not self._dropping and len(self._queue) >= self._limit:
                self._dropping = True
                log.error("the duel log %s has not taken a line for %d lines (a pipe nobody "
                          "reads?): dropping lines until it does, from duel %s on",
                          self.name, self._limit, line.get("duel"))
            if self._dropping:
                self.dropped += 1
                if isinstance(line.get("duel"), int):
                    self.dropped_duels.add(line["duel"])
                return
            self._queue.append((line, sync))
            self._queued += 1
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._closing)
                if not self._queue:
                    return  # closing, and everything is written
                line, sync = self._queue.popleft()
            self._put(line, sync)
            with self._cond:
                self._done += 1
                self._cond.notify_all()

    def _put(self, line: dict[str, Any], sync: bool) -> None:
        if self.failed is not None:
            return
        try:
            self._stream.write(json.dumps(line, separators=(", ", ": ")) + "\n")
            self._stream.flush()
            if sync and self._syncable:
                os.fsync(self._stream.fileno())
        except OSError as exc:
            # Said before it is marked failed: whoever waits in `flush()` for the failure
            # then finds it said too (and outside the lock, which the loop's `write()` takes:
            # a slow stderr must not hold up the table).
            if self._warn:
                log.warning("cannot write the duel log %s (%s): duels are no longer logged",
                            self.name, exc.strerror or exc)
            with self._cond:
                self.failed = exc
                self._queue.clear()  # nothing more is written: no duel with a gap
                self._cond.notify_all()

    def flush(self, timeout_s: float = CLOSE_TIMEOUT_S) -> bool:
        """Wait (at most `timeout_s`) until every line queued so far is written; False if
        some are still waiting. For tests and owners, never for the loop that owns time."""
        with self._cond:
            target = self._queued
            return self._cond.wait_for(
                lambda: self._done >= target or self.failed is not None, timeout_s)

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
        with self._cond:
            if self._closed:
                return self._lost()
            self._closed = self._closing = True
            self._cond.notify_all()
        self._writer.join(max(0.0, timeout_s))
        stuck = self._writer.is_alive()
        with self._cond:
            self.unwritten = len(self._queue)
            if stuck:
                for line, _ in self._queue:
                    if isinstance(line.get("duel"), int):
                        self.dropped_duels.add(line["duel"])
                self._queue.clear()
        if self._owned and not stuck:
            try:
                self._stream.close()
            except OSError as exc:  # the last flush failed: already the first failure?
                self.failed = self.failed or exc
        lost = self._lost(stuck)
        if lost is not None and self._warn:
            log.warning("%s", lost)
        return lost

    def _lost(self, stuck: bool = False) -> str | None:
        if not self.dropped and not self.unwritten:
            return None
        parts = []
        if self.dropped:
            parts.append(f"{self.dropped} line(s) dropped while it took none")
        if self.unwritten:
            parts.append(f"{self.unwritten} line(s) still waiting "
                         + ("for the file when it was closed" if stuck else "at close"))
        return (f"the duel log {self.name} is missing " + " and ".join(parts)
                + f" (duels {_ranges(self.dropped_duels)})")


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
