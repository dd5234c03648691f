"""The shell both touch screens are built in: the score keeper's (`companion.screen.screen`)
and the championship director's (`championship.screen.screen`).

A `Shell` routes between views under a tab bar, shows a notice that goes away by itself,
polls for what changed elsewhere, and keeps the contract with whoever embeds the screen
(`dirty`, `resize`, `handle_event`, `update`, `draw`, `buttons`) and what a view may ask of it
(`go`, `notify`). A screen builds its views and starts on one (`_start`), lists its tabs
(`tabs`, `_tab_buttons`) and says what its poll does (`_poll`); it may keep a band of its own
under the tabs (`_band_px`, `_draw_band`), draw its notice otherwise (`_draw_notice`) and
answer more keys (`_global_key`).

`screen_window` and `run_loop` run a screen on its own: a window (or the whole display), and
a loop that sleeps in `pygame.event.wait` and redraws only when the screen says it is dirty.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

import pygame

from companion.touch import theme
from companion.touch.view import View
from companion.touch.widgets import Button, button_at
from showdown.contract.native_stderr import native_stderr_silenced

#: SDL's fall-back drivers that draw nowhere: fine when asked for (tests), not as a display.
INVISIBLE_DRIVERS = ("offscreen", "dummy")
#: How long a notice stays on screen.
NOTICE_MS = 3000

V = TypeVar("V", bound=View)


class NoDisplayError(RuntimeError):
    """SDL could not open a window: no desktop, framebuffer or X server here."""


class Shell(Generic[V]):
    """A screen's router, tab bar, notice and poll; see the module docstring."""

    #: Tabs along the top: view name, label (translated when drawn), function key or None.
    tabs: tuple[tuple[str, str, int | None], ...] = ()
    #: How often `_poll` looks for changes made elsewhere.
    poll_ms = 250

    views: dict[str, V]
    current: V

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = (int(size[0]), int(size[1]))
        self._dirty = True
        self._held_tab: str | None = None
        self._notice = ""
        self._notice_until_ms: int | None = None
        self._now_ms = 0
        self._next_poll_ms = 0

    def _start(self, first: str) -> None:
        """Show the view named `first` (once `views` are built)."""
        self.current = self.views[first]
        self._layout()
        self.current.enter()

    # -- the contract with whoever embeds the screen --

    @property
    def dirty(self) -> bool:
        return self._dirty

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
        """The time is `now_ms`: a notice's time may be up, and a poll due."""
        self._now_ms = now_ms
        if self._notice_until_ms is not None and now_ms >= self._notice_until_ms:
            self._notice, self._notice_until_ms = "", None
            self._dirty = True
        if now_ms >= self._next_poll_ms:
            self._next_poll_ms = now_ms + self.poll_ms
            self._poll()

    def draw(self, surface: pygame.Surface) -> None:
        self._layout()  # a view may have gone full screen (the name keyboard)
        surface.fill(theme.BACKGROUND)
        self.current.draw(surface)
        if not self.current.full_screen:
            self._draw_tabs(surface)
            self._draw_band(surface)
        if self._notice:
            self._draw_notice(surface)
        self._dirty = False

    def buttons(self) -> list[Button]:
        """Every button on screen now (tabs included), with positions relative to the screen."""
        self._layout()
        tabs = [] if self.current.full_screen else self._tab_buttons()
        return tabs + self.current.buttons()

    # -- what views may ask --

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

    # -- for screens --

    def _poll(self) -> None:
        """Look for what changed elsewhere (every `poll_ms`)."""

    def _tab_buttons(self) -> list[Button]:
        """The tabs as buttons, in the bar at the top."""
        raise NotImplementedError

    def _band_px(self) -> int:
        """The height of the screen's own band under the tabs (0: none now)."""
        return 0

    def _draw_band(self, surface: pygame.Surface) -> None:
        """Draw the band under the tabs, if the screen keeps one."""

    def _draw_notice(self, surface: pygame.Surface) -> None:
        """The notice on one line, at the bottom, centred."""
        width = self.size[0] - 48
        shown, size = theme.fit(self._notice, 18, width - 32, bold=True)
        image = theme.font(size, True).render(shown, True, theme.BACKGROUND)
        box = image.get_rect().inflate(32, 20)
        box.midbottom = (self.size[0] // 2, self.size[1] - 16)
        pygame.draw.rect(surface, theme.ACCENT, box, border_radius=10)
        surface.blit(image, image.get_rect(center=box.center))

    def _global_key(self, event: pygame.event.Event) -> bool:
        """A key no view took: a tab's function key goes to that tab."""
        for name, _label, key in self.tabs:
            if key is not None and event.key == key:
                self.go(name)
                return True
        return False

    # -- inside --

    def _layout(self) -> None:
        w, h = self.size
        top = 0 if self.current.full_screen else theme.TAB_BAR_PX + self._band_px()
        self.current.rect = pygame.Rect(0, top, w, h - top)

    def _draw_tabs(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, theme.PANEL, (0, 0, self.size[0], theme.TAB_BAR_PX))
        for button in self._tab_buttons():
            button.draw(surface, pressed=button.key == self._held_tab)

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
        # the window was uncovered or resized: nothing to do but draw again
        return event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED,
                              pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED)

    def _tab_pointer(self, event: pygame.event.Event) -> bool:
        pos: tuple[int, int] | None = getattr(event, "pos", None)
        in_bar = pos is not None and pos[1] < theme.TAB_BAR_PX
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and pos and in_bar:
            hit = button_at(self._tab_buttons(), pos)
            self._held_tab = hit.key if hit else None
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._held_tab:
            held, self._held_tab = self._held_tab, None
            hit = button_at(self._tab_buttons(), pos) if pos and in_bar else None
            if hit is not None and hit.key == held:
                hit.on_tap()
            return True
        return False


@contextlib.contextmanager
def screen_window(fullscreen: bool, size: tuple[int, int], *,
                  quiet_probe: bool = False) -> Iterator[pygame.Surface]:
    """A window of `size` (or the whole display) for a screen on its own, closed on the way
    out; NoDisplayError where SDL finds nowhere to show it. With `quiet_probe`, what C
    libraries print while SDL looks for a display is dropped (with no display at all,
    libwayland complains before the command can say, in one line, what to do)."""
    try:
        with native_stderr_silenced() if quiet_probe else contextlib.nullcontext():
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
        yield window
    finally:
        pygame.display.quit()


def run_loop(screen: Shell[Any], window: pygame.Surface, *, wait_ms: int,
             fps: int | None = None) -> None:
    """Run `screen` in `window` until the window is closed (or Ctrl+Q): sleep at most
    `wait_ms` in `pygame.event.wait`, and redraw only when the screen is dirty (with `fps`,
    at most that many times a second)."""
    clock = pygame.time.Clock()
    running = True
    while running:
        first = pygame.event.wait(wait_ms)
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
            if fps is not None:
                clock.tick(fps)
