"""The wire codec between the host and the Showdown Unit's microcontroller.

One file, imported by the host (CPython) and by the firmware (MicroPython), so
the two ends cannot drift apart. That is why it is written in the subset both
run: no dataclasses, no typing at run time, only simple f-strings and
built-ins. See PROTOCOL.md beside it for the message table.

A frame is one line of ASCII, readable in a serial terminal:

    $<seq> <KIND> <arg> <arg>...*<crc>\\n        e.g.  $7 LA 0 3*F6FB

`seq` is a decimal sequence number (0 for frames that are not acknowledged),
`KIND` one to five capital letters, every argument a decimal integer, and
`crc` the CRC-16/CCITT-FALSE of everything between `$` and `*`, in exactly
four upper-case hex digits. Numbers are ASCII decimals with an optional minus
and no leading zero, so every frame has one spelling: a frame that decodes
re-encodes to the very same bytes. The decoder resynchronises on `$`, and
rejects (counting why) frames that are corrupt, cut short by a new `$`, or
longer than `MAX_FRAME`.
"""

VERSION = 1
MAX_FRAME = 80  # bytes from '$' to '\n' inclusive
MAX_ARGS = 8
MAX_DIGITS = 12  # digits in one argument, sign not counted
_ARG_LIMIT = 10**MAX_DIGITS
SEQ_MOD = 65536
TICKS_PERIOD = 1 << 30  # MicroPython's ticks_us wraps here on the rp2
TICKS_HALF = TICKS_PERIOD >> 1

# --- message kinds -----------------------------------------------------------
# host -> board (acknowledged with ACK/NAK unless marked)
HELLO = "HELLO"  # version                       (seq 0; answered by HELLO)
HB = "HB"  # heartbeat                           (seq 0; answered by HB)
COUNTDOWN = "CD"  # length_us start_ticks
GO = "GO"  # show go now (a host-run countdown)
FREEZE = "FZ"  # stop the countdown where it is
ARROW = "AR"  # side (-1: both off)
LAUNCH = "LA"  # side cards [side cards]
STOP = "ST"  # motor off, countdown off
BEEP = "BP"  # sound code
RESET = "RS"  # reboot the board
EVACK = "EA"  # event_seq                       (seq 0; the host's receipt of an event)
# board -> host
ACK = "ACK"  # command_seq status
NAK = "NAK"  # command_seq reason
# HELLO version boot_id ticks; HB ticks state    (seq 0)
# events (sequenced by the board, acknowledged by the host with EA)
PADDLE = "PD"  # side ticks
BUTTON = "BT"  # ticks
GO_SHOWN = "GO"  # ticks
LAUNCH_DONE = "LD"  # cards_counted(-1 unknown) cut_short(0/1) ticks why (an END_* code)
FAULT = "FT"  # code ticks

# ACK status
ACK_DONE = 0
ACK_DUPLICATE = 1  # already executed (a retry): not executed again
# NAK reasons
NAK_NO_SESSION = 1  # no HELLO yet since the board started
NAK_STALE = 2  # overruled by a newer command, or too old to tell if it ran: not run
NAK_SILENT = 3  # launch refused: no heartbeat from the host lately
NAK_BAD_ARGS = 4
NAK_UNKNOWN = 5
NAK_BUSY = 6  # launcher already running
NAK_FAILED = 7  # the board failed while running it (counted, skipped; the board goes on)

# FAULT codes
FAULT_HOST_SILENT = 1  # the host fell silent; launcher and countdown stopped
FAULT_MAX_ON_TIME = 2  # the launcher hit its hard maximum on-time
FAULT_WATCHDOG = 3  # the board restarted after a watchdog reset
FAULT_EVENT_OVERFLOW = 4  # edges came faster than the board could report them
# A STOP ended a live countdown or a running launch: FT 5 ticks ended stale, where
# `ended` has the HB state bits (1 countdown, 2 motor; a launch also gets its LD) and
# `stale` is 1 when the stop was too old for the board to place after newer commands.
FAULT_STOPPED = 5
# The board's loop failed on one frame from the host (FT 6 ticks failures): it skipped
# that frame, counted it, and went on. Anything it had started keeps its own limits.
FAULT_FRAME_FAILED = 6

