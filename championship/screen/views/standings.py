"""Live standings across every table: lowest result first, the finalists above a yellow cut
line, withdrawn players and those without a deal yet at the bottom without a rank.

It follows the tables as they record (the screen re-reads the games file when it changes).
Drag, the wheel, or Up/Down/PageUp/PageDown scroll it.
"""

from __future__ import annotations

from typing import Any

import pygame

from championship.core.i18n import _
from championship.screen.views.base import LINE_H, DirectorView, draw_lines
from companion.touch import theme
from companion.touch.widgets import Scroller


class StandingsView(DirectorView):
    name = "standings"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.scroll = Scroller()

    def table_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 40, r.width - 16, r.height - 48)

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        return self.scroll.handle(event, self.table_rect())

    def handle_key(self, event: pygame.event.Event) -> bool:
        steps = {pygame.K_DOWN: LINE_H, pygame.K_UP: -LINE_H, pygame.K_PAGEDOWN: 8 * LINE_H,
                 pygame.K_PAGEUP: -8 * LINE_H}
        if event.key in steps:
            return self.scroll.scroll_by(steps[event.key])
        return False

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        snap = self.snap
        if snap is None:
            self.no_event(surface)
            return
        deals = snap.deals_in(*snap.qualifying_stages)
        head = _("Qualifying · {n} deals · result = points ÷ games, lower is better").format(
            n=deals)
        theme.text(surface, head, (r.x + 16, r.y + 20), 18, theme.TEXT_DIM, anchor="midleft",
                   max_width=r.width - 32)
        area = self.table_rect()
        label = _("↑ {n} play the final").format(n=snap.settings.finalists)
        height = draw_lines(surface, area, snap.qualifying, snap.settings.finalists,
                            self.scroll.offset, cut_label=label)
        self.scroll.set_extent(height, area.height - LINE_H - 4)
        body = pygame.Rect(area.x, area.y + LINE_H + 4, area.width, area.height - LINE_H - 4)
        self.scroll.draw(surface, body.move(7, 0))
