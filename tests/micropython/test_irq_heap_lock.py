"""Every hard-IRQ handler of the firmware runs under `micropython.heap_lock()` without allocating.

On a Pico a hard IRQ may not allocate: MicroPython raises MemoryError there
(its heap is locked), and the edge would be lost. Here each handler the
firmware hangs on a pin is fired on MicroPython under heap_lock, through every
path it has: a new edge, a bounce inside the debounce time, the ring full (the
overflow flag), a stamp just before and after the 2^30 tick wrap, and the
card sensor counting. A handler that allocates is caught: the negative control
shows the lock does bite.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.firmware.fw_core import DEBOUNCE_US, RING
from firmware_host.wire import codec
from tests.micropython.runner import BoardDriver, MicroPython

HANDLED = ["paddle_left", "paddle_right", "button", "card_sensor"]


def test_the_firmware_hangs_handlers_on_exactly_the_input_pins(micropython: MicroPython) -> None:
    micropython.run("_irq_board = bare_board.Board()")
    assert micropython.call("bare_board.irq_pins(_irq_board)") == HANDLED
    micropython.run("del _irq_board")


def test_every_handler_through_every_path_allocates_nothing(
    boards: Callable[..., dict[str, BoardDriver]],
) -> None:
    board = boards(start_ticks=codec.TICKS_PERIOD - 100_000)["micropython"]
    board.run(1_000)
    fired = 0
    t = board.state()["ticks"]
    for i in range(RING + 8):  # more edges than the ring holds, before the loop drains them
        for pin in HANDLED:
            board.irq(pin, (t + i * (DEBOUNCE_US + 1)) % codec.TICKS_PERIOD)  # each one new
            board.irq(pin, (t + i * (DEBOUNCE_US + 1) + 10) % codec.TICKS_PERIOD)  # its bounce
            fired += 2
    out = codec.Decoder().feed(board.run(5_000))
    assert any(f[1] == codec.FAULT and f[2][0] == codec.FAULT_EVENT_OVERFLOW for f in out)
    for i in range(6):  # stamps on both sides of the 2^30 wrap
        for pin in HANDLED:
            board.irq(pin,
                      (codec.TICKS_PERIOD - 15_000 + i * (DEBOUNCE_US + 1)) % codec.TICKS_PERIOD)
            fired += 1
    out = codec.Decoder().feed(board.run(5_000))
    stamps = [f[2][1] for f in out if f[1] == codec.PADDLE]
    assert len(stamps) == 12 and min(stamps) < 20_000 and max(stamps) > codec.TICKS_PERIOD - 20_000
    state = board.state()
    assert state["irqs"] == fired and state["irq_alloc_failures"] == 0


def test_a_handler_that_allocates_is_caught(micropython: MicroPython) -> None:
    """The negative control: the same way of firing, a handler that builds a list."""
    micropython.run(
        "_irq_board = bare_board.Board()\n"
        "_pin = bare_board.Pin()\n"
        "_pin.irq(handler=lambda pin: [pin, pin])\n"
        "_irq_board.irq(_pin)\n"
    )
    assert micropython.call("_irq_board.irq_alloc_failures") == 1
    micropython.run("del _irq_board, _pin")



def test_both_paddles_at_one_interrupt_get_one_stamp_without_allocating(
    boards: Callable[..., dict[str, BoardDriver]],
) -> None:
    """The left handler sees the right edge pending and stamps both; the right handler, 80 µs
    later, is the debounce's to drop: one stamp for both, under heap_lock, on both
    interpreters. A lone press afterwards is its own paddle's alone."""
    for name, board in boards().items():
        board.run(1_000)
        t = board.state()["ticks"]
        board.press_both(t)
        out = codec.Decoder().feed(board.run(3_000))
        stamps = [tuple(f[2]) for f in out if f[1] == codec.PADDLE]
        assert sorted(stamps) == [(codec.LEFT, t), (codec.RIGHT, t)], (name, stamps)
        lone = board.state()["ticks"] + DEBOUNCE_US
        board.run(DEBOUNCE_US + 1_000)
        board.press(codec.RIGHT, lone)
        out = codec.Decoder().feed(board.run(3_000))
        assert [tuple(f[2]) for f in out if f[1] == codec.PADDLE] == [(codec.RIGHT, lone)], name
        state = board.state()
        assert state["irq_alloc_failures"] == 0 and state["irqs"] == 3, (name, state)
