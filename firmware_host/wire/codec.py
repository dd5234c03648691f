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
_TICKS_MASK = TICKS_PERIOD - 1  # a small integer on the Pico, where TICKS_PERIOD is not

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


# --- the board's side: the same frames, byte by byte in preallocated buffers -------------
#
# The Pico's loop spent most of a turn in the general codec above: a heartbeat's turn took
# 3.9 ms, 1.1 of them decoding it and 1.5 encoding the answer (docs/pico.md, "The board's
# loop"). `Reader` and `Writer` are the board's own: they give exactly the frames, bytes
# and error counts `Decoder` and `encode` give (tests/firmware_host/test_codec_board.py,
# and on MicroPython tests/micropython/test_codec_vectors.py), allocate nothing for a frame
# that carries no number too big for a small integer, and call no function per byte.

_HEX = b"0123456789ABCDEF"
# each byte's value as a hex digit, 255 for a byte that is not an upper-case one
_HEX_VALUE = bytes([int(chr(b), 16) if chr(b) in "0123456789ABCDEF" else 255
                    for b in range(256)])
_SKIP = MAX_FRAME  # Reader.n while it drops an oversize frame
_TEN = (1, 10, 100, 1000, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9, 10**10, 10**11)
# the kinds a board hears or says, by the key `Reader` computes from their letters (5 bits
# each), so a known kind comes out as the module's own string, allocating nothing
_KNOWN = (HELLO, HB, COUNTDOWN, GO, FREEZE, ARROW, LAUNCH, STOP, BEEP, RESET, EVACK, ACK, NAK,
          PADDLE, BUTTON, LAUNCH_DONE, FAULT)


def _kind_key(kind):
    key = 0
    for char in kind:
        key = (key << 5) | (ord(char) - 0x40)
    return key


_KINDS = {}
for _kind in _KNOWN:
    _KINDS[_kind_key(_kind)] = _kind


class Reader:
    """The board's decoder: `Decoder`'s frames and counts, without allocating.

    `take(data, i, end)` reads `data[i:end]` (any buffer: the loop's preallocated
    one) up to the end of the first valid frame in it, and returns the index after
    that frame, whose `seq`, `kind` and `args` are then this reader's; -1 when the
    rest held no whole valid frame (a frame cut by the end of the buffer goes on at
    the next call). A frame is kept in one preallocated buffer; `kind` is one of the
    module's strings for a known kind, and `args` a list kept for that many numbers,
    refilled by the next frame of as many: read it before taking the next frame, and
    copy what must outlive that. Nothing is allocated for a frame of a known kind
    whose numbers are small integers (under 2^30 on the Pico).
    """

    def __init__(self):
        self.buf = bytearray(MAX_FRAME)
        self.n = -1  # bytes of the frame so far; -1 between frames
        self._star = -1  # where the frame's first '*' is, if it has one yet
        self._garbage = False  # inside a run of stray bytes between frames (counted once)
        self._vals = [0] * MAX_ARGS  # the numbers as they are read
        # one list per count of numbers, handed out as `args`
        self._args = tuple([0] * count for count in range(MAX_ARGS + 1))
        self.errors = {}
        self.frames = 0
        self.seq = 0
        self.kind = ""
        self.args = self._args[0]

    def _count(self, reason):
        self.errors[reason] = self.errors.get(reason, 0) + 1

    def take(self, data, i, end):
        buf = self.buf
        n = self.n
        star = self._star
        limit = MAX_FRAME - 2
        while i < end:
            byte = data[i]
            i += 1
            if byte > 0x2A and 0 <= n < limit:  # a digit, a letter, a '-': the most of a frame
                buf[n] = byte
                n += 1
            elif byte == 0x24:  # '$' starts a frame, even in the middle of another
                if n >= 0:
                    self._count(ERR_TRUNCATED)
                self._garbage = False
                star = -1
                n = 0
            elif n < 0:
                # a run of stray bytes between frames counts once, however it is chunked
                if byte != 0x0A and byte != 0x0D and not self._garbage:
                    self._garbage = True
                    self._count(ERR_GARBAGE)
            elif byte == 0x0A:
                self._star = star
                done = n != _SKIP and self._finish(n)
                n = -1
                if done:
                    self.n = n
                    return i
            elif n >= limit:  # too long: dropped up to its end, without holding its bytes
                if n != _SKIP:
                    self._count(ERR_OVERSIZE)
                    n = _SKIP
            else:
                if byte == 0x2A and star < 0:
                    star = n
                buf[n] = byte
                n += 1
        self.n = n
        self._star = star
        return -1

    def _finish(self, n):
        """`Decoder._finish` on buf[:n], by index: True when it holds a valid frame."""
        buf = self.buf
        if n and buf[n - 1] == 0x0D:  # a terminal's CR LF
            n -= 1
        star = self._star
        if star < 0 or n - star != 5:
            self._count(ERR_TRUNCATED if star < 0 else ERR_SYNTAX)
            return False
        value = _HEX_VALUE
        d0 = value[buf[star + 1]]
        d1 = value[buf[star + 2]]
        d2 = value[buf[star + 3]]
        d3 = value[buf[star + 4]]
        if (d0 | d1 | d2 | d3) > 15:
            self._count(ERR_SYNTAX)
            return False
        crc = 0xFFFF
        table = _TABLE
        for k in range(star):
            crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ buf[k]]
        if crc != (d0 << 12) | (d1 << 8) | (d2 << 4) | d3:
            self._count(ERR_CRC)
            return False
        if not self._parse(buf, star):
            self._count(ERR_SYNTAX)
            return False
        self.frames += 1
        return True

    def _parse(self, buf, end):
        """`_parse(buf[:end])` by index: the frame's seq, kind and args into this reader.

        The digit runs are written out where they are read, not called: on the board a call
        per number costs more than the repeated lines."""
        # the sequence number: one to five digits, no sign, no leading zero, below SEQ_MOD
        k = 0
        seq = 0
        while k < end:
            byte = buf[k]
            if byte == 0x20:
                break
            if not 0x30 <= byte <= 0x39:
                return False
            seq = seq * 10 + byte - 0x30
            k += 1
        if k == 0 or k > 5 or k == end or (k > 1 and buf[0] == 0x30) or seq >= SEQ_MOD:
            return False
        # the kind: one to five capital letters
        k += 1
        start = k
        key = 0
        while k < end:
            byte = buf[k]
            if byte == 0x20:
                break
            if not 0x41 <= byte <= 0x5A:
                return False
            key = (key << 5) | (byte - 0x40)
            k += 1
        if not 1 <= k - start <= 5:
            return False
        stop = k
        # the numbers, each after one space: canonical decimals of at most MAX_DIGITS digits
        vals = self._vals
        count = 0
        while k < end:
            k += 1  # the space
            if count == MAX_ARGS:
                return False
            negative = k < end and buf[k] == 0x2D
            if negative:
                k += 1
            first = k
            value = 0
            while k < end:
                byte = buf[k]
                if byte == 0x20:
                    break
                if not 0x30 <= byte <= 0x39:
                    return False
                value = value * 10 + byte - 0x30
                k += 1
            size = k - first
            if size == 0 or size > MAX_DIGITS or (buf[first] == 0x30 and (size > 1 or negative)):
                return False
            vals[count] = -value if negative else value
            count += 1
        kind = _KINDS.get(key)
        self.seq = seq
        if kind is None:  # a kind the board does not know (rare: its name is allocated)
            kind = bytes(buf[start:stop]).decode()
        self.kind = kind
        args = self._args[count]
        for j in range(count):
            args[j] = vals[j]
        self.args = args
        return True


