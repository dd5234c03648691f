"""The codec on MicroPython gives byte for byte what it gives on CPython.

A few hundred vectors, generated once from a fixed seed: frames of every kind
with negative, zero and large numbers, arguments up to the limit and past it,
kinds and numbers outside the grammar; decoder streams of good, damaged,
truncated, oversize, hostile (good CRC, bad grammar) and stray bytes, each fed
whole and cut into random chunks. Both interpreters run the very same
`bare_board.codec_vectors`; the frames, the decoded tuples and the error
counters must be identical.
"""

from __future__ import annotations

import json
import random
from typing import Any

from firmware_host.wire import codec
from tests.micropython import bare_board
from tests.micropython.runner import MicroPython

KINDS = [codec.HELLO, codec.HB, codec.EVACK, codec.COUNTDOWN, codec.GO, codec.FREEZE, codec.ARROW,
         codec.LAUNCH, codec.STOP, codec.BEEP, codec.RESET, codec.ACK, codec.NAK, codec.PADDLE,
         codec.BUTTON, codec.LAUNCH_DONE, codec.FAULT]
NUMBERS = [0, 1, -1, 9, 10, 99, -100, 65535, 65536, codec.TICKS_PERIOD - 1, codec.TICKS_PERIOD,
           -codec.TICKS_PERIOD, 2**31 - 1, -(2**31), 2**32, 10**12 - 1, -(10**12) + 1, 10**12,
           -(10**12)]


def _number(rng: random.Random) -> int:
    if rng.random() < 0.4:
        return rng.choice(NUMBERS)
    return rng.randint(-(10**rng.randint(1, 12)) + 1, 10**rng.randint(1, 12) - 1)


def _framed(body: bytes) -> bytes:
    return b"$" + body + b"*" + b"%04X" % codec.crc16(body) + b"\n"


def _good(rng: random.Random) -> bytes:
    while True:
        try:
            return codec.encode(rng.randrange(codec.SEQ_MOD), rng.choice(KINDS),
                                tuple(_number(rng) for _ in range(rng.randint(0, codec.MAX_ARGS))))
        except ValueError:
            continue  # too long for a frame: draw again


HOSTILE_BODIES = ["2 LA 0 ²", "3 LA ٣ 1", "4 BP ０", "01 HB", "1 LA +1 1", "1 LA 1_0 1",
                  "1 LA -0 1", "1 hb", "1  HB", "1 HB ", "1 AB 1 2 3 4 5 6 7 8 9", "1 É",
                  "1 LA 1234567890123", "65536 HB", "-1 HB"]


def _damaged(rng: random.Random, raw: bytes) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:  # one byte flipped inside
        i = rng.randrange(1, len(raw) - 1)
        return raw[:i] + bytes([raw[i] ^ rng.randint(1, 255)]) + raw[i + 1 :]
    if kind == 1:  # cut short, then a good frame
        return raw[: rng.randrange(1, len(raw) - 1)] + _good(rng)
    if kind == 2:  # oversize
        return b"$1 LA " + b"7" * rng.randint(codec.MAX_FRAME, 200) + b"*0000\n"
    if kind == 3:  # a CRC spelled wrong
        star = raw.index(b"*")
        return raw[: star + 1] + raw[star + 1 : star + 5].lower().replace(b"0", b" ") + b"\n"
    if kind == 4:  # a good CRC on a body outside the grammar
        return _framed(rng.choice(HOSTILE_BODIES).encode())
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))  # noise


