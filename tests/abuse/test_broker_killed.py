"""A killed embedded broker comes back by itself.

`kill -9` of the broker process of `event serve` left it `<defunct>`; the director said
"Lost the broker … reconnecting", and a deal recorded afterwards had not arrived 60 s later:
sync stayed down until someone restarted serve. Now serve watches its broker: reaped,
started again on the same address with the same credentials, said once, and the table's
next deal reaches the director and the page.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.abuse.test_page_hangups import _deal, _deals, _join
from tests.championship.tables.conftest import eventually
from tests.championship.tables.serving import Serving, serving


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            out.append(int(entry))
    return out


def _broker_pid(serve_pid: int) -> int:
    for child in _children(serve_pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"multiprocessing" in cmdline and b"spawn_main" in cmdline:
            return child
    raise AssertionError(f"no broker process under {serve_pid}")


def _state(pid: int) -> str | None:
    """A process's state letter (Z: defunct), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Serving]:
    with serving(tmp_path, 14, 2) as s:
        yield s


def test_a_broker_killed_with_sigkill_is_started_again_and_deals_arrive(
        served: Serving, tmp_path: Path) -> None:
    agent = _join(served, tmp_path)
    try:
        _deal(agent)
        eventually(lambda: _deals(served) == 1, 30, "the first deal on the page")
        first = _broker_pid(served.proc.pid)
        os.kill(first, signal.SIGKILL)
        eventually(lambda: _state(first) is None, 20, "the killed broker reaped, not defunct")

        def started_again() -> bool:
            try:
                return _broker_pid(served.proc.pid) != first
            except AssertionError:
                return False

        eventually(started_again, 30, "a new broker process")
        _deal(agent)  # recorded after the broker came back: it must reach the director
        eventually(lambda: _deals(served) == 2, 60, "the deal after the restart on the page")
    finally:
        agent.stop()
    started = time.monotonic()
    served.proc.send_signal(signal.SIGTERM)
    try:
        out, err = served.proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("event serve did not stop after the broker's restart")
    assert time.monotonic() - started < 20
    assert served.proc.returncode == 0, err
    assert out.count("The broker stopped (exit status -9)") == 1, out
    assert out.count("The broker is back on") == 1, out
    assert "Traceback" not in err, err[-3000:]
