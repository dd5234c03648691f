"""The board's own codec (`codec.Reader`, `codec.Writer`) says exactly what the host's does.

The Pico decodes with `Reader` and encodes with `Writer`, which work in preallocated
buffers to keep its loop short; the host keeps `Decoder` and `encode`. Whatever the
stream holds and however the line cuts it, the two decoders must give the same frames
in the same order and count the same errors, and the two encoders the same bytes:
one wire format, whichever end speaks it. tests/micropython/test_codec_vectors.py
holds MicroPython's port to the same, and to allocating nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.wire import codec
from tests.firmware_host.test_protocol import GARBAGE, GOOD, _framed, _piece, frames

Frame = tuple[int, str, tuple[int, ...]]


def read_with_reader(reader: codec.Reader, stream: bytes, cuts: list[int]) -> list[Frame]:
    """The frames `reader` finds in `stream` delivered in the pieces `cuts` make, each piece
    read as the board's loop reads its buffer."""
    out: list[Frame] = []
    points = sorted({min(c, len(stream)) for c in cuts})
    for a, b in zip([0, *points], [*points, len(stream)], strict=True):
        piece = bytearray(stream[a:b])
        i = 0
        while True:
            i = reader.take(piece, i, len(piece))
            if i < 0:
                break
            out.append((reader.seq, reader.kind, tuple(reader.args)))
    return out


def read_with_decoder(stream: bytes, cuts: list[int]) -> tuple[list[Frame], dict[str, int]]:
    dec = codec.Decoder()
    out: list[Frame] = []
    points = sorted({min(c, len(stream)) for c in cuts})
    for a, b in zip([0, *points], [*points, len(stream)], strict=True):
        out += dec.feed(stream[a:b])
    return out, dec.errors


def assert_same(stream: bytes, cuts: list[int]) -> list[Frame]:
    want, errors = read_with_decoder(stream, cuts)
    reader = codec.Reader()
    got = read_with_reader(reader, stream, cuts)
    assert got == want, stream
    assert reader.errors == errors, stream
    assert reader.frames == len(want)
    return got


chunked = st.lists(st.integers(0, 300), max_size=8)
#: bytes that look like frames: every character the grammar uses, and some it does not
framish = st.text(alphabet="$*\n\r 0123456789-ABCDEFHLSTZa+_²", max_size=200).map(str.encode)
pieces = st.lists(st.one_of(
    st.tuples(st.integers(GOOD, GARBAGE), frames, st.integers(0, 1000)).map(lambda p: _piece(*p)),
    framish,
    st.binary(max_size=60),
), max_size=12).map(b"".join)


@given(pieces, chunked)
def test_the_boards_reader_finds_the_decoders_frames_and_errors_in_any_stream(
    stream: bytes, cuts: list[int]
) -> None:
    assert_same(stream, cuts)


@given(st.binary(max_size=600), chunked)
def test_the_boards_reader_agrees_on_any_bytes(noise: bytes, cuts: list[int]) -> None:
    assert_same(noise, cuts)


@given(st.text(alphabet="0123456789 -+ABCDEFHLSTZabc²٣_x", max_size=60).map(str.encode))
def test_a_body_with_a_good_crc_reads_the_same_on_the_board(body: bytes) -> None:
    """Frames the CRC lets through, so the grammar alone decides: signs, zeros, spaces,
    long numbers, odd kinds."""
    assert_same(_framed(body.replace(b"$", b"").replace(b"\n", b"").replace(b"*", b"")), [])


#: a number as a frame might spell it: signs, leading zeros, nothing at all, too many digits
numberish = st.tuples(st.sampled_from(["", "-", "+", "--"]),
                      st.sampled_from(["", "0", "00", "1", "007"]),
                      st.one_of(st.text(alphabet="0123456789", max_size=2),
                                st.text(alphabet="0123456789", max_size=14)),
                      st.sampled_from(["", "", "", "x", " "])).map("".join)
kindish = st.one_of(st.sampled_from(codec._KNOWN), st.text(alphabet="ABHLSTZab1 ", max_size=7),
                    st.text(alphabet="ABZ", min_size=4, max_size=7))
seqish = st.one_of(st.integers(0, 70_000).map(str), numberish)
argish = st.one_of(st.integers(-(10**13), 10**13).map(str), numberish)


@given(seqish, kindish, st.lists(argish, max_size=10), st.sampled_from([" ", "  "]))
def test_a_frame_spelled_almost_right_reads_the_same_on_the_board(
    seq: str, kind: str, args: list[str], gap: str
) -> None:
    """A good CRC around a sequence number, a kind and numbers each nearly in the grammar:
    both decoders must take or refuse the very same ones."""
    body = gap.join([seq, kind, *args]).encode()
    assert_same(_framed(body), [])


@given(frames, st.text(alphabet="0123456789ABCDEFabcdefG*$ ", min_size=0, max_size=6),
       st.sampled_from([b"\n", b"\r\n", b"\r\r\n"]))
def test_a_frame_with_any_checksum_text_reads_the_same_on_the_board(
    frame: Frame, crc: str, end: bytes
) -> None:
    raw = codec.encode(*frame)
    assert_same(raw[: raw.index(b"*") + 1] + crc.encode() + end, [])
    assert_same(raw[:-1] + end, [])


@pytest.mark.parametrize("body", [
    "1 HB -0", "1 HB -1", "1 HB 0", "1 HB 00", "01 HB", "0 HB", "-1 HB", "123456 HB", "65535 HB",
    "65536 HB", "1 ABCDE", "1 ABCDEF", "1 HB 1 2 3 4 5 6 7 8", "1 HB 1 2 3 4 5 6 7 8 9",
    "1 HB 999999999999", "1 HB 1000000000000", "1 HB -999999999999", "1 HB -1000000000000",
    "1 hb", "1 HB ", " 1 HB", "1  HB", "1 HB  2", "1", "1 ", "HB", "1 HB -", "1 HB +1",
])
def test_the_edges_of_the_grammar_read_the_same_on_the_board(body: str) -> None:
    assert_same(_framed(body.encode()), [])


def test_a_frame_of_every_kind_the_board_hears_reads_as_the_modules_own_kind() -> None:
    for kind in (codec.HELLO, codec.HB, codec.EVACK, codec.COUNTDOWN, codec.LAUNCH, codec.ARROW,
                 "ZZ", "ABCDE"):
        got = assert_same(codec.encode(7, kind, (1, -2)), [])
        assert got == [(7, kind, (1, -2))]


board_frames = st.tuples(
    st.integers(0, codec.SEQ_MOD - 1),
    st.sampled_from(codec._KNOWN),
    st.lists(st.one_of(st.integers(-(10**12) + 1, 10**12 - 1), st.integers(0, 2**30 - 1),
                       st.sampled_from([0, 1, -1, 9, 10, 99, 100, 10**11, -(10**11)])),
             max_size=6).map(tuple),
)


@given(board_frames)
def test_the_boards_writer_makes_the_very_bytes_of_encode(frame: Frame) -> None:
    seq, kind, args = frame
    try:
        want = codec.encode(seq, kind, args)
    except ValueError:  # too long for a frame: the board never says one
        return
    writer = codec.Writer()
    n = writer.frame(seq, kind, args)
    assert bytes(writer.out[:n]) == want
    n = writer.frame(seq, kind, args)  # again, with the head it keeps for the kind
    assert bytes(writer.out[:n]) == want
