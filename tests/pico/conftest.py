"""The emulated-Pico level: MicroPython's real rp2 image on rp2040js, installed as a maker does.

One emulated Pico serves a worker's run of this folder's tests: it boots, `uno-showdown firmware
install --port <its pty>` puts the board files on its flash, and `firmware
version` checks them, exactly as a maker does with a Pico; every test then talks
to it through its pseudo-terminal and drives its pins. Without Node, rp2040js or
the fixtures (the MicroPython image and the RP2040 boot ROM) the level skips
with one line saying what it needs (docs/pico.md, "The emulated Pico").
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.pico.emulated_pico import EmulatedPico, Fixtures, PicoUnavailable, find_fixtures

#: The host's link timings against the emulated Pico. Its core runs slower than a Pico
#: (a fifth of a Pico's speed on an idle machine, much less on a loaded one), so one
#: command's round trip can take a few hundred milliseconds of wall time: the link
#: waits longer for acknowledgements and for the board before it gives up on it.
LINK_OPTIONS = {"heartbeat_s": 0.1, "board_timeout_s": 5.0, "ack_timeout_s": 0.5, "tries": 8,
                "retry_open_s": 0.05}
#: How long the verdict waits after the decisive press, in the host's estimate of board
#: time: the serial unit's 25 ms is a Pico's few loop turns, and an emulated board needs
#: far more wall time to report a press that came a moment after the first.
SETTLE_US = 600_000
#: how long a test waits for the board to do something (wall seconds): a wait returns as soon
#: as the board has done it, so this only bounds a failure, on a machine however loaded
WAIT_S = 90.0
#: the slowest the emulated core runs, as a share of real time (a fifth on an idle machine;
#: far less with busy loops beside it)
SLOWEST_SPEED = 0.02
#: the emulated core's speed on an idle machine (emulated time per wall time, running flat
#: out), which LINK_OPTIONS are set for
IDLE_SPEED = 0.2


def emulated_wait_s(us: float) -> float:
    """Wall seconds to wait for `us` of the emulated board's time, however slow it runs."""
    return max(WAIT_S, us / 1e6 / SLOWEST_SPEED)


def slowness(pico: EmulatedPico) -> float:
    """How many times slower than on an idle machine the emulated core runs now (at least 1):
    the runner measures its own speed while it executes."""
    speed = pico.speed()
    return 1.0 if not speed else max(1.0, IDLE_SPEED / max(speed, SLOWEST_SPEED))


def link_options(pico: EmulatedPico, heavier: float = 1.0) -> dict[str, float]:
    """LINK_OPTIONS for the core's speed now: the host waits for the board's answers (an
    acknowledgement, any frame at all) as much longer as the board is slower (`heavier`: as
    many times longer again, for a board whose loop does more per turn than the firmware's)."""
    k = slowness(pico) * heavier
    return {**LINK_OPTIONS, "ack_timeout_s": LINK_OPTIONS["ack_timeout_s"] * k,
            "board_timeout_s": LINK_OPTIONS["board_timeout_s"] * k}


def firmware_version(pico: EmulatedPico) -> subprocess.CompletedProcess[str]:
    """`uno-showdown firmware version --port`, as a maker types it. It waits 3 s of wall time
    for the board's hello, a Pico's at once: a core slowed down by a loaded machine may miss
    that, so a silent board is asked again (a few times), never a wrong answer accepted."""
    done = cli("firmware", "version", "--port", pico.port)
    for _ in range(4):
        if done.returncode == 0 or "no answer from the board" not in done.stderr:
            break
        done = cli("firmware", "version", "--port", pico.port)
    return done


@dataclass
class Installed:
    """An emulated Pico with the firmware on it, and what installing it said."""

    pico: EmulatedPico
    boot_s: float
    install_s: float
    install_out: str
    install_err: str
    version_out: str


def cli(*args: str, timeout_s: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the `uno-showdown` command line as a user would."""
    return subprocess.run([sys.executable, "-m", "uno_showdown.commands.cli", *args],
                          capture_output=True, text=True, timeout=timeout_s, check=False)


def start_installed(fixtures: Fixtures | None = None) -> Installed:
    """Boot an emulated Pico and install the firmware on it with the command line.

    PicoUnavailable when Node, rp2040js or the fixtures are missing; the caller closes
    `Installed.pico`.
    """
    found = fixtures or find_fixtures()
    started = time.monotonic()
    pico = EmulatedPico(found)
    try:
        booted = time.monotonic() - started
        began = time.monotonic()
        done = cli("firmware", "install", "--port", pico.port)
        assert done.returncode == 0, done.stdout + done.stderr
        install_s = time.monotonic() - began
        version = firmware_version(pico)
        assert version.returncode == 0, version.stdout + version.stderr
    except BaseException:
        pico.close()
        raise
    return Installed(pico, booted, install_s, done.stdout, done.stderr, version.stdout)


@pytest.fixture(scope="package")
def installed() -> Iterator[Installed]:
    """The emulated Pico with the firmware installed, as a maker installs it: booted by the
    first test of this folder a worker runs, kept for the tests of the folder that follow it
    on that worker, and closed when the worker moves on to another folder (a later visit
    boots it again). Its core runs its firmware flat out whether or not a test talks to it:
    kept for the whole session, each worker's used half a core until the end of `make test`,
    a third of the suite's time, which every other test waited for."""
    try:
        found = find_fixtures()
    except PicoUnavailable as exc:
        pytest.skip(f"emulated-Pico level skipped: {exc}")
    board = start_installed(found)
    try:
        yield board
    finally:
        board.pico.close()


@pytest.fixture
def pico(installed: Installed) -> Iterator[EmulatedPico]:
    """The worker's Pico (`installed`), running the firmware, with its inputs let go after
    each test and every press it still had to come forgotten (a test that failed before its
    trigger's output came would otherwise press in the next test's duel)."""
    yield installed.pico
    if installed.pico.boot and not installed.pico._closed.is_set():
        installed.pico.clear_stimuli()
        for name in ("paddle_left", "paddle_right", "timer_button", "card_sensor"):
            installed.pico.drive(name, None)
        installed.pico.jam(False)


def deep() -> bool:
    """The deep profile (HYPOTHESIS_PROFILE=deep): the long heap run."""
    return os.environ.get("HYPOTHESIS_PROFILE") == "deep"


def mpremote(pico: EmulatedPico, *args: str, timeout_s: float = 60) -> str:
    """Run mpremote on the Pico's port; what it printed (a failure is the test's)."""
    done = subprocess.run([sys.executable, "-m", "mpremote", "connect", pico.port, *args],
                          capture_output=True, text=True, timeout=timeout_s, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def boot_to_repl(pico: EmulatedPico) -> None:
    """Power the Pico up with the timer button held: main.py leaves the REPL to mpremote."""
    pico.drive("timer_button", 0)
    try:
        boots = pico.boot
        pico.power_cycle()
        assert pico.wait_for(lambda p: p.boot > boots, WAIT_S)
        # main.py has read the button once it has driven the motor pins low
        assert pico.wait_for(lambda p: any(c.boot == p.boot and c.pin == "motor_a"
                                           and c.level == 0 for c in p.changes), WAIT_S)
    finally:
        pico.drive("timer_button", None)


def boot_to_firmware(pico: EmulatedPico) -> None:
    """Power the Pico up as a table does: main.py starts the firmware."""
    boots = pico.boot
    pico.power_cycle()
    assert pico.wait_for(lambda p: p.boot > boots, WAIT_S)
