"""`run --headless` prints, under an early-press verdict, when the next duel can start.

The other player's reaction is timed up to the response timeout after the go the countdown
would have shown; the next duel loads only then, and a timer-button press does nothing
until then (the service says so): the line says how long.
"""

from __future__ import annotations

import random

from hardware.fake import FakeUnit
from showdown.contract.events import PaddlePressed, Side, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from uno_showdown.headless.table import HeadlessTable


def test_run_headless_says_the_wait_under_an_early_press_verdict() -> None:
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(settle_us=25_000), rng=random.Random(1))
    lines: list[str] = []
    table = HeadlessTable(service, 1, None, say=lines.append)
    service.load(Side.LEFT, Side.RIGHT, 1)
    service.start(6_000_000)
    for _ in range(5):
        service.step(0)
    unit.deliver(PaddlePressed(Side.RIGHT, unit.now_us() + 500_000))
    feed = service.subscribe("test")
    for _ in range(10_000):
        verdicts = [e for e in feed.drain() if isinstance(e, VerdictGiven)]
        if verdicts:
            break
        service.step()
    table.tell(verdicts[0])
    assert lines == ["duel 1: right pressed early; right takes 1",
                     "  the next duel can start in 8.5 s, once the other player's time to react "
                     "is up"], lines
