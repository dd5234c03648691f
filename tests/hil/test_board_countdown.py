"""The board's countdown and the duel engine's share one start, so they share one go.

The board counts down on its own clock from the instant the engine started the
duel (the timer button's own stamp, however late it reached the host), lights
go at or just after the engine's planned go, and the duel is judged on the go
the board reports having shown.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from showdown.contract.events import (
    CountdownStarted,
    DuelLoaded,
    EarlyPressSeen,
    GoShown,
    LaunchFinished,
    Outcome,
    ServiceEvent,
    Side,
    VerdictGiven,
)
from tests.hil.conftest import STILL_LINK, RawHost, Rig, Table, open_table

pytestmark = pytest.mark.hil


def _one(table: Table, kind: type, timeout_s: float = 3.0) -> ServiceEvent:
    got = table.wait_for(lambda e: isinstance(e, kind), timeout_s)
    assert got, f"no {kind.__name__}"
    return got[-1]


def _loaded(table: Table, cards: int = 2) -> None:
    table.service.load(cards=cards)
    _one(table, DuelLoaded)


@pytest.mark.parametrize("late_us", [0, 150_000, 600_000])
def test_a_duel_started_on_the_board_button_goes_exactly_at_the_board_go(
    rig: Rig, table: Table, late_us: int
) -> None:
    """`late_us`: how long before the host heard of it the button was pressed (a busy host)."""
    mcu = rig.need_virtual()
    fw = mcu.firmware
    assert fw is not None
    _loaded(table)
    button = codec.ticks_add(mcu.ticks_us(), -late_us)
    mcu.press_button(button)
    started = _one(table, CountdownStarted)
    assert isinstance(started, CountdownStarted)
    link = table.unit.link
    # the engine started the duel at the button's stamp, and so did the board
    assert started.t_us == link.clock.unwrap(button)
    assert mcu.wait_until(lambda: fw.cd_start == button)
    planned_go = started.t_us + started.countdown_us
    assert fw.cd_go == link.to_raw(planned_go)
    go = _one(table, GoShown)
    assert isinstance(go, GoShown) and go.t_us >= planned_go  # never before the plan
    go_raw = link.to_raw(go.t_us)
    mcu.press(codec.LEFT, codec.ticks_add(go_raw, 5_000))
    mcu.press(codec.RIGHT, codec.ticks_add(go_raw, 9_000))
    verdict = _one(table, VerdictGiven)
    assert isinstance(verdict, VerdictGiven)
    assert verdict.result.go_us == go.t_us  # the duel's go is the board's go
    assert verdict.result.winner is Side.LEFT and verdict.result.reaction_us[Side.LEFT] == 5_000
    _one(table, LaunchFinished)
    table.assert_launched_at_most_once(mcu)


def test_a_software_start_counts_from_the_engine_start_on_the_board(
    rig: Rig, table: Table
) -> None:
    mcu = rig.need_virtual()
    fw = mcu.firmware
    assert fw is not None
    _loaded(table)
    table.service.start(250_000)
    started = _one(table, CountdownStarted)
    assert isinstance(started, CountdownStarted)
    start_raw = table.unit.link.to_raw(started.t_us)
    assert mcu.wait_until(lambda: fw.cd_start == start_raw)
    assert fw.cd_go == codec.ticks_add(start_raw, 250_000)
    go = _one(table, GoShown)
    assert isinstance(go, GoShown) and go.t_us >= started.t_us + 250_000


def test_a_press_a_microsecond_before_the_planned_go_freezes_the_board_and_loses(
    rig: Rig, table: Table
) -> None:
    mcu = rig.need_virtual()
    fw = mcu.firmware
    assert fw is not None
    _loaded(table)
    mcu.press_button()
    started = _one(table, CountdownStarted)
    assert isinstance(started, CountdownStarted)
    planned_go = started.t_us + started.countdown_us
    mcu.press(codec.RIGHT, table.unit.link.to_raw(planned_go - 1))
    verdict = _one(table, VerdictGiven)
    assert isinstance(verdict, VerdictGiven)
    assert verdict.result.outcome is Outcome.EARLY_PRESS and verdict.result.loser is Side.RIGHT
    assert verdict.result.reaction_us[Side.RIGHT] == -1
    assert _one(table, EarlyPressSeen)
    assert mcu.wait_until(lambda: fw.cd_frozen)
    assert not table.wait_for(lambda e: isinstance(e, GoShown), 0.2)  # go never lit
    assert mcu.hw is not None and mcu.hw.go_led.value() == 0
    _one(table, LaunchFinished)
    table.assert_launched_at_most_once(mcu)


@pytest.mark.parametrize(("after_planned_us", "outcome"),
                         [(500, Outcome.EARLY_PRESS), (1_500, Outcome.FASTER)])
def test_a_press_is_judged_against_the_go_the_board_actually_lit(
    still_board: Callable[..., VirtualMCU], after_planned_us: int, outcome: Outcome
) -> None:
    """The board lights go 1 ms after the planned go (its loop was busy): a press between
    the two came before the light and is early; one after the light is timed from it."""
    mcu = still_board()
    fw = mcu.firmware
    assert fw is not None
    with open_table(mcu.port, link_options=STILL_LINK) as table:
        _loaded(table)
        table.service.start(200_000)
        _one(table, CountdownStarted)
        assert mcu.wait_until(lambda: fw.cd_on)
        planned = fw.cd_go
        shown = codec.ticks_add(planned, 1_000)
        mcu.advance(codec.ticks_diff(shown, mcu.ticks_us()))  # < the 0.5 s host timeout
        go = _one(table, GoShown)
        assert isinstance(go, GoShown) and table.unit.link.to_raw(go.t_us) == shown
        mcu.press(codec.LEFT, codec.ticks_add(planned, after_planned_us))
        mcu.advance(30_000)  # the board's time moves on; the host's verdict follows
        verdict = _one(table, VerdictGiven)
        assert isinstance(verdict, VerdictGiven)
        assert verdict.result.outcome is outcome and verdict.result.go_us == go.t_us
        assert verdict.result.reaction_us[Side.LEFT] == after_planned_us - 1_000
        assert (verdict.result.loser if outcome is Outcome.EARLY_PRESS
                else verdict.result.winner) is Side.LEFT


def test_a_press_one_tick_wrap_before_a_countdown_does_not_freeze_it(
    still_board: Callable[..., VirtualMCU],
) -> None:
    """Ticks wrap every 2^30 µs (17.9 minutes): a press made that long before a duel's
    start would look like one made just after it, and freeze the countdown for nothing."""
    mcu = still_board()
    fw = mcu.firmware
    assert fw is not None
    host = RawHost(mcu.port)
    try:
        assert host.hello()
        mcu.press(codec.LEFT)  # between duels
        pressed = mcu.ticks_us()
        assert mcu.wait_until(lambda: fw.paddle_t[0] == pressed)
        for _ in range(8):  # one whole wrap of the board's ticks, its loop turning all along
            mcu.advance(codec.TICKS_PERIOD // 8)
            assert mcu.wait_until(lambda: True)
        assert mcu.advance(500) == codec.ticks_add(pressed, 500)  # the press "was" 0.5 ms ago
        start = codec.ticks_add(mcu.ticks_us(), -1_000)  # the engine started 1 ms ago
        assert host.command(1, codec.COUNTDOWN, (3_000_000, start)) == (
            0, codec.ACK, (1, codec.ACK_DONE))
        host.send(0, codec.HB)
        state = host.expect(lambda f: f[1] == codec.HB)
        assert state is not None and state[2][1] == 1  # counting down, not frozen
        mcu.press(codec.LEFT)  # a press made now, before go, still freezes it
        assert mcu.wait_until(lambda: fw.cd_frozen)
    finally:
        host.close()
