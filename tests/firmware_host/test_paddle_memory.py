"""A paddle press made just before a countdown's command arrives still freezes it.

The engine starts the countdown on the host; its command reaches the board a
few milliseconds later. A press stamped in between must freeze the countdown
the moment the command comes, however the press's IRQ interleaves with the
board's loop: in particular one that lands right after the loop read its clock,
so the press is stamped later than the loop's `now`. Driven on a manual board
clock with the IRQ injected at that exact point.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_host.firmware.fw_core import PADDLE_MEMORY_US
from firmware_host.virtual.sim_hw import SimClock, SimHardware
from firmware_host.wire import codec
from tests.firmware_host.test_command_window import RecordingFirmware
from tests.firmware_host.test_command_window import pty as pty  # the fixture, used by name

IRQ_DELAY_US = 20  # how long after the loop's clock read the press's IRQ stamps it


def _board(master: int) -> RecordingFirmware:
    fw = RecordingFirmware(SimHardware(master, SimClock(manual=True)))
    fw._handle(0, codec.HELLO, (codec.VERSION,))
    fw._handle(0, codec.HB, ())
    for _ in range(10):
        fw.hw.clock.advance(10_000)
        fw.step()
    return fw


def _press_right_after_the_next_clock_read(fw: RecordingFirmware, edge: Callable) -> None:
    """Arm an IRQ: the loop's next clock read returns, then the press lands IRQ_DELAY_US later.

    That is the moment the IRQ handler runs on the board between a `ticks_us()` in
    the main loop and the loop's next statement.
    """
    read = fw.ticks
    armed = [True]

    def ticks() -> int:
        now = read()
        if armed[0]:
            armed[0] = False
            fw.hw.clock.advance(IRQ_DELAY_US)
            edge(None)  # the handler reads the clock itself: now + IRQ_DELAY_US
        return now

    fw.ticks = ticks  # type: ignore[method-assign]


@pytest.mark.parametrize("race", [False, True], ids=["press-between-turns", "irq-after-clock"])
def test_a_press_before_the_countdown_command_freezes_it_however_its_irq_lands(
    pty: int, race: bool
) -> None:
    fw = _board(pty)
    clock = fw.hw.clock
    start = fw.ticks()  # the engine's start, in board time
    clock.advance(30_000)
    fw.step()
    if race:
        _press_right_after_the_next_clock_read(fw, fw._edge_left)
        pressed = codec.ticks_add(fw.hw.ticks_us(), IRQ_DELAY_US)
    else:
        clock.advance(IRQ_DELAY_US)
        fw._edge_left(None)
        pressed = fw.hw.ticks_us()
    fw.step()  # the turn the press lands in
    clock.advance(40_000)
    fw.step()
    fw._handle(1, codec.COUNTDOWN, (3_000_000, start))  # the command arrives 70 ms after start
    assert fw.cd_on and fw.cd_frozen, "the press made after the start did not freeze it"
    assert [args for kind, args in fw.events if kind == codec.PADDLE] == [(codec.LEFT, pressed)]


def test_a_press_is_still_forgotten_after_its_memory(pty: int) -> None:
    """The race fix keeps the rule: a press older than PADDLE_MEMORY_US freezes nothing.

    (The countdown's command follows the engine's start within the host's retries,
    so a press that old cannot be one the board should still act on; forgetting it
    is what keeps a press one tick wrap old from passing for a new one.)
    """
    fw = _board(pty)
    clock = fw.hw.clock
    _press_right_after_the_next_clock_read(fw, fw._edge_left)
    pressed = codec.ticks_add(fw.hw.ticks_us(), IRQ_DELAY_US)
    fw.step()
    clock.advance(10_000)
    fw.step()
    assert fw.paddle_t[0] == pressed  # remembered while it is fresh
    clock.advance(PADDLE_MEMORY_US + 10_000)
    fw.step()
    assert fw.paddle_t == [None, None]
    fw._handle(1, codec.COUNTDOWN, (3_000_000, codec.ticks_add(pressed, -1_000)))
    assert fw.cd_on and not fw.cd_frozen
