"""The hardware-in-the-loop rig: the virtual board by default, a real one with --hil-port.

Tests that need a stimulus only the virtual board can script (a paddle press at
a chosen tick, an unplug, a reset, a jammed launcher) call `rig.need_virtual()`
and are skipped against a real board. Tests that need seconds of board time use
`still_board`, a virtual board whose clock moves only when the test moves it.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
import serial

from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from hardware.serial_unit import SerialUnit
from showdown.contract.events import (
    LaunchFinished,
    LaunchPart,
    Outcome,
    ServiceEvent,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService
from tests.pico.emulated_pico import EmulatedPico
from uno_showdown.commands.options import fit_to_unit

# the settle time is the serial unit's own, as `run` gives it (see open_table)
FAST = DuelConfig(countdown_min_us=250_000, countdown_max_us=300_000,
                  response_timeout_us=600_000)
LINK_OPTIONS = {"heartbeat_s": 0.05, "board_timeout_s": 0.4, "retry_open_s": 0.05}
#: For a board on the manual clock (`still_board`), in tests that are not about losing the
#: board: it answers from a thread of the test's process, and with both cores busy the
#: process has stalled past 0.4 s; the link took the board for lost, and the duel's launch
#: never reached it (`make test` in a fresh clone beside a second run). A command's
#: acknowledgement is waited for longer too (five tries of 0.05 s gave up at 0.25 s).
STILL_LINK = {**LINK_OPTIONS, "board_timeout_s": 2.0, "ack_timeout_s": 0.2}


@dataclass
class Rig:
    port: str
    mcu: VirtualMCU | None
    #: the link's timings and the settle time for a board slower than a Pico (the emulator)
    link_options: dict[str, float] | None = None
    settle_us: int | None = None
    #: the emulated Pico, to jam its launcher or read its pins (--hil-pico-emulator)
    emulated: EmulatedPico | None = None

    def wait_s(self, seconds: float) -> float:
        """How long to wait for what a Pico does in `seconds`: longer on the emulated one."""
        return seconds * (10 if self.emulated is not None else 1)

    def need_virtual(self) -> VirtualMCU:
        if self.mcu is None:
            pytest.skip("needs a stimulus only the virtual board can script")
        return self.mcu


@pytest.fixture(scope="package")
def hil_emulated_pico() -> Iterator[EmulatedPico]:
    """`--hil-pico-emulator`: one emulated Pico with the firmware installed, while a worker
    runs this folder (it runs its firmware flat out: see `tests.pico.conftest.installed`)."""
    from tests.pico.conftest import start_installed
    from tests.pico.emulated_pico import PicoUnavailable

    try:
        board = start_installed()
    except PicoUnavailable as exc:
        pytest.skip(f"--hil-pico-emulator: {exc}")
    try:
        yield board.pico
    finally:
        board.pico.close()


@pytest.fixture
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rig]:
    port = request.config.getoption("--hil-port")
    if port:
        yield Rig(port, None)
        return
    if request.config.getoption("--hil-pico-emulator"):
        from tests.pico.conftest import LINK_OPTIONS as SLOW_LINK
        from tests.pico.conftest import SETTLE_US

        pico: EmulatedPico = request.getfixturevalue("hil_emulated_pico")
        try:
            yield Rig(pico.port, None, SLOW_LINK, SETTLE_US, pico)
        finally:
            pico.jam(False)
        return
    mcu = VirtualMCU(tmp_path / "board").start()
    try:
        yield Rig(mcu.port, mcu)
    finally:
        mcu.stop()


@pytest.fixture
def still_board(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[..., VirtualMCU]]:
    """Start virtual boards on a manual clock: `still_board(card_sensor=..., start_ticks=...)`."""
    if request.config.getoption("--hil-port") or request.config.getoption("--hil-pico-emulator"):
        pytest.skip("needs the virtual board's manual clock")
    boards: list[VirtualMCU] = []

    def make(*, card_sensor: bool = True, start_ticks: int = 0) -> VirtualMCU:
        mcu = VirtualMCU(tmp_path / f"still-board-{len(boards)}", start_ticks=start_ticks,
                         card_sensor=card_sensor, manual_clock=True)
        boards.append(mcu)
        return mcu.start()

    try:
        yield make
    finally:
        for mcu in boards:
            mcu.stop()


class RawHost:
    """A bare-hands host: frames in and out over pyserial, no link logic."""

    def __init__(self, port: str) -> None:
        self.ser = serial.Serial(port, 115_200, timeout=0.01, exclusive=True)
        self.dec = codec.Decoder()
        self.frames: list[tuple[int, str, tuple[int, ...]]] = []

    def send(self, seq: int, kind: str, args: tuple[int, ...] = ()) -> None:
        self.ser.write(codec.encode(seq, kind, args))

    def raw(self, data: bytes) -> None:
        self.ser.write(data)

    def expect(self, pred: Callable[[tuple[int, str, tuple[int, ...]]], bool],
               timeout_s: float = 1.0) -> tuple[int, str, tuple[int, ...]] | None:
        """The first frame (from now on, or already read) matching `pred`, or None."""
        deadline = time.monotonic() + timeout_s
        while True:
            for i, frame in enumerate(self.frames):
                if pred(frame):
                    del self.frames[: i + 1]
                    return frame
            self.frames.clear()
            if time.monotonic() > deadline:
                return None
            self.frames.extend(self.dec.feed(self.ser.read(max(1, self.ser.in_waiting))))

    def hello(self, version: int = codec.VERSION, timeout_s: float = 1.0
              ) -> tuple[int, str, tuple[int, ...]] | None:
        self.send(0, codec.HELLO, (version,))
        return self.expect(lambda f: f[1] == codec.HELLO and len(f[2]) == 3, timeout_s)

    def command(self, seq: int, kind: str, args: tuple[int, ...] = (),
                timeout_s: float = 1.0) -> tuple[int, str, tuple[int, ...]] | None:
        self.send(seq, kind, args)
        return self.expect(lambda f: f[1] in (codec.ACK, codec.NAK) and f[2][0] == seq, timeout_s)

    def close(self) -> None:
        self.ser.close()


@pytest.fixture
def raw_host(rig: Rig) -> Iterator[RawHost]:
    host = RawHost(rig.port)
    try:
        yield host
    finally:
        host.send(0, codec.HELLO, (codec.VERSION,))  # a new session stops whatever was left running
        host.close()


@dataclass
class Table:
    """A service on a SerialUnit on its own thread, with every event it told recorded."""

    unit: SerialUnit
    service: ShowdownService
    events: list[ServiceEvent] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)
    launch_calls: list[int] = field(default_factory=list)  # duel ids the unit was told to launch

    def __post_init__(self) -> None:
        send = self.unit.launch

        def launch(parts: tuple[LaunchPart, ...]) -> None:
            self.launch_calls.append(self.service.duel_id)
            send(parts)

        self.unit.launch = launch  # type: ignore[method-assign]

    def assert_launched_at_most_once(self, mcu: VirtualMCU | None) -> None:
        """The property: no duel launched twice, none launched after an abort."""
        assert len(set(self.launch_calls)) == len(self.launch_calls), self.launch_calls
        aborted = {v.duel_id for v in self.verdicts() if v.result.outcome is Outcome.ABORTED}
        assert not aborted & set(self.launch_calls), (aborted, self.launch_calls)
        if mcu is not None:  # launch commands the firmware ran (a split launch is one)
            assert mcu.launches == len(self.launch_calls), (mcu.launches, self.launch_calls)

    def hear(self, event: ServiceEvent) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait_for(self, pred: Callable[[ServiceEvent], bool], timeout_s: float = 3.0,
                 count: int = 1) -> list[ServiceEvent]:
        with self.cond:
            self.cond.wait_for(lambda: sum(map(pred, self.events)) >= count, timeout=timeout_s)
            return [e for e in self.events if pred(e)]

    def verdicts(self) -> list[VerdictGiven]:
        return [e for e in self.events if isinstance(e, VerdictGiven)]

    def launches_done(self) -> list[LaunchFinished]:
        return [e for e in self.events if isinstance(e, LaunchFinished)]


@contextlib.contextmanager
def open_table(port: str, config: DuelConfig = FAST, *, duel_log: DuelLog | None = None,
               link_options: dict[str, float] | None = None,
               settle_us: int | None = None) -> Iterator[Table]:
    """A running service on a SerialUnit at `port`, stopped and closed afterwards.

    The duel config gets the unit's own settle time, exactly as `uno-showdown run` does,
    unless `settle_us` is given (as `run --settle-us` would). `link_options` replace
    LINK_OPTIONS: the emulated Pico answers more slowly than a Pico.
    """
    options = LINK_OPTIONS if link_options is None else link_options
    unit = SerialUnit(port, **options)
    if settle_us is not None:
        config = replace(config, settle_us=settle_us)
    service = ShowdownService(unit, fit_to_unit(config, argparse.Namespace(settle_us=settle_us),
                                                unit), duel_log=duel_log)
    tab = Table(unit, service)
    service.add_listener(tab.hear)
    thread = threading.Thread(target=service.run, name="service", daemon=True)
    try:
        # a slower board (the emulated Pico, its timeouts scaled by its speed) gets longer
        ready_s = 3.0 if link_options is None else max(
            15.0, 3 * link_options.get("board_timeout_s", 5.0))
        assert unit.link.wait_ready(ready_s), "the board did not answer the hello"
        thread.start()
        yield tab
    finally:
        service.stop()
        if thread.is_alive():
            thread.join(timeout=5)
        service.close()


@pytest.fixture
def table(rig: Rig) -> Iterator[Table]:
    with open_table(rig.port, link_options=rig.link_options, settle_us=rig.settle_us) as tab:
        yield tab
