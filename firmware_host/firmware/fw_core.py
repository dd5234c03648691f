"""The Showdown Unit firmware's logic: MicroPython on the Pico, CPython in the virtual MCU.

It reaches the hardware only through the `hw` object it is given (fw_pico.py
on the board, firmware_host/virtual/sim_hw.py under CPython), so the very
same code runs in both places. Written in the MicroPython subset: no
dataclasses, no typing at run time.

The loop is kept lean, since a Pico turns it at a few hundred µs and every frame's
cost delays the next report: it reads the host's bytes into one preallocated buffer
(`hw.read_into(buf, wait_ms)`), decodes them with the codec's board side
(`protocol.Reader`), answers from another buffer (`protocol.Writer`,
`hw.write(buf, n)`), and calls a part (countdown, launcher, beep, host watch,
resends) only when it has something to do. An idle turn, and one that reads and
answers a heartbeat or a command, allocates nothing (docs/pico.md, "The board's
loop").

What it decides, and what it leaves to the host:
* Edges are stamped in the hard IRQ handler with `ticks_us` before anything
  else and stored in preallocated arrays; the handler allocates nothing. Both
  paddles' edges pending at one interrupt get the same stamp (a tie stays a tie).
  The main loop reports them as sequenced events the host acknowledges.
* The countdown runs here, from the host's start instant and length, so "go"
  lights at a board time the board reports. A paddle edge stamped after the
  start and before "go" freezes the countdown at once. Who won is the host's
  duel engine's call alone: no second copy of the rules lives here.
* Commands carry sequence numbers, and the board remembers the last
  CMD_WINDOW it ran (an anti-replay window): a retry of one of them is
  acknowledged without running it again. A command whose first frame was lost
  still runs when its retry comes after later commands, unless a later one
  overrules it (a stop overrules a launch or a countdown sent before it; a
  newer arrow an older arrow). Launch and countdown run at most once: one too
  old for the window to tell whether it ran is refused as stale, never run.
  Stop, beep and the like are safe to repeat and always run.
* A stop ends only what was started before it: the board remembers the
  numbers of the launch running the motor and of the countdown on display, so
  a stop's retry that comes after a newer launch or countdown leaves it alone.
  A stop older than the window cannot be placed and stops everything (the
  safe side), saying it was stale.
* Whatever ends a running launch or a live countdown, the board says so: a
  launch always ends in LAUNCH_DONE (cards counted so far, whether it was cut
  short and why: finished, jammed, stopped, maximum on-time, host silent), and
  a countdown stopped before go in a FAULT naming why. A host
  never waits in silence for a go or a launch that will not come.
* A launch is refused without a recent heartbeat; the motor stops when the
  host falls silent and at a hard maximum on-time.
* A paddle press is remembered (to freeze a countdown whose command came
  after it) for PADDLE_MEMORY_US only: ticks wrap every 2^30 µs, and a press
  17.9 minutes old would otherwise look like one made just now.
* One frame cannot stop the board: whatever a frame's handling raises is
  caught, counted (`frame_failures`), answered (NAK_FAILED for a numbered
  command, and a FAULT_FRAME_FAILED event) and the loop goes on. If the loop
  dies anyway, `run` turns every output off on its way out, and once a host
  has talked the hardware watchdog (WATCHDOG_MS) resets a board whose loop
  stopped turning: at boot main.py drives the motor pins low before anything
  else, so the motor is off at most WATCHDOG_MS after the loop's last turn.
"""

from array import array

try:
    import protocol  # the codec, by its name on the board
except ImportError:  # under CPython: the host package
    from firmware_host.wire import codec as protocol  # type: ignore[no-redef]

