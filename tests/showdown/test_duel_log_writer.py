"""The duel log is written on a thread of its own: the loop that owns time only queues a
line, so a log nobody takes (a named pipe whose reader stopped reading) never stops the
table. Lines keep their order; past the queue's bound they are dropped and counted, and
closing names what was not written, within its time limit."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from showdown.contract.events import ConfigError
from showdown.duel.replay import replay
from showdown.service.duel_log import DuelLog
from uno_showdown.commands.cli import main
from uno_showdown.commands.options import open_duel_log
from uno_showdown.commands.simulation import simulate


@pytest.fixture
def stalled_pipe(tmp_path: Path) -> Iterator[Path]:
    """A named pipe with a reader that opened it and never reads: writes fill its 64 KiB
    buffer, then block."""
    fifo = tmp_path / "duels.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    yield fifo
    os.close(reader)


def in_thread(work, timeout_s: float) -> object:
    """Run `work` on a thread and return what it returns (or raise what it raised); fail,
    instead of hanging the suite, if it does not end within `timeout_s`."""
    out: list[object] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(work())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout_s)
    assert not thread.is_alive(), f"still running after {timeout_s} s: the loop waited on the log"
    if errors:
        raise errors[0]
    return out[0]


def test_a_stalled_pipe_never_stops_the_duels(stalled_pipe: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """150 duels (the loop used to stop returning after about 70), with a queue bound low
    enough to overflow: every duel is judged, the drop is said once, and close() returns
    within its limit, naming what was not written."""
    log = DuelLog(stalled_pipe, limit=300)
    report = in_thread(lambda: simulate(150, 1, duel_log=log), 60)
    assert report.duels == 150  # type: ignore[attr-defined]
    assert log.dropped > 0 and log.dropped_duels
    drops = [r for r in caplog.records if "has not taken a line" in r.message]
    assert len(drops) == 1 and drops[0].levelno == logging.ERROR
    started = time.monotonic()
    lost = log.close(timeout_s=0.3)
    assert time.monotonic() - started < 2.0
    assert lost is not None and "line(s) dropped while it took none" in lost
    assert "still waiting for the file when it was closed" in lost
    assert f"{log.dropped} line(s)" in lost and "duels " in lost


def test_lines_keep_their_order_and_content_on_a_file(tmp_path: Path) -> None:
    path = tmp_path / "duels.jsonl"
    log = DuelLog(path)
    simulate(40, 2, duel_log=log)
    assert log.close() is None
    lines = path.read_text(encoding="utf-8").splitlines()
    duels = [json.loads(line)["duel"] for line in lines]
    assert duels == sorted(duels) and len(set(duels)) == 40
    assert all(v.matches for v in replay(lines))  # replay == table, line for line


def test_a_pipe_that_is_read_again_gets_whole_duels_from_the_next_one(
        stalled_pipe: Path) -> None:
    """After an overflow the writer resumes at a duel's first line, once it has caught up:
    the duels after the gap replay to what the table gave."""
    log = DuelLog(stalled_pipe, limit=200)
    in_thread(lambda: simulate(120, 3, duel_log=log), 60)
    assert log.dropped
    reader = os.open(stalled_pipe, os.O_RDONLY | os.O_NONBLOCK)  # a second reader drains it
    chunks: list[bytes] = []
    stop = threading.Event()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(reader, 65536)
            except BlockingIOError:
                if stop.is_set():
                    return
                stop.wait(0.01)
                continue
            if not chunk:  # the log closed its end
                return
            chunks.append(chunk)

    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    assert log.flush(10)  # the writer has caught up
    in_thread(lambda: simulate(5, 4, duel_log=log), 60)  # a new table: duels 1-5 again
    assert log.close(timeout_s=5) is not None  # the gap is still named
    stop.set()
    thread.join(5)
    os.close(reader)
    lines = b"".join(chunks).decode().splitlines()
    first = max(i for i, line in enumerate(lines)
                if json.loads(line) == json.loads(line) | {"input": "config", "duel": 1})
    verdicts = replay(lines[first:])
    assert len(verdicts) >= 5 and all(v.matches for v in verdicts)


def test_a_pipe_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    """Opening a named pipe to write waits for a reader: without one it is one line, not
    a table that never starts."""
    fifo = tmp_path / "nobody.fifo"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="named pipe no program is reading"):
        in_thread(lambda: open_duel_log(fifo), 10)


def test_simulate_into_a_stalled_pipe_ends_and_says_what_was_lost(
        stalled_pipe: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = in_thread(lambda: main(["simulate", "--duels", "100", "--log", str(stalled_pipe)]),
                       60)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and f"the duel log {stalled_pipe} is missing" in err
    assert "let a program read it" in err


def test_simulate_refuses_an_empty_log_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--duels", "1", "--log", ""]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--log needs a file name" in err