# Why a launch ended, the LD frame's last field: the host must tell a jam (clear the
# rollers) from a stop it asked for, or a cut-off it hears of in its own fault.
END_FINISHED = 0  # every part ran its course
END_JAMMED = 1  # the card sensor stopped seeing cards
END_STOPPED = 2  # a ST ended it (the cards counted so far are all that flew)
END_MAX_ON_TIME = 3  # the hard maximum on-time cut it (FT 2 comes too)
END_HOST_SILENT = 4  # the host fell silent (FT 1 comes too)

# sides and sounds as numbers on the wire
LEFT = 0
RIGHT = 1
BEEPS = ("tick", "go", "early", "launch", "tie", "timeout", "error")

# decoder error names (counted in Decoder.errors)
ERR_CRC = "crc"
ERR_TRUNCATED = "truncated"
ERR_OVERSIZE = "oversize"
ERR_SYNTAX = "syntax"
ERR_GARBAGE = "garbage"


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE = _make_table()


def crc16(data):
    """CRC-16/CCITT-FALSE: catches every single-byte error and every burst up to 16 bits."""
    crc = 0xFFFF
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def encode(seq, kind, args=()):
    """One frame as bytes, ready to write; ValueError for anything outside the grammar.

    It refuses what the decoder would refuse (a kind that is not one to five
    capital letters, more than MAX_ARGS arguments, a number of more than
    MAX_DIGITS digits, a frame over MAX_FRAME bytes), so a frame that leaves
    one end is always one the other end accepts.
    """
    if not isinstance(seq, int) or not 0 <= seq < SEQ_MOD:
        raise ValueError("sequence number out of range")
    if not isinstance(kind, str) or not 1 <= len(kind) <= 5:
        raise ValueError("a kind is one to five capital letters")
    for char in kind:
        if not "A" <= char <= "Z":
            raise ValueError("a kind is one to five capital letters")
    if len(args) > MAX_ARGS:
        raise ValueError("too many arguments")
    body = f"{int(seq)} {kind}"
    for arg in args:
        if not isinstance(arg, int) or not -_ARG_LIMIT < arg < _ARG_LIMIT:
            raise ValueError("an argument is an integer of at most 12 digits")
        body += f" {int(arg)}"
    raw = body.encode()
    frame = b"$" + raw + b"*" + f"{crc16(raw):04X}".encode() + b"\n"
    if len(frame) > MAX_FRAME:
        raise ValueError("frame too long")
    return frame


def _number(text):
    """The integer `text` (bytes) spells in canonical decimal, else None.

    ASCII digits only (no Unicode digits, no '+', no '_', no spaces), an optional
    '-', no leading zero and no "-0": exactly what `encode` writes, so a frame
    that decodes re-encodes to the same bytes.
    """
    negative = text[:1] == b"-"
    digits = text[1:] if negative else text
    count = len(digits)
    if count == 0 or count > MAX_DIGITS:
        return None
    value = 0
    for byte in digits:
        if not 0x30 <= byte <= 0x39:
            return None
        value = value * 10 + byte - 0x30
    if digits[0] == 0x30 and (count > 1 or negative):
        return None
    return -value if negative else value


def _parse(body):
    """(seq, kind, args) from the bytes between '$' and '*', or None if malformed."""
    parts = body.split(b" ")
    if len(parts) < 2 or len(parts) > MAX_ARGS + 2:
        return None
    seq_text = parts[0]
    kind = parts[1]
    if seq_text[:1] == b"-" or len(seq_text) > 5:
        return None
    seq = _number(seq_text)
    if seq is None or seq >= SEQ_MOD or not 1 <= len(kind) <= 5:
        return None
    for byte in kind:
        if not 0x41 <= byte <= 0x5A:  # A-Z
            return None
    args = []
    for text in parts[2:]:
        value = _number(text)
        if value is None:
            return None
        args.append(value)
    return (seq, kind.decode(), tuple(args))


