"""The director's screen: registration, the seating plan, the clock, live standings, the
final and the awards, in five tabs, for the organiser's laptop or the bar's TV.

Built from the companion's parts (theme, buttons, on-screen keyboard, drag-to-scroll) in
the same shell as the companion's screen (`companion.touch.shell`): a router with a tab bar
(F1-F6), notices, and a loop that sleeps in `pygame.event.wait` and redraws only when
something changed. It reads the
event through `Championship.read` when the games file changes (a round recorded at a table,
a command in a terminal) and builds a fresh snapshot every second for the clock, without
reading the file again. Every action goes through `Championship`, so a refusal is the same
one sentence the CLI prints, shown as a notice.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import pygame

from championship.core.i18n import N_, _
from championship.core.snapshot import Reading, Snapshot, build_snapshot
from championship.desk.operations import Championship
from championship.screen.views.base import DirectorView
from championship.screen.views.clock import ClockView
from championship.screen.views.deals import DealsView
from championship.screen.views.final import FinalView
from championship.screen.views.players import PlayersView
from championship.screen.views.seating import SeatingView
from championship.screen.views.standings import StandingsView
from companion.touch import theme
from companion.touch.shell import NoDisplayError, Shell, run_loop, screen_window
from companion.touch.widgets import Button, row
from showdown.contract.errors import CompanionError

T = TypeVar("T")

#: Tabs along the top: view name, label (translated when drawn), function key.
TABS: tuple[tuple[str, str, int], ...] = (
    ("players", N_("Players"), pygame.K_F1),
    ("seating", N_("Seating"), pygame.K_F2),
    ("clock", N_("Clock"), pygame.K_F3),
    ("standings", N_("Standings"), pygame.K_F4),
    ("final", N_("Final"), pygame.K_F5),
    ("deals", N_("Deals"), pygame.K_F6),
)
#: How often the screen looks for changes in the games file.
POLL_MS = 500

__all__ = ["DirectorScreen", "NoDisplayError", "run_director"]


class DirectorScreen(Shell[DirectorView]):
    """The whole director's screen; see the module docstring."""

    tabs = TABS
    poll_ms = POLL_MS

    def __init__(self, champ: Championship, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.champ = champ
        self.views = {
            v.name: v for v in (PlayersView(self), SeatingView(self), ClockView(self),
                                StandingsView(self), FinalView(self), DealsView(self))
        }
        self.reading: Reading | None = None
        self.snap: Snapshot | None = None
        self._seen_version: int | None = None
        self._second: int | None = None
        self.reload()
        self._start("players" if self.snap is None or not self.snap.flights else "clock")

    # -- what the views use (and `go`, `notify`: the shell's) --

    def reload(self) -> None:
        """Read the event again (after a change here, or in the file)."""
        try:
            self._seen_version = self.champ.store.data_version()
            self.reading = self.champ.read() if self.champ.event_id is not None else None
        except CompanionError as exc:
            self.notify(str(exc))
            return
        self._rebuild()

    def _rebuild(self) -> None:
        now_us = self.champ.clock()
        self._second = now_us // 1_000_000
        self.snap = build_snapshot(self.reading, now_us) if self.reading is not None else None
        for view in self.views.values():
            view.refresh()
        self._dirty = True

    def act(self, action: Callable[[], T], done: str = "") -> T | None:
        """Run an organiser's action; a refusal becomes a notice. Re-reads the event."""
        try:
            result = action()
        except CompanionError as exc:
            self.notify(str(exc))
            self.reload()
            return None
        self.reload()
        if done:
            self.notify(done)
        return result

    # -- the contract with the loop (the rest is the shell's) --

    def update(self, now_ms: int) -> None:
        super().update(now_ms)
        if self.reading is not None and self.champ.clock() // 1_000_000 != self._second:
            self._rebuild()  # the clock moved on a second

    # -- inside --

    def _poll(self) -> None:
        try:
            changed = self.champ.store.data_version() != self._seen_version
        except CompanionError as exc:
            self.notify(str(exc))
            changed = False
        if changed:
            self.reload()

    def _tab_buttons(self) -> list[Button]:
        bar = pygame.Rect(4, 4, self.size[0] - 8, theme.TAB_BAR_PX - 8)
        return [
            Button(f"tab:{name}", cell, _(label), partial(self.go, name),
                   selected=self.current.name == name, font_px=18)
            for (name, label, _key), cell in zip(TABS, row(bar, len(TABS), 4), strict=True)
        ]


def run_director(champ: Championship, *, fullscreen: bool = False,
                 size: tuple[int, int] = (800, 480)) -> int:
    """Open a window (or the whole display) and run the director's screen until it is closed."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with screen_window(fullscreen, size) as window:
        pygame.display.set_caption(_("UNO Showdown championship"))
        screen = DirectorScreen(champ, window.get_size())
        pygame.key.start_text_input()
        run_loop(screen, window, wait_ms=250)
    return 0
