"""The `uno-showdown companion` command: its options, and one clear sentence when it cannot run."""

from __future__ import annotations

import threading
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.screen import run_companion
from uno_showdown.commands.cli import main


def test_without_a_display_it_says_how_to_run_it(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-display")
    assert main(["companion", "--db", str(tmp_path / "g.db")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no display" in err[0] and "xvfb-run" in err[0]


@pytest.mark.parametrize("size", ["big", "800", "100x100", "800x"])
def test_a_bad_size_is_one_line(size: str, capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    assert main(["companion", "--db", str(tmp_path / "g.db"), "--size", size]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_an_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["companion", "--db", str(tmp_path / "g.db"), "--game", "7"]) == 2
    err = capsys.readouterr().err
    assert "no game 7" in err and "Traceback" not in err


def test_the_window_runs_until_closed(tmp_path: Path) -> None:
    app = CompanionApp.open(tmp_path / "g.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"])
    pygame.display.init()
    posted = threading.Event()
    titles: list[str] = []

    def close_soon() -> None:  # the loop sleeps in event.wait: a QUIT must wake it
        titles.append(pygame.display.get_caption()[0])
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        posted.set()

    timer = threading.Timer(0.3, close_soon)
    timer.start()
    try:
        assert run_companion(app, size=(640, 400)) == 0
    finally:
        timer.cancel()
        app.close()
    assert posted.is_set()
    assert titles == ["UNO Showdown companion"]  # the window has a title
