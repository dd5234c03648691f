"""Whole duels on the real MicroPython image, with presses driven on the pins at chosen instants.

The runner presses a paddle a chosen number of emulated microseconds after an
output changes (the go LED lighting, the countdown starting), so the instant is
exact whatever the host and the machine are doing; the host's verdict must come
from the board's stamps of those very instants. How far each stamp the host
received lies from the instant the edge was driven goes to the run's summary.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.host.link import BoardReport, LinkReport
from firmware_host.wire import codec
from showdown.contract.events import (
    CountdownStarted,
    EarlyPressSeen,
    LaunchFinished,
    Outcome,
    Side,
    VerdictGiven,
)
from tests.hil.conftest import FAST, Table, open_table
from tests.pico.conftest import SETTLE_US, WAIT_S, deep, link_options
from tests.pico.emulated_pico import PINS, EmulatedPico

pytestmark = pytest.mark.pico

#: the duels' timing: short countdowns, and a response time long enough for the host's
#: estimate of the board clock, which runs ahead of an emulated board that lags
DUEL = replace(FAST, response_timeout_us=2_000_000)
#: a stamp is taken in the hard IRQ, a few emulated µs after the edge (measured 6-20 µs)
MAX_STAMP_ERROR_US = 100
#: the summary's title over the stamp errors
STAMPS = "emulated Pico: from the driven edge to the board's stamp of it (emulated µs)"


def _stamp_error(summary: Callable[[str, str], None], what: str, error: float) -> None:
    summary(STAMPS, f"{what:<40} {error:8.1f}")


@pytest.fixture
def table(pico: EmulatedPico) -> Iterator[Table]:
    with open_table(pico.port, DUEL, link_options=link_options(pico), settle_us=SETTLE_US) as tab:
        yield tab


def _board_reports(table: Table) -> list[BoardReport]:
    """Every event the board reports from now on, as the link hands it over (raw ticks)."""
    seen: list[BoardReport] = []
    link = table.unit.link
    tell: Callable[[LinkReport], None] = link._on_event

    def record(event: LinkReport) -> None:
        if isinstance(event, BoardReport):
            seen.append(event)
        tell(event)

    link._on_event = record
    return seen


def _of(duel_id: int, kind: type) -> Callable[[object], bool]:
    return lambda e: isinstance(e, kind) and getattr(e, "duel_id", None) == duel_id


def _start(table: Table, cards: int, countdown_us: int) -> int:
    before = len(table.wait_for(lambda e: isinstance(e, CountdownStarted), 0))
    table.service.load(cards=cards)
    table.service.start(countdown_us)
    got = table.wait_for(lambda e: isinstance(e, CountdownStarted), WAIT_S, before + 1)
    assert len(got) > before, "the countdown did not start"
    return got[-1].duel_id  # type: ignore[attr-defined]


def _verdict(table: Table, duel_id: int) -> VerdictGiven:
    got = table.wait_for(_of(duel_id, VerdictGiven), WAIT_S)
    assert got, "no verdict"
    return got[-1]  # type: ignore[return-value]


def _press_stamps(reports: list[BoardReport], sides: int = 1) -> dict[int, int]:
    """The raw board tick of each paddle's first press report, by side, once `sides` came.

    A press after the decisive one may still be on its way when the verdict is in.
    """
    deadline = time.monotonic() + WAIT_S
    while True:
        stamps: dict[int, int] = {}
        for report in list(reports):
            if report.kind == codec.PADDLE:
                stamps.setdefault(report.args[0], report.args[1])
        if len(stamps) >= sides or time.monotonic() > deadline:
            return stamps
        threading.Event().wait(0.02)  # polled: the reports come on the link's thread


def _driven(pico: EmulatedPico, tag: str) -> float:
    got = [d for d in pico.driven if d.get("tag") == tag]
    assert got, f"the runner never drove {tag}"
    return float(got[-1]["t_us"])


def _error(stamp: int, driven_us: float) -> float:
    """Emulated µs from a driven edge to the board's stamp of it (ticks wrap at 2^30)."""
    return (codec.ticks_diff(stamp, int(driven_us) % codec.TICKS_PERIOD)
            - (driven_us - int(driven_us)))


def _launch_done(table: Table, duel_id: int) -> LaunchFinished:
    got = table.wait_for(_of(duel_id, LaunchFinished), WAIT_S)
    assert got, "the launch never ended"
    return got[-1]  # type: ignore[return-value]


def _motor_runs(pico: EmulatedPico, since: int, pin: str) -> list[tuple[float, float]]:
    """(on, off) emulated µs of each run of `pin` after change number `since`."""
    runs: list[tuple[float, float]] = []
    on: float | None = None
    for change in pico.changes[since:]:
        if change.pin != pin:
            continue
        if change.duty > 0 and on is None:
            on = change.t_us
        elif change.duty == 0 and on is not None:
            runs.append((on, change.t_us))
            on = None
    return runs


