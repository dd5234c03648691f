"""Opening `--device serial`: a named port must exist and be a terminal; auto-discovery waits.

A path that exists but is no serial port (a directory, a plain file, /dev/null)
would open quietly or fail in the link's own thread, and `run` would print
"ready" and wait for a board forever: it is refused at once, naming the port.
"""

from __future__ import annotations

import argparse
import logging
import os
import threading
from pathlib import Path

import pytest

import firmware_host.host.link
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from hardware.serial_unit import SerialUnit, open_unit
from tests.hil.conftest import Rig
from uno_showdown.commands.cli import main

pytestmark = pytest.mark.hil


def test_a_named_port_that_does_not_exist_is_an_error_naming_it(tmp_path: Path) -> None:
    missing = str(tmp_path / "ttyACM7")
    with pytest.raises(FileNotFoundError) as caught:
        open_unit(argparse.Namespace(port=missing))
    text = str(caught.value)
    assert missing in text and "--port" in text and "plug the board in" in text


def test_run_on_a_missing_port_stops_at_once_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "no-such-port")
    status = main(["run", "--device", "serial", "--port", missing, "--headless",
                   "--db", str(tmp_path / "scores.db"), "--duel-log", str(tmp_path / "duels")])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert "\n" not in err and missing in err and "Traceback" not in err
    assert "cannot open the serial unit" in err


@pytest.mark.parametrize("what", ["directory", "file", "null"])
def test_a_named_port_that_is_no_serial_port_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    port = {"directory": tmp_path, "file": tmp_path / "notes.txt", "null": Path(os.devnull)}[what]
    if what == "file":
        port.write_text("not a board\n")
    status = main(["run", "--device", "serial", "--port", str(port), "--headless",
                   "--db", str(tmp_path / "scores.db"), "--duel-log", str(tmp_path / "duels")])
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert status == 2 and "ready" not in captured.out
    assert "\n" not in err and "Traceback" not in err
    assert f"{port} is " in err and "not a serial port" in err and "--port /dev/ttyACM0" in err


def test_a_named_port_that_exists_opens_the_board(rig: Rig) -> None:
    unit = open_unit(argparse.Namespace(port=rig.port))
    try:
        assert unit.link.wait_ready(3)
        assert unit.max_cards == 20 and unit.settle_us is not None
    finally:
        unit.close()


def test_without_a_port_it_waits_for_a_board_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    looked = threading.Semaphore(0)

    def no_board() -> None:  # no Pico on the USB bus, however often the link looks
        looked.release()

    monkeypatch.setattr(firmware_host.host.link, "find_board", no_board)
    caplog.set_level(logging.WARNING, logger="firmware_host.host.link")
    unit = SerialUnit(None, retry_open_s=0.01)
    try:
        for _ in range(5):  # the link looked for a board five times ...
            assert looked.acquire(timeout=2), "the link stopped looking for a board"
    finally:
        unit.close()
    waiting = [r.getMessage() for r in caplog.records if "no board found" in r.getMessage()]
    assert len(waiting) == 1 and "waiting" in waiting[0]  # ... and said so once
    assert not unit.link.ready


def test_with_no_board_plugged_in_the_unit_opens_without_waiting_for_a_hello(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody can answer the hello: the table starts at once and the link keeps looking."""
    monkeypatch.setattr(firmware_host.host.link, "find_board", lambda: None)
    monkeypatch.setattr("hardware.serial_unit.find_board", lambda: None)
    waited: list[float] = []
    real_refuse = SerialUnit.refuse_other_firmware

    def refuse(self: SerialUnit, timeout_s: float = 2.0) -> None:
        waited.append(timeout_s)
        real_refuse(self, timeout_s)

    monkeypatch.setattr(SerialUnit, "refuse_other_firmware", refuse)
    unit = open_unit(argparse.Namespace(port=None))
    try:
        assert waited == []  # no wait for an answer nobody can give
        assert not unit.link.ready
    finally:
        unit.close()


@pytest.mark.parametrize(("offset", "age"), [(-1, "an older"), (1, "a newer")])
def test_run_refuses_a_board_with_another_protocol_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], offset: int, age: str
) -> None:
    """The board answers the hello with another protocol: `run` stops at once (exit 2,
    one line saying what to do), before the table starts, and nothing ran on the board."""
    version = codec.VERSION + offset
    with VirtualMCU(tmp_path / "board", version=version) as mcu:
        status = main(["run", "--device", "serial", "--port", mcu.port, "--headless",
                       "--db", str(tmp_path / "scores.db"),
                       "--duel-log", str(tmp_path / "duels")])
        captured = capsys.readouterr()
        assert mcu.motor_starts == 0
    err = captured.err.strip()
    assert status == 2 and "ready" not in captured.out
    assert "\n" not in err and "Traceback" not in err, err
    assert f"runs {age} firmware (protocol v{version}; this program speaks v{codec.VERSION})" in err
    assert "uno-showdown firmware install" in err
