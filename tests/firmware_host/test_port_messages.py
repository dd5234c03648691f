"""What a maker reads about the board's port, on Linux, macOS and Windows.

* On Windows there is no `fcntl`: the firmware commands and `run --device serial` still
  import, and a COM port name is checked by the system's list of ports.
* A Pico found by its USB id that the user may not open (on Linux, outside the `dialout`
  group) is said at once, with the port's name and what to do, never "None" and never
  "replug it holding the timer button".
* A board that has not answered yet (still booting, or without the firmware) is waited for
  with one line naming its port; "link lost" is for a board that was reached and went away.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.host import link

ROOT = Path(__file__).resolve().parents[2]


def test_the_port_checks_and_the_serial_unit_import_without_fcntl() -> None:
    """As on Windows: `import fcntl` fails, and COM3 (not plugged in) is refused in one line
    naming it and the names ports have on each system."""
    code = (
        "import sys\n"
        "import serial, serial.tools.list_ports  # pyserial picks its Windows module there\n"
        "sys.modules['fcntl'] = None  # what Windows has: no fcntl\n"
        "from firmware_host.host import install, link, ports\n"
        "import hardware.serial_unit\n"
        "import uno_showdown.commands.firmware\n"
        "ports.check_free('COM3')\n"
        "try:\n"
        "    ports.check_port('COM3')\n"
        "except FileNotFoundError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    said = done.stdout.strip()
    assert said.startswith("there is no serial port COM3: plug the board in"), said
    assert "/dev/cu.usbmodem" in said and "COM3 on Windows" in said, said


@pytest.fixture
def closed_port() -> Iterator[str]:
    """A serial port (a pty) that only root may open, as a Pico's is for a user outside
    the dialout group."""
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    os.chmod(name, 0o600)
    try:
        yield name
    finally:
        os.close(slave)
        os.close(master)


def _as_nobody(code: str) -> str:
    if os.geteuid() != 0:
        pytest.skip("trying a port as another user needs root (CI runs as root)")
    # the project and its libraries on the path of an interpreter user nobody may run (the
    # virtual environment's may live in root's home)
    path = os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"]])
    for python in (sys.executable, f"/usr/bin/python3.{sys.version_info.minor}",
                   shutil.which(f"python3.{sys.version_info.minor}") or ""):
        try:
            done = subprocess.run([python, "-c", code], user=65534, group=65534,
                                  extra_groups=[], cwd=ROOT, capture_output=True, text=True,
                                  timeout=60, env={**os.environ, "PYTHONPATH": path})
        except (PermissionError, FileNotFoundError):
            continue
        if done.returncode == 0:
            return done.stdout
    pytest.skip("no Python here that user nobody may run, to try the port as them")


def test_a_pico_found_by_its_usb_id_that_the_user_may_not_open_is_said_first(
    closed_port: str,
) -> None:
    """`firmware install` and `run` on a board found by its USB id (the port the USB
    listing gives stands in for it): the permission, named with the port, and the hint."""
    code = (
        "import logging, sys, threading\n"
        "from firmware_host.host import install, link\n"
        f"link.find_board = lambda: {closed_port!r}  # the Pico's USB id found this port\n"
        "try:\n"
        "    install.resolve_port(None)\n"
        "except install.InstallError as exc:\n"
        "    print('install:', exc)\n"
        "said = []\n"
        "class Keep(logging.Handler):\n"
        "    def emit(self, record):\n"
        "        said.append(record.getMessage())\n"
        "logging.getLogger(link.__name__).addHandler(Keep())\n"
        "conn = link.BoardLink(None, lambda e: None, retry_open_s=0.02).start()\n"
        "threading.Event().wait(0.3)\n"
        "conn.close()\n"
        "print('run:', ' | '.join(said))\n"
    )
    out = _as_nobody(code)
    want = (f"your user may not open {closed_port} (permission denied): join the dialout "
            "group (sudo usermod -aG dialout $USER), log out and in again, and retry")
    assert f"install: {want}" in out, out
    assert f"run: {want}" in out, out  # said once, and no "None" anywhere
    assert "None" not in out and "timer button" not in out, out


@pytest.fixture
def silent_board() -> Iterator[str]:
    """A port with nothing answering on it: a board still booting, or without the firmware."""
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    stop = threading.Event()

    def drain() -> None:  # take what the host sends, answer nothing
        while not stop.wait(0.01):
            try:
                os.read(master, 4096)
            except OSError:
                return

    os.set_blocking(master, False)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield name
    finally:
        stop.set()
        reader.join(timeout=2)
        os.close(slave)
        os.close(master)


def test_a_board_not_reached_yet_is_waited_for_without_link_lost(
    silent_board: str, caplog: pytest.LogCaptureFixture
) -> None:
    tries = threading.Semaphore(0)

    class Counted(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("opened"):
                tries.release()

    counter = Counted()
    logging.getLogger(link.__name__).addHandler(counter)
    caplog.set_level(logging.INFO, logger=link.__name__)
    conn = link.BoardLink(silent_board, lambda e: None, board_timeout_s=0.05,
                          retry_open_s=0.01).start()
    try:
        for _ in range(4):  # the link gave up on the silent board and opened it again
            assert tries.acquire(timeout=10)
    finally:
        conn.close()
        logging.getLogger(link.__name__).removeHandler(counter)
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [s for s in said if "link lost" in s], said
    assert said == [f"no answer yet from the board on {silent_board}: waiting for it (is the "
                    "Showdown firmware on it? `uno-showdown firmware version` says)"], said
