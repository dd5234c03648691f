"""The shared wire codec: frames survive the trip, damage never gets through, nothing crashes it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host import protocol as P

kinds = st.sampled_from([P.HELLO, P.HB, P.COUNTDOWN, P.LAUNCH, P.PADDLE, P.ACK, P.LAUNCH_DONE])
frames = st.tuples(
    st.integers(0, P.SEQ_MOD - 1), kinds,
    st.lists(st.integers(-(2**31), 2**31 - 1), max_size=4).map(tuple),
)


@given(st.lists(frames, max_size=8), st.data())
def test_frames_come_back_whole_however_the_stream_is_cut(batch, data) -> None:  # type: ignore[no-untyped-def]
    stream = b"".join(P.encode(*f) for f in batch)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    dec = P.Decoder()
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += dec.feed(stream[a:b])
    assert out == list(batch) and dec.error_total() == 0


@given(frames, st.data())
def test_any_single_damaged_byte_is_rejected(frame, data) -> None:  # type: ignore[no-untyped-def]
    raw = bytearray(P.encode(*frame))
    i = data.draw(st.integers(1, len(raw) - 2))  # keep '$' and '\n': damage inside the frame
    raw[i] ^= data.draw(st.integers(1, 255))
    if raw[i] in b"$\n":
        return  # that is a cut, covered below
    dec = P.Decoder()
    assert dec.feed(bytes(raw)) == [] and dec.error_total() == 1


@given(frames, st.data())
def test_a_cut_frame_is_rejected_and_the_next_one_still_decodes(frame, data) -> None:  # type: ignore[no-untyped-def]
    raw = P.encode(*frame)
    cut = raw[: data.draw(st.integers(1, len(raw) - 1))]
    dec = P.Decoder()
    assert dec.feed(cut + raw) == [frame]
    assert dec.errors == {P.ERR_TRUNCATED: 1}


def test_an_oversize_frame_is_dropped_without_holding_its_bytes() -> None:
    dec = P.Decoder()
    good = P.encode(3, P.HB)
    assert dec.feed(b"$1 HB " + b"7 " * 500 + b"*0000\n" + good) == [(3, P.HB, ())]
    assert dec.errors == {P.ERR_OVERSIZE: 1}


def test_a_terminal_line_ending_is_accepted() -> None:
    assert P.Decoder().feed(P.encode(0, P.HB)[:-1] + b"\r\n") == [(0, P.HB, ())]


@given(st.binary(max_size=2000))
def test_the_decoder_never_crashes_on_any_bytes(noise: bytes) -> None:
    dec = P.Decoder()
    for frame in dec.feed(noise):
        seq, kind, args = frame
        assert 0 <= seq < P.SEQ_MOD and kind.isalpha() and all(isinstance(a, int) for a in args)
    assert dec.feed(P.encode(1, P.STOP)) == [(1, P.STOP, ())]  # and it resynchronises


def test_an_oversize_encode_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError):
        P.encode(1, P.LAUNCH, tuple(range(10**9, 10**9 + 8)))


@given(st.integers(0, P.SEQ_MOD - 1), st.integers(1, P.SEQ_MOD // 2 - 1))
def test_sequence_numbers_compare_across_their_wrap(seq: int, ahead: int) -> None:
    later = (seq + ahead) % P.SEQ_MOD
    assert P.seq_newer(later, seq) and not P.seq_newer(seq, later)
    assert not P.seq_newer(seq, seq)
    assert P.seq_next(P.SEQ_MOD - 1) == 1


@given(st.integers(0, P.TICKS_PERIOD - 1), st.integers(-P.TICKS_HALF + 1, P.TICKS_HALF))
def test_tick_arithmetic_wraps_like_micropython(a: int, delta: int) -> None:
    b = P.ticks_add(a, delta)
    assert 0 <= b < P.TICKS_PERIOD and P.ticks_diff(b, a) == delta
