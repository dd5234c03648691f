"""A bare simulated board for the firmware core, in the subset MicroPython and CPython share.

The MicroPython test level runs this file, with protocol.py and fw_core.py, on
MicroPython's own WebAssembly port; the same file runs under CPython, so a
scenario is written once and run on both interpreters, and their answers can
be compared byte for byte. No threads, no pty, no real time: board time moves
only when `Board.run` moves it, one loop turn per `step_us`, so both runs see
exactly the same instants.

Every hard-IRQ handler is called the way the Pico calls it: on MicroPython,
under `micropython.heap_lock()`, so an allocation in a handler raises
MemoryError, which `Board` counts in `irq_alloc_failures` (a test asserts 0).

`call(board, method, args)` is the one door a driver uses, on either side:
bytes travel as hex, everything else as JSON values.
"""

import gc

try:
    import micropython  # type: ignore[import-not-found]
except ImportError:  # CPython: no heap lock to take
    micropython = None

try:
    import fw_core  # type: ignore[import-not-found]
    import protocol  # type: ignore[import-not-found]
except ImportError:  # CPython: the host package
    from firmware_host.firmware import fw_core  # type: ignore[no-redef]
    from firmware_host.wire import codec as protocol  # type: ignore[no-redef]

try:
    from binascii import hexlify, unhexlify
except ImportError:  # older MicroPython builds
    from ubinascii import hexlify, unhexlify  # type: ignore[import-not-found,no-redef]

MASK = protocol.TICKS_PERIOD - 1


class Clock:
    """The board's `ticks_us`, a wrapped small int: an IRQ reading it allocates nothing."""

    def __init__(self, start):
        self.t = start & MASK
        self.elapsed = 0
        self.forced = -1  # >= 0: the tick an IRQ handler reads (an edge "as if" at that tick)

    def ticks_us(self):
        if self.forced >= 0:
            return self.forced
        return self.t

    def advance(self, us):
        self.t = (self.t + us) & MASK
        self.elapsed += us


class Pin:
    IRQ_FALLING = 2

    def __init__(self, level=1):
        self.level = level
        self.handler = None

    def value(self, level=None):
        if level is not None:
            self.level = 1 if level else 0
        return self.level

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler


class PWM:
    def __init__(self):
        self.hz = 1000
        self.duty = 0

    def freq(self, hz=None):
        if hz is not None:
            self.hz = hz
        return self.hz

    def duty_u16(self, duty=None):
        if duty is not None:
            self.duty = duty
        return self.duty


class BoardReset(BaseException):
    """The firmware asked for a reset (the RS command): like `machine.reset()`, it never
    returns, so the firmware's guard around each frame does not catch it."""


class Hardware:
    """What fw_core needs, with an in-memory line: `inbox` from the host, `outbox` to it."""

    FALLING = 2
    EDGE_LEFT = 0x04  # the paddles' bits in `paddle_edges()`, as on the RP2040
    EDGE_RIGHT = 0x40

    def __init__(self, start_ticks, card_sensor, boot_id):
        self.clock = Clock(start_ticks)
        self.ticks_us = self.clock.ticks_us
        self.edges = 0  # the paddles' pending edges (the chip's raw interrupt byte)
        self.paddle_left = Pin()
        self.paddle_right = Pin()
        self.button = Pin()
        self.card_sensor = Pin() if card_sensor else None
        self.countdown_leds = [Pin(0), Pin(0), Pin(0), Pin(0)]
        self.arrow_left = Pin(0)
        self.arrow_right = Pin(0)
        self.go_led = Pin(0)
        self.motor_a = PWM()
        self.motor_b = PWM()
        self.buzzer = PWM()
        self.inbox = bytearray()
        self.taken = 0  # bytes of `inbox` the firmware has read
        self.outbox = bytearray()
        self.boot_id = boot_id
        self.watchdog_ms = 0
        self.fed = 0
        self.kbd_intr = True

    def paddle_edges(self):
        return self.edges

    def read_into(self, buf, wait_ms):
        inbox = self.inbox
        n = len(inbox) - self.taken
        if n > len(buf):
            n = len(buf)
        at = self.taken
        for i in range(n):  # byte by byte: no slice made, as the Pico's read makes none
            buf[i] = inbox[at + i]
        self.taken = at + n
        return n

    def write(self, data, n):
        self.outbox.extend(data[:n])

    def running(self):
        return True

    def arm_watchdog(self, timeout_ms):
        if not self.watchdog_ms:
            self.watchdog_ms = timeout_ms
            self.fed = self.clock.elapsed

    def wdt_feed(self):
        self.fed = self.clock.elapsed

    def reset_by_watchdog(self):
        return False

    def reset(self):
        raise BoardReset()

    def random_id(self):
        return self.boot_id

    def set_kbd_intr(self, on):
        self.kbd_intr = on

    def motor_running(self):
        return self.motor_a.duty > 0 or self.motor_b.duty > 0


