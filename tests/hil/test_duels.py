"""Whole duels through the service, the serial unit, a pseudo-terminal and the firmware.

Every test ends by checking the property that matters most: no duel launched
twice and none after an abort, on the host side and (virtual board) by counting
how often the motor actually started.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from showdown.contract.events import (
    CountdownStarted,
    EarlyPressSeen,
    GoShown,
    LaunchFinished,
    Outcome,
    Side,
    UnitFault,
    VerdictGiven,
)
from tests.hil.conftest import FAST, Rig, Table, open_table

pytestmark = pytest.mark.hil


def _of(duel_id: int, kind: type) -> object:
    return lambda e: isinstance(e, kind) and getattr(e, "duel_id", None) == duel_id


def _go(table: Table, duel_id: int) -> GoShown:
    got = table.wait_for(_of(duel_id, GoShown), 3)
    assert got, "the board never showed go"
    return got[0]  # type: ignore[return-value]


def _verdict(table: Table, duel_id: int, timeout_s: float = 3) -> VerdictGiven:
    got = table.wait_for(_of(duel_id, VerdictGiven), timeout_s)
    assert got, "no verdict"
    return got[-1]  # type: ignore[return-value]


def _launch_done(table: Table, count: int = 1) -> list[LaunchFinished]:
    return table.wait_for(lambda e: isinstance(e, LaunchFinished), 3, count)  # type: ignore[return-value]


def _start(table: Table, cards: int, countdown_us: int) -> int:
    """Load and start a duel; its id once the countdown has started."""
    def started(e: object) -> bool:
        return isinstance(e, CountdownStarted)

    before = len(table.wait_for(started, 0))
    table.service.load(cards=cards)
    table.service.start(countdown_us)
    got = table.wait_for(started, 3, before + 1)
    assert len(got) > before, "the countdown did not start"
    return got[-1].duel_id  # type: ignore[attr-defined]


def _play(table: Table, mcu: VirtualMCU, presses: list[tuple[int, int]], cards: int = 1,
          countdown_us: int = 250_000) -> VerdictGiven:
    """Load, start, and press each (side, µs after the board's go) exactly at that board tick."""
    duel_id = _start(table, cards, countdown_us)
    go = _go(table, duel_id)
    go_raw = table.unit.link.to_raw(go.t_us)
    for side, after_us in presses:
        mcu.press(side, codec.ticks_add(go_raw, after_us))
    return _verdict(table, duel_id)


@pytest.mark.parametrize(("gap_us", "winner"), [(150, Side.RIGHT), (-2_000, Side.LEFT)])
def test_the_faster_board_stamp_wins_and_the_loser_gets_the_cards(
    rig: Rig, table: Table, gap_us: int, winner: Side
) -> None:
    mcu = rig.need_virtual()
    # the right paddle at go+20 ms, the left one gap_us later (negative: earlier)
    verdict = _play(table, mcu, [(codec.RIGHT, 20_000), (codec.LEFT, 20_000 + gap_us)], cards=3)
    result = verdict.result
    assert result.outcome is Outcome.FASTER and result.winner is winner
    assert result.launch[0].side is winner.other and result.launch[0].cards == 3
    assert result.reaction_us[winner] == (20_000 if winner is Side.RIGHT else 18_000)
    done = _launch_done(table)
    assert done[0].cards_counted == 3 and not done[0].jammed
    table.assert_launched_at_most_once(mcu)


def test_an_early_press_freezes_the_board_countdown_and_loses(rig: Rig, table: Table) -> None:
    mcu = rig.need_virtual()
    duel_id = _start(table, 2, 400_000)
    mcu.press(codec.LEFT)
    verdict = _verdict(table, duel_id)
    assert verdict.result.outcome is Outcome.EARLY_PRESS
    assert verdict.result.loser is Side.LEFT and verdict.result.launch[0].side is Side.LEFT
    assert table.wait_for(lambda e: isinstance(e, EarlyPressSeen), 1)
    assert mcu.firmware is not None and mcu.firmware.cd_frozen
    _launch_done(table)
    # the frozen countdown never lit "go", even well after it was due
    assert not table.wait_for(lambda e: isinstance(e, GoShown), 0.2)
    assert mcu.hw is not None and mcu.hw.go_led.value() == 0
    table.assert_launched_at_most_once(mcu)


def test_a_counter_wrap_during_the_duel_changes_nothing(rig: Rig) -> None:
    mcu = rig.need_virtual()
    mcu.reset(start_ticks=codec.TICKS_PERIOD - 1_000_000)  # the 2^30 wrap comes in a second
    with open_table(rig.port) as table:
        before_wrap = codec.ticks_diff(0, mcu.ticks_us())
        assert before_wrap > 300_000
        duel_id = _start(table, 1, before_wrap + 150_000)  # "go" lands just after the wrap
        started = table.wait_for(lambda e: isinstance(e, CountdownStarted))[-1]
        go = _go(table, duel_id)
        go_raw = table.unit.link.to_raw(go.t_us)
        start_raw = table.unit.link.to_raw(started.t_us)  # type: ignore[attr-defined]
        assert go_raw < start_raw, "the board clock should have wrapped between start and go"
        assert go.t_us > started.t_us  # the host's device clock did not
        mcu.press(codec.LEFT, codec.ticks_add(go_raw, 7_000))
        mcu.press(codec.RIGHT, codec.ticks_add(go_raw, 9_500))
        result = _verdict(table, duel_id).result
        assert result.winner is Side.LEFT and result.reaction_us[Side.LEFT] == 7_000
        _launch_done(table)
        table.assert_launched_at_most_once(mcu)


def test_noise_from_the_board_side_does_not_disturb_a_duel(rig: Rig, table: Table) -> None:
    mcu = rig.need_virtual()
    good = codec.encode(77, codec.PADDLE, (codec.LEFT, 5))
    mcu.send_raw(b"\x00\xff garbage $$$ " + good[:-4] + b"0000\n" + good[:9] + b"\n")
    verdict = _play(table, mcu, [(codec.LEFT, 30_000), (codec.RIGHT, 31_000)])
    assert verdict.result.winner is Side.LEFT
    assert table.unit.link.session.decoder.error_total() >= 2
    _launch_done(table)
    table.assert_launched_at_most_once(mcu)


@pytest.mark.parametrize("moment", ["countdown", "launch"])
@pytest.mark.parametrize("how", ["unplug", "reset"])
def test_losing_the_board_mid_duel_aborts_without_a_launch_and_recovers(
    rig: Rig, table: Table, moment: str, how: str
) -> None:
    mcu = rig.need_virtual()
    duel_id = _start(table, 2, 300_000)
    if moment == "launch":  # the verdict is in and the motor is running
        mcu.jam()  # no card comes out: the motor keeps running until the board is lost
        go = _go(table, duel_id)
        mcu.press(codec.RIGHT, codec.ticks_add(table.unit.link.to_raw(go.t_us), 10_000))
        _verdict(table, duel_id)
        assert mcu.wait_until(lambda: mcu.motor_running, 2), "the launch never started"
        assert mcu.launches == 1
    connects = table.unit.link.connects
    lost_at = time.monotonic()
    if how == "unplug":
        mcu.unplug()
        mcu.replug()
    else:
        mcu.reset()
    assert table.wait_for(lambda e: isinstance(e, UnitFault), 2)
    with table.unit.link._ready:
        table.unit.link._ready.wait_for(
            lambda: table.unit.link.connects > connects and table.unit.link.ready, timeout=2)
    assert table.unit.link.ready and time.monotonic() - lost_at < 2.0
    verdict = _verdict(table, duel_id)
    if moment == "countdown":
        assert verdict.result.outcome is Outcome.ABORTED and not verdict.result.launch
    assert not mcu.motor_running
    # the next duel runs normally on the recovered link
    after = _play(table, mcu, [(codec.LEFT, 15_000)])
    assert after.result.winner is Side.LEFT
    _launch_done(table, 1)
    table.wait_for(lambda e: isinstance(e, LaunchFinished) and e.duel_id == after.duel_id, 3)
    table.assert_launched_at_most_once(mcu)


def test_a_board_with_other_firmware_is_refused_with_a_clear_fault(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with VirtualMCU(tmp_path / "old-board", version=codec.VERSION + 1) as mcu:
        from hardware.serial_unit import SerialUnit

        unit = SerialUnit(mcu.port, heartbeat_s=0.05)
        try:
            faults = unit.read_inputs(2.0)
            assert faults and "protocol v2" in faults[0].reason  # type: ignore[union-attr]
            assert "uno-showdown firmware install" in faults[0].reason  # type: ignore[union-attr]
            unit.launch(())
            assert mcu.motor_starts == 0 and not unit.link.ready
        finally:
            unit.close()


def test_a_split_tie_launches_both_parts_in_one_launch(rig: Rig) -> None:
    mcu = rig.need_virtual()
    config = replace(FAST, tie_policy="split", tie_window_us=1_000)
    with open_table(rig.port, config) as table:
        # 400 µs apart: a tie within the 1 ms window, the cards split between both
        verdict = _play(table, mcu, [(codec.LEFT, 20_000), (codec.RIGHT, 20_400)], cards=4)
        result = verdict.result
        assert result.outcome is Outcome.TIE and not result.rematch
        assert sorted((p.side.value, p.cards) for p in result.launch) == [("left", 2), ("right", 2)]
        done = _launch_done(table)
        assert done[0].cards_counted == 4 and not done[0].jammed
        assert mcu.hw is not None
        # the motor ran one way, then the other: two starts, one launch
        assert [on for _, on in mcu.hw.motor_switches] == [True, False, True, False]
        assert mcu.motor_starts == 2 and mcu.launches == 1
        table.assert_launched_at_most_once(mcu)
