"""After an early press the next duel waits for the other player's time to react, and says so.

The other player's reaction is timed up to the response timeout after the go the countdown
would have shown, so the next duel can start only then (14.5 s after an early press on a
table with a long countdown). The table says how long, at the verdict, and again when
someone presses the timer button meanwhile (which does nothing yet).
"""

from __future__ import annotations

import logging
import random

import pytest

from hardware.fake import FakeUnit
from showdown.contract.events import (
    CountdownStarted,
    PaddlePressed,
    ReactionsTimed,
    Side,
    TimerPressed,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService


def test_the_wait_after_an_early_press_is_said_and_a_button_press_meanwhile_is_told(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="showdown.service.loop")
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(settle_us=25_000), rng=random.Random(1))
    feed = service.subscribe("test")
    heard: list[object] = []

    def until(pred) -> None:  # type: ignore[no-untyped-def]
        for _ in range(10_000):
            heard.extend(feed.drain())
            if pred():
                return
            service.step()
        raise AssertionError("the service never got there")

    service.load(Side.LEFT, Side.RIGHT, 1)
    service.start(6_000_000)
    until(lambda: any(isinstance(e, CountdownStarted) for e in heard))
    start = unit.now_us()
    unit.deliver(PaddlePressed(Side.LEFT, start + 500_000))  # early, half a second in
    until(lambda: any(isinstance(e, VerdictGiven) for e in heard))
    # go would have come at 6 s, the reaction is timed up to 3 s after it: 8.5 s from the press
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    # said with `run --verbose` (`run --headless` prints it with the verdict, quiet otherwise:
    # `simulate` plays thousands of duels)
    assert said == [(logging.INFO, "duel 1: early press; the next duel can start in 8.5 s, "
                     "once the other player's time to react is up")], said
    unit.advance_to(start + 4_500_000)
    unit.deliver(TimerPressed(start + 4_500_000))
    until(lambda: len(caplog.records) == 2)
    assert caplog.records[1].levelno == logging.WARNING  # shown by `run`
    assert caplog.records[1].getMessage() == (
        "the timer button does nothing yet: duel 1 is still timing the other player's "
        "reaction; the next duel can start in 4.5 s")
    until(lambda: any(isinstance(e, ReactionsTimed) for e in heard))

