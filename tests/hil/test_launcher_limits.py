"""The launcher's limits, timed on the board's own clock: the jam limit and the 4 s maximum.

The virtual board runs on a manual clock here, so four seconds of motor time
take a fraction of a second: the test moves board time forward in steps while
the host keeps heartbeating, and every stop is checked to the microsecond.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_host.firmware.fw_core import CARD_US, HOST_TIMEOUT_US, MAX_ON_US, SPINUP_US
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from hardware.serial_unit import SerialUnit
from showdown.contract.events import (
    CountdownStarted,
    GoShown,
    LaunchFinished,
    LaunchPart,
    Side,
    UnitFault,
    VerdictGiven,
)
from tests.hil.conftest import STILL_LINK, RawHost, open_table

pytestmark = pytest.mark.hil

STEP_US = HOST_TIMEOUT_US * 4 // 5  # the most board time that may pass between heartbeats
NEAR_WRAP = codec.TICKS_PERIOD - 2_000_000  # the 2^30 wrap falls inside the launch


def _is(kind: str) -> Callable[[tuple[int, str, tuple[int, ...]]], bool]:
    return lambda f: f[1] == kind


def _raw_session(mcu: VirtualMCU) -> RawHost:
    host = RawHost(mcu.port)
    assert host.hello() is not None
    host.send(0, codec.HB)
    assert host.expect(_is(codec.HB)) is not None
    return host


def _heartbeat_until(host: RawHost, mcu: VirtualMCU, until: int) -> None:
    """Move board time to tick `until`, the host heartbeating at every step as a live host does."""
    while (left := codec.ticks_diff(until, mcu.ticks_us())) > 0:
        now = mcu.advance(min(STEP_US, left))
        host.send(0, codec.HB)
        heard = host.expect(lambda f, t=now: f[1] == codec.HB and f[2][0] == t)  # type: ignore[misc]
        assert heard is not None, "the board did not answer a heartbeat"


def _reports_until_done(host: RawHost) -> list[tuple[str, tuple[int, ...]]]:
    """The board's faults and its launch-done report, in the order sent (retries dropped)."""
    seen: list[tuple[int, str, tuple[int, ...]]] = []
    while not seen or seen[-1][1] != codec.LAUNCH_DONE:
        frame = host.expect(lambda f: f[1] in (codec.FAULT, codec.LAUNCH_DONE) and f not in seen, 2)
        assert frame is not None, f"no launch-done report; heard {seen}"
        seen.append(frame)
    return [(kind, args) for _, kind, args in seen]


def _launch(host: RawHost, mcu: VirtualMCU, args: tuple[int, ...]) -> int:
    """Send a launch with the board clock standing still; the tick the motor started at."""
    t0 = mcu.ticks_us()
    ack = host.command(1, codec.LAUNCH, args)
    assert ack is not None and ack[1:] == (codec.ACK, (1, codec.ACK_DONE))
    assert mcu.hw is not None and mcu.hw.motor_switches == [(t0, True)]
    return t0


@pytest.mark.parametrize("start_ticks", [0, NEAR_WRAP])
@pytest.mark.parametrize(
    ("cards", "stops_after_us"),
    [
        (1, SPINUP_US + 2 * CARD_US + 1),  # its own jam limit comes first
        (20, MAX_ON_US),  # a jam limit of 6.2 s: the hard maximum stops it
    ],
)
def test_a_launch_whose_cards_never_pass_the_sensor_stops_and_says_it_jammed(
    still_board: Callable[..., VirtualMCU], start_ticks: int, cards: int, stops_after_us: int
) -> None:
    mcu = still_board(start_ticks=start_ticks)
    mcu.jam()
    host = _raw_session(mcu)
    try:
        t0 = _launch(host, mcu, (codec.LEFT, cards))
        stop = codec.ticks_add(t0, stops_after_us)
        _heartbeat_until(host, mcu, codec.ticks_add(stop, -1))
        assert mcu.wait_until(lambda: True) and mcu.motor_running  # one microsecond short
        mcu.advance(1)
        why = codec.END_MAX_ON_TIME if stops_after_us == MAX_ON_US else codec.END_JAMMED
        done = (codec.LAUNCH_DONE, (0, 1, stop, why))  # nothing counted, cut short, when, why
        if stops_after_us == MAX_ON_US:
            assert _reports_until_done(host) == [
                (codec.FAULT, (codec.FAULT_MAX_ON_TIME, stop)), done]
        else:
            assert _reports_until_done(host) == [done]
        assert mcu.hw is not None and mcu.hw.motor_switches == [(t0, True), (stop, False)]
        assert mcu.firmware is not None and not mcu.firmware.host_silent
    finally:
        host.close()


