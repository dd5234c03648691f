"""The board's side of the protocol, driven by hand over the port: these need no paddle presses,
so they run against a real board too (`pytest tests/hil --hil-port /dev/ttyACM0`)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.firmware.fw_core import CMD_WINDOW
from firmware_host.wire import codec
from tests.hil.conftest import RawHost, Rig

pytestmark = pytest.mark.hil


def _is(kind: str):  # type: ignore[no-untyped-def]
    return lambda f: f[1] == kind


def _session(host: RawHost) -> None:
    hello = host.hello()
    assert hello is not None and hello[2][0] == codec.VERSION
    host.send(0, codec.HB)
    assert host.expect(_is(codec.HB)) is not None


def test_hello_answers_with_the_version_and_a_boot_id(raw_host: RawHost) -> None:
    first = raw_host.hello()
    again = raw_host.hello()
    assert first is not None and again is not None
    assert first[2][0] == codec.VERSION and first[2][1] == again[2][1]  # same boot


def test_a_host_speaking_another_version_gets_no_session(raw_host: RawHost) -> None:
    reply = raw_host.hello(codec.VERSION + 7)
    assert reply is not None and reply[2][0] == codec.VERSION  # the board says what it speaks
    nak = raw_host.command(1, codec.STOP)
    assert nak is not None and nak[1] == codec.NAK and nak[2][1] == codec.NAK_NO_SESSION


def test_a_launch_runs_once_however_often_it_is_retried(rig: Rig, raw_host: RawHost) -> None:
    _session(raw_host)
    first = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 1))
    retry = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 1))
    assert first is not None and first[1:] == (codec.ACK, (1, codec.ACK_DONE))
    assert retry is not None and retry[1:] == (codec.ACK, (1, codec.ACK_DUPLICATE))
    raw_host.send(0, codec.HB)
    done = raw_host.expect(_is(codec.LAUNCH_DONE), 3)
    assert done is not None
    raw_host.send(0, codec.EVACK, (done[0],))
    # newer commands ran since: a late retry is still known as run, and not run again
    assert raw_host.command(2, codec.STOP) is not None
    assert raw_host.command(3, codec.BEEP, (0,)) is not None
    late = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 1))
    assert late is not None and late[1:] == (codec.ACK, (1, codec.ACK_DUPLICATE))
    # once the window has moved past it, the board can no longer vouch: refused, never run
    for seq in range(4, 4 + CMD_WINDOW):
        assert raw_host.command(seq, codec.ARROW, (-1,)) is not None
    too_old = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 1))
    assert too_old is not None and too_old[1:] == (codec.NAK, (1, codec.NAK_STALE))
    if rig.mcu is not None:
        assert rig.mcu.motor_starts == 1 and rig.mcu.launches == 1


def test_a_launch_whose_first_frame_was_lost_runs_when_its_retry_follows_a_beep(
    rig: Rig, raw_host: RawHost
) -> None:
    _session(raw_host)
    # frame 1 (the launch) never arrived; the beep sent right behind it did
    beep = raw_host.command(2, codec.BEEP, (3,))
    assert beep is not None and beep[1:] == (codec.ACK, (2, codec.ACK_DONE))
    retry = raw_host.command(1, codec.LAUNCH, (codec.RIGHT, 1))
    assert retry is not None and retry[1:] == (codec.ACK, (1, codec.ACK_DONE))
    again = raw_host.command(1, codec.LAUNCH, (codec.RIGHT, 1))
    assert again is not None and again[1:] == (codec.ACK, (1, codec.ACK_DUPLICATE))
    raw_host.send(0, codec.HB)
    assert raw_host.expect(_is(codec.LAUNCH_DONE), 3) is not None
    if rig.mcu is not None:
        assert rig.mcu.launches == 1


def test_a_launch_or_countdown_sent_before_a_stop_never_runs_after_it(
    rig: Rig, raw_host: RawHost
) -> None:
    _session(raw_host)
    # frames 1 and 2 were lost; the stop (3) ran; their retries come too late
    assert raw_host.command(3, codec.STOP) is not None
    launch = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 2))
    countdown = raw_host.command(2, codec.COUNTDOWN, (300_000, 0))
    assert launch is not None and launch[1:] == (codec.NAK, (1, codec.NAK_STALE))
    assert countdown is not None and countdown[1:] == (codec.NAK, (2, codec.NAK_STALE))
    raw_host.send(0, codec.HB)
    state = raw_host.expect(_is(codec.HB))
    assert state is not None and state[2][1] == 0  # no countdown, no motor
    if rig.mcu is not None:
        assert rig.mcu.launches == 0 and not rig.mcu.motor_running


def test_a_stop_whose_first_frame_was_lost_runs_after_a_newer_command(
    rig: Rig, raw_host: RawHost
) -> None:
    if rig.mcu is not None:
        rig.mcu.jam()  # the motor runs until something stops it
    _session(raw_host)
    assert raw_host.command(1, codec.LAUNCH, (codec.LEFT, 3)) is not None
    # the stop (2) was lost, the arrow behind it (3) arrived, then the stop's retry
    assert raw_host.command(3, codec.ARROW, (-1,)) is not None
    stop = raw_host.command(2, codec.STOP)
    assert stop is not None and stop[1:] == (codec.ACK, (2, codec.ACK_DONE))
    raw_host.send(0, codec.HB)
    state = raw_host.expect(_is(codec.HB))
    assert state is not None and state[2][1] & 2 == 0  # the motor is off
    if rig.mcu is not None:
        assert not rig.mcu.motor_running


def test_an_older_arrow_arriving_after_a_newer_one_leaves_the_newer_lit(
    rig: Rig, raw_host: RawHost
) -> None:
    _session(raw_host)
    assert raw_host.command(2, codec.ARROW, (codec.RIGHT,)) is not None
    old = raw_host.command(1, codec.ARROW, (codec.LEFT,))
    assert old is not None and old[1:] == (codec.NAK, (1, codec.NAK_STALE))
    if rig.mcu is not None:
        assert rig.mcu.hw is not None
        assert rig.mcu.hw.arrow_right.value() == 1 and rig.mcu.hw.arrow_left.value() == 0


def test_a_launch_without_a_heartbeat_is_refused(rig: Rig, raw_host: RawHost) -> None:
    assert raw_host.hello() is not None  # a session, but no heartbeat yet
    nak = raw_host.command(1, codec.LAUNCH, (codec.RIGHT, 2))
    assert nak is not None and nak[1:] == (codec.NAK, (1, codec.NAK_SILENT))
    if rig.mcu is not None:
        assert rig.mcu.motor_starts == 0


def test_corrupt_truncated_and_oversize_frames_are_ignored(rig: Rig, raw_host: RawHost) -> None:
    _session(raw_host)
    launch = codec.encode(1, codec.LAUNCH, (codec.LEFT, 1))
    corrupt = launch.replace(b"LA 0", b"LA 1")
    raw_host.raw(corrupt)
    raw_host.raw(launch[:-6])  # cut short: the next '$' ends it
    raw_host.raw(b"$" + b"9" * 200 + b"\n")
    raw_host.send(0, codec.HB)
    assert raw_host.expect(_is(codec.HB)) is not None
    assert raw_host.expect(lambda f: f[1] in (codec.ACK, codec.NAK), 0.2) is None  # nothing ran
    ok = raw_host.command(1, codec.STOP)
    assert ok is not None and ok[1:] == (codec.ACK, (1, codec.ACK_DONE))
    if rig.mcu is not None:
        assert rig.mcu.motor_starts == 0
        assert rig.mcu.firmware is not None
        errors = rig.mcu.firmware._dec.errors
        assert errors.get(codec.ERR_CRC) == 1 and errors.get(codec.ERR_TRUNCATED) == 1
        assert errors.get(codec.ERR_OVERSIZE) == 1


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(noise=st.binary(min_size=1, max_size=300))
def test_random_garbage_never_moves_the_motor_and_the_board_keeps_answering(
    rig: Rig, raw_host: RawHost, noise: bytes
) -> None:
    _session(raw_host)
    raw_host.raw(noise + b"\n")
    raw_host.send(0, codec.HB)
    assert raw_host.expect(_is(codec.HB)) is not None
    if rig.mcu is not None:
        assert rig.mcu.motor_starts == 0


def test_the_motor_stops_when_the_host_falls_silent(rig: Rig, raw_host: RawHost) -> None:
    if rig.mcu is not None:
        rig.mcu.jam()  # no card comes out: only the silence can stop the motor
    if rig.emulated is not None:
        rig.emulated.jam()
    _session(raw_host)
    ack = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 3), rig.wait_s(1))
    assert ack is not None and ack[1] == codec.ACK
    # ... and now the host says nothing at all
    fault = raw_host.expect(_is(codec.FAULT), rig.wait_s(2))
    assert fault is not None and fault[2][0] == codec.FAULT_HOST_SILENT
    done = raw_host.expect(_is(codec.LAUNCH_DONE), rig.wait_s(1))
    assert done is not None and done[2][1] == 1  # reported as not finished
    if rig.mcu is not None:
        assert not rig.mcu.motor_running
        assert rig.mcu.hw is not None and rig.mcu.hw.max_motor_run_us < 800_000
