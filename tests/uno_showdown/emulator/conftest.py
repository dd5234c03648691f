"""Fixtures that build the emulator window under SDL's dummy drivers on a manual clock.

The tests play the window's main loop turn by turn: they post the key, mouse
and touch events a player would cause, move the unit's clock by hand and call
`TableWindow.turn(0)`, so every stamp and every verdict is reproducible and no
test waits on the wall clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pygame
import pytest

from hardware.emulated import EmulatorUnit
from showdown.contract.events import ServiceEvent, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.service.dispatch import EventFeed
from showdown.service.loop import ShowdownService
from uno_showdown.window.window import KeyMap, TableWindow, open_display

COUNTDOWN_US = 3_000_000


@dataclass
class ManualClock:
    now: int = 1_000_000

    def __call__(self) -> int:
        return self.now


@dataclass
class Table:
    """One emulator window on a hand-moved clock, with everything the service said."""

    window: TableWindow
    unit: EmulatorUnit
    service: ShowdownService
    clock: ManualClock
    feed: EventFeed
    heard: list[ServiceEvent] = field(default_factory=list)

    @property
    def surface(self) -> pygame.Surface:
        return pygame.display.get_surface()

    def post(self, kind: int, **attrs: object) -> None:
        pygame.event.post(pygame.event.Event(kind, attrs))

    def key(self, key: int, up: bool = True) -> None:
        """Press (and by default release) a key, as one batch of SDL events."""
        self.post(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)
        if up:
            self.post(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0)

    def click(self, pos: tuple[int, int], up: bool = True) -> None:
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)
        if up:
            self.post(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False)

    def turn(self, advance_us: int = 0) -> None:
        self.clock.now += advance_us
        self.window.turn(0)
        self.heard.extend(self.feed.drain())  # what the service said in that turn

    def run_for(self, us: int, step_us: int = 10_000) -> None:
        """Let time pass in frame-sized steps, the loop turning as it would."""
        end = self.clock.now + us
        while self.clock.now < end:
            self.turn(min(step_us, end - self.clock.now))

    def verdicts(self) -> list[VerdictGiven]:
        return [e for e in self.heard if isinstance(e, VerdictGiven)]

    def pixel(self, pos: tuple[int, int]) -> tuple[int, int, int]:
        return tuple(self.surface.get_at((int(pos[0]), int(pos[1]))))[:3]  # type: ignore[return-value]


def make_table(config: DuelConfig | None = None, size: tuple[int, int] = (800, 480),
               app: object | None = None, keys: KeyMap | None = None) -> Table:
    open_display(size, False, "test")
    pygame.event.clear()
    clock = ManualClock()
    unit = EmulatorUnit(clock_us=clock)
    config = config or DuelConfig(countdown_min_us=COUNTDOWN_US, countdown_max_us=COUNTDOWN_US)
    service = ShowdownService(unit, config)
    feed = service.subscribe("test")
    window = TableWindow(service, app, keys=keys)  # type: ignore[arg-type]
    table = Table(window, unit, service, clock, feed)
    table.turn()
    return table


@pytest.fixture
def table() -> Iterator[Table]:
    t = make_table()
    yield t
    t.window.close()
    pygame.display.quit()
