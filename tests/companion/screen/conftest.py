"""Drive the companion screen the way a finger or a keyboard would: synthetic pygame events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.screen import CompanionScreen
from showdown.contract.i18n import set_language

SIZE = (800, 480)


class Driver:
    """A screen, its surface, and the gestures the tests use."""

    def __init__(self, app: CompanionApp, size: tuple[int, int] = SIZE) -> None:
        self.app = app
        self.surface = pygame.Surface(size)
        self.screen = CompanionScreen(app, size)
        self.now_ms = 0
        self.frame()

    def frame(self) -> None:
        self.now_ms += 16
        self.screen.update(self.now_ms)
        if self.screen.dirty:
            self.screen.draw(self.surface)

    def rect(self, key: str) -> pygame.Rect:
        for button in self.screen.buttons():
            if button.key == key:
                return button.rect
        keys = [b.key for b in self.screen.buttons()]
        raise AssertionError(f"no button {key!r} on {self.screen.current.name}: {keys}")

    def enabled(self, key: str) -> bool:
        return next(b.enabled for b in self.screen.buttons() if b.key == key)

    def tap(self, key: str) -> None:
        self.tap_at(self.rect(key).center)

    def tap_at(self, pos: tuple[int, int]) -> None:
        self.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        self.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        self.frame()

    def key(self, key: int, mod: int = 0) -> bool:
        used = self.screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod,
                                                           unicode=""))
        self.frame()
        return used

    def type_text(self, text: str) -> None:
        for ch in text:
            self.screen.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        self.frame()

    @property
    def view(self) -> Any:  # whichever view is showing, with its own attributes
        return self.screen.current


@pytest.fixture(autouse=True)
def _pygame() -> Iterator[None]:
    pygame.font.init()
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def app(db: Path) -> Iterator[CompanionApp]:
    app = CompanionApp.open(db, lang="en")
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"])
    yield app
    app.close()


@pytest.fixture
def driver(app: CompanionApp) -> Driver:
    return Driver(app)