class Board:
    """The firmware core on `Hardware`: what a driver steps, presses and reads."""

    def __init__(self, start_ticks=0, card_sensor=True, card_period_us=50_000, step_us=1_000,
                 boot_id=0x1234567):
        self.hw = Hardware(start_ticks, card_sensor, boot_id)
        self.step_us = step_us
        self.card_period_us = card_period_us
        self.jammed = False
        self.irqs = 0
        self.irq_alloc_failures = 0
        self.motor_starts = 0
        self.motor_switches = []
        self._motor_was = 0
        self._next_card = 0
        self.measuring = False
        self.peak_alloc = 0
        self.fw = fw_core.Firmware(self.hw)
        self.fw.start()

    # -- the line --

    def send(self, data):
        hw = self.hw
        hw.inbox = hw.inbox[hw.taken:] + data
        hw.taken = 0

    def take(self):
        data = bytes(self.hw.outbox)
        self.hw.outbox = bytearray()
        return data

    # -- time --

    def run(self, us):
        """Let `us` of board time pass, one loop turn per `step_us`; what the board wrote."""
        end = self.hw.clock.elapsed + us
        while self.hw.clock.elapsed < end:
            self.hw.clock.advance(min(self.step_us, end - self.hw.clock.elapsed))
            self._cards()
            self.fw.step()
            self._track_motor()
            if self.measuring:
                gc.collect()
                used = gc.mem_alloc()
                if used > self.peak_alloc:
                    self.peak_alloc = used
        return self.take()

    # -- interrupts --

    def irq(self, pin, at=-1):
        """Fire `pin`'s handler as its hard IRQ would: on MicroPython, under heap_lock."""
        handler = pin.handler
        if handler is None:
            return
        self.hw.clock.forced = at & MASK if at >= 0 else -1
        failed = False
        if micropython is not None:
            micropython.heap_lock()
            try:
                handler(pin)
            except MemoryError:
                failed = True
            micropython.heap_unlock()
        else:
            handler(pin)
        self.hw.clock.forced = -1
        self.irqs += 1
        if failed:
            self.irq_alloc_failures += 1

    def press(self, side, at=-1):
        self.irq(self.hw.paddle_left if side == protocol.LEFT else self.hw.paddle_right, at)

    def press_both(self, at=-1):
        """Both paddles at one interrupt: the right edge is still pending while the left
        handler runs (the chip acknowledges each pin just before its handler)."""
        hw = self.hw
        hw.edges = hw.EDGE_RIGHT
        self.irq(hw.paddle_left, at)
        hw.edges = 0
        self.irq(hw.paddle_right, at if at < 0 else at + 80)

    def press_button(self, at=-1):
        self.irq(self.hw.button, at)

    def _cards(self):
        if not self.hw.motor_running():
            return
        now = self.hw.clock.elapsed
        if not self._motor_was:
            self._next_card = now + 2 * self.card_period_us
        if self.hw.card_sensor is not None and not self.jammed and now >= self._next_card:
            self._next_card = now + self.card_period_us
            self.irq(self.hw.card_sensor)

    def _track_motor(self):
        """Record each change of the motor: [tick, 0 off / 1 toward the left / 2 the right]."""
        hw = self.hw
        now = 1 if hw.motor_a.duty > 0 else (2 if hw.motor_b.duty > 0 else 0)
        if now != self._motor_was:
            if not self._motor_was:
                self.motor_starts += 1
            self.motor_switches.append([hw.clock.t, now])
        self._motor_was = now

    # -- what a test looks at --

    def state(self):
        hw, fw = self.hw, self.fw
        return {
            "ticks": hw.clock.t,
            "motor": 1 if hw.motor_running() else 0,
            "motor_starts": self.motor_starts,
            "motor_switches": self.motor_switches,
            "launches": fw.launches,
            "go_led": hw.go_led.value(),
            "leds": [led.value() for led in hw.countdown_leds],
            "arrows": [hw.arrow_left.value(), hw.arrow_right.value()],
            "counting": 1 if fw.cd_on else 0,
            "frozen": 1 if fw.cd_frozen else 0,
            "frame_failures": fw.frame_failures,
            "irqs": self.irqs,
            "irq_alloc_failures": self.irq_alloc_failures,
            "decoder_errors": fw._dec.errors,
            "watchdog_ms": hw.watchdog_ms,
            "last_host_t": fw.last_host_t,
        }


