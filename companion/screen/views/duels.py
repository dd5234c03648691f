"""The duels view: the last showdown duel in full, and each player's best and median reaction.

Reaction times are what players brag about, so the table is sorted fastest
first; an early press counts as a duel lost but never as a reaction time.

The table's columns are as wide as their widest text (measured with the font,
in whatever language), the player column takes what is left; when even that
does not fit (the emulator's narrow companion panel), the least important
columns go first: Duels, then Won, then Median. Player and Best always stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from companion.screen.views import facts
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View, heading
from showdown.contract.errors import CompanionError

#: The last-duel panel's width: a share of the view, within these bounds.
LAST_MIN_W, LAST_MAX_W, LAST_SHARE = 200, 280, 0.35
ROW_H = 40
HEADER_PX, CELL_PX = 16, 18
#: Room around a column's text, and the least the player column may shrink to.
COLUMN_PAD = 14
PLAYER_MIN_W = 90
#: Which columns go first when the table is too narrow: Duels, Won, Median, Contested.
DROP_ORDER = (1, 2, 4, 5)


def fit_columns(width: int, needs: Sequence[int], first_min: int,
                drop_order: Sequence[int] = DROP_ORDER) -> list[int | None]:
    """Each column's width (None when left out) in a table `width` wide.

    Columns after the first get what they `need`; the first gets the rest, at least
    `first_min` (or its need, if smaller). Columns in `drop_order` are left out one by one
    until the rest fit; whatever is still missing comes out of the first column.
    """
    shown = [True] * len(needs)
    first = min(first_min, needs[0]) if needs else 0
    for index in (None, *(i for i in drop_order if i < len(needs))):
        if index is not None:
            shown[index] = False
        if first + sum(n for i, n in enumerate(needs) if shown[i] and i > 0) <= width:
            break
    rest = sum(n for i, n in enumerate(needs) if shown[i] and i > 0)
    return [max(0, width - rest) if i == 0 else (n if shown[i] else None)
            for i, n in enumerate(needs)]


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
        try:
            stats = list(self.app.duel_stats().values())
        except CompanionError as exc:  # the file unreadable for now: say so, show what we have
            self.nav.notify(str(exc))
            stats = []
        stats.sort(key=lambda s: (s.best_ms is None, s.best_ms or 0.0, s.name))
        self.stats = stats
        self.last = self.app.last_duel()

    def last_rect(self) -> pygame.Rect:
        r = self.rect
        last_w = max(LAST_MIN_W, min(LAST_MAX_W, round(r.width * LAST_SHARE)))
        return pygame.Rect(r.x + 8, r.y + 48, last_w, r.height - 56)

    def table_rect(self) -> pygame.Rect:
        r = self.rect
        x = self.last_rect().right + 16
        return pygame.Rect(x, r.y + 48, r.right - 8 - x, r.height - 56)

    def labels(self) -> tuple[str, ...]:
        labels = (_("Player"), _("Duels"), _("Won"), _("Best"), _("Median"))
        return (*labels, _("Contested")) if self.any_contested() else labels

    def any_contested(self) -> bool:
        """Whether a duel of this game is contested: only then has the table that column."""
        return any(getattr(s, "contested", 0) for s in self.stats)

    def cells(self, s: Any) -> tuple[str, ...]:
        """One player's row as shown: name, duels, wins, best and median reaction, and how
        many of the duels are contested (when any is)."""
        cells = (s.name, str(s.duels), str(s.wins), facts.ms_text(s.best_ms),
                 facts.ms_text(s.median_ms))
        return (*cells, str(s.contested)) if self.any_contested() else cells

    def columns(self) -> list[tuple[int, pygame.Rect]]:
        """The columns shown, as (index into `labels`, header cell), left to right."""
        t = self.table_rect()
        header, cell = theme.font(HEADER_PX, True), theme.font(CELL_PX, True)
        texts = [[label] for label in self.labels()]
        for s in self.stats:
            for i, value in enumerate(self.cells(s)):
                texts[i].append(value)
        needs = [max([header.size(texts[i][0])[0], *(cell.size(v)[0] for v in texts[i][1:])])
                 + COLUMN_PAD for i in range(len(texts))]
        out: list[tuple[int, pygame.Rect]] = []
        x = t.x
        for i, width in enumerate(fit_columns(t.width, needs, PLAYER_MIN_W)):
            if width is not None:
                out.append((i, pygame.Rect(x, t.y, width, ROW_H)))
                x += width
        return out

    def draw_content(self, surface: pygame.Surface) -> None:
        heading(surface, _("Showdown duels"), self.rect)
        box = self.last_rect()
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        theme.text(surface, _("Last duel"), (box.x + 14, box.y + 10), 20, theme.TEXT_DIM,
                   bold=True, max_width=box.width - 28)
        lines = facts.duel_lines(self.last) or [(_("No duel yet"), theme.TEXT_DIM)]
        y = box.y + 44
        width = box.width - 28
        for i, (line, color) in enumerate(lines):
            size = 24 if i < 2 else 20
            if theme.fit(line, size, width, bold=i == 1)[0] == line:
                theme.text(surface, line, (box.x + 14, y), size, color, bold=i == 1,
                           max_width=width)
                y += size + 14
                continue
            # too long for the box beside the unit even small: over as many lines as it needs
            size = 16
            for part in theme.wrap(line, size, width, bold=i == 1):
                theme.text(surface, part, (box.x + 14, y), size, color, bold=i == 1,
                           max_width=width)
                y += size + 4
            y += 10
        self._draw_table(surface)

    def _draw_table(self, surface: pygame.Surface) -> None:
        t = self.table_rect()
        columns = self.columns()
        labels = self.labels()
        pygame.draw.rect(surface, theme.PANEL_HI, (t.x, t.y, t.width, ROW_H), border_radius=6)
        for i, cell in columns:
            self._draw_cell(surface, labels[i], i, cell, HEADER_PX, theme.TEXT_DIM, True)
        if not self.stats:
            empty = _("No game yet") if self.app.game is None else _("No players yet")
            theme.text(surface, empty, (t.centerx, t.y + 3 * ROW_H), 20, theme.TEXT_DIM,
                       anchor="center")
            return
        fastest = self.stats[0].best_ms
        for n, s in enumerate(self.stats):
            y = t.y + (n + 1) * ROW_H
            if y + ROW_H > t.bottom:
                break
            if n % 2:
                pygame.draw.rect(surface, theme.PANEL, (t.x, y, t.width, ROW_H))
            top = s.best_ms is not None and s.best_ms == fastest
            values = self.cells(s)
            for i, cell in columns:
                color = theme.ACCENT if top and i in (0, 3) else theme.TEXT
                if i == 5 and s.contested:
                    color = theme.DANGER
                self._draw_cell(surface, values[i], i, cell.move(0, y - t.y), CELL_PX, color,
                                top and i == 0)

    @staticmethod
    def _draw_cell(surface: pygame.Surface, value: str, index: int, cell: pygame.Rect,
                   size: int, color: theme.Color, bold: bool) -> None:
        """Names sit on the left of their column, numbers in the middle of theirs."""
        inner = cell.width - COLUMN_PAD
        if index == 0:
            theme.text(surface, value, (cell.x + COLUMN_PAD // 2 + 4, cell.centery), size,
                       color, bold=bold, anchor="midleft", max_width=inner - 4)
        else:
            theme.text(surface, value, cell.center, size, color, bold=bold, anchor="center",
                       max_width=inner)
