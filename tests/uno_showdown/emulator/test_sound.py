"""The emulated buzzer: tones made in code, played unless muted."""

from __future__ import annotations

import itertools
from array import array

import pygame
import pytest

from hardware.emulated import EmulatorUnit
from hardware.emulated_sound import (
    SAMPLE_RATE,
    TUNES,
    Note,
    ToneBank,
    render_pcm,
)
from showdown.contract.events import Beep


def test_a_tone_has_the_right_length_pitch_and_no_click() -> None:
    pcm = array("h")
    pcm.frombytes(render_pcm((Note(1000, 100),), channels=1))
    assert len(pcm) == SAMPLE_RATE // 10
    crossings = sum(1 for a, b in itertools.pairwise(pcm) if a < 0 <= b)
    assert 95 <= crossings <= 101  # 1 kHz for 0.1 s
    assert abs(pcm[0]) < 200 and abs(pcm[-1]) < 200  # faded in and out
    assert max(pcm) > 10_000


def test_every_beep_has_a_tune() -> None:
    assert set(TUNES) == set(Beep)


@pytest.fixture
def bank() -> ToneBank:
    pygame.mixer.quit()
    tones = ToneBank()
    yield tones
    pygame.mixer.quit()


def test_beeps_play_until_muted(bank: ToneBank) -> None:
    assert bank.available
    assert bank.play(Beep.GO)
    assert bank.toggle_mute() is True
    assert not bank.play(Beep.GO)
    assert bank.toggle_mute() is False
    assert bank.play(Beep.TICK)


def test_the_countdown_ticks_once_a_second() -> None:
    now = [0]
    heard: list[Beep] = []
    unit = EmulatorUnit(clock_us=lambda: now[0], sound=heard.append)
    unit.show_loaded(1)
    unit.start_countdown(3_500_000)
    for t in range(0, 3_500_000, 20_000):
        now[0] = t
        unit.show_countdown(3_500_000 - t, 3_500_000)
    assert heard == [Beep.TICK] * 4  # at the start, then at 3, 2 and 1 seconds left