@pytest.mark.parametrize(
    ("args", "stops_after_us", "capped"),
    [
        ((codec.LEFT, 2), SPINUP_US + 2 * CARD_US, False),
        # two parts of 3.2 s each: the second one is cut off at the maximum
        ((codec.LEFT, 20, codec.RIGHT, 20), MAX_ON_US, True),
    ],
)
def test_a_timed_launch_runs_its_computed_time_but_never_past_the_maximum(
    still_board: Callable[..., VirtualMCU], args: tuple[int, ...], stops_after_us: int,
    capped: bool,
) -> None:
    mcu = still_board(card_sensor=False)  # no sensor: the board times the cards
    host = _raw_session(mcu)
    try:
        t0 = _launch(host, mcu, args)
        stop = codec.ticks_add(t0, stops_after_us)
        _heartbeat_until(host, mcu, codec.ticks_add(stop, -1))
        assert mcu.wait_until(lambda: True) and mcu.motor_running
        assert mcu.hw is not None
        if capped:  # the second part had begun: the right-hand side was being served
            assert mcu.hw.motor_b.duty_u16() > 0 and mcu.hw.motor_a.duty_u16() == 0
        mcu.advance(1)
        why = codec.END_MAX_ON_TIME if capped else codec.END_FINISHED
        done = (codec.LAUNCH_DONE, (-1, 1 if capped else 0, stop, why))  # -1: not counted
        if capped:
            assert _reports_until_done(host) == [
                (codec.FAULT, (codec.FAULT_MAX_ON_TIME, stop)), done]
        else:
            assert _reports_until_done(host) == [done]
        assert mcu.hw.motor_switches[0] == (t0, True)
        assert mcu.hw.motor_switches[-1] == (stop, False) and not mcu.motor_running
    finally:
        host.close()


def _advance_while_heartbeating(mcu: VirtualMCU, us: int) -> int:
    """Move board time `us` forward in steps, each one heard by the link's own heartbeat."""
    fw = mcu.firmware
    assert fw is not None
    now = mcu.ticks_us()
    while us > 0:
        step = min(STEP_US, us)
        now = mcu.advance(step)
        us -= step
        assert mcu.wait_until(lambda t=now: fw.last_hb_t == t), "no heartbeat reached the board"
    return now


def test_the_table_hears_a_launch_stopped_at_the_maximum_as_jammed(
    still_board: Callable[..., VirtualMCU],
) -> None:
    """A whole duel for 20 cards on a jammed launcher, through the service and SerialUnit."""
    mcu = still_board()
    mcu.jam()
    fw, hw = mcu.firmware, mcu.hw
    assert fw is not None and hw is not None
    with open_table(mcu.port, link_options=STILL_LINK) as table:
        table.service.load(cards=20)
        table.service.start(250_000)
        assert table.wait_for(lambda e: isinstance(e, CountdownStarted))
        assert mcu.wait_until(lambda: fw.cd_on)
        _advance_while_heartbeating(mcu, codec.ticks_diff(fw.cd_go, mcu.ticks_us()))
        assert table.wait_for(lambda e: isinstance(e, GoShown))
        _advance_while_heartbeating(mcu, 10_000)
        mcu.press(codec.RIGHT)
        verdicts = table.wait_for(lambda e: isinstance(e, VerdictGiven))
        assert verdicts and verdicts[0].result.winner is Side.RIGHT  # type: ignore[attr-defined]
        assert mcu.wait_until(lambda: mcu.motor_running)
        t0 = hw.motor_switches[0][0]
        _advance_while_heartbeating(mcu, codec.ticks_diff(codec.ticks_add(t0, MAX_ON_US - 1),
                                                          mcu.ticks_us()))
        assert mcu.motor_running and not table.launches_done()
        mcu.advance(1)
        done = table.wait_for(lambda e: isinstance(e, LaunchFinished), 2)
        assert [(e.duel_id, e.cards_counted, e.jammed) for e in done] == [
            (table.service.duel_id, 0, True)]
        assert hw.motor_switches == [(t0, True), (codec.ticks_add(t0, MAX_ON_US), False)]
        problems = [e.reason for e in table.events if isinstance(e, UnitFault)]
        assert problems == ["the launcher hit its maximum on-time and was stopped"]
        table.assert_launched_at_most_once(mcu)


def test_the_serial_unit_turns_the_capped_launch_into_a_fault_and_a_jammed_finish(
    still_board: Callable[..., VirtualMCU],
) -> None:
    mcu = still_board(card_sensor=False)
    unit = SerialUnit(mcu.port, **STILL_LINK)
    try:
        assert unit.link.wait_ready(3)
        assert mcu.wait_until(lambda: mcu.firmware is not None and mcu.firmware.heard_hb)
        unit.launch((LaunchPart(Side.LEFT, 20), LaunchPart(Side.RIGHT, 20)))
        assert mcu.wait_until(lambda: mcu.motor_running)
        _advance_while_heartbeating(mcu, MAX_ON_US)
        inputs: list[object] = []
        while not any(isinstance(i, LaunchFinished) for i in inputs):
            got = unit.read_inputs(2.0)
            assert got, "the unit reported nothing"
            inputs += got
        assert mcu.hw is not None
        stop = unit.link.clock.unwrap(codec.ticks_add(mcu.hw.motor_switches[0][0], MAX_ON_US))
        assert inputs == [
            UnitFault(stop, "the launcher hit its maximum on-time and was stopped",
                      abort_duel=False),
            LaunchFinished(stop, cards_counted=None, jammed=True),
        ]
    finally:
        unit.close()
