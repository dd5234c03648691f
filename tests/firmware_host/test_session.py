"""The host's session with the board, driven with no port at all: bytes and the time in,
frames and reports out (firmware_host/wire/session.py). Every time is passed explicitly, so each
test is exact and instant."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.wire import codec
from firmware_host.wire.session import (
    TRANSITIONS,
    BoardReport,
    BoardSession,
    Connected,
    IllegalMove,
    LinkState,
    Lost,
    Refused,
    VersionMismatch,
)

BOOT = 0x1234
MS = 1_000


def frames(session: BoardSession) -> list[tuple[int, str, tuple[int, ...]]]:
    """What the session wants written, decoded (each frame must be one the board accepts)."""
    out = []
    for raw in session.frames_to_send():
        decoded = codec.Decoder().feed(raw)
        assert len(decoded) == 1, raw
        out.append(decoded[0])
    return out


def board_says(session: BoardSession, now_us: int, seq: int, kind: str, *args: int) -> None:
    session.receive(codec.encode(seq, kind, args), now_us)


def connected(ticks: int = 5_000, now_us: int = 0) -> BoardSession:
    """A session just through its handshake, with the board's clock at `ticks`."""
    session = BoardSession()
    session.port_opened("test-port", now_us)
    session.frames_to_send()
    board_says(session, now_us + MS, 0, codec.HELLO, codec.VERSION, BOOT, ticks)
    session.frames_to_send()
    session.reports()
    return session


def test_the_handshake_says_hello_and_a_hello_in_our_version_begins_a_session() -> None:
    session = BoardSession()
    assert session.state is LinkState.DISCONNECTED and session.frames_to_send() == []
    session.port_opened("test-port", 0)
    assert session.state is LinkState.HANDSHAKE
    assert frames(session) == [(0, codec.HELLO, (codec.VERSION,))]
    session.tick(100 * MS)
    assert frames(session) == []  # not yet said again
    session.tick(250 * MS)
    assert frames(session) == [(0, codec.HELLO, (codec.VERSION,))]  # no answer: hello again
    board_says(session, 260 * MS, 0, codec.HELLO, codec.VERSION, BOOT, 77)
    assert session.state is LinkState.READY and session.boot_id == BOOT
    assert frames(session) == [(0, codec.HB, ())]  # heartbeats begin at once
    [hello] = session.reports()
    assert isinstance(hello, Connected) and (hello.port, hello.boot_id) == ("test-port", BOOT)
    assert session.connects == 1


def test_a_command_is_numbered_sent_once_and_forgotten_when_acknowledged() -> None:
    session = connected(now_us=0)
    seq = session.command(codec.LAUNCH, (codec.LEFT, 3), 10 * MS)
    assert seq == 1 and frames(session) == [(1, codec.LAUNCH, (codec.LEFT, 3))]
    assert session.command(codec.BEEP, (0,), 11 * MS) == 2
    assert frames(session) == [(2, codec.BEEP, (0,))]
    assert session.pending() == 2
    board_says(session, 14 * MS, 0, codec.ACK, 1, codec.ACK_DONE)
    board_says(session, 15 * MS, 0, codec.ACK, 2, codec.ACK_DUPLICATE)
    assert session.pending() == 0 and session.reports() == []
    assert list(session.round_trips_us) == [4 * MS, 4 * MS]
    session.tick(200 * MS)
    assert (1, codec.LAUNCH, (codec.LEFT, 3)) not in frames(session)  # nothing retried


def test_a_lost_ack_is_retried_with_the_same_number_then_the_link_is_given_up() -> None:
    session = connected(now_us=0)
    session.command(codec.LAUNCH, (codec.RIGHT, 2), 10 * MS)
    sent = frames(session)
    now = 10 * MS
    for _ in range(session.tries - 1):
        session.tick(now + 49 * MS)  # the board hears heartbeats meanwhile: not silence
        assert (1, codec.LAUNCH, (codec.RIGHT, 2)) not in frames(session)
        board_says(session, now + 49 * MS, 0, codec.HB, 1_000, 0)
        now += 50 * MS
        session.tick(now)
        assert sent[0] in frames(session)  # the very same frame: the board runs it once
    board_says(session, now + 49 * MS, 0, codec.HB, 1_000, 0)
    now += 50 * MS
    session.tick(now)
    assert session.state is LinkState.DISCONNECTED
    [lost] = session.reports()
    assert isinstance(lost, Lost) and lost.unconfirmed == (codec.LAUNCH,)
    assert "did not acknowledge command LA #1" in lost.reason
    assert session.command(codec.BEEP, (0,), now) is None  # nothing goes without a session