RING = 32  # edges buffered between IRQ and main loop (a power of two)
# The most of the host's bytes one turn reads (into one preallocated buffer); the rest
# waits for the next turn, so a flood of bytes cannot hold up the countdown or the motor.
RX_MAX = 256
TICKS_MASK = protocol.TICKS_PERIOD - 1
RING_MASK = RING - 1
DEBOUNCE_US = 5_000  # a second edge of the same input this soon is bounce
HOST_TIMEOUT_US = 500_000  # host silent this long: stop the motor and the countdown
# Resend an unacknowledged event after this long. The host acknowledges an event
# as it reads it (a command round trip over a pty takes 0.1-0.3 ms, a USB frame
# 1 ms; see benchmarks/serial_link.py), so 10 ms rarely resends needlessly, and a
# press whose first frame was lost still reaches the duel engine within
# SerialUnit.settle_us (25 ms) of its stamp: measured p99.9 13-17 ms.
EVENT_RETRY_US = 10_000
# How many recently run commands the board remembers, to answer their retries as
# duplicates. The host retries for 250 ms and sends a handful of commands in that
# time; a power of two below 2^16 so the window lines up across the sequence wrap.
CMD_WINDOW = 16
OUTBOX_MAX = 16
MOTOR_DUTY = 52_000  # of 65535
CARD_US = 150_000  # a card takes at most this long to leave (time-based launch)
SPINUP_US = 200_000
MAX_ON_US = 4_000_000  # the launcher's hard maximum on-time, whatever it was told
GO_BUSY_WAIT_US = 3_000  # poll without waiting this close to "go"
# The longest the loop waits for the host's bytes when nothing is due. An edge is
# stamped at once in its IRQ but reported only when the loop comes round, so this
# bounds how late a press's first frame leaves the board.
IDLE_WAIT_MS = 2
# How long a paddle press may freeze a countdown whose command came after it. The
# command follows the engine's start within the host's retries (250 ms at most),
# and the loop forgets older presses long before the 2^30 µs tick wrap (17.9 min)
# could make one look new.
PADDLE_MEMORY_US = 1_000_000
# The hardware watchdog: armed at the first hello, fed at every turn of the loop. A
# loop that stops turning (hung, or dead from an exception) resets the board this
# long after its last turn, and the board boots with the motor off.
WATCHDOG_MS = 2_000
# The debounce stamps face the same wrap: an edge 2^30 µs after the last one on its
# input would look like its bounce and be dropped. The loop moves a stamp older than
# this to 1 s ago; it rarely writes (an IRQ racing that write at worst lets one
# bounce through as a second press of the same side).
EDGE_REFRESH_US = 1 << 28
# How often the loop does that housekeeping (and forgets presses older than
# PADDLE_MEMORY_US). On a Pico it costs about 290 µs, more than half a loop turn, and
# nothing needs it sooner: a remembered press is checked for its age where it is used.
FORGET_EVERY_US = 100_000

K_LEFT = 0
K_RIGHT = 1
K_BUTTON = 2

# A command that must never run twice: a retry the window cannot vouch for is refused.
ONCE = (protocol.LAUNCH, protocol.COUNTDOWN)
# Later commands that overrule a command whose retry comes only after they ran.
OVERRULED_BY = {
    protocol.LAUNCH: (protocol.STOP, protocol.LAUNCH),
    protocol.COUNTDOWN: (protocol.STOP, protocol.COUNTDOWN),
    protocol.GO: (protocol.STOP, protocol.COUNTDOWN),
    protocol.FREEZE: (protocol.STOP, protocol.COUNTDOWN),
    protocol.ARROW: (protocol.ARROW,),
}

# sound code -> (frequency Hz, duration µs); see protocol.BEEPS
TONES = (
    (880, 60_000),
    (1760, 250_000),
    (220, 600_000),
    (1320, 150_000),
    (660, 300_000),
    (330, 400_000),
    (150, 800_000),
)


def _recent(now, t):
    """True when a press stamped `t` is remembered at `now`: within PADDLE_MEMORY_US either way.

    A stamp may be a little later than a `now` read before its IRQ ran; that press is
    new, not 17.9 minutes old. One more than PADDLE_MEMORY_US ahead cannot be new:
    it is an old press seen across the tick wrap.
    """
    return -PADDLE_MEMORY_US <= protocol.ticks_diff(now, t) <= PADDLE_MEMORY_US


