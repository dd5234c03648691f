"""The wire codec between the host and the Showdown Unit's microcontroller.

One file, imported by the host (CPython) and by the firmware (MicroPython), so
the two ends cannot drift apart. That is why it is written in the subset both
run: no dataclasses, no typing at run time, only simple f-strings and
built-ins. See PROTOCOL.md beside it for the message table.

A frame is one line of ASCII, readable in a serial terminal:

    $<seq> <KIND> <arg> <arg>...*<crc>\\n        e.g.  $7 LA 0 3*F6FB

`seq` is a decimal sequence number (0 for frames that are not acknowledged),
`KIND` one to five capital letters, every argument a decimal integer, and
`crc` the CRC-16/CCITT-FALSE of everything between `$` and `*`, in four hex
digits. The decoder resynchronises on `$`, and rejects (counting why) frames
that are corrupt, cut short by a new `$`, or longer than `MAX_FRAME`.
"""

VERSION = 1
MAX_FRAME = 80  # bytes from '$' to '\n' inclusive
MAX_ARGS = 8
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

# FAULT codes
FAULT_HOST_SILENT = 1  # the host fell silent; launcher and countdown stopped
FAULT_MAX_ON_TIME = 2  # the launcher hit its hard maximum on-time
FAULT_WATCHDOG = 3  # the board restarted after a watchdog reset
FAULT_EVENT_OVERFLOW = 4  # edges came faster than the board could report them
# A STOP ended a live countdown or a running launch: FT 5 ticks ended stale, where
# `ended` has the HB state bits (1 countdown, 2 motor; a launch also gets its LD) and
# `stale` is 1 when the stop was too old for the board to place after newer commands.
FAULT_STOPPED = 5

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
    """One frame as bytes, ready to write."""
    body = f"{seq} {kind}"
    for arg in args:
        body += f" {int(arg)}"
    raw = body.encode()
    frame = b"$" + raw + b"*" + f"{crc16(raw):04X}".encode() + b"\n"
    if len(frame) > MAX_FRAME:
        raise ValueError("frame too long")
    return frame


def _parse(body):
    """(seq, kind, args) from the bytes between '$' and '*', or None if malformed."""
    try:
        parts = body.decode().split(" ")
    except Exception:
        return None
    if len(parts) < 2 or len(parts) > MAX_ARGS + 2:
        return None
    seq_text = parts[0]
    kind = parts[1]
    if not seq_text.isdigit() or len(seq_text) > 5:
        return None
    seq = int(seq_text)
    if seq >= SEQ_MOD or not 1 <= len(kind) <= 5 or not kind.isalpha() or kind.upper() != kind:
        return None
    args = []
    for text in parts[2:]:
        digits = text[1:] if text.startswith("-") else text
        if not digits or not digits.isdigit() or len(digits) > 12:
            return None
        args.append(int(text))
    return (seq, kind, tuple(args))


class Decoder:
    """Turns a byte stream into frames, whatever the stream holds.

    `feed(data)` returns the complete, valid frames as `(seq, kind, args)`
    tuples and counts every rejected piece in `errors` by reason. It never
    raises and never holds more than `MAX_FRAME` bytes.
    """

    def __init__(self):
        self._buf = bytearray()
        self._in_frame = False
        self._skipping = False  # dropping an oversize frame up to its end
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
        garbage = False
        for byte in data:
            if byte == 0x24:  # '$' starts a frame, even in the middle of another
                if self._in_frame:
                    self._count(ERR_TRUNCATED)
                elif garbage:
                    self._count(ERR_GARBAGE)
                garbage = False
                self._buf = bytearray()
                self._in_frame = True
                self._skipping = False
            elif not self._in_frame:
                if byte not in (0x0A, 0x0D):
                    garbage = True
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
        if garbage:
            self._count(ERR_GARBAGE)
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
        try:
            want = int(buf[star + 1 :].decode(), 16)
        except Exception:
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