def test_an_ack_after_a_retry_ends_the_retries() -> None:
    session = connected(now_us=0)
    session.command(codec.ARROW, (codec.LEFT,), 0)
    frames(session)
    session.tick(60 * MS)
    assert (1, codec.ARROW, (codec.LEFT,)) in frames(session)
    board_says(session, 61 * MS, 0, codec.ACK, 1, codec.ACK_DUPLICATE)
    session.tick(200 * MS)
    assert all(f[1] != codec.ARROW for f in frames(session)) and session.pending() == 0


def test_a_stop_cancels_the_retries_of_a_pending_launch() -> None:
    session = connected(now_us=0)
    session.command(codec.LAUNCH, (codec.LEFT, 1), 0)
    session.command(codec.STOP, (), 1 * MS)
    frames(session)
    session.tick(60 * MS)
    assert [f[1] for f in frames(session) if f[0]] == [codec.STOP]


def test_garbage_is_skipped_and_the_next_frame_is_read_however_the_bytes_are_cut() -> None:
    session = connected(ticks=1_000, now_us=0)
    event = codec.encode(7, codec.PADDLE, (codec.LEFT, 31_000))
    noise = b"\x00\xff garbage $$$ " + event[:-4] + b"0000\n" + event[:9] + b"\n"
    stream = noise + event
    for i in range(0, len(stream), 5):  # five bytes at a time
        session.receive(stream[i:i + 5], 2 * MS)
    [report] = session.reports()
    assert report == BoardReport(codec.PADDLE, (codec.LEFT, 31_000), session.clock.unwrap(31_000))
    assert frames(session) == [(0, codec.EVACK, (7,))]  # the board hears its receipt
    assert session.decoder.error_total() >= 2 and session.state is LinkState.READY


def test_a_retried_event_is_acknowledged_again_and_told_once() -> None:
    session = connected(ticks=1_000, now_us=0)
    for now in (2 * MS, 12 * MS):
        board_says(session, now, 3, codec.BUTTON, 4_000)
    assert len(session.reports()) == 1
    assert frames(session) == [(0, codec.EVACK, (3,)), (0, codec.EVACK, (3,))]


def test_another_version_is_a_mismatch_nothing_is_sent_and_a_reflash_is_tried_again() -> None:
    session = BoardSession()
    session.port_opened("test-port", 0)
    frames(session)
    board_says(session, 1 * MS, 0, codec.HELLO, codec.VERSION + 1, BOOT, 5)
    assert session.state is LinkState.MISMATCH
    [mismatch] = session.reports()
    assert isinstance(mismatch, VersionMismatch) and mismatch.board_version == codec.VERSION + 1
    assert mismatch.port == "test-port"
    assert session.command(codec.BEEP, (0,), 2 * MS) is None
    board_says(session, 3 * MS, 0, codec.PADDLE, codec.LEFT, 9)  # not a session of ours: ignored
    session.tick(2_000 * MS)  # a mismatched board is not given up for silence
    assert session.state is LinkState.MISMATCH and session.reports() == []
    assert [f[1] for f in frames(session)] == [codec.HB]  # heartbeats keep it from faulting
    board_says(session, 2_001 * MS, 0, codec.HELLO, codec.VERSION, BOOT + 1, 5)  # reflashed
    assert session.state is LinkState.HANDSHAKE
    assert frames(session) == [(0, codec.HELLO, (codec.VERSION,))]


def test_the_boards_clock_is_unwrapped_across_its_wrap() -> None:
    start = codec.TICKS_PERIOD - 3_000  # three milliseconds before the board's ticks wrap
    session = connected(ticks=start, now_us=0)
    base = session.clock.unwrap(start)
    board_says(session, 2 * MS, 0, codec.HB, codec.ticks_add(start, 2_000), 0)
    board_says(session, 5 * MS, 4, codec.PADDLE, codec.RIGHT,
               codec.ticks_add(start, 4_500))  # wrapped
    [report] = session.reports()
    assert report.t_us == base + 4_500 and report.args[1] == 1_500
    assert session.clock.now_us(6 * MS) >= base + 2_000  # and "now" moves on with it