def _hex4(text):
    """The value of exactly four upper-case hex digits (bytes), else None."""
    if len(text) != 4:
        return None
    value = 0
    for byte in text:
        if 0x30 <= byte <= 0x39:
            value = value * 16 + byte - 0x30
        elif 0x41 <= byte <= 0x46:
            value = value * 16 + byte - 0x37
        else:
            return None
    return value


class Decoder:
    """Turns a byte stream into frames, whatever the stream holds.

    `feed(data)` returns the complete, valid frames as `(seq, kind, args)`
    tuples and counts every rejected piece in `errors` by reason. It never
    raises, never holds more than `MAX_FRAME` bytes, and gives the same frames
    and counts however the stream is cut into pieces.
    """

    def __init__(self):
        self._buf = bytearray()
        self._in_frame = False
        self._skipping = False  # dropping an oversize frame up to its end
        self._garbage = False  # inside a run of stray bytes between frames (counted once)
        self.errors = {}
        self.frames = 0

    def _count(self, reason):
        self.errors[reason] = self.errors.get(reason, 0) + 1

    def error_total(self):
        total = 0
        for value in self.errors.values():
            total += value
        return total

    def feed(self, data):
        out = []
        for byte in data:
            if byte == 0x24:  # '$' starts a frame, even in the middle of another
                if self._in_frame:
                    self._count(ERR_TRUNCATED)
                self._garbage = False
                self._buf = bytearray()
                self._in_frame = True
                self._skipping = False
            elif not self._in_frame:
                # a run of stray bytes between frames counts once, however it is chunked
                if byte not in (0x0A, 0x0D) and not self._garbage:
                    self._garbage = True
                    self._count(ERR_GARBAGE)
            elif byte == 0x0A:
                if not self._skipping:
                    frame = self._finish(self._buf)
                    if frame is not None:
                        out.append(frame)
                self._in_frame = False
                self._skipping = False
                self._buf = bytearray()
            elif self._skipping:
                pass
            elif len(self._buf) >= MAX_FRAME - 2:
                self._count(ERR_OVERSIZE)
                self._skipping = True
                self._buf = bytearray()
            else:
                self._buf.append(byte)
        return out

    def _finish(self, buf):
        if buf and buf[-1] == 0x0D:  # a terminal's CR LF
            buf = buf[:-1]
        buf = bytes(buf)
        star = buf.find(b"*")
        if star < 0 or len(buf) - star != 5:
            self._count(ERR_TRUNCATED if star < 0 else ERR_SYNTAX)
            return None
        body = buf[:star]
        want = _hex4(buf[star + 1 :])
        if want is None:
            self._count(ERR_SYNTAX)
            return None
        if crc16(body) != want:
            self._count(ERR_CRC)
            return None
        frame = _parse(body)
        if frame is None:
            self._count(ERR_SYNTAX)
            return None
        self.frames += 1
        return frame


def seq_next(seq):
    """The sequence number after `seq`; 0 is skipped (it marks unacknowledged frames)."""
    seq = (seq + 1) % SEQ_MOD
    return seq if seq else 1


def seq_newer(seq, than):
    """True when `seq` was issued after `than`, allowing for wrap-around."""
    diff = (seq - than) % SEQ_MOD
    return 0 < diff < SEQ_MOD // 2


def ticks_diff(a, b):
    """a - b for wrapping ticks, as a signed count in (-TICKS_HALF, TICKS_HALF]."""
    diff = (a - b) % TICKS_PERIOD
    return diff - TICKS_PERIOD if diff > TICKS_HALF else diff


def ticks_add(a, delta):
    return (a + delta) % TICKS_PERIOD