def call(board, method, args):
    """The drivers' one door: run `method` on `board` with JSON `args`; a JSON-able answer."""
    if method == "send":
        board.send(unhexlify(args[0]))
        return None
    if method == "run":
        return hexlify(board.run(args[0])).decode()
    if method == "press":
        board.press(args[0], args[1])
        return None
    if method == "irq":  # fire the IRQ of the pin named args[0] ("card_sensor", ...)
        board.irq(getattr(board.hw, args[0]), args[1])
        return None
    if method == "press_both":
        board.press_both(args[0])
        return None
    if method == "press_button":
        board.press_button(args[0])
        return None
    if method == "jam":
        board.jammed = bool(args[0])
        return None
    if method == "state":
        return board.state()
    if method == "measure":
        board.measuring = bool(args[0])
        board.peak_alloc = heap_now() if board.measuring else 0
        return None
    if method == "peak":
        return board.peak_alloc
    raise ValueError("no such method: " + method)


def codec_vectors(vectors):
    """Run codec vectors: ["enc", seq, kind, args] or ["dec", [hex chunk, ...]]; the answers."""
    out = []
    for vector in vectors:
        if vector[0] == "enc":
            try:
                out.append(hexlify(protocol.encode(vector[1], vector[2], vector[3])).decode())
            except ValueError:
                out.append("ValueError")
        else:
            dec = protocol.Decoder()
            frames = []
            for chunk in vector[1]:
                for frame in dec.feed(unhexlify(chunk)):
                    frames.append([frame[0], frame[1], list(frame[2])])
            errors = {}
            for key in dec.errors:
                errors[key] = dec.errors[key]
            out.append([frames, errors, dec.frames])
    return out


def board_codec_vectors(vectors):
    """`codec_vectors` through the board's own codec: `protocol.Writer` for every frame
    `encode` makes (its refusals stay "ValueError"), `protocol.Reader` for every stream,
    each chunk read from a buffer as the firmware's loop reads it."""
    out = []
    writer = protocol.Writer()
    for vector in vectors:
        if vector[0] == "enc":
            try:
                protocol.encode(vector[1], vector[2], vector[3])
            except ValueError:
                out.append("ValueError")
                continue
            n = writer.frame(vector[1], vector[2], vector[3])
            out.append(hexlify(bytes(writer.out[:n])).decode())
        else:
            reader = protocol.Reader()
            frames = []
            for chunk in vector[1]:
                data = bytearray(unhexlify(chunk))
                i = 0
                while True:
                    i = reader.take(data, i, len(data))
                    if i < 0:
                        break
                    frames.append([reader.seq, reader.kind, list(reader.args)])
            errors = {}
            for key in reader.errors:
                errors[key] = reader.errors[key]
            out.append([frames, errors, reader.frames])
    return out


def lean_turns():
    """Run turns of the firmware's loop under `micropython.heap_lock()`: idle, reading a
    heartbeat, an event's receipt, an arrow command and a beep, in a live session. The
    names of those that allocated (MemoryError, or a frame the firmware failed on); on
    CPython, with no heap lock, the turns simply run."""
    board = Board()
    board.send(protocol.encode(0, protocol.HELLO, (protocol.VERSION,)))
    board.send(protocol.encode(0, protocol.HB))
    board.run(2_000)
    board.take()
    written = [0]

    def write(data, n):
        written[0] += n

    board.hw.write = write  # the bare board's outbox grows as it is written: not the firmware's
    failed = []
    turns = (("idle", b""), ("heartbeat", protocol.encode(0, protocol.HB)),
             ("receipt", protocol.encode(0, protocol.EVACK, (9,))),
             ("arrow", protocol.encode(1, protocol.ARROW, (protocol.LEFT,))),
             ("beep", protocol.encode(2, protocol.BEEP, (0,))))
    for name, frame in turns:
        board.send(frame)
        board.hw.clock.advance(1_000)
        failures = board.fw.frame_failures
        gc.collect()
        if micropython is not None:
            micropython.heap_lock()
        try:
            board.fw.step()
        except MemoryError:
            failed.append(name)
        if micropython is not None:
            micropython.heap_unlock()
        if board.fw.frame_failures != failures and name not in failed:
            failed.append(name)
    return [failed, written[0], board.fw._dec.frames, board.hw.arrow_left.value()]


def allocates(f):
    """True when `f()` allocates (MicroPython: MemoryError under heap_lock)."""
    micropython.heap_lock()
    try:
        f()
        return False
    except MemoryError:
        return True
    finally:
        micropython.heap_unlock()


def heap_now():
    gc.collect()
    return gc.mem_alloc()


def irq_pins(board):
    """The names of the pins the firmware hung an IRQ handler on."""
    names = []
    for name in ("paddle_left", "paddle_right", "button", "card_sensor", "countdown_leds",
                 "arrow_left", "arrow_right", "go_led"):
        pin = getattr(board.hw, name)
        if isinstance(pin, Pin) and pin.handler is not None:
            names.append(name)
    return names