class Writer:
    """The board's encoder: `encode`'s very bytes, built in one preallocated buffer.

    `frame(seq, kind, args)` writes the frame into `out` and returns its length, so
    the board writes `out` up to there and allocates nothing. It checks nothing:
    the board sends only its own frames, a known kind and integers it made, which
    `encode` accepts (tests/firmware_host/test_codec_board.py compares them). The
    head of a frame numbered 0 (an answer: "0 HB") and its CRC are kept per kind.
    """

    def __init__(self):
        self.out = bytearray(MAX_FRAME + 16)
        self.out[0] = 0x24  # '$'
        self._heads = {}
        for kind in (HB, ACK, NAK, HELLO):  # the answers, made now: none allocates later
            self._head(kind)

    def _head(self, kind):
        """The bytes of "0 KIND" and their CRC, made once per kind."""
        head = self._heads.get(kind)
        if head is None:
            text = ("0 " + kind).encode()
            head = (text, len(text), crc16(text))
            self._heads[kind] = head
        return head

    def frame(self, seq, kind, args=()):
        out = self.out
        table = _TABLE
        if seq == 0:
            text, n, crc = self._head(kind)
        else:  # an event: numbered, and kept until the host's receipt anyway
            text = f"{seq} {kind}".encode()
            n = len(text)
            crc = crc16(text)
        out[1:n + 1] = text
        n += 1
        for arg in args:
            out[n] = 0x20
            n += 1
            crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ 0x20]
            if arg < 0:
                out[n] = 0x2D
                n += 1
                crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ 0x2D]
                arg = -arg
            if arg < 10:  # a state, a side, a status: one digit
                byte = 0x30 + arg
                out[n] = byte
                n += 1
                crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
                continue
            if arg < 100_000:  # counted up for a small number, down for a board time
                digits = 2
                while arg >= _TEN[digits]:
                    digits += 1
            else:
                digits = MAX_DIGITS
                while arg < _TEN[digits - 1]:
                    digits -= 1
            while digits:
                digits -= 1
                power = _TEN[digits]
                digit = arg // power
                arg -= digit * power
                byte = 0x30 + digit
                out[n] = byte
                n += 1
                crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
        out[n] = 0x2A  # '*'
        out[n + 1] = _HEX[crc >> 12]
        out[n + 2] = _HEX[(crc >> 8) & 15]
        out[n + 3] = _HEX[(crc >> 4) & 15]
        out[n + 4] = _HEX[crc & 15]
        out[n + 5] = 0x0A
        return n + 6


def seq_next(seq):
    """The sequence number after `seq`; 0 is skipped (it marks unacknowledged frames)."""
    seq = (seq + 1) % SEQ_MOD
    return seq if seq else 1


def seq_newer(seq, than):
    """True when `seq` was issued after `than`, allowing for wrap-around."""
    diff = (seq - than) % SEQ_MOD
    return 0 < diff < SEQ_MOD // 2


def ticks_diff(a, b):
    """a - b for wrapping ticks, as a signed count in (-TICKS_HALF, TICKS_HALF].

    Masked rather than taken modulo TICKS_PERIOD: 2^30 is one past MicroPython's
    small integers on the Pico, so `%` by it made a heap integer at every call, and
    the loop calls this many times a turn. The same for every integer, either way.
    """
    diff = (a - b) & _TICKS_MASK
    return diff - _TICKS_MASK - 1 if diff > TICKS_HALF else diff


def ticks_add(a, delta):
    return (a + delta) & _TICKS_MASK
