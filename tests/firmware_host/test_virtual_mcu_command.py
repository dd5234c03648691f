"""`uno-showdown virtual-mcu`: serves a port a serial program can talk to, takes typed presses."""

from __future__ import annotations

import subprocess
import sys

from firmware_host.wire import codec
from tests.hil.conftest import RawHost


def test_virtual_mcu_serves_a_port_and_reports_a_typed_press() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_showdown", "virtual-mcu"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        port = proc.stdout.readline().strip()
        host = RawHost(port)
        try:
            hello = host.hello()
            assert hello is not None and hello[2][0] == codec.VERSION
            proc.stdin.write("r\n")
            proc.stdin.flush()
            press = host.expect(lambda f: f[1] == codec.PADDLE, 5)
            assert press is not None and press[2][0] == codec.RIGHT
        finally:
            host.close()
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_bad_start_tick_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "uno_showdown", "virtual-mcu", "--start-ticks", "-5"],
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "--start-ticks" in done.stderr
