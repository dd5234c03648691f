"""`uno-showdown run` without a screen: the unit alone, the timer button and the paddles."""

from __future__ import annotations

import random

import pytest

from hardware.base import LaunchPart, PaddlePressed, TimerPressed
from hardware.fake import FakeUnit
from showdown.cli import main
from showdown.commands.run import have_display, run_headless
from showdown.duel import DuelConfig
from showdown.service import ShowdownService, VerdictGiven
from showdown.sides import Side


def test_headless_keeps_a_duel_loaded_and_prints_each_verdict(capsys):
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(countdown_min_us=1_000_000,
                                               countdown_max_us=1_000_000),
                              rng=random.Random(1))
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
    assert "duel 1: faster, left wins (left 200.0 ms)" in out
    assert "duel 2: faster, left wins" in out
    assert unit.launches == [(LaunchPart(Side.RIGHT, 2),), (LaunchPart(Side.RIGHT, 2),)]


def test_dummy_video_driver_is_no_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert not have_display()
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    assert have_display()


def test_run_rejects_bad_options_in_one_line(capsys):
    assert main(["run", "--device", "emulator", "--cards", "0"]) == 2
    assert "--cards must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "--device", "toaster"])
