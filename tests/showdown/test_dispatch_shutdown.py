"""What a listener still had not taken at shutdown is named in one line: every duel whose
verdict, failed launch or contest it would have missed (the score keeper stores all three)."""

from __future__ import annotations

import threading

from showdown.contract.events import (
    DuelResult,
    LaunchFailed,
    Outcome,
    ServiceEvent,
    Side,
    VerdictContested,
    VerdictGiven,
)
from showdown.service.dispatch import Dispatcher

RESULT = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, Side.RIGHT, (), {}, decided_at_us=1)


def test_the_shutdown_line_names_failed_launches_and_contests_too() -> None:
    stuck = threading.Event()
    entered = threading.Event()

    def listener(event: ServiceEvent) -> None:
        entered.set()
        stuck.wait(10)  # a games file locked by another program

    dispatcher = Dispatcher()
    dispatcher.add(listener)
    dispatcher.emit(VerdictGiven(1, RESULT, Side.LEFT, Side.RIGHT, 1))  # the one in hand
    assert entered.wait(5)
    dispatcher.emit(VerdictGiven(2, RESULT, Side.LEFT, Side.RIGHT, 1))
    dispatcher.emit(LaunchFailed(2, "lost the board", RESULT.with_launch_failed("x", 2),
                                 Side.LEFT, Side.RIGHT, 1))
    dispatcher.emit(VerdictContested(3, Side.RIGHT, 5, 9, Outcome.FASTER, Outcome.FASTER,
                                     Side.RIGHT))
    try:
        [busy] = dispatcher.close(0.05)
    finally:
        stuck.set()
    assert busy.endswith(".listener (3 event(s) waiting with the verdicts of duels 2, the failed "
                    "launches of duels 2, the contests of duels 3, one still in hand)")