def vectors(seed: int = 14) -> list[list[Any]]:
    rng = random.Random(seed)
    out: list[list[Any]] = []
    for kind in KINDS:  # every kind, with its arguments at the edges
        for numbers in ([], [0], NUMBERS[:codec.MAX_ARGS], NUMBERS[-codec.MAX_ARGS:],
                        NUMBERS[5:14]):
            out.append(["enc", rng.randrange(codec.SEQ_MOD), kind, numbers])
    for _ in range(120):  # anything, in the grammar or not
        seq = rng.choice([0, 1, 65535, 65536, -1, rng.randrange(codec.SEQ_MOD)])
        kind = rng.choice([*KINDS, "la", "", "ABCDEF", "A1", "²", "Z"])
        out.append(["enc", seq, kind, [_number(rng) for _ in range(rng.randint(0, 10))]])
    for _ in range(200):  # streams, whole or chunked
        stream = b"".join(_good(rng) if rng.random() < 0.5 else _damaged(rng, _good(rng))
                          for _ in range(rng.randint(1, 6)))
        cuts = sorted(rng.sample(range(len(stream) + 1), min(len(stream), rng.randint(0, 8))))
        chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
        out.append(["dec", [c.hex() for c in chunks]])
    return out


def test_the_codec_answers_byte_for_byte_the_same_on_micropython(
    micropython: MicroPython,
) -> None:
    cases = vectors()
    assert len(cases) >= 400
    on_cpython = json.loads(json.dumps(bare_board.codec_vectors(cases)))
    on_micropython = micropython.call(
        f"bare_board.codec_vectors(json.loads({json.dumps(json.dumps(cases))}))")
    assert len(on_micropython) == len(cases)
    for case, want, got in zip(cases, on_cpython, on_micropython, strict=True):
        assert got == want, case
    # the comparison is not vacuous: every answer and every counter occurs
    assert any(a == "ValueError" for a in on_cpython)
    assert sum(1 for a in on_cpython if isinstance(a, str) and a != "ValueError") >= 80
    counted = {key for a in on_cpython if isinstance(a, list) for key in a[1]}
    assert counted == {codec.ERR_CRC, codec.ERR_SYNTAX, codec.ERR_TRUNCATED, codec.ERR_OVERSIZE,
                       codec.ERR_GARBAGE}
    assert sum(len(a[0]) for a in on_cpython if isinstance(a, list)) >= 200


def test_the_killer_frame_and_its_kin_are_refused_on_micropython_too(
    micropython: MicroPython,
) -> None:
    cases = [["dec", [_framed(body.encode()).hex()]] for body in HOSTILE_BODIES]
    got = micropython.call(
        f"bare_board.codec_vectors(json.loads({json.dumps(json.dumps(cases))}))")
    assert got == [[[], {codec.ERR_SYNTAX: 1}, 0]] * len(HOSTILE_BODIES)


def test_the_boards_own_codec_answers_as_the_hosts_does_on_both_interpreters(
    micropython: MicroPython,
) -> None:
    """The Pico encodes with `codec.Writer` and decodes with `codec.Reader`: on MicroPython
    and on CPython they must give, vector for vector, what `encode` and `Decoder` give."""
    cases = vectors()
    want = json.loads(json.dumps(bare_board.codec_vectors(cases)))
    on_cpython = json.loads(json.dumps(bare_board.board_codec_vectors(cases)))
    on_micropython = micropython.call(
        f"bare_board.board_codec_vectors(json.loads({json.dumps(json.dumps(cases))}))")
    for case, expected, cp, mp in zip(cases, want, on_cpython, on_micropython, strict=True):
        assert cp == expected, case
        assert mp == expected, case


def test_the_loops_turns_allocate_nothing_on_micropython(micropython: MicroPython) -> None:
    """An idle turn, and turns that read a heartbeat, an event's receipt, an arrow and a
    beep and answer them, each run under heap_lock: none may allocate. The negative
    control: the host's codec, under the same lock, does."""
    failed, written, frames, arrow = micropython.call("bare_board.lean_turns()")
    assert failed == [], failed
    assert frames == 6 and arrow == 1  # hello, heartbeat, heartbeat, receipt, arrow, beep
    assert written > 3 * len(codec.encode(0, codec.ACK, (1, 0)))  # the answers went out
    frame = codec.encode(0, codec.HB)
    assert micropython.call(
        f"bare_board.allocates(lambda: bare_board.protocol.Decoder().feed({frame!r}))") is True
    assert bare_board.lean_turns()[:1] == [[]]  # the same turns under CPython (no lock there)
