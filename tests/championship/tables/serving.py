"""`uno-showdown event serve` as the organiser runs it: a real process with the embedded
broker and the live page on loopback ports, stopped by SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.championship.tables.conftest import eventually, free_port, make_event, wait_port

ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Serving:
    db: str
    event_id: int
    broker_port: int
    web_port: int
    credentials: Path
    proc: subprocess.Popen[str]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}/"


def uno(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_showdown.commands.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})


def start_serve(db: str, broker: int, web: int, folder: Path,
                *extra: str) -> subprocess.Popen[str]:
    """`event serve` on loopback ports, as a process (again, to restart it)."""
    return subprocess.Popen(
        [sys.executable, "-m", "uno_showdown.commands.cli", "event", "serve", "--db", db,
         "--listen", f"127.0.0.1:{broker}", "--web", f"127.0.0.1:{web}",
         "--credentials-dir", str(folder), "--lang", "en", *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def stop_serve(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@contextmanager
def serving(tmp: Path, players: int = 14, tables: int = 2, *extra: str) -> Iterator[Serving]:
    db = str(tmp / "director.db")
    event_id = make_event(db, players, tables)
    broker, web = free_port(), free_port()
    folder = tmp / "credentials"
    s = Serving(db, event_id, broker, web, folder, start_serve(db, broker, web, folder, *extra))
    try:
        wait_port(broker, 30)
        wait_port(web, 30)
        eventually(lambda: (folder / f"table-{tables}.json").exists(), 10)
        yield s
    finally:
        stop_serve(s.proc)  # the process running now (a test may have restarted it)
