"""A launch the table stops is not a jam: no error beep, no "clear the launcher".

The board ends a launch cut short by a stop with the cards counted so far and
says a stop ended it; the serial unit must hand the service a finish that is
not jammed, so an aborted duel does not tell the players to clear rollers that
hold nothing. Driven on the virtual board's manual clock, so the cards counted
before the stop are known exactly.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from hardware.serial_unit import SerialUnit
from showdown.contract.events import (
    Beep,
    CountdownStarted,
    GoShown,
    LaunchFinished,
    LaunchPart,
    Side,
    UnitFault,
    VerdictGiven,
)
from tests.hil.conftest import STILL_LINK, open_table
from tests.hil.test_launcher_limits import _advance_while_heartbeating

pytestmark = pytest.mark.hil

CARD_PERIOD_US = 50_000  # the virtual card sensor: first card after two periods, then one each


def _two_cards_out(mcu: VirtualMCU) -> None:
    """Run the launcher until two cards have passed the sensor, in 10 ms turns of the board.

    The sensor pulses at most once a turn, so the clock moves in small steps; the
    170 ms stay well inside the board's host timeout, so no heartbeat is awaited.
    """
    for _ in range((3 * CARD_PERIOD_US + 20_000) // 10_000):
        mcu.advance(10_000)
        assert mcu.wait_until(lambda: True)
    assert mcu.firmware is not None and mcu.firmware._cards[0] == 2


def test_the_serial_unit_reports_a_stopped_launch_with_its_cards_and_not_jammed(
    still_board: Callable[..., VirtualMCU],
) -> None:
    mcu = still_board()
    unit = SerialUnit(mcu.port, **STILL_LINK)
    try:
        assert unit.link.wait_ready(3)
        assert mcu.wait_until(lambda: mcu.firmware is not None and mcu.firmware.heard_hb)
        unit.launch((LaunchPart(Side.LEFT, 10),))
        assert mcu.wait_until(lambda: mcu.motor_running)
        _two_cards_out(mcu)
        unit.stop_launcher()
        assert mcu.wait_until(lambda: not mcu.motor_running)
        assert mcu.hw is not None
        stopped = unit.link.clock.unwrap(mcu.hw.motor_switches[-1][0])
        inputs: list[object] = []
        while not any(isinstance(i, LaunchFinished) for i in inputs):
            got = unit.read_inputs(2.0)
            assert got, "the unit reported nothing"
            inputs += got
        inputs += unit.read_inputs(0.1)
        # the stop was the host's own: its end is the only news, and nothing jammed
        assert inputs == [LaunchFinished(stopped, cards_counted=2, jammed=False)]
    finally:
        unit.close()


def test_aborting_a_duel_during_its_launch_is_no_jam_for_the_table(
    still_board: Callable[..., VirtualMCU],
) -> None:
    """A whole duel through the service: the launch runs, the table aborts, no error follows."""
    mcu = still_board()
    fw, hw = mcu.firmware, mcu.hw
    assert fw is not None and hw is not None
    with open_table(mcu.port, link_options=STILL_LINK) as table:
        beeps: list[Beep] = []
        beep = table.unit.beep

        def record(kind: Beep) -> None:
            beeps.append(kind)
            beep(kind)

        table.unit.beep = record  # type: ignore[method-assign]
        table.service.load(cards=10)
        table.service.start(250_000)
        assert table.wait_for(lambda e: isinstance(e, CountdownStarted))
        assert mcu.wait_until(lambda: fw.cd_on)
        _advance_while_heartbeating(mcu, codec.ticks_diff(fw.cd_go, mcu.ticks_us()))
        assert table.wait_for(lambda e: isinstance(e, GoShown))
        _advance_while_heartbeating(mcu, 10_000)
        mcu.press(codec.RIGHT)
        assert table.wait_for(lambda e: isinstance(e, VerdictGiven))
        assert mcu.wait_until(lambda: mcu.motor_running)
        _two_cards_out(mcu)
        table.service.abort()
        done = table.wait_for(lambda e: isinstance(e, LaunchFinished), 2)
        assert [(e.duel_id, e.cards_counted, e.jammed) for e in done] == [
            (table.service.duel_id, 2, False)]
        assert not mcu.motor_running
        assert Beep.ERROR not in beeps, beeps
        assert not [e for e in table.events if isinstance(e, UnitFault)]
        table.assert_launched_at_most_once(mcu)
