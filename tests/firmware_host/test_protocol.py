"""The shared wire codec: frames survive the trip, damage never gets through, nothing crashes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.wire import codec

kinds = st.sampled_from([codec.HELLO, codec.HB, codec.COUNTDOWN, codec.LAUNCH, codec.PADDLE,
                         codec.ACK, codec.LAUNCH_DONE])
frames = st.tuples(
    st.integers(0, codec.SEQ_MOD - 1), kinds,
    st.lists(st.integers(-(2**31), 2**31 - 1), max_size=4).map(tuple),
)


@given(st.lists(frames, max_size=8), st.data())
def test_frames_come_back_whole_however_the_stream_is_cut(batch, data) -> None:  # type: ignore[no-untyped-def]
    stream = b"".join(codec.encode(*f) for f in batch)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    dec = codec.Decoder()
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += dec.feed(stream[a:b])
    assert out == list(batch) and dec.error_total() == 0


@given(frames, st.data())
def test_any_single_damaged_byte_is_rejected(frame, data) -> None:  # type: ignore[no-untyped-def]
    raw = bytearray(codec.encode(*frame))
    i = data.draw(st.integers(1, len(raw) - 2))  # keep '$' and '\n': damage inside the frame
    raw[i] ^= data.draw(st.integers(1, 255))
    if raw[i] in b"$\n":
        return  # that is a cut, covered below
    dec = codec.Decoder()
    assert dec.feed(bytes(raw)) == [] and dec.error_total() == 1


@given(frames, st.data())
def test_a_cut_frame_is_rejected_and_the_next_one_still_decodes(frame, data) -> None:  # type: ignore[no-untyped-def]
    raw = codec.encode(*frame)
    cut = raw[: data.draw(st.integers(1, len(raw) - 1))]
    dec = codec.Decoder()
    assert dec.feed(cut + raw) == [frame]
    assert dec.errors == {codec.ERR_TRUNCATED: 1}


def test_an_oversize_frame_is_dropped_without_holding_its_bytes() -> None:
    dec = codec.Decoder()
    good = codec.encode(3, codec.HB)
    assert dec.feed(b"$1 HB " + b"7 " * 500 + b"*0000\n" + good) == [(3, codec.HB, ())]
    assert dec.errors == {codec.ERR_OVERSIZE: 1}


def test_a_terminal_line_ending_is_accepted() -> None:
    assert codec.Decoder().feed(codec.encode(0, codec.HB)[:-1] + b"\r\n") == [(0, codec.HB, ())]


@given(st.binary(max_size=2000))
def test_the_decoder_never_crashes_on_any_bytes(noise: bytes) -> None:
    dec = codec.Decoder()
    for frame in dec.feed(noise):
        seq, kind, args = frame
        assert 0 <= seq < codec.SEQ_MOD and kind.isalpha() and all(isinstance(a, int) for a in args)
    assert dec.feed(codec.encode(1, codec.STOP)) == [(1, codec.STOP, ())]  # and it resynchronises


def test_an_oversize_encode_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError):
        codec.encode(1, codec.LAUNCH, tuple(range(10**9, 10**9 + 8)))


@given(st.integers(0, codec.SEQ_MOD - 1), st.integers(1, codec.SEQ_MOD // 2 - 1))
def test_sequence_numbers_compare_across_their_wrap(seq: int, ahead: int) -> None:
    later = (seq + ahead) % codec.SEQ_MOD
    assert codec.seq_newer(later, seq) and not codec.seq_newer(seq, later)
    assert not codec.seq_newer(seq, seq)
    assert codec.seq_next(codec.SEQ_MOD - 1) == 1


@given(st.integers(0, codec.TICKS_PERIOD - 1), st.integers(-codec.TICKS_HALF + 1, codec.TICKS_HALF))
def test_tick_arithmetic_wraps_like_micropython(a: int, delta: int) -> None:
    b = codec.ticks_add(a, delta)
    assert 0 <= b < codec.TICKS_PERIOD and codec.ticks_diff(b, a) == delta


# --- the grammar, exactly (issue: hostile frames with a valid CRC) ------------------------


def _framed(body: bytes) -> bytes:
    """`body` as a frame with a correct CRC, whatever it holds: only the grammar can refuse it."""
    return b"$" + body + b"*" + b"%04X" % codec.crc16(body) + b"\n"


def _with_crc_text(body: bytes, crc_text: bytes) -> bytes:
    return b"$" + body + b"*" + crc_text + b"\n"


@pytest.mark.parametrize(
    "body",
    [
        "2 LA 0 ²".encode(),  # "²".isdigit() is True in CPython, and int("²") raises
        "2 LA 0 ٣".encode(),  # an Arabic-Indic digit
        "2 LA ０ 1".encode(),  # a full-width zero
        "٣ HB".encode(),
        b"2 LA +1 1", b"2 LA 1_0 1", b"2 LA 0x1 1", b"2 LA 01 1", b"2 LA -0 1", b"2 LA - 1",
        b"02 HB", b"-1 HB", b"65536 HB", b"1 hb", b"1 Hb", b"1 HBHBHB", b"1 H1", b"1  HB",
        b"1 HB ", b" 1 HB", b"1\tHB", b"1 LA 1234567890123", b"1 AB 1 2 3 4 5 6 7 8 9",
        "1 É".encode(), b"1 HB\xff", b"1 HB\x00",
    ],
)
def test_a_frame_outside_the_grammar_is_refused_even_with_a_good_crc(body: bytes) -> None:
    dec = codec.Decoder()
    assert dec.feed(_framed(body)) == []
    assert dec.errors == {codec.ERR_SYNTAX: 1}


@pytest.mark.parametrize("crc_text", [b"19c6", b" 78E", b"+78E", b"0xE3", b"7_8E", b"78E",
                                      b"078E0", "７８E".encode(), b"78e ", b"-78E"])
def test_the_crc_is_exactly_four_upper_case_hex_digits(crc_text: bytes) -> None:
    body = b"0 HB"  # CRC 19C6 (and 078E for "1 HB"): the damaged spellings must not pass
    dec = codec.Decoder()
    assert dec.feed(_with_crc_text(body, crc_text)) == []
    assert dec.error_total() == 1
    assert dec.feed(_with_crc_text(body, b"%04X" % codec.crc16(body))) == [(0, codec.HB, ())]


def test_encode_refuses_what_the_decoder_refuses() -> None:
    import pytest

    for seq, kind, args in [
        (1, codec.LAUNCH, tuple(range(9))),  # nine arguments: the decoder takes eight
        (1, "la", ()), (1, "ABCDEF", ()), (1, "", ()), (1, "A1", ()), (1, "²", ()),
        (-1, codec.HB, ()), (codec.SEQ_MOD, codec.HB, ()), (1, codec.LAUNCH, (10**12,)),
        (1, codec.LAUNCH, (-(10**12),)), (1, codec.LAUNCH, (1.5,)), (1, codec.LAUNCH, ("1",)),
        (1.0, codec.HB, ()),
    ]:
        with pytest.raises(ValueError):
            codec.encode(seq, kind, args)
    assert codec.Decoder().feed(codec.encode(1, codec.LAUNCH, tuple(range(8)))) == [
        (1, codec.LAUNCH, tuple(range(8)))]
    assert codec.Decoder().feed(codec.encode(1, codec.LAUNCH, (10**12 - 1, -(10**12) + 1))) == [
        (1, codec.LAUNCH, (10**12 - 1, -(10**12) + 1))]


def _reencodes_to_itself(frames: list[tuple[int, str, tuple[int, ...]]], stream: bytes) -> None:
    for frame in frames:
        seq, kind, args = frame
        raw = codec.encode(seq, kind, args)  # must not raise: a decoded frame is in the grammar
        assert raw[:-1] in stream, (frame, stream)  # spelled exactly as it came


chunked = st.lists(st.integers(0, 200), max_size=8)


def _feed_in_pieces(dec: codec.Decoder, stream: bytes, cuts: list[int]):  # type: ignore[no-untyped-def]
    out = []
    points = sorted({min(c, len(stream)) for c in cuts})
    for a, b in zip([0, *points], [*points, len(stream)], strict=True):
        out += dec.feed(stream[a:b])
    return out


@given(st.text(max_size=300), chunked)
def test_any_unicode_text_decodes_without_raising_and_only_to_frames_spelled_canonically(
    text: str, cuts: list[int]
) -> None:
    stream = text.encode("utf-8", "surrogatepass")
    dec = codec.Decoder()
    _reencodes_to_itself(_feed_in_pieces(dec, stream, cuts), stream)


@given(st.binary(max_size=600), chunked)
def test_any_bytes_decode_without_raising_and_only_to_frames_spelled_canonically(
    noise: bytes, cuts: list[int]
) -> None:
    dec = codec.Decoder()
    _reencodes_to_itself(_feed_in_pieces(dec, noise, cuts), noise)


bodies = st.one_of(
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(alphabet="0123456789 -+ABCDEFHLSTZabc²٣_x", max_size=40).map(str.encode),
    st.binary(max_size=40),
)


@given(bodies)
def test_a_body_with_a_good_crc_is_a_canonical_frame_or_a_syntax_error(body: bytes) -> None:
    raw = _framed(body.replace(b"$", b"").replace(b"\n", b"").replace(b"*", b""))
    dec = codec.Decoder()
    out = dec.feed(raw)
    if out:
        assert len(out) == 1 and codec.encode(*out[0]) == raw and dec.error_total() == 0
    else:
        assert dec.errors in ({codec.ERR_SYNTAX: 1}, {codec.ERR_OVERSIZE: 1})


@given(st.integers(-5, codec.SEQ_MOD + 5), st.text(max_size=7),
       st.lists(st.integers(-(10**13), 10**13), max_size=10))
def test_encode_either_refuses_or_makes_a_frame_that_decodes_to_the_same(
    seq: int, kind: str, args: list[int]
) -> None:
    try:
        raw = codec.encode(seq, kind, tuple(args))
    except ValueError:
        return
    assert codec.Decoder().feed(raw) == [(seq, kind, tuple(args))]


# One piece of a stream and what the decoder must count for it.
GOOD, DAMAGED, SYNTAX, TRUNCATED, OVERSIZE, GARBAGE = range(6)


def _piece(kind: int, frame: tuple[int, str, tuple[int, ...]], pick: int) -> bytes:
    raw = codec.encode(*frame)
    if kind == GOOD:
        return raw
    if kind == DAMAGED:  # one CRC digit swapped for another upper-case hex digit
        i = len(raw) - 2 - pick % 4
        digits = b"0123456789ABCDEF"
        new = digits[(digits.index(raw[i]) + 1 + pick % 15) % 16]
        return raw[:i] + bytes([new]) + raw[i + 1 :]
    if kind == SYNTAX:
        return _framed(raw[1 : raw.index(b"*")] + b" 0" + b"1" * (1 + pick % 3))
    if kind == TRUNCATED:  # cut before its newline; the next piece's '$' ends it
        return raw[: 1 + pick % (len(raw) - 1)]
    if kind == OVERSIZE:
        return b"$1 HB " + b"7" * (codec.MAX_FRAME + pick % 50) + b"*0000\n"
    return b"noise" + b"\xff" * (pick % 5) + b"\r\n"


ERR_OF = {DAMAGED: codec.ERR_CRC, SYNTAX: codec.ERR_SYNTAX, TRUNCATED: codec.ERR_TRUNCATED,
          OVERSIZE: codec.ERR_OVERSIZE, GARBAGE: codec.ERR_GARBAGE}


@given(st.lists(st.tuples(st.integers(GOOD, GARBAGE), frames, st.integers(0, 1000)),
                max_size=20), chunked)
def test_the_error_counters_say_exactly_what_was_wrong_however_the_stream_is_cut(
    pieces: list[tuple[int, tuple[int, str, tuple[int, ...]], int]], cuts: list[int]
) -> None:
    tidy: list[tuple[int, tuple[int, str, tuple[int, ...]], int]] = []
    for piece in pieces:  # a truncated frame ends at the next '$': stray bytes would join it
        if piece[0] == GARBAGE and tidy and tidy[-1][0] == TRUNCATED:
            tidy.append((GOOD, piece[1], 0))
        tidy.append(piece)
    pieces = [*tidy, (GOOD, (1, codec.HB, ()), 0)]  # ends a truncated piece at the end
    want_frames = [frame for kind, frame, _ in pieces if kind == GOOD]
    want_errors: dict[str, int] = {}
    for i, (kind, _, _) in enumerate(pieces):
        if kind == GARBAGE and i and pieces[i - 1][0] == GARBAGE:
            continue  # two stray runs side by side are one run
        if kind != GOOD:
            want_errors[ERR_OF[kind]] = want_errors.get(ERR_OF[kind], 0) + 1
    stream = b"".join(_piece(kind, frame, pick) for kind, frame, pick in pieces)
    dec = codec.Decoder()
    assert _feed_in_pieces(dec, stream, cuts) == want_frames
    assert dec.errors == want_errors and dec.frames == len(want_frames)
