"""`uno-showdown run` without a screen: the unit alone, the timer button and the paddles."""

from __future__ import annotations

import random

import pytest

from hardware.fake import FakeUnit
from showdown.contract.events import LaunchPart, PaddlePressed, Side, TimerPressed, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from uno_showdown.commands.cli import main
from uno_showdown.commands.run import have_display, run_headless


def table() -> tuple[FakeUnit, ShowdownService]:
    """A fake unit and its service, with a countdown of exactly one second."""
    unit = FakeUnit()
    config = DuelConfig(countdown_min_us=1_000_000, countdown_max_us=1_000_000)
    return unit, ShowdownService(unit, config, rng=random.Random(1))

def test_headless_keeps_a_duel_loaded_and_prints_each_verdict(capsys):
    unit, service = table()
    verdicts: list[VerdictGiven] = []

    def script(event):
        if isinstance(event, VerdictGiven):
            verdicts.append(event)
            if len(verdicts) == 2:
                service.stop()

    service.add_listener(script)
    # Two duels: the timer at 0.1 s, go at 1.1 s, left faster; then again at 5 s.
    for start in (100_000, 5_000_000):
        unit.deliver(TimerPressed(start))
        unit.deliver(PaddlePressed(Side.RIGHT, start + 1_000_000 + 250_000))
        unit.deliver(PaddlePressed(Side.LEFT, start + 1_000_000 + 200_000))
    assert run_headless(service, 2, None) == 0
    out = capsys.readouterr().out
    assert "press the timer button" in out
    assert "duel 1: left was faster; right takes 2" in out
    assert "duel 2: left was faster; right takes 2" in out
    assert unit.launches == [(LaunchPart(Side.RIGHT, 2),), (LaunchPart(Side.RIGHT, 2),)]


def test_dummy_video_driver_is_no_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert not have_display()
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    assert have_display()


def test_run_rejects_bad_options_in_one_line(capsys):
    assert main(["run", "--device", "emulator", "--cards", "0"]) == 2
    assert "--cards must be from 1 to 3, not 0" in capsys.readouterr().err
    # a duel loads 1 to 3 cards (the Showdown sheet) unless the table agrees on more
    assert main(["run", "--device", "emulator", "--cards", "5"]) == 2
    assert "--cards must be from 1 to 3, not 5" in capsys.readouterr().err
    assert main(["run", "--device", "emulator", "--most-duel-cards", "21"]) == 2
    assert "--most-duel-cards must be from 1 to 20, not 21" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "--device", "toaster"])


def test_headless_waits_for_the_slower_press_before_loading_the_next_duel(capsys):
    """The loser's time is kept: the next duel is loaded only once both are timed."""
    from showdown.contract.events import ReactionsTimed

    unit, service = table()
    timed: list[ReactionsTimed] = []

    def script(event):
        if isinstance(event, ReactionsTimed):
            timed.append(event)
            service.stop()

    service.add_listener(script)
    unit.deliver(TimerPressed(100_000))
    unit.deliver(PaddlePressed(Side.LEFT, 1_100_000 + 200_000))
    unit.deliver(PaddlePressed(Side.RIGHT, 1_100_000 + 300_000))  # 100 ms after the verdict
    run_headless(service, 1, None)
    assert timed[0].reaction_us == {Side.LEFT: 200_000, Side.RIGHT: 300_000}


def test_an_unwritable_duel_log_is_one_line(capsys, tmp_path):
    status = main(["run", "--device", "serial", "--port", "/nonexistent", "--headless",
                   "--duel-log", str(tmp_path)])  # a folder
    err = capsys.readouterr().err
    assert status == 2
    assert f"cannot write the duel log {tmp_path}" in err and "Traceback" not in err


def test_simulate_log_in_a_folder_is_one_line(capsys, tmp_path):
    assert main(["simulate", "--duels", "2", "--log", str(tmp_path)]) == 2
    assert "give another file with --log" in capsys.readouterr().err


def test_replay_of_a_binary_file_is_one_line(capsys, tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["replay", str(junk)]) == 2
    assert "is not a duel log: it is not UTF-8 text" in capsys.readouterr().err


