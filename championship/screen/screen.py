"""The director's screen: registration, the seating plan, the clock, live standings, the
final and the awards, in five tabs, for the organiser's laptop or the bar's TV.

Built from the companion's parts (theme, buttons, on-screen keyboard, drag-to-scroll) and
shaped like the companion's screen: a router with a tab bar (F1-F5), notices, and a loop
that sleeps in `pygame.event.wait` and redraws only when something changed. It reads the
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
from companion.screen.screen import INVISIBLE_DRIVERS, NOTICE_MS, NoDisplayError
from companion.touch import theme
from companion.touch.widgets import Button, button_at, row
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


class DirectorScreen:
    """The whole director's screen; see the module docstring."""

    def __init__(self, champ: Championship, size: tuple[int, int]) -> None:
        self.champ = champ
        self.size = (int(size[0]), int(size[1]))
        self.views: dict[str, DirectorView] = {
            v.name: v for v in (PlayersView(self), SeatingView(self), ClockView(self),
                                StandingsView(self), FinalView(self), DealsView(self))
        }
        self.reading: Reading | None = None
        self.snap: Snapshot | None = None
        self._seen_version: int | None = None
        self._second: int | None = None
        self._dirty = True
        self._held_tab: str | None = None
        self._notice = ""
        self._notice_until_ms: int | None = None
        self._now_ms = 0
        self._next_poll_ms = 0
        self.reload()
        first = "players" if self.snap is None or not self.snap.flights else "clock"
        self.current: DirectorView = self.views[first]
        self._layout()
        self.current.enter()

    # -- what the views use --

    @property
    def dirty(self) -> bool:
        return self._dirty

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

    def go(self, view: str) -> None:
        if self.views[view] is not self.current:
            self.current.leave()
        self.current = self.views[view]
        self._held_tab = None
        self._layout()
        self.current.enter()
        self._dirty = True

    def notify(self, message: str) -> None:
        self._notice = message
        self._notice_until_ms = self._now_ms + NOTICE_MS
        self._dirty = True

    # -- the contract with the loop --

    def resize(self, size: tuple[int, int]) -> None:
        self.size = (int(size[0]), int(size[1]))
        self._layout()
        self._dirty = True

    def handle_event(self, event: pygame.event.Event) -> bool:
        self._layout()
        consumed = self._handle(event)
        if consumed:
            self._dirty = True
        return consumed

    def update(self, now_ms: int) -> None:
        self._now_ms = now_ms
        if self._notice_until_ms is not None and now_ms >= self._notice_until_ms:
            self._notice, self._notice_until_ms = "", None
            self._dirty = True
        if now_ms >= self._next_poll_ms:
            self._next_poll_ms = now_ms + POLL_MS
            try:
                changed = self.champ.store.data_version() != self._seen_version
            except CompanionError as exc:
                self.notify(str(exc))
                changed = False
            if changed:
                self.reload()
        if self.reading is not None and self.champ.clock() // 1_000_000 != self._second:
            self._rebuild()  # the clock moved on a second

    def draw(self, surface: pygame.Surface) -> None:
        self._layout()
        surface.fill(theme.BACKGROUND)
        self.current.draw(surface)
        if not self.current.full_screen:
            self._draw_tabs(surface)
        if self._notice:
            self._draw_notice(surface)
        self._dirty = False

    def buttons(self) -> list[Button]:
        self._layout()
        tabs = [] if self.current.full_screen else self._tab_buttons()
        return tabs + self.current.buttons()

    # -- inside --

    def _layout(self) -> None:
        w, h = self.size
        top = 0 if self.current.full_screen else theme.TAB_BAR_PX
        self.current.rect = pygame.Rect(0, top, w, h - top)

    def _tab_buttons(self) -> list[Button]:
        bar = pygame.Rect(4, 4, self.size[0] - 8, theme.TAB_BAR_PX - 8)
        return [
            Button(f"tab:{name}", cell, _(label), partial(self.go, name),
                   selected=self.current.name == name, font_px=18)
            for (name, label, _key), cell in zip(TABS, row(bar, len(TABS), 4), strict=True)
        ]

    def _draw_tabs(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, theme.PANEL, (0, 0, self.size[0], theme.TAB_BAR_PX))
        for button in self._tab_buttons():
            button.draw(surface, pressed=button.key == self._held_tab)

    def _draw_notice(self, surface: pygame.Surface) -> None:
        width = self.size[0] - 48
        shown, size = theme.fit(self._notice, 18, width - 32, bold=True)
        image = theme.font(size, True).render(shown, True, theme.BACKGROUND)
        box = image.get_rect().inflate(32, 20)
        box.midbottom = (self.size[0] // 2, self.size[1] - 16)
        pygame.draw.rect(surface, theme.ACCENT, box, border_radius=10)
        surface.blit(image, image.get_rect(center=box.center))

    def _handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            return self.current.handle_key(event) or self._global_key(event)
        if event.type == pygame.TEXTINPUT:
            return self.current.handle_text(event)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION,
                          pygame.MOUSEWHEEL):
            if not self.current.full_screen and self._tab_pointer(event):
                return True
            return self.current.handle_pointer(event)
        return event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED,
                              pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED)

    def _tab_pointer(self, event: pygame.event.Event) -> bool:
        pos = getattr(event, "pos", None)
        if pos is None:
            return False
        in_bar = pos[1] < theme.TAB_BAR_PX
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and in_bar:
            hit = button_at(self._tab_buttons(), pos)
            self._held_tab = hit.key if hit else None
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._held_tab:
            held, self._held_tab = self._held_tab, None
            hit = button_at(self._tab_buttons(), pos) if in_bar else None
            if hit is not None and hit.key == held:
                hit.on_tap()
            return True
        return False

    def _global_key(self, event: pygame.event.Event) -> bool:
        for name, _label, key in TABS:
            if event.key == key:
                self.go(name)
                return True
        return False


def run_director(champ: Championship, *, fullscreen: bool = False,
                 size: tuple[int, int] = (800, 480)) -> int:
    """Open a window (or the whole display) and run the director's screen until it is closed."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        pygame.display.init()
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        driver = pygame.display.get_driver()
        if driver in INVISIBLE_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
            raise pygame.error(f"only SDL's invisible {driver!r} video driver is available")
        window = pygame.display.set_mode((0, 0) if fullscreen else size, flags)
    except pygame.error as exc:
        pygame.display.quit()
        raise NoDisplayError(str(exc)) from exc
    pygame.font.init()
    try:
        pygame.display.set_caption(_("UNO Showdown championship"))
        screen = DirectorScreen(champ, window.get_size())
        pygame.key.start_text_input()
        running = True
        while running:
            first = pygame.event.wait(250)
            for event in [first, *pygame.event.get()]:
                if event.type == pygame.NOEVENT:
                    continue
                if event.type == pygame.QUIT:
                    running = False
                elif event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
                    window = pygame.display.get_surface() or window
                    screen.resize(window.get_size())
                elif (event.type == pygame.KEYDOWN and event.key == pygame.K_q
                      and event.mod & pygame.KMOD_CTRL):
                    running = False
                else:
                    screen.handle_event(event)
            screen.update(pygame.time.get_ticks())
            if screen.dirty:
                screen.draw(window)
                pygame.display.flip()
    finally:
        pygame.display.quit()
    return 0