@pytest.mark.parametrize(("first", "gap_us"), [("paddle_right", 3_000), ("paddle_left", 500)])
def test_the_faster_press_wins_on_the_boards_own_stamps(
    pico: EmulatedPico, table: Table, first: str, gap_us: int,
    summary: Callable[[str, str], None],
) -> None:
    other = "paddle_left" if first == "paddle_right" else "paddle_right"
    winner = Side.RIGHT if first == "paddle_right" else Side.LEFT
    reports = _board_reports(table)
    changes = len(pico.changes)
    pico.press_after("go_led", 1, [(first, 40_000), (other, 40_000 + gap_us)], tag="faster")
    duel_id = _start(table, 3, 250_000)
    result = _verdict(table, duel_id).result
    assert result.outcome is Outcome.FASTER and result.winner is winner
    assert result.launch[0].side is winner.other and result.launch[0].cards == 3
    stamps = _press_stamps(reports, 2)
    for pin, side in ((first, winner), (other, winner.other)):
        error = _error(stamps[codec.LEFT if side is Side.LEFT else codec.RIGHT],
                       _driven(pico, f"faster:{pin}"))
        _stamp_error(summary, f"press {pin.split('_')[1]} "
                     f"({'first' if pin == first else 'second'})", error)
        assert 0 <= error <= MAX_STAMP_ERROR_US
    # the reaction the verdict gives is the board's: 40 ms after its go, give or take the
    # stamp errors and how long after its go stamp the board lit the LED
    assert abs(result.reaction_us[winner] - 40_000) < 1_000  # type: ignore[operator]
    go = next(r for r in reports if r.kind == codec.GO_SHOWN).args[0]
    pico.sync()
    lit = next(c for c in pico.changes[changes:] if c.pin == "go_led" and c.level == 1)
    _stamp_error(summary, "go LED lit after the go stamp", codec.ticks_diff(int(lit.t_us), go))
    done = _launch_done(table, duel_id)
    pico.sync()
    assert done.cards_counted == 3 and not done.jammed
    # the motor turned the loser's way for the cards, then stopped; the other pin never ran
    toward = "motor_a" if winner.other is Side.LEFT else "motor_b"
    away = "motor_b" if toward == "motor_a" else "motor_a"
    assert len(_motor_runs(pico, changes, toward)) == 1
    assert _motor_runs(pico, changes, away) == []
    assert pico.outputs()[toward] == (0, 0)
    table.assert_launched_at_most_once(None)


def test_an_early_press_loses_and_lights_the_arrow_toward_the_loser(
    pico: EmulatedPico, table: Table, summary: Callable[[str, str], None]
) -> None:
    reports = _board_reports(table)
    changes = len(pico.changes)
    duel_id = _start(table, 2, 1_000_000)
    # right, 300 ms into the countdown on the board's own clock (its ticks are the emulated
    # µs since boot): not after the countdown's LEDs light, since the host's estimate of
    # the board clock may run ahead of a slowed core (by 250 ms at most), and the board
    # counts from the engine's start, which may then lie just after the LEDs lit
    started = table.wait_for(_of(duel_id, CountdownStarted), WAIT_S)[-1]
    now = pico.now_us()
    at = now + codec.ticks_diff(table.unit.link.to_raw(started.t_us + 300_000),  # type: ignore[attr-defined]
                                int(now) % codec.TICKS_PERIOD)
    pico.request("at", steps=[
        {"gpio": PINS["paddle_right"], "level": 0, "at_us": at, "tag": "early:paddle_right"},
        {"gpio": PINS["paddle_right"], "level": None, "at_us": at + 30_000}])
    verdict = _verdict(table, duel_id)
    assert verdict.result.outcome is Outcome.EARLY_PRESS and verdict.result.loser is Side.RIGHT
    assert table.wait_for(lambda e: isinstance(e, EarlyPressSeen), WAIT_S)
    error = _error(_press_stamps(reports)[codec.RIGHT], _driven(pico, "early:paddle_right"))
    _stamp_error(summary, "early press (countdown running)", error)
    assert 0 <= error <= MAX_STAMP_ERROR_US
    _launch_done(table, duel_id)
    pico.sync()
    lit = [c for c in pico.changes[changes:] if c.pin in ("arrow_left", "arrow_right")
           and c.level == 1]
    assert lit and lit[0].pin == "arrow_right", lit
    # the frozen countdown never lit go
    assert not [c for c in pico.changes[changes:] if c.pin == "go_led" and c.level == 1]
    assert not [r for r in reports if r.kind == codec.GO_SHOWN]
    table.assert_launched_at_most_once(None)


