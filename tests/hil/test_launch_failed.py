"""A launch the board did not confirm ends the duel as launch failed, on the virtual board.

Before, the verdict announced cards that never flew: after garbled `LA` frames the link
gave up ("the board did not acknowledge"), or after the board restarted right after the
verdict the launch was never sent, and still the verdict said "right takes 2", the
companion recorded it, and only a warning was logged. Now the duel that called for the
launch ends as launch failed: `LaunchFailed` tells every listener, the companion stores the
duel with no winner and no loser (nobody is credited a win or the cards), the duel log
says so in a `launch_failed` line (replay still judges the presses as the table did), and
the link reconnects by itself for the next duel.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.app import CompanionApp
from firmware_host.host.link import LinkReport, Lost
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from showdown.contract.events import (
    CountdownStarted,
    GoShown,
    LaunchFailed,
    LaunchPart,
    Outcome,
    Side,
    UnitFault,
    VerdictGiven,
)
from showdown.duel.replay import replay
from showdown.service.duel_log import DuelLog
from tests.hil.conftest import Rig, Table, open_table

pytestmark = pytest.mark.hil

PLAYERS = {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
#: The link's tries: the launch's frame and each of its retries are lost.
ALL_TRIES = 5


@pytest.fixture
def app(tmp_path: Path) -> Iterator[CompanionApp]:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"])
    yield app
    app.close()


@pytest.fixture
def log_text() -> io.StringIO:
    return io.StringIO()


@pytest.fixture
def table(rig: Rig, app: CompanionApp, log_text: io.StringIO) -> Iterator[Table]:
    rig.need_virtual()
    with open_table(rig.port, duel_log=DuelLog(stream=log_text)) as tab:
        tab.service.add_listener(app.on_service_event)
        yield tab


def duel_won_by_left(table: Table, mcu: VirtualMCU, before_press: Callable[[], None]) -> int:
    """Load a duel of two cards between Ann (left) and Bob (right), start it, and let Ann
    press 12 ms after the board's go; `before_press` runs just before her press."""
    for _attempt in range(3):  # a machine starved for seconds can lose the link before go
        assert table.unit.link.wait_ready(5), "the board did not answer"
        before = len(table.wait_for(lambda e: isinstance(e, CountdownStarted), 0))
        table.service.load(cards=2, players=PLAYERS)
        table.service.start(250_000)
        started = table.wait_for(lambda e: isinstance(e, CountdownStarted), 3,
                                 count=before + 1)
        assert len(started) == before + 1, "the countdown did not start"
        duel_id: int = started[-1].duel_id  # type: ignore[attr-defined]

        def go_or_abort(e: object, duel_id: int = duel_id) -> bool:
            return (isinstance(e, GoShown) and e.duel_id == duel_id) or (
                isinstance(e, VerdictGiven) and e.duel_id == duel_id
                and e.result.outcome is Outcome.ABORTED)

        seen = table.wait_for(go_or_abort, 3)
        go = [e for e in seen if isinstance(e, GoShown)]
        if go:
            break
    assert go, "the board never showed go"
    go_raw = table.unit.link.to_raw(go[0].t_us)  # type: ignore[attr-defined]
    before_press()
    mcu.press(codec.LEFT, codec.ticks_add(go_raw, 12_000))
    verdict = table.wait_for(lambda e: isinstance(e, VerdictGiven) and e.duel_id == duel_id, 3)
    assert verdict, "no verdict"
    result = verdict[-1].result  # type: ignore[attr-defined]
    # the judgement itself is what the stamps say: Ann was faster, Bob would take the cards
    assert result.outcome is Outcome.FASTER and result.winner is Side.LEFT
    assert result.launch == (LaunchPart(Side.RIGHT, 2),)
    return duel_id


def the_launch_failed(table: Table, app: CompanionApp, log_text: io.StringIO, duel_id: int,
                      why: str) -> None:
    """Everything a table keeps says the duel ended as launch failed, nobody credited."""
    failed = table.wait_for(lambda e: isinstance(e, LaunchFailed), 3)
    assert [e.duel_id for e in failed] == [duel_id], table.events  # type: ignore[attr-defined]
    event = failed[0]
    assert isinstance(event, LaunchFailed) and why in event.reason, event
    assert event.result.outcome is Outcome.LAUNCH_FAILED
    assert (event.result.winner, event.result.loser, event.result.launch) == (None, None, ())
    assert event.players == PLAYERS and event.cards == 2
    # the companion: the duel is stored as launch failed, and nobody has a win from it
    assert table.service.flush_listeners(3) == []  # the companion has heard it too ...
    assert app.flush_duels(3)  # ... and written it
    app.refresh()
    [stored] = app.duels()
    assert (stored.outcome, stored.winner, stored.loser, stored.cards) == (
        "launch_failed", None, None, 2)
    assert stored.reaction_us["Ann"] is not None  # the press was real: its time is kept
    assert {s.name: s.wins for s in app.duel_stats().values()} == {"Ann": 0, "Bob": 0}
    # the duel log: the line says so, and replay still judges the presses as the table did
    assert table.service.duel_log is not None and table.service.duel_log.flush(5.0)
    lines = log_text.getvalue().splitlines()
    assert any('"input": "launch_failed"' in line and f'"duel": {duel_id}' in line
               for line in lines), lines
    again, *loaded_next = replay(lines)
    assert again.result is not None
    assert again.result.outcome is Outcome.FASTER and again.matches is True
    assert all(r.unfinished for r in loaded_next), loaded_next  # a next duel has no verdict