class Firmware:
    """The board's state and main loop; `hw` supplies pins, PWM, clock and the serial line."""

    def __init__(self, hw, version=protocol.VERSION):
        self.hw = hw
        self.version = version
        self.ticks = hw.ticks_us  # looked up once: the IRQ handlers call it first thing
        # Both paddles' edges pending at one interrupt get one stamp: the chip runs the
        # handlers one after the other (on a Pico the second stamp was 73-77 µs later, the
        # left always first), so each paddle's handler also reads the raw interrupt byte
        # and stamps the other paddle's pending edge with its own time; the debounce then
        # drops the other handler's later stamp of that same edge.
        self._edges = hw.paddle_edges
        self._edge_left_bit = hw.EDGE_LEFT
        self._edge_right_bit = hw.EDGE_RIGHT
        # edge ring, written by IRQ handlers, read by the main loop
        self._ring_t = array("i", [0] * RING)
        self._ring_k = array("b", [0] * RING)
        self._idx = array("i", [0, 0, 0])  # head, tail, overflow flag
        never = protocol.ticks_add(self.ticks(), -DEBOUNCE_US - 1)
        self._last_edge = array("i", [never, never, never])  # per input, for debounce
        self._cards = array("i", [0, never])  # card sensor count, last stamp
        self._forgot_t = self.ticks()  # when the loop last forgot old edges
        # the board's own codec (protocol.Reader, protocol.Writer): the host's frames read
        # from one preallocated buffer, answers built in another, nothing allocated per byte
        self._rx = bytearray(RX_MAX)
        self._dec = protocol.Reader()
        self._out = protocol.Writer()
        self._pair = [0, 0]  # an answer's two numbers
        self.boot_id = hw.random_id()
        self.session = False
        self.last_host_t = 0
        self.last_hb_t = 0
        self.heard_hb = False
        self.host_silent = True
        # the anti-replay window: the newest command run, and per slot (seq % CMD_WINDOW)
        # the last command run there, its kind and its answer (0 done, else a NAK reason)
        self.cmd_top = 0
        self._ran_seq = array("i", [0] * CMD_WINDOW)
        self._ran_kind = [""] * CMD_WINDOW
        self._ran_reply = array("b", [0] * CMD_WINDOW)
        self.launches = 0  # launch commands run since boot (a split launch is one)
        self.frame_failures = 0  # frames whose handling raised (skipped; the loop went on)
        # the numbers of the commands that started the motor and the countdown on
        # display, so a stop older than them (a late retry) leaves them running
        self.motor_seq = 0
        self.cd_seq = 0
        self.event_seq = 0
        self.outbox = []  # [seq, frame, last_sent_t]
        # last paddle edge seen by the main loop, to freeze a countdown that
        # starts (in board time) before its command arrived
        self.paddle_t = [None, None]  # type: list
        # countdown
        self.cd_on = False
        self.cd_frozen = False
        self.cd_start = 0
        self.cd_len = 0
        self.cd_go = 0
        # launcher
        self.parts = []
        self.part_i = 0
        self.part_t = 0
        self.launch_t = 0
        self.launch_counted = 0
        self.motor_on = False
        self.beep_until = None
        # handlers bound once, so an IRQ allocates nothing
        self._h_left = self._edge_left
        self._h_right = self._edge_right
        self._h_button = self._edge_button
        self._h_card = self._edge_card
        # hard=True: the edge is stamped in the interrupt itself. MicroPython's default
        # (a soft IRQ) runs the handler later, when the VM next looks, and the stamp
        # would be as late as the loop was busy.
        hw.paddle_left.irq(handler=self._h_left, trigger=hw.FALLING, hard=True)
        hw.paddle_right.irq(handler=self._h_right, trigger=hw.FALLING, hard=True)
        hw.button.irq(handler=self._h_button, trigger=hw.FALLING, hard=True)
        if hw.card_sensor is not None:
            hw.card_sensor.irq(handler=self._h_card, trigger=hw.FALLING, hard=True)
        self._all_off()

    # -- IRQ handlers: stamp first, no allocation --

    def _edge_left(self, pin):
        t = self.ticks()
        self._push(K_LEFT, t)
        if self._edges() & self._edge_right_bit:  # the right paddle's edge came too: a tie
            self._push(K_RIGHT, t)

    def _edge_right(self, pin):
        t = self.ticks()
        self._push(K_RIGHT, t)
        if self._edges() & self._edge_left_bit:
            self._push(K_LEFT, t)

    def _edge_button(self, pin):
        t = self.ticks()
        self._push(K_BUTTON, t)

    def _edge_card(self, pin):
        t = self.ticks()
        if (t - self._cards[1]) & 0x3FFFFFFF > 20_000:
            self._cards[0] += 1
            self._cards[1] = t

    def _push(self, kind, t):
        idx = self._idx
        if (t - self._last_edge[kind]) & 0x3FFFFFFF < DEBOUNCE_US:
            return
        self._last_edge[kind] = t
        head = idx[0]
        if (head - idx[1]) & 0xFFFF >= RING:
            idx[2] = 1
            return
        slot = head & RING_MASK
        self._ring_t[slot] = t
        self._ring_k[slot] = kind
        idx[0] = (head + 1) & 0xFFFF

    # -- the main loop --

    def start(self):
        """Announce the (re)start: the host sees a new boot id and knows the board reset."""
        if self.hw.reset_by_watchdog():
            self._event(protocol.FAULT, (protocol.FAULT_WATCHDOG, self.ticks()))
        self._send(0, protocol.HELLO, (self.version, self.boot_id, self.ticks()))

    def run(self):
        """The main loop; every output goes off when it ends, even by an exception."""
        try:
            self.start()
            while self.hw.running():
                self.step()
        finally:
            self._all_off()

    def step(self):
        hw = self.hw
        hw.wdt_feed()
        rx = self._rx
        count = hw.read_into(rx, self._wait_ms())
        if count:
            reader = self._dec
            i = 0
            while True:
                i = reader.take(rx, i, count)
                if i < 0:
                    break
                try:
                    self._handle(reader.seq, reader.kind, reader.args)
                except Exception:  # one frame must not stop the board
                    self._frame_failed(reader.seq, reader.kind)
        # drain first, then read the clock: every drained stamp is then at or before
        # `now` (an IRQ after the drain waits in the ring for the next turn)
        idx = self._idx
        if idx[1] != idx[0] or idx[2]:
            self._drain_edges()
        now = self.ticks()
        # Each part is called only when it has something to do: a call costs the Pico tens
        # of µs, and an idle turn made seven. A masked difference below a part's period
        # means ticks_diff is below it too, so the parts decide exactly as before.
        if (now - self._forgot_t) & TICKS_MASK >= FORGET_EVERY_US and \
                protocol.ticks_diff(now, self._forgot_t) >= FORGET_EVERY_US:
            self._forgot_t = now
            self._forget_old_edges(now)
        if self.cd_on and not self.cd_frozen:
            self._run_countdown(now)
        if self.motor_on:
            self._run_launcher(now)
        if self.beep_until is not None:
            self._run_beep(now)
        if not self.host_silent:
            if (now - self.last_host_t) & TICKS_MASK >= HOST_TIMEOUT_US:
                self._check_host(now)
            if self.outbox:
                self._resend(now)

    def _wait_ms(self):
        if self.motor_on or self.beep_until is not None or (self.outbox and not self.host_silent):
            return 1  # an event awaiting its receipt is resent on time
        if self.cd_on and not self.cd_frozen:
            left = protocol.ticks_diff(self.cd_go, self.ticks())
            if left < GO_BUSY_WAIT_US:
                return 0
            return 1
        return IDLE_WAIT_MS

    # -- frames from the host --

    def _send(self, seq, kind, args=()):
        """Send an answer at once: built in the writer's buffer, nothing allocated."""
        out = self._out
        self.hw.write(out.out, out.frame(seq, kind, args))

    def _answer(self, kind, a, b):
        """Send a two-number answer (HB, ACK, NAK) through a kept list: no tuple made."""
        pair = self._pair
        pair[0] = a
        pair[1] = b
        out = self._out
        self.hw.write(out.out, out.frame(0, kind, pair))

    def _event(self, kind, args):
        self.event_seq = protocol.seq_next(self.event_seq)
        out = self._out
        frame = out.out[:out.frame(self.event_seq, kind, args)]  # kept for a resend
        if len(self.outbox) >= OUTBOX_MAX:
            self.outbox.pop(0)
        self.outbox.append([self.event_seq, frame, self.ticks()])
        self.hw.write(frame, len(frame))

    def _resend(self, now):
        if self.host_silent:
            return
        for item in self.outbox:
            if protocol.ticks_diff(now, item[2]) >= EVENT_RETRY_US:
                item[2] = now
                self.hw.write(item[1], len(item[1]))

    def _handle(self, seq, kind, args):
        now = self.ticks()
        self.last_host_t = now
        if self.session and self.host_silent:
            self.hw.set_kbd_intr(False)
        self.host_silent = False
        if kind == protocol.HELLO:
            self._hello(args, now)
        elif kind == protocol.HB:
            self.last_hb_t = now
            self.heard_hb = True
            self._answer(protocol.HB, now, self._state())
        elif kind == protocol.EVACK:
            if args:
                self._receipt(args[0])
        elif seq == 0:
            pass  # an unsequenced frame the board does not know: ignore
        elif not self.session:
            self._answer(protocol.NAK, seq, protocol.NAK_NO_SESSION)
        else:
            self._sequenced(seq, kind, args, now)

    def _receipt(self, seq):
        """The host has event `seq`: drop it from the outbox (in place, allocating nothing)."""
        outbox = self.outbox
        i = len(outbox)
        while i:
            i -= 1
            if outbox[i][0] == seq:
                outbox.pop(i)

    def _frame_failed(self, seq, kind):
        """A frame's handling raised: count it, tell the host, and let the loop go on.

        Nothing here may raise in turn; a numbered command is refused as failed, so
        the host's retry is answered the same way instead of being run again.
        """
        self.frame_failures += 1
        now = self.ticks()
        if seq:
            slot = seq % CMD_WINDOW
            if protocol.seq_newer(seq, self.cmd_top):
                self.cmd_top = seq
            if self._in_window(seq):
                self._ran_seq[slot] = seq
                self._ran_kind[slot] = kind
                self._ran_reply[slot] = protocol.NAK_FAILED
            self._answer(protocol.NAK, seq, protocol.NAK_FAILED)
        self._event(protocol.FAULT, (protocol.FAULT_FRAME_FAILED, now, self.frame_failures))

    def _sequenced(self, seq, kind, args, now):
        """Answer a numbered command: a duplicate, refused as overruled, or run once."""
        slot = seq % CMD_WINDOW
        if self._ran_seq[slot] == seq and self._in_window(seq):
            code = self._ran_reply[slot]
            if code == 0:
                self._answer(protocol.ACK, seq, protocol.ACK_DUPLICATE)
            else:
                self._answer(protocol.NAK, seq, code)
            return
        reason = self._overruled(seq, kind)
        if reason == 0:
            reason = self._command(seq, kind, args, now)
        if protocol.seq_newer(seq, self.cmd_top):
            self.cmd_top = seq
        if self._in_window(seq):  # one older than the window must not evict a newer one
            self._ran_seq[slot] = seq
            self._ran_kind[slot] = kind
            self._ran_reply[slot] = reason
        if reason == 0:
            self._answer(protocol.ACK, seq, protocol.ACK_DONE)
        else:
            self._answer(protocol.NAK, seq, reason)
        if kind == protocol.RESET and reason == 0:
            self._all_off()
            self.hw.reset()

    def _in_window(self, seq):
        """True when `seq` is one of the last CMD_WINDOW numbers up to the newest run."""
        return (self.cmd_top - seq) % protocol.SEQ_MOD < CMD_WINDOW

    def _overruled(self, seq, kind):
        """NAK_STALE when a command that comes after newer ones must not run now, else 0."""
        if protocol.seq_newer(seq, self.cmd_top):
            return 0  # the newest yet: nothing ran after it
        if not self._in_window(seq):
            return protocol.NAK_STALE if kind in ONCE else 0  # too old to tell whether it ran
        later = OVERRULED_BY.get(kind)
        if later is None:
            return 0
        for i in range(CMD_WINDOW):
            other = self._ran_seq[i]
            if (other != 0 and self._ran_reply[i] == 0 and self._ran_kind[i] in later
                    and protocol.seq_newer(other, seq) and self._in_window(other)):
                return protocol.NAK_STALE
        return 0

    def _hello(self, args, now):
        self._send(0, protocol.HELLO, (self.version, self.boot_id, now))
        if not args or args[0] != self.version:
            self.session = False
            return
        # a new host session: whatever the last host was doing is over
        self._stop_all()
        self.session = True
        self.cmd_top = 0
        for i in range(CMD_WINDOW):
            self._ran_seq[i] = 0
        self.motor_seq = 0
        self.cd_seq = 0
        self.paddle_t[0] = None  # presses made for the last host are not this one's
        self.paddle_t[1] = None
        self.outbox = []
        self.heard_hb = False
        self.hw.set_kbd_intr(False)
        self.hw.arm_watchdog(WATCHDOG_MS)  # only once a host talks, so mpremote can get in

    def _command(self, seq, kind, args, now):
        """Run one new command numbered `seq`; 0 when done, else a NAK reason."""
        if kind == protocol.COUNTDOWN:
            if len(args) != 2 or args[0] <= 0:
                return protocol.NAK_BAD_ARGS
            self.cd_seq = seq
            self._countdown(args[0], args[1] & TICKS_MASK)
        elif kind == protocol.GO:
            self.cd_seq = seq
            self._show_go(self.ticks())
        elif kind == protocol.FREEZE:
            if self.cd_on:
                self.cd_frozen = True
        elif kind == protocol.ARROW:
            if len(args) != 1:
                return protocol.NAK_BAD_ARGS
            self.hw.arrow_left.value(1 if args[0] == protocol.LEFT else 0)
            self.hw.arrow_right.value(1 if args[0] == protocol.RIGHT else 0)
        elif kind == protocol.LAUNCH:
            reason = self._launch(args, now)
            if reason == 0:
                self.motor_seq = seq
            return reason
        elif kind == protocol.STOP:
            self._stop(seq, now)
        elif kind == protocol.BEEP:
            if len(args) != 1 or not 0 <= args[0] < len(TONES):
                return protocol.NAK_BAD_ARGS
            freq, length = TONES[args[0]]
            self.hw.buzzer.freq(freq)
            self.hw.buzzer.duty_u16(32768)
            self.beep_until = protocol.ticks_add(now, length)
        elif kind == protocol.RESET:
            pass
        else:
            return protocol.NAK_UNKNOWN
        return 0

    def _state(self):
        return (1 if self.cd_on else 0) | (2 if self.motor_on else 0) | (
            4 if self.cd_frozen else 0)

    # -- edges --

    def _drain_edges(self):
        idx = self._idx
        while idx[1] != idx[0]:
            slot = idx[1] & RING_MASK
            t = self._ring_t[slot]
            kind = self._ring_k[slot]
            idx[1] = (idx[1] + 1) & 0xFFFF
            if kind == K_BUTTON:
                self._event(protocol.BUTTON, (t,))
            else:
                self.paddle_t[kind] = t
                self._freeze_if_early(t)
                self._event(protocol.PADDLE, (kind, t))
        if idx[2]:
            idx[2] = 0
            self._event(protocol.FAULT, (protocol.FAULT_EVENT_OVERFLOW, self.ticks()))

    def _freeze_if_early(self, t):
        if (self.cd_on and not self.cd_frozen and protocol.ticks_diff(t, self.cd_start) >= 0
                and protocol.ticks_diff(t, self.cd_go) < 0):
            self.cd_frozen = True

    # -- countdown --

    def _countdown(self, length, start):
        self.cd_on = True
        self.cd_frozen = False
        self.cd_start = start
        self.cd_len = length
        self.cd_go = protocol.ticks_add(start, length)
        self.hw.go_led.value(0)
        now = self.ticks()
        for t in self.paddle_t:  # pressed after the start, before this command came
            if t is not None and _recent(now, t):
                self._freeze_if_early(t)

    def _forget_old_edges(self, now):
        """Forget old presses and age old debounce stamps, long before ticks wrap."""
        for k in (K_LEFT, K_RIGHT):
            t = self.paddle_t[k]
            if t is not None and not _recent(now, t):
                self.paddle_t[k] = None
        for k in (K_LEFT, K_RIGHT, K_BUTTON):
            t = self._last_edge[k]
            if protocol.ticks_diff(now, t) > EDGE_REFRESH_US and self._last_edge[k] == t:
                self._last_edge[k] = protocol.ticks_add(now, -PADDLE_MEMORY_US)
        t = self._cards[1]
        if protocol.ticks_diff(now, t) > EDGE_REFRESH_US and self._cards[1] == t:
            self._cards[1] = protocol.ticks_add(now, -PADDLE_MEMORY_US)

    def _run_countdown(self, now):
        if not self.cd_on or self.cd_frozen:
            return
        left = protocol.ticks_diff(self.cd_go, now)
        if left <= 0:
            self._drain_edges()  # an edge that beat "go" by a hair freezes instead
            if not self.cd_frozen:
                self._show_go(self.ticks())
            return
        leds = self.hw.countdown_leds
        lit = (left * len(leds) + self.cd_len - 1) // self.cd_len
        for i in range(len(leds)):
            leds[i].value(1 if i < lit else 0)

    def _show_go(self, t):
        self.cd_on = False
        for led in self.hw.countdown_leds:
            led.value(0)
        self.hw.go_led.value(1)
        self._event(protocol.GO_SHOWN, (t,))

    # -- launcher --

    def _launch(self, args, now):
        if not self.heard_hb or protocol.ticks_diff(now, self.last_hb_t) > HOST_TIMEOUT_US:
            return protocol.NAK_SILENT
        if self.motor_on:
            return protocol.NAK_BUSY
        if not args or len(args) % 2 or len(args) > 4:
            return protocol.NAK_BAD_ARGS
        parts = []
        for i in range(0, len(args), 2):
            if args[i] not in (protocol.LEFT, protocol.RIGHT) or not 1 <= args[i + 1] <= 20:
                return protocol.NAK_BAD_ARGS
            parts.append((args[i], args[i + 1]))
        self.parts = parts
        self.launches += 1
        self.part_i = 0
        self.launch_t = now
        self.launch_counted = 0
        self._start_part(now)
        return 0

    def _start_part(self, now):
        side = self.parts[self.part_i][0]
        self.part_t = now
        self._cards[0] = 0
        self.motor_on = True
        if side == protocol.LEFT:
            self.hw.motor_b.duty_u16(0)
            self.hw.motor_a.duty_u16(MOTOR_DUTY)
        else:
            self.hw.motor_a.duty_u16(0)
            self.hw.motor_b.duty_u16(MOTOR_DUTY)

    def _run_launcher(self, now):
        if not self.motor_on:
            return
        if protocol.ticks_diff(now, self.launch_t) >= MAX_ON_US:
            self._event(protocol.FAULT, (protocol.FAULT_MAX_ON_TIME, now))
            self._cut_launch(now, protocol.END_MAX_ON_TIME)
            return
        cards = self.parts[self.part_i][1]
        elapsed = protocol.ticks_diff(now, self.part_t)
        sensor = self.hw.card_sensor is not None
        if sensor and self._cards[0] >= cards:
            self.launch_counted += self._cards[0]
        elif sensor and elapsed > SPINUP_US + 2 * cards * CARD_US:
            self.launch_counted += self._cards[0]
            self._motor_off()
            self._launch_done(now, protocol.END_JAMMED)
            return
        elif sensor or elapsed < SPINUP_US + cards * CARD_US:
            return
        self.part_i += 1
        if self.part_i < len(self.parts):
            self._start_part(now)
        else:
            self._motor_off()
            self._launch_done(now, protocol.END_FINISHED)

    def _cut_launch(self, now, why):
        """Stop a running launch short and report it: the cards counted so far, and why."""
        self.launch_counted += self._cards[0]
        self._cards[0] = 0
        self._motor_off()
        self._launch_done(now, why)

    def _launch_done(self, now, why):
        """Report the end of a launch: cut short or not, and why (an END_ code).

        The host must not take a stop it sent for a jam: a jam wants the rollers
        cleared, a stop wants nothing, so the report names the cause.
        """
        counted = self.launch_counted if self.hw.card_sensor is not None else -1
        self.parts = []
        short = 0 if why == protocol.END_FINISHED else 1
        self._event(protocol.LAUNCH_DONE, (counted, short, now, why))

    def _motor_off(self):
        self.hw.motor_a.duty_u16(0)
        self.hw.motor_b.duty_u16(0)
        self.motor_on = False

    # -- safety --

    def _check_host(self, now):
        if self.host_silent or protocol.ticks_diff(now, self.last_host_t) < HOST_TIMEOUT_US:
            return
        self.host_silent = True
        self.hw.set_kbd_intr(True)  # let mpremote break in while no host talks
        if self.motor_on or self.cd_on:
            self._event(protocol.FAULT, (protocol.FAULT_HOST_SILENT, now))
            if self.motor_on:
                self._cut_launch(now, protocol.END_HOST_SILENT)
            self._stop_all()

    def _stop(self, seq, now):
        """The STOP command: end what was started before it, and report what it ended.

        A stop's first frame can be lost and its retry come after a newer launch or
        countdown ran: the host sent that one after the stop and wants it, so a stop
        the window places before it leaves it running. A stop older than the window
        cannot be placed; it stops everything, the safe side, and the report says it
        was stale, so the host hears why its launch ended short or its go never came.
        """
        placed = protocol.seq_newer(seq, self.cmd_top) or self._in_window(seq)
        motor = self.motor_on and (not placed or protocol.seq_newer(seq, self.motor_seq))
        display = not placed or protocol.seq_newer(seq, self.cd_seq)
        live = self.cd_on and not self.cd_frozen and display
        ended = (1 if live else 0) | (2 if motor else 0)  # the HB state bits
        if motor:
            self._cut_launch(now, protocol.END_STOPPED)
        if display:
            self.cd_on = False
            self.cd_frozen = False
            for led in self.hw.countdown_leds:
                led.value(0)
            self.hw.go_led.value(0)
        if ended:
            self._event(protocol.FAULT, (protocol.FAULT_STOPPED, now, ended, 0 if placed else 1))

    def _stop_all(self):
        self._motor_off()
        self.parts = []
        self.cd_on = False
        self.cd_frozen = False
        for led in self.hw.countdown_leds:
            led.value(0)
        self.hw.go_led.value(0)

    def _run_beep(self, now):
        if self.beep_until is not None and protocol.ticks_diff(now, self.beep_until) >= 0:
            self.hw.buzzer.duty_u16(0)
            self.beep_until = None

    def _all_off(self):
        self._stop_all()
        self.hw.buzzer.duty_u16(0)
        self.hw.arrow_left.value(0)
        self.hw.arrow_right.value(0)