def test_presses_at_the_same_instant_are_a_tie(
    pico: EmulatedPico, summary: Callable[[str, str], None]
) -> None:
    config = replace(DUEL, tie_window_us=1_000, tie_policy="split")
    options = link_options(pico)
    with open_table(pico.port, config, link_options=options, settle_us=SETTLE_US) as table:
        reports = _board_reports(table)
        pico.press_after("go_led", 1, [("paddle_left", 25_000), ("paddle_right", 25_000)],
                         tag="tie")
        duel_id = _start(table, 4, 250_000)
        result = _verdict(table, duel_id).result
        assert result.outcome is Outcome.TIE, result
        assert sorted((p.side.value, p.cards) for p in result.launch) == [("left", 2),
                                                                           ("right", 2)]
        stamps = _press_stamps(reports, 2)
        # both edges pending at one interrupt: one stamp for both (tests/pico/test_ties.py)
        assert abs(codec.ticks_diff(stamps[codec.LEFT], stamps[codec.RIGHT])) <= 5
        for pin, side in (("paddle_left", codec.LEFT), ("paddle_right", codec.RIGHT)):
            error = _error(stamps[side], _driven(pico, f"tie:{pin}"))
            _stamp_error(summary, f"tie, {pin.split('_')[1]} (both at one instant)", error)
            assert 0 <= error <= MAX_STAMP_ERROR_US
        done = _launch_done(table, duel_id)
        assert done.cards_counted == 4 and not done.jammed
        table.assert_launched_at_most_once(None)


def test_nobody_presses_and_the_duel_times_out_without_a_launch(pico: EmulatedPico) -> None:
    config = replace(DUEL, response_timeout_us=300_000)
    options = link_options(pico)
    with open_table(pico.port, config, link_options=options, settle_us=SETTLE_US) as table:
        changes = len(pico.changes)
        duel_id = _start(table, 2, 250_000)
        verdict = _verdict(table, duel_id)
        assert verdict.result.outcome is Outcome.TIMEOUT and not verdict.result.launch
        assert not table.wait_for(_of(duel_id, LaunchFinished), 0.3)
        pico.sync()
        assert not [c for c in pico.changes[changes:]
                    if c.pin.startswith("motor") and c.duty > 0]
        table.assert_launched_at_most_once(None)


@pytest.mark.slow
@pytest.mark.skipif(not deep(), reason="deep profile only (HYPOTHESIS_PROFILE=deep): `run` "
                    "keeps a Pico's link timings, which a busy machine's emulated core misses")
def test_uno_showdown_run_plays_a_duel_started_by_the_timer_button(
    pico: EmulatedPico, tmp_path: Path
) -> None:
    """`run --device serial --port <pty> --headless`, as a maker plays on a Pico: the timer
    button starts the duel, the right paddle 30 ms after go wins it, the loser takes 2.

    `run` gives the link a Pico's timings (an acknowledgement within 5 x 50 ms), which an
    emulated core sharing a loaded machine can miss; the other duels give it the level's
    slower ones, so this one runs in the deep profile, on a machine left to it.
    """
    log = tmp_path / "duels.jsonl"
    table = subprocess.Popen(
        [sys.executable, "-m", "uno_showdown.commands.cli", "run", "--device", "serial",
         "--port", pico.port, "--headless", "--cards", "2", "--duel-log", str(log),
         "--db", str(tmp_path / "games.sqlite"), "--socket", str(tmp_path / "duel.sock"),
         "--settle-us", str(SETTLE_US), "--response-timeout-us", "3000000"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert _wait_file(table, log, '"input": "config"'), "run never started its table"
        pico.press_after("go_led", 1, [("paddle_right", 30_000)], tag="run")
        pico.drive("timer_button", 0)
        assert _wait_file(table, log, '"input": "start"'), "the button started no duel"
        pico.drive("timer_button", None)
        assert _wait_file(table, log, '"input": "verdict"'), "no verdict"
    finally:
        pico.drive("timer_button", None)
        table.send_signal(signal.SIGINT)
        out, _ = table.communicate(timeout=30)
    assert "duel 1: right was faster; left takes 2" in out, out
    verdict = json.loads(next(line for line in log.read_text().splitlines()
                              if '"input": "verdict"' in line))
    reaction = verdict["result"]["reaction_us"]["right"]
    # 30 ms after the go LED lit, which is a few dozen µs after the go stamp
    assert 30_000 <= reaction <= 30_500, reaction


def _wait_file(proc: subprocess.Popen[str], path: Path, text: str) -> bool:
    """Poll `path` (run's duel log) for `text` while `proc` lives, up to WAIT_S."""
    deadline = time.monotonic() + 2 * WAIT_S
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and text in path.read_text():
            return True
        threading.Event().wait(0.05)  # polled: the log is written by another process
    return False