def test_silence_loses_the_link_and_heartbeats_keep_it() -> None:
    session = connected(now_us=0)
    for now in range(101 * MS, 2_000 * MS, 100 * MS):
        session.tick(now)
        assert [f[1] for f in frames(session)] == [codec.HB]
        board_says(session, now + MS, 0, codec.HB, now, 0)
    assert session.state is LinkState.READY
    session.tick(1_902 * MS + session.board_timeout_us + MS)  # nothing heard since
    assert session.state is LinkState.DISCONNECTED
    [lost] = session.reports()
    assert isinstance(lost, Lost) and lost.reason == "the board stopped answering"
    session.port_opened("test-port", 3_000 * MS)  # the shell opens the port again
    assert session.state is LinkState.HANDSHAKE


def test_a_board_that_restarts_ends_the_session() -> None:
    session = connected(now_us=0)
    # the answer to a hello again
    board_says(session, 5 * MS, 0, codec.HELLO, codec.VERSION, BOOT, 9)
    assert session.state is LinkState.READY
    board_says(session, 6 * MS, 0, codec.HELLO, codec.VERSION, BOOT + 1, 9)
    [lost] = session.reports()
    assert isinstance(lost, Lost) and lost.reason == "the board restarted"


def test_refusals_are_told_when_the_owner_must_hear_them() -> None:
    session = connected(now_us=0)
    session.command(codec.LAUNCH, (codec.LEFT, 2), 0)
    session.command(codec.ARROW, (codec.LEFT,), 0)
    board_says(session, MS, 0, codec.NAK, 2, codec.NAK_STALE)  # an arrow overruled: rightly not run
    board_says(session, MS, 0, codec.NAK, 1, codec.NAK_STALE)  # a launch that did not run
    [refused] = session.reports()
    assert isinstance(refused, Refused) and (refused.kind, refused.reason) == (
        codec.LAUNCH, codec.NAK_STALE)
    session.command(codec.BEEP, (1,), 2 * MS)
    board_says(session, 3 * MS, 0, codec.NAK, 3, codec.NAK_NO_SESSION)
    assert session.state is LinkState.DISCONNECTED
    assert [type(r) for r in session.reports()] == [Lost]


def test_an_illegal_move_raises() -> None:
    session = BoardSession()
    with pytest.raises(IllegalMove):
        session.receive(b"$0 HB 1 0*0000\n", 0)  # no port open
    session = connected(now_us=0)
    with pytest.raises(IllegalMove, match="no move from ready to handshake"):
        session.port_opened("another-port", MS)  # a second port under a live session
    assert session.state is LinkState.READY
    assert {a for a, _ in TRANSITIONS} == {b for _, b in TRANSITIONS} == set(LinkState)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=30))
def test_whatever_the_board_sends_the_session_never_raises(chunks: list[bytes]) -> None:
    session = connected(now_us=0)
    now = 0
    for chunk in chunks:
        now += MS
        session.receive(chunk, now)
        session.tick(now)
        if session.state is LinkState.DISCONNECTED:
            session.port_opened("test-port", now)


@pytest.mark.parametrize(("kind", "args"), [(codec.PADDLE, (codec.LEFT,)), (codec.GO_SHOWN, ())])
def test_now_is_never_behind_a_stamp_the_board_already_sent(
        kind: str, args: tuple[int, ...]) -> None:
    """The heartbeat replies are lost on the line for 400 ms, a press (or the go shown)
    comes through: the engine is handed its stamp, and the board's "now" it reads must not
    be earlier than it (the estimate's cap, 250 ms past the board's last word, counted the
    heartbeats alone)."""
    session = connected(ticks=1_000, now_us=0)
    base = session.clock.unwrap(1_000)
    board_says(session, 401 * MS, 7, kind, *args, 1_000 + 400 * MS)
    [report] = session.reports()
    assert isinstance(report, BoardReport) and report.t_us == base + 400 * MS
    assert session.clock.now_us(401 * MS) >= report.t_us
    assert session.clock.now_us(402 * MS) > report.t_us  # and runs on from there
