"""A launch the unit did not confirm ends its duel as launch failed, everywhere it is told.

The service keeps the verdict whose launch is still unconfirmed; a `UnitFault` with
`launch_failed` (the serial unit's "not sent", "not acknowledged" or "refused") turns that
duel into `Outcome.LAUNCH_FAILED`: `LaunchFailed` to the listeners, a `launch_failed` line
in the duel log, no winner, loser or cards in the games file, and one line from `run`.
A launch the unit finished is never undone by a later fault. (On the virtual board, over
the real link: tests/hil/test_launch_failed.py.)
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from companion.app import CompanionApp
from companion.screen.views.facts import duel_lines
from companion.store.recover import read_log
from hardware.fake import FakeUnit
from showdown.contract.events import (
    Beep,
    LaunchFailed,
    LaunchPart,
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    ServiceEvent,
    Side,
    TimerPressed,
    UnitFault,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.duel.replay import replay
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService
from uno_showdown.commands.run import run_headless
from uno_showdown.window.duel_bar import DuelChooser

PLAYERS = {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
NOT_ACKNOWLEDGED = "lost the board: the board did not acknowledge command LA #3"


class UnconfirmingUnit(FakeUnit):
    """A unit whose launches are never confirmed: the link gives up on them 250 ms on."""

    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        self._record("launch", parts)
        self.launches.append(parts)
        self.deliver(UnitFault(self._now + 250_000, NOT_ACKNOWLEDGED, abort_duel=True,
                               launch_failed=True))


def table(unit: FakeUnit, log: io.StringIO) -> tuple[ShowdownService, list[ServiceEvent]]:
    config = DuelConfig(countdown_min_us=1_000_000, countdown_max_us=1_000_000)
    service = ShowdownService(unit, config, rng=random.Random(1),
                              duel_log=DuelLog(stream=log))
    heard: list[ServiceEvent] = []
    service.add_listener(heard.append)
    return service, heard


def logged(service: ShowdownService, log: io.StringIO) -> str:
    """The duel log as written so far (its writer thread has caught up)."""
    assert service.duel_log is not None and service.duel_log.flush(5.0)
    return log.getvalue()


def one_duel(unit: FakeUnit, start_us: int = 100_000) -> None:
    """Ann (left) presses 200 ms after go, Bob 50 ms later: Bob takes the cards."""
    unit.deliver(TimerPressed(start_us))
    unit.deliver(PaddlePressed(Side.LEFT, start_us + 1_200_000))
    unit.deliver(PaddlePressed(Side.RIGHT, start_us + 1_250_000))


def run_until(service: ShowdownService, unit: FakeUnit, t_us: int) -> None:
    while unit.now_us() < t_us:
        service.step(0.05)
    assert service.flush_listeners(3) == []


def test_an_unconfirmed_launch_ends_its_duel_as_launch_failed() -> None:
    log = io.StringIO()
    unit = UnconfirmingUnit()
    service, heard = table(unit, log)
    service.load(Side.LEFT, Side.RIGHT, 2, PLAYERS)
    one_duel(unit)
    run_until(service, unit, 2_000_000)
    [verdict] = [e for e in heard if isinstance(e, VerdictGiven)]
    assert verdict.result.outcome is Outcome.FASTER and verdict.result.loser is Side.RIGHT
    [failed] = [e for e in heard if isinstance(e, LaunchFailed)]
    assert (failed.duel_id, failed.reason, failed.cards, dict(failed.players)) == (
        verdict.duel_id, NOT_ACKNOWLEDGED, 2, PLAYERS)
    r = failed.result
    assert (r.outcome, r.winner, r.loser, r.arrow, r.launch) == (
        Outcome.LAUNCH_FAILED, None, None, None, ())
    assert r.reaction_us == verdict.result.reaction_us  # the presses happened
    assert heard.index(failed) > heard.index(verdict)
    assert service.results[-1] == (verdict.duel_id, r)
    assert ("beep", (Beep.ERROR,)) in [(c.name, c.args) for c in unit.calls]
    lines = [json.loads(line) for line in logged(service, log).splitlines()]
    assert {"input": "launch_failed", "duel": 1, "t_us": r.decided_at_us,
            "reason": NOT_ACKNOWLEDGED} in lines
    [replayed] = replay(logged(service, log).splitlines())  # the judgement is the table's
    assert replayed.result.outcome is Outcome.FASTER and replayed.matches is True


def test_a_finished_launch_is_never_undone_and_a_fault_without_a_launch_changes_nothing(
) -> None:
    log = io.StringIO()
    unit = FakeUnit()  # confirms every launch: LaunchFinished 300 ms on
    service, heard = table(unit, log)
    unit.deliver(UnitFault(50_000, "the launch was not sent", abort_duel=False,
                           launch_failed=True))  # before any verdict: nothing to fail
    service.load(Side.LEFT, Side.RIGHT, 2, PLAYERS)
    one_duel(unit)
    unit.deliver(UnitFault(2_500_000, NOT_ACKNOWLEDGED, abort_duel=True, launch_failed=True))
    run_until(service, unit, 3_000_000)
    assert not [e for e in heard if isinstance(e, LaunchFailed)]
    assert [e.result.outcome for e in heard if isinstance(e, VerdictGiven)] == [Outcome.FASTER]
    assert '"launch_failed"' not in logged(service, log)


def test_a_failure_heard_after_the_next_duel_was_loaded_fails_the_launched_duel() -> None:
    """The headless table loads the next duel as soon as both are timed, which can be
    before the link gives up on the launch: the failure still finds its own duel."""
    log = io.StringIO()
    unit = UnconfirmingUnit()
    service, heard = table(unit, log)
    service.load(Side.LEFT, Side.RIGHT, 2, PLAYERS)
    one_duel(unit)
    run_until(service, unit, 1_400_000)  # the verdict and both times are in ...
    assert [e for e in heard if isinstance(e, ReactionsTimed)]
    service.load(Side.RIGHT, Side.LEFT, 3, {Side.LEFT: "Cid", Side.RIGHT: "Dan"})  # ... next
    run_until(service, unit, 2_000_000)
    [failed] = [e for e in heard if isinstance(e, LaunchFailed)]
    assert failed.duel_id == 1 and failed.cards == 2 and dict(failed.players) == PLAYERS
    # the board is gone, so the loaded duel is aborted (it never launched): not failed
    verdicts = [(e.duel_id, e.result.outcome) for e in heard if isinstance(e, VerdictGiven)]
    assert verdicts == [(1, Outcome.FASTER), (2, Outcome.ABORTED)]


def test_run_says_the_launch_failed_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    unit = UnconfirmingUnit()
    service, _heard = table(unit, io.StringIO())

    def stop_after_the_failure(event: ServiceEvent) -> None:
        if isinstance(event, LaunchFailed):
            service.stop()

    service.add_listener(stop_after_the_failure)
    one_duel(unit)
    assert run_headless(service, 2, None) == 0
    out = capsys.readouterr().out
    assert "duel 1: left was faster; right takes 2" in out
    assert (f"duel 1: launch failed ({NOT_ACKNOWLEDGED}): nobody takes the cards; load the "
            "duel again") in out


def test_the_duel_bar_and_the_screen_say_it(tmp_path: Path) -> None:
    unit = UnconfirmingUnit()
    service, heard = table(unit, io.StringIO())
    service.load(Side.LEFT, Side.RIGHT, 2, PLAYERS)
    one_duel(unit)
    run_until(service, unit, 2_000_000)
    chooser = DuelChooser(lambda side: side.value)
    for event in heard:
        chooser.hear(event, {})
    assert chooser.status.startswith(f"Launch failed ({NOT_ACKNOWLEDGED})")
    assert "nobody takes the cards" in chooser.status and not chooser.busy

    with CompanionApp.open(tmp_path / "games.db", lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        for event in heard:
            app.on_service_event(event)
        assert app.flush_duels(3)
        app.refresh()
        [row] = app.duels()
        assert (row.outcome, row.winner, row.loser) == ("launch_failed", None, None)
        texts = [text for text, _colour in duel_lines(row)]
        assert "Launch failed: no cards" in texts and not any("takes" in t for t in texts)
        assert {s.name: (s.duels, s.wins) for s in app.duel_stats().values()} == {
            "Ann": (1, 0), "Bob": (1, 0)}


@pytest.mark.parametrize("written_first", [True, False])
def test_the_games_file_keeps_it_whether_the_duel_was_written_yet_or_not(
        tmp_path: Path, written_first: bool) -> None:
    unit = UnconfirmingUnit()
    service, heard = table(unit, io.StringIO())
    service.load(Side.LEFT, Side.RIGHT, 2, PLAYERS)
    one_duel(unit)
    run_until(service, unit, 2_000_000)
    with CompanionApp.open(tmp_path / "games.db", lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        for event in heard:
            app.on_service_event(event)
            if written_first and isinstance(event, VerdictGiven):
                assert app.flush_duels(3)  # stored as "faster", then changed
                app.refresh()
                assert app.duels()[0].outcome == "faster"
        assert app.flush_duels(3)
        app.refresh()
        assert [(d.outcome, d.winner, d.loser) for d in app.duels()] == [
            ("launch_failed", None, None)]


def test_a_duel_taken_back_from_the_log_is_launch_failed_too() -> None:
    log = io.StringIO()
    unit = UnconfirmingUnit()
    service, _heard = table(unit, log)
    service.load(Side.LEFT, Side.RIGHT, 2, PLAYERS)
    one_duel(unit)
    run_until(service, unit, 2_000_000)
    reading = read_log(logged(service, log).splitlines())
    [duel] = reading.duels
    assert (duel.outcome, duel.winner, duel.loser) == (Outcome.LAUNCH_FAILED, None, None)