def test_run_with_a_game_that_does_not_exist_is_an_error(capsys, tmp_path):
    status = main(["run", "--device", "serial", "--port", "/nonexistent", "--headless",
                   "--db", str(tmp_path / "s.db"), "--game", "999",
                   "--duel-log", str(tmp_path / "d.jsonl")])
    assert status == 2
    assert "cannot keep score" in capsys.readouterr().err


def test_a_unit_refuses_more_cards_than_it_can_launch():
    from showdown.duel.engine import DuelError

    unit = FakeUnit()
    unit.max_cards = 3
    service = ShowdownService(unit)
    with pytest.raises(DuelError, match="at most 3 cards"):
        service.load(Side.LEFT, Side.RIGHT, 4)


def test_the_emulator_unit_needs_a_window(capsys):
    assert main(["run", "--device", "emulator", "--headless"]) == 2
    assert "the emulator unit lives in a window" in capsys.readouterr().err


def test_headless_prints_both_reaction_times_once_the_slower_press_is_in(capsys):
    unit, service = table()
    service.add_listener(lambda e: service.stop() if type(e).__name__ == "ReactionsTimed"
                         else None)
    unit.deliver(TimerPressed(100_000))
    unit.deliver(PaddlePressed(Side.LEFT, 1_100_000 + 200_000))
    unit.deliver(PaddlePressed(Side.RIGHT, 1_100_000 + 300_000))
    run_headless(service, 1, None)
    assert "  reactions: left 200.0 ms, right 300.0 ms" in capsys.readouterr().out


def test_a_closed_pipe_is_not_a_traceback(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        # The log of 150 duels (about 1 kB each) is more than a pipe holds (64 kB): `head`
        # goes away while the simulation still writes.
        f"{sys.executable} -m uno_showdown simulate --duels 150 --log /dev/stdout | head -c 10",
        shell=True, capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert "Traceback" not in proc.stderr


def test_headless_keeps_the_table_going_when_its_output_is_gone(monkeypatch):
    """`run --headless | head`: once the reader leaves, duels still load and run."""

    class Gone:
        def write(self, text: str) -> int:
            raise BrokenPipeError("the reader went away")

        def flush(self) -> None:
            raise BrokenPipeError("the reader went away")

    unit, service = table()
    timed = []

    def script(event):
        if type(event).__name__ == "ReactionsTimed":
            timed.append(event)
            if len(timed) == 2:
                service.stop()

    service.add_listener(script)
    for start in (100_000, 6_000_000):
        unit.deliver(TimerPressed(start))
        unit.deliver(PaddlePressed(Side.LEFT, start + 1_200_000))
        unit.deliver(PaddlePressed(Side.RIGHT, start + 1_250_000))
    monkeypatch.setattr("sys.stdout", Gone())
    run_headless(service, 1, None)
    assert len(timed) == 2 and len(unit.launches) == 2


def test_the_emulator_unit_is_refused_when_its_window_cannot_open(capsys, monkeypatch, tmp_path):
    """DISPLAY is set but nothing answers: no invisible, unplayable emulator."""
    import uno_showdown.commands.run as run_command
    import uno_showdown.window.window as window

    def no_window(*args, **kwargs):
        raise window.NoDisplayError("SDL found no display")

    monkeypatch.setattr(run_command, "have_display", lambda: True)
    monkeypatch.setattr(window, "run_table_window", no_window)
    status = main(["run", "--device", "emulator", "--duel-log", str(tmp_path / "d.jsonl")])
    assert status == 2
    assert "none opens here (SDL found no display)" in capsys.readouterr().err


def test_a_duel_log_on_a_pipe_is_written_without_a_sync(tmp_path):
    """`--log /dev/stdout | head`: a pipe cannot be fsynced, and need not be."""
    import os

    from showdown.duel.engine import DuelResult, Outcome
    from showdown.service.duel_log import DuelLog

    read, write = os.pipe()
    try:
        log = DuelLog(f"/proc/self/fd/{write}")
        result = DuelResult(Outcome.TIMEOUT, None, None, None, (), {Side.LEFT: None,
                                                                   Side.RIGHT: None})
        log.verdict(result, 1)  # fsync here would fail with EINVAL
        log.close()
        assert b'"input": "verdict"' in os.read(read, 4096)
    finally:
        os.close(read)
        os.close(write)
    on_disk = DuelLog(tmp_path / "duels.jsonl")  # a real file is still synced
    assert on_disk._syncable
    on_disk.close()
