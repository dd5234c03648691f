"""The Raspberry Pi Pico's side of the firmware's hardware layer (MicroPython only).

Everything `fw_core.Firmware` touches goes through one `Hardware` object, so
the virtual microcontroller can hand the same core simulated pins instead.
The pin numbers are the table in docs/wiring.md. The motor's H-bridge
(GP14/GP15, PWM slice 7) and the buzzer (GP16, PWM slice 0) sit on separate
slices, because a slice has one frequency and the buzzer changes its own.
"""

import random
import select
import sys
from time import ticks_us

import machine
import micropython
from machine import PWM, Pin

micropython.alloc_emergency_exception_buf(100)

PADDLE_LEFT = 2
PADDLE_RIGHT = 3
TIMER_BUTTON = 4
CARD_SENSOR = 5  # set to None when no break-beam sensor is fitted
COUNTDOWN_LEDS = (6, 7, 8, 9)
ARROW_LEFT = 10
ARROW_RIGHT = 11
GO_LED = 12
MOTOR_IN1 = 14  # PWM slice 7 A
MOTOR_IN2 = 15  # PWM slice 7 B
BUZZER = 16  # PWM slice 0 A
MOTOR_PWM_HZ = 20_000
# IO_BANK0's raw interrupt status (INTR0 at 0x400140f0 holds GPIO 0-7, four bits each:
# level low, level high, edge low, edge high). Both paddles' nibbles sit in one byte of it,
# so one `mem8` read (a small integer: a 32-bit read would make a heap integer, which an
# IRQ under heap_lock cannot) tells a paddle's handler whether the other one's falling edge
# is pending too. MicroPython acknowledges a pin just before it calls that pin's handler, so
# at one interrupt the second paddle's edge is still set while the first handler runs.
INTR0 = 0x400140F0
PADDLE_EDGES = INTR0 + PADDLE_LEFT // 2  # the byte with both paddles' bits
EDGE_LOW = 4  # a nibble's "edge low" bit: a falling edge
if PADDLE_LEFT // 2 != PADDLE_RIGHT // 2:
    raise ValueError("the paddles' pins must share one byte of INTR0 (GP2 and GP3)")
WATCHDOG_REASON = 0x40058008  # WATCHDOG_BASE + REASON: bit 0 timer, bit 1 forced
WATCHDOG_REASON_TIMER = 1


def motor_off():
    """Drive both H-bridge inputs low: the first thing main.py does at every boot.

    After a reset (the watchdog's too) every pin is a floating input, and the
    bridge must not read that as "run"; the firmware's PWM takes the pins over
    later, also at duty 0.
    """
    Pin(MOTOR_IN1, Pin.OUT, value=0)
    Pin(MOTOR_IN2, Pin.OUT, value=0)


_mem8 = machine.mem8


def paddle_edges():
    """The raw interrupt byte holding both paddles' bits (called in the hard IRQ: no
    allocation)."""
    return _mem8[PADDLE_EDGES]


class Hardware:
    """Pins, PWM, clock, watchdog and the USB serial line of a Pico."""

    FALLING = Pin.IRQ_FALLING
    # each paddle's falling-edge bit in `paddle_edges()`
    EDGE_LEFT = EDGE_LOW << (4 * (PADDLE_LEFT % 2))
    EDGE_RIGHT = EDGE_LOW << (4 * (PADDLE_RIGHT % 2))

    def __init__(self):
        self.ticks_us = ticks_us
        self.paddle_edges = paddle_edges
        self.paddle_left = Pin(PADDLE_LEFT, Pin.IN, Pin.PULL_UP)
        self.paddle_right = Pin(PADDLE_RIGHT, Pin.IN, Pin.PULL_UP)
        self.button = Pin(TIMER_BUTTON, Pin.IN, Pin.PULL_UP)
        self.card_sensor = None if CARD_SENSOR is None else Pin(CARD_SENSOR, Pin.IN, Pin.PULL_UP)
        self.countdown_leds = [Pin(n, Pin.OUT, value=0) for n in COUNTDOWN_LEDS]
        self.arrow_left = Pin(ARROW_LEFT, Pin.OUT, value=0)
        self.arrow_right = Pin(ARROW_RIGHT, Pin.OUT, value=0)
        self.go_led = Pin(GO_LED, Pin.OUT, value=0)
        self.motor_a = PWM(Pin(MOTOR_IN1), freq=MOTOR_PWM_HZ, duty_u16=0)
        self.motor_b = PWM(Pin(MOTOR_IN2), freq=MOTOR_PWM_HZ, duty_u16=0)
        self.buzzer = PWM(Pin(BUZZER), freq=880, duty_u16=0)
        self._wdt = None
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._ipoll = self._poll.ipoll
        self._readinto = sys.stdin.buffer.readinto
        self._one = bytearray(1)
        # write(data, n), the first n bytes of data: the stream's own write takes a length,
        # so the firmware's answers go out of its buffer with no slice and no Python call
        self.write = sys.stdout.buffer.write

    def read_into(self, buf, wait_ms):
        """Put the bytes the host sent in `buf`, waiting up to `wait_ms` for the first; how many.

        The USB line's stdin blocks until it has as many bytes as asked, and tells only
        whether one is there: so one byte at a time, each after a poll. `ipoll` reuses
        its one result tuple and `readinto` the one-byte buffer, so nothing is allocated
        (`poll` made a list and `read(1)` a bytes object per byte: 63 µs a byte on the
        emulated Pico, 31 µs now).
        """
        ipoll = self._ipoll
        one = self._one
        readinto = self._readinto
        size = len(buf)
        ready = False
        for _ in ipoll(wait_ms):
            ready = True
        n = 0
        while ready and n < size:
            readinto(one)
            buf[n] = one[0]
            n += 1
            ready = False
            for _ in ipoll(0):
                ready = True
        return n

    def running(self):
        return True

    def arm_watchdog(self, timeout_ms):
        if self._wdt is None:
            self._wdt = machine.WDT(timeout=timeout_ms)

    def wdt_feed(self):
        if self._wdt is not None:
            self._wdt.feed()

    def reset_by_watchdog(self):
        # Not machine.reset_cause(): on the RP2040 it says WDT_RESET after machine.reset()
        # too (mpremote's reset, the RS command), since both go through the watchdog. Only
        # the TIMER bit of the watchdog's REASON register means the loop went unfed.
        return bool(machine.mem32[WATCHDOG_REASON] & WATCHDOG_REASON_TIMER)

    def reset(self):
        machine.reset()

    def random_id(self):
        return random.getrandbits(30)

    def set_kbd_intr(self, on):
        # Ctrl-C in a frame's bytes must not stop the firmware while a host talks.
        micropython.kbd_intr(3 if on else -1)