def test_garbled_launch_frames_end_the_duel_as_launch_failed(
        rig: Rig, table: Table, app: CompanionApp, log_text: io.StringIO) -> None:
    mcu = rig.need_virtual()
    duel_id = duel_won_by_left(
        table, mcu, lambda: mcu.garble(b" LA ", to_board=True, frames=ALL_TRIES))
    the_launch_failed(table, app, log_text, duel_id, "did not acknowledge")
    assert mcu.launches == 0 and not mcu.motor_running  # the cards never flew
    assert table.unit.link.wait_ready(3), "the link did not come back"
    # the next duel launches as usual
    next_id = duel_won_by_left(table, mcu, lambda: None)
    assert table.wait_for(lambda e: isinstance(e, VerdictGiven) and e.duel_id == next_id, 3)
    assert mcu.wait_until(lambda: mcu.launches == 1, 3), "\n".join(map(repr, table.events))
    assert len(table.wait_for(lambda e: isinstance(e, LaunchFailed), 0.3)) == 1


def test_a_board_gone_when_the_verdict_launches_ends_the_duel_as_launch_failed(
        rig: Rig, table: Table, app: CompanionApp, log_text: io.StringIO) -> None:
    """The board is gone (restarting, or its cable pulled) between the verdict and its
    launch: the launch is never sent. It comes back, and the link with it."""
    mcu = rig.need_virtual()
    send = table.unit.launch

    lost = threading.Event()
    tell = table.unit.link._on_event

    def hear(event: LinkReport) -> None:
        if isinstance(event, Lost):
            lost.set()
        tell(event)

    table.unit.link._on_event = hear

    def gone_then_launch(parts: tuple[LaunchPart, ...]) -> None:
        mcu.unplug()
        assert lost.wait(3), "the loss went unseen"
        send(parts)
        mcu.replug()

    table.unit.launch = gone_then_launch  # type: ignore[method-assign]
    duel_id = duel_won_by_left(table, mcu, lambda: None)
    the_launch_failed(table, app, log_text, duel_id, "the launch was not sent")
    assert mcu.launches == 0
    assert table.unit.link.wait_ready(3), "the link did not come back"


def test_a_board_restart_with_the_launch_frame_in_flight_ends_it_as_launch_failed(
        rig: Rig, table: Table, app: CompanionApp, log_text: io.StringIO) -> None:
    """The launch's frame is lost on the line and the board restarts right after it: the
    link loses a session with the launch still unacknowledged. (Its retries are lost too,
    so a machine too busy to restart the board before the first retry, 50 ms on, still
    cannot let the launch reach the old board: the link then gives up on it instead.)"""
    mcu = rig.need_virtual()
    send = table.unit.launch
    boots = mcu.boots

    def launch_then_restart(parts: tuple[LaunchPart, ...]) -> None:
        send(parts)  # its frame is garbled on the line ...
        mcu.reset()  # ... and the board restarts

    table.unit.launch = launch_then_restart  # type: ignore[method-assign]
    duel_id = duel_won_by_left(
        table, mcu, lambda: mcu.garble(b" LA ", to_board=True, frames=ALL_TRIES))
    the_launch_failed(table, app, log_text, duel_id, "lost the board")
    assert mcu.launches == 0 and mcu.boots > boots
    faults = [e for e in table.events if isinstance(e, UnitFault)]
    assert faults and all(f.launch_failed for f in faults if f.reason == faults[0].reason)


def test_a_refused_launch_fails_that_launch_and_not_the_next_duel_already_loaded(
        rig: Rig, table: Table, app: CompanionApp, log_text: io.StringIO) -> None:
    """As `run --headless` does, the next duel is loaded the moment a verdict is given. The
    board then refuses the verdict's launch (its frame was lost, and by its retry the board
    had seen more commands than it remembers, so it can no longer vouch for it): that duel
    ends as launch failed, and the duel already loaded stays loaded, ready to start."""
    mcu = rig.need_virtual()
    send = table.unit.launch

    def launch_then_load_the_next(parts: tuple[LaunchPart, ...]) -> None:
        send(parts)  # its frame is garbled on the line ...
        for i in range(30):  # ... and more commands follow than the board remembers
            table.unit.set_arrow(Side.LEFT if i % 2 else Side.RIGHT)
        table.service.load(cards=1, players=PLAYERS)  # the loop applies it before the refusal

    table.unit.launch = launch_then_load_the_next  # type: ignore[method-assign]
    duel_id = duel_won_by_left(table, mcu, lambda: mcu.garble(b" LA ", to_board=True))
    the_launch_failed(table, app, log_text, duel_id, "refused the launch")
    assert mcu.launches == 0
    aborted = [e for e in table.verdicts() if e.result.outcome is Outcome.ABORTED]
    assert aborted == [], aborted
    table.unit.launch = send  # type: ignore[method-assign]
    table.service.start(250_000)
    started = table.wait_for(
        lambda e: isinstance(e, CountdownStarted) and e.duel_id == duel_id + 1, 3)
    assert started, "the next duel did not start: " + "\n".join(map(repr, table.events))
