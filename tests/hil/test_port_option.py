"""`--hil-port` names a board that is not there: one line says so before any test runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from firmware_host.virtual.mcu import VirtualMCU
from tests.conftest import hil_port_problem

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_board_is_one_line_not_an_error_per_test(tmp_path: Path) -> None:
    missing = tmp_path / "ttyACM9"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/hil", "--hil-port", str(missing), "-q",
         "-p", "no:cacheprovider"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 4  # pytest's usage error: nothing ran
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert said == [f"ERROR: --hil-port {missing}: there is no such port: plug the board in "
                    "(`ls /dev/ttyACM*` lists the ports), or leave --hil-port out to test "
                    "against the virtual board"]


def test_what_is_not_a_serial_port_is_named_as_such(tmp_path: Path) -> None:
    assert "is not a serial port" in (hil_port_problem(str(tmp_path)) or "")
    assert "is not a serial port" in (hil_port_problem("/dev/null") or "")


def test_a_board_that_answers_is_fine(tmp_path: Path) -> None:
    mcu = VirtualMCU(tmp_path / "board").start()
    try:
        assert hil_port_problem(mcu.port) is None
    finally:
        mcu.stop()
