"""Whole duels through the service on the GPIO unit, with edges stamped and delivered by hand."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import GpioUnit, factory_stamps_edges
from hardware.pinmap import load_pinmap
from showdown.contract.events import (
    CountdownStarted,
    DuelLoaded,
    EarlyPressSeen,
    GoShown,
    LaunchFinished,
    Outcome,
    Side,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from tests.hardware.mockpins import EdgePin, EventLog, RecordingUnit, on_time_s, tick_for, within

CONFIG = DuelConfig(settle_us=100_000, tie_window_us=100)


@pytest.fixture
def table(
    make_unit: Callable[..., RecordingUnit],
) -> Iterator[tuple[RecordingUnit, ShowdownService, EventLog]]:
    unit = make_unit()
    events = EventLog()
    service = ShowdownService(unit, CONFIG, listeners=(events,))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    yield unit, service, events
    service.stop()
    runner.join(timeout=5)
    assert not runner.is_alive()


def test_faster_player_wins_and_cards_fly_at_the_slower(table) -> None:
    unit, service, events = table
    service.load(Side.LEFT, cards=2)
    service.start(countdown_us=60_000)
    started = events.wait_for(CountdownStarted)
    go = events.wait_for(GoShown)
    assert go.t_us >= started.t_us + 60_000
    assert unit.go_light.is_lit

    unit.paddles[Side.RIGHT].pin.press(tick_for(unit, go.t_us + 180_000))
    unit.paddles[Side.LEFT].pin.press(tick_for(unit, go.t_us + 240_000))
    verdict = events.wait_for(VerdictGiven)
    assert verdict.result.outcome is Outcome.FASTER
    assert verdict.result.winner is Side.RIGHT
    assert verdict.result.reaction_us[Side.RIGHT] == pytest.approx(180_000, abs=1)

    done = events.wait_for(LaunchFinished)
    assert done.jammed is False
    motor = unit.launcher.motor
    # The default map throws forward to the left: the loser.
    assert [length for _, length in on_time_s(motor.forward_device.pin)] == [
        within(0.060)]  # 20 ms base + 2 x 20 ms per card
    assert on_time_s(motor.backward_device.pin) == []
    assert not motor.is_active
    assert verdict.result.arrow is None  # the arrow is for early presses
    assert on_time_s(unit.arrows[Side.LEFT].pin) == on_time_s(unit.arrows[Side.RIGHT].pin) == []


def test_a_late_delivered_edge_with_the_earlier_tick_wins(table) -> None:
    unit, service, events = table
    service.load(Side.LEFT, cards=1)
    service.start(countdown_us=40_000)
    go = events.wait_for(GoShown)

    unit.paddles[Side.RIGHT].pin.press(tick_for(unit, go.t_us + 150_000))
    unit.wait_read(1)  # the later press has reached the service ...
    unit.paddles[Side.LEFT].pin.press(tick_for(unit, go.t_us + 149_000))  # ... before this one

    verdict = events.wait_for(VerdictGiven)
    assert verdict.result.winner is Side.LEFT
    assert verdict.result.reaction_us[Side.LEFT] == pytest.approx(149_000, abs=1)
    events.wait_for(LaunchFinished)
    motor = unit.launcher.motor
    assert len(on_time_s(motor.backward_device.pin)) == 1  # right is backward
    assert on_time_s(motor.forward_device.pin) == []


def test_an_early_press_freezes_the_countdown_and_loses(table) -> None:
    unit, service, events = table
    service.load(Side.RIGHT, cards=3)
    service.start(countdown_us=3_000_000)
    started = events.wait_for(CountdownStarted)
    assert unit.countdown is not None and unit.countdown.face == "3"

    unit.paddles[Side.LEFT].pin.press(tick_for(unit, started.t_us + 5_000))
    early = events.wait_for(EarlyPressSeen)
    assert early.side is Side.LEFT
    verdict = events.wait_for(VerdictGiven)
    assert verdict.result.outcome is Outcome.EARLY_PRESS
    assert verdict.result.loser is Side.LEFT
    events.wait_for(LaunchFinished)

    assert not unit.go_light.is_lit
    assert not list(events.of(GoShown))
    assert unit.countdown.face == "3"  # frozen where it stood
    assert len(on_time_s(unit.launcher.motor.forward_device.pin)) == 1  # left is forward
    left_arrow = unit.arrows[Side.LEFT].pin
    assert left_arrow.state or on_time_s(left_arrow)  # blinking toward the early presser
    assert on_time_s(unit.arrows[Side.RIGHT].pin) == []


def test_paddle_bounce_counts_the_first_edge_only(table) -> None:
    unit, service, events = table
    service.load(Side.LEFT, cards=1)
    service.start(countdown_us=40_000)
    go = events.wait_for(GoShown)
    left = unit.paddles[Side.LEFT].pin
    left.press(tick_for(unit, go.t_us + 200_000))
    left.release(tick_for(unit, go.t_us + 200_300))
    left.press(tick_for(unit, go.t_us + 200_600))
    unit.paddles[Side.RIGHT].pin.press(tick_for(unit, go.t_us + 200_400))
    verdict = events.wait_for(VerdictGiven)
    assert verdict.result.winner is Side.LEFT
    assert verdict.result.reaction_us[Side.LEFT] == pytest.approx(200_000, abs=1)


def test_the_timer_button_starts_a_loaded_duel(table) -> None:
    unit, service, events = table
    service.load(Side.LEFT, cards=1)
    events.wait_for(DuelLoaded)
    button = unit.timer_button.pin
    now = unit.now_us()
    button.press(tick_for(unit, now))
    button.release(tick_for(unit, now + 1_000))
    button.press(tick_for(unit, now + 2_000))  # bounce: ignored
    started = events.wait_for(CountdownStarted)
    assert started.t_us == pytest.approx(now, abs=1)  # the press edge, not the service read
    service.abort()
    assert events.wait_for(VerdictGiven).result.outcome is Outcome.ABORTED
    assert len(list(events.of(CountdownStarted))) == 1


def test_go_is_stamped_before_the_light_comes_on(make_unit) -> None:
    unit = make_unit()
    seen: list[int] = []
    light = unit.go_light.pin
    original = light._set_state

    def spy(value: object) -> None:
        seen.append(unit.now_us())
        original(value)

    light._set_state = spy
    stamp = unit.show_go()
    assert unit.go_light.is_lit
    assert seen and stamp <= seen[0]


def test_a_factory_without_edge_stamps_gives_one_fairness_warning(caplog) -> None:
    class RPiGPIOFactory(MockFactory):  # named like the real one; stamps at callback time
        pass

    assert factory_stamps_edges(MockFactory())
    f = RPiGPIOFactory(pin_class=EdgePin)
    unit = GpioUnit(load_pinmap(), f)
    try:
        assert unit.stamps_edges is False
        with caplog.at_level(logging.WARNING):
            ShowdownService(unit)
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1
        assert "less fairly" in warnings[0].getMessage()
    finally:
        unit.close()
        f.reset()
