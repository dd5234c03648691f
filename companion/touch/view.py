"""What every view of the companion screen shares: navigation, buttons, the held-button state.

A view is drawn into a rectangle the router gives it and lists its buttons
afresh each time (they are cheap values), so a view never holds stale
geometry after a resize. The router (a `companion.touch.shell.Shell`: the score
keeper's screen or the director's) owns the tab bar, the global keys and the notices;
views only know their own area.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from companion.touch import theme
from companion.touch.widgets import Button, button_at

if TYPE_CHECKING:
    from companion.app import CompanionApp


class Navigator(Protocol):
    """What a view may ask of the screen around it."""

    app: CompanionApp

    def go(self, view: str) -> None: ...

    def notify(self, message: str) -> None: ...

    def invalidate(self) -> None: ...

    def undo(self) -> None: ...

    def redo(self) -> None: ...

    def edit_round(self, number: int) -> None: ...


class View:
    """One page of the screen; subclasses draw it and list its buttons."""

    #: The router's name for this view.
    name = ""
    #: Full-screen views (round entry, new game) hide the tab bar to win room.
    full_screen = False

    def __init__(self, nav: Navigator) -> None:
        self.nav = nav
        self._held: str | None = None
        #: The area the router gives this view (set before any draw or event).
        self.rect = pygame.Rect(0, 0, 800, 480)

    @property
    def app(self) -> CompanionApp:
        return self.nav.app

    # -- for subclasses --

    def enter(self) -> None:
        """Called each time the view is shown: re-read what it displays."""

    def leave(self) -> None:
        """Called when the screen moves to another view."""

    def buttons(self) -> list[Button]:
        return []

    def draw_content(self, surface: pygame.Surface) -> None:
        """Draw everything but the buttons (which are drawn on top)."""

    def handle_key(self, event: pygame.event.Event) -> bool:
        return False

    def handle_text(self, event: pygame.event.Event) -> bool:
        return False

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        """Give a scrolling list first look at mouse events; True to swallow the event."""
        return False

    def update(self, now_ms: int) -> bool:
        """Advance animations; True when something changed."""
        return False

    # -- shared machinery --

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_content(surface)
        for button in self.buttons():
            button.draw(surface, pressed=button.key == self._held)

    def handle_pointer(self, event: pygame.event.Event) -> bool:
        """Mouse and touch: scroll first, then press-and-release on buttons."""
        if self.handle_scroll(event):
            self._held = None  # a drag is not a tap
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = button_at(self.buttons(), event.pos)
            self._held = hit.key if hit is not None and hit.enabled else None
            return hit is not None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            held, self._held = self._held, None
            hit = button_at(self.buttons(), event.pos)
            if hit is not None and hit.key == held and hit.enabled:
                hit.on_tap()
                return True
            return held is not None
        return False

    def tap(self, key: str) -> bool:
        """Fire the button named `key` as a tap would (used by keyboard shortcuts)."""
        for button in self.buttons():
            if button.key == key and button.enabled:
                button.on_tap()
                return True
        return False


def heading(surface: pygame.Surface, title: str, rect: pygame.Rect) -> int:
    """Draw a view's title at the top of `rect`; returns the y below it."""
    theme.text(surface, title, (rect.x + 16, rect.y + 10), 24, theme.TEXT, bold=True,
               max_width=rect.width - 32)
    return rect.y + 46
