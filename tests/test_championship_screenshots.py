"""The championship's pictures (tools/championship_screenshots.py) show what their captions
in docs/championship.md say, and come out the same on every run."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.touch import theme
from tools import championship_screenshots as shots


def drawn(name: str, folder: Path) -> Path:
    shot = next(s for s in shots.SHOTS if s.name == name)
    out = folder / "out"
    out.mkdir(parents=True, exist_ok=True)
    shot.draw(folder, out)
    return out / name


@pytest.fixture(autouse=True)
def _dummy_video(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def test_a_tables_banner_shows_the_clock_then_turns_red_when_the_time_is_up(
        tmp_path: Path) -> None:
    banner = (6, theme.TAB_BAR_PX + 4)  # the strip under the tabs, left of its words
    running = pygame.image.load(str(drawn("championship-table-clock.png", tmp_path)))
    last = pygame.image.load(str(drawn("championship-table-last-deal.png", tmp_path)))
    assert running.get_size() == last.get_size() == shots.PI
    assert running.get_at(banner)[:3] == theme.PANEL_HI
    assert last.get_at(banner)[:3] == theme.DANGER


def test_two_runs_draw_the_same_pixels(tmp_path: Path) -> None:
    first = drawn("championship-break.png", tmp_path / "a").read_bytes()
    again = drawn("championship-break.png", tmp_path / "b").read_bytes()
    assert first == again

