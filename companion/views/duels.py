"""The duels view: the last showdown duel in full, and each player's best and median reaction.

Reaction times are what players brag about, so the table is sorted fastest
first; an early press counts as a duel lost but never as a reaction time.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion import theme
from companion.views import facts
from companion.views.base import View, heading
from companion.views.i18n import _

LAST_W = 280
ROW_H = 40


class DuelsView(View):
    name = "duels"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.stats: list[Any] = []
        self.last: Any = None

    def enter(self) -> None:
        if self.app.game is None:
            self.stats, self.last = [], None
            return
        stats = list(self.app.duel_stats().values())
        stats.sort(key=lambda s: (s.best_ms is None, s.best_ms or 0.0, s.name))
        self.stats = stats
        self.last = self.app.last_duel()

    def last_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 48, LAST_W, r.height - 56)

    def table_rect(self) -> pygame.Rect:
        r = self.rect
        x = r.x + LAST_W + 24
        return pygame.Rect(x, r.y + 48, r.right - 8 - x, r.height - 56)

    def draw_content(self, surface: pygame.Surface) -> None:
        heading(surface, _("Showdown duels"), self.rect)
        box = self.last_rect()
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        theme.text(surface, _("Last duel"), (box.x + 14, box.y + 10), 20, theme.TEXT_DIM,
                   bold=True)
        lines = facts.duel_lines(self.last) or [(_("No duel yet"), theme.TEXT_DIM)]
        y = box.y + 44
        for i, (line, color) in enumerate(lines):
            size = 24 if i < 2 else 20
            theme.text(surface, line, (box.x + 14, y), size, color, bold=i == 1,
                       max_width=box.width - 28)
            y += size + 14
        self._draw_table(surface)

    def _draw_table(self, surface: pygame.Surface) -> None:
        t = self.table_rect()
        widths = (0.40, 0.14, 0.14, 0.16, 0.16)
        labels = (_("Player"), _("Duels"), _("Won"), _("Best"), _("Median"))
        xs = [t.x]
        for w in widths:
            xs.append(xs[-1] + round(w * t.width))
        pygame.draw.rect(surface, theme.PANEL_HI, (t.x, t.y, t.width, ROW_H), border_radius=6)
        for i, label in enumerate(labels):
            anchor = "midleft" if i == 0 else "center"
            pos = (xs[0] + 10, t.y + ROW_H // 2) if i == 0 else (
                (xs[i] + xs[i + 1]) // 2, t.y + ROW_H // 2)
            theme.text(surface, label, pos, 16, theme.TEXT_DIM, bold=True, anchor=anchor,
                       max_width=xs[i + 1] - xs[i] - 8)
        if not self.stats:
            theme.text(surface, _("No players yet"), (t.centerx, t.y + 3 * ROW_H), 20,
                       theme.TEXT_DIM, anchor="center")
            return
        fastest = self.stats[0].best_ms
        for n, s in enumerate(self.stats):
            y = t.y + (n + 1) * ROW_H
            if y + ROW_H > t.bottom:
                break
            if n % 2:
                pygame.draw.rect(surface, theme.PANEL, (t.x, y, t.width, ROW_H))
            mid = y + ROW_H // 2
            top = s.best_ms is not None and s.best_ms == fastest
            cells = (s.name, str(s.duels), str(s.wins), facts.ms_text(s.best_ms),
                     facts.ms_text(s.median_ms))
            for i, value in enumerate(cells):
                color = theme.ACCENT if top and i in (0, 3) else theme.TEXT
                if i == 0:
                    theme.text(surface, value, (xs[0] + 10, mid), 18, color, bold=top,
                               anchor="midleft", max_width=xs[1] - xs[0] - 14)
                else:
                    theme.text(surface, value, ((xs[i] + xs[i + 1]) // 2, mid), 18, color,
                               anchor="center")
