"""The history view: every round of the game with what each player scored, newest first.

Rounds pile up over an evening, so the table scrolls: drag it with a finger,
use the wheel, the arrow buttons, or the Up/Down/PageUp/PageDown keys.

A round entered wrongly is corrected by tapping its row: the round-entry view
opens with that round as it was entered. A tap is a press and release on the
same row without a drag, so scrolling never opens a round by accident. Rows
are finger height (`theme.TOUCH_PX`) for that reason.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.screen.views import facts
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View, heading
from companion.touch.widgets import Button, Scroller

ROW_H = theme.TOUCH_PX
ROUND_COL_W = 70
WINNER_COL_W = 150
#: The narrowest column a player's points get; fewer pixels and the columns are left out.
MIN_PLAYER_COL_W = 40
ARROWS_W = 80  # wide enough for "Undo" under its arrow in every language


class HistoryView(View):
    name = "history"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.rounds: list[Any] = []
        self.players: list[str] = []
        self.scroll = Scroller()
        #: The round number whose row the finger went down on (None when there is none).
        self.pressed: int | None = None

    def enter(self) -> None:
        if self.app.game is None:
            self.rounds, self.players = [], []
            return
        self.rounds = list(reversed(list(self.app.history())))
        self.players = facts.player_order(self.app)
        self.scroll.set_extent(len(self.rounds) * ROW_H, self.body_rect().height)

    def table_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 48, r.width - 16 - ARROWS_W - 8, r.height - 56)

    def body_rect(self) -> pygame.Rect:
        t = self.table_rect()
        return pygame.Rect(t.x, t.y + ROW_H, t.width, t.height - ROW_H)

    def buttons(self) -> list[Button]:
        t = self.table_rect()
        x = t.right + 8
        h = (t.height - 3 * 8) // 4
        page = self.body_rect().height - ROW_H
        return [
            Button("up", pygame.Rect(x, t.y, ARROWS_W, h), "▲",
                   lambda: self.scroll.scroll_by(-page), enabled=self.scroll.offset > 0),
            Button("down", pygame.Rect(x, t.y + h + 8, ARROWS_W, h), "▼",
                   lambda: self.scroll.scroll_by(page),
                   enabled=self.scroll.offset < self.scroll.content_h - self.scroll.view_h),
            Button("undo", pygame.Rect(x, t.bottom - h, ARROWS_W, h), "↶",
                   self.nav.undo, sublabel=_("Undo"), font_px=24,
                   enabled=bool(self.rounds)),
        ]

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        return self.scroll.handle(event, self.body_rect())

    def round_at(self, pos: tuple[int, int]) -> int | None:
        """The number of the round whose row is under `pos`, if any."""
        body = self.body_rect()
        if not body.collidepoint(pos):
            return None
        index = (pos[1] - body.y + self.scroll.offset) // ROW_H
        return self.rounds[index].number if 0 <= index < len(self.rounds) else None

    def row_rect(self, number: int) -> pygame.Rect:
        """Where round `number`'s row is drawn now (it may lie outside the body when scrolled)."""
        index = next(i for i, r in enumerate(self.rounds) if r.number == number)
        t = self.table_rect()
        return pygame.Rect(t.x, self.body_rect().y + index * ROW_H - self.scroll.offset,
                           t.width, ROW_H)

    def handle_pointer(self, event: pygame.event.Event) -> bool:
        """Buttons and scrolling as every view; a tap on a row opens that round to correct it."""
        pressed = self.pressed
        left = getattr(event, "button", None) == 1
        if event.type == pygame.MOUSEBUTTONDOWN and left:
            self.pressed = self.round_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and left:
            self.pressed = None
        consumed = super().handle_pointer(event)
        if self.scroll.dragging:
            self.pressed = None  # a drag is not a tap
        if (event.type == pygame.MOUSEBUTTONUP and left and not consumed
                and pressed is not None and self.round_at(event.pos) == pressed):
            self.edit(pressed)
            return True
        return consumed or self.pressed is not None or pressed is not None

    def edit(self, number: int) -> None:
        """Open round `number` in the round-entry view, as it was entered."""
        self.nav.edit_round(number)

    def handle_key(self, event: pygame.event.Event) -> bool:
        step = {pygame.K_UP: -ROW_H, pygame.K_DOWN: ROW_H,
                pygame.K_PAGEUP: -self.body_rect().height,
                pygame.K_PAGEDOWN: self.body_rect().height}.get(event.key)
        if step is None:
            return False
        self.scroll.scroll_by(step)
        return True

    def columns(self) -> list[pygame.Rect]:
        """Header cells: round, winner, then one per player."""
        t = self.table_rect()
        round_w, winner_w = ROUND_COL_W, WINNER_COL_W
        n = max(1, len(self.players))
        if (t.width - round_w - winner_w) // n < MIN_PLAYER_COL_W:  # beside the unit
            round_w, winner_w = ROUND_COL_W * 3 // 4, WINNER_COL_W * 3 // 4
        rest = t.width - round_w - winner_w
        cells = [pygame.Rect(t.x, t.y, round_w, ROW_H),
                 pygame.Rect(t.x + round_w, t.y, winner_w, ROW_H)]
        if rest // n < MIN_PLAYER_COL_W:
            # too many players for a readable column each: who went out takes the room,
            # the points stay in the standings and in the round (tap it)
            cells[1].width = rest + winner_w
            return cells
        for i in range(len(self.players)):
            cells.append(pygame.Rect(t.x + round_w + winner_w + i * rest // n, t.y,
                                     rest // n, ROW_H))
        return cells

    def draw_content(self, surface: pygame.Surface) -> None:
        heading(surface, _("History"), self.rect)
        if not self.rounds:
            empty = _("No game yet") if self.app.game is None else _("No rounds yet")
            theme.text(surface, empty, (self.rect.centerx, self.rect.centery), 24,
                       theme.TEXT_DIM, anchor="center")
            return
        # the hint takes the room the title leaves, on two lines where one would be cut
        hint = _("tap a round to correct it")
        title_w = theme.font(24, True).size(_("History"))[0]
        room = self.table_rect().right - (self.rect.x + 16 + title_w + 16)
        if theme.fit(hint, 16, room)[0] == hint:
            theme.text(surface, hint, (self.table_rect().right, self.rect.y + 16), 16,
                       theme.TEXT_DIM, anchor="topright", max_width=room)
        else:
            for k, line in enumerate(theme.wrap(hint, 13, room, max_lines=2)):
                theme.text(surface, line, (self.table_rect().right, self.rect.y + 6 + 16 * k),
                           13, theme.TEXT_DIM, anchor="topright", max_width=room)
        cols = self.columns()
        labels = [_("Round"), _("Went out"), *self.players]
        pygame.draw.rect(surface, theme.PANEL_HI, self.table_rect().clip(
            pygame.Rect(0, cols[0].y, 10_000, ROW_H)))
        for i, (cell, label) in enumerate(zip(cols, labels, strict=False)):
            color = theme.player_color(i - 2) if i >= 2 else theme.TEXT_DIM
            lines = [label]
            if theme.fit(label, 17, cell.width - 8, bold=True)[0] != label:
                lines = theme.wrap(label, 13, cell.width - 8, bold=True, max_lines=2)
            size = 17 if len(lines) == 1 else 13  # a team's "Ann & Cid" on two lines
            for k, line in enumerate(lines):
                theme.text(surface, line, (cell.centerx, cell.centery + (2 * k - len(lines) + 1)
                                           * (size * 3 // 5)), size, color, bold=True,
                           anchor="center", max_width=cell.width - 8)
        body = self.body_rect()
        previous_clip = surface.get_clip()
        surface.set_clip(body.clip(previous_clip) if previous_clip else body)
        first = self.scroll.offset // ROW_H
        for index in range(first, min(len(self.rounds), first + body.height // ROW_H + 2)):
            y = body.y + index * ROW_H - self.scroll.offset
            self._draw_round(surface, self.rounds[index], cols, y, index)
        surface.set_clip(previous_clip)

    def _draw_round(self, surface: pygame.Surface, rnd: Any, cols: list[pygame.Rect], y: int,
                    index: int) -> None:
        t = self.table_rect()
        if facts.round_number(rnd) == self.pressed:
            pygame.draw.rect(surface, theme.BUTTON_PRESSED, (t.x, y, t.width, ROW_H))
        elif index % 2:
            pygame.draw.rect(surface, theme.PANEL, (t.x, y, t.width, ROW_H))
        mid = y + ROW_H // 2
        theme.text(surface, str(facts.round_number(rnd)), (cols[0].centerx, mid), 18,
                   theme.TEXT_DIM, anchor="center")
        winner = facts.round_winner(rnd)
        theme.text(surface, winner, (cols[1].x + 8, mid), 18, theme.TEXT, anchor="midleft",
                   max_width=cols[1].width - 12)
        points = facts.round_points(rnd)
        cells = facts.round_cells(rnd)
        for name, cell in zip(self.players, cols[2:], strict=False):
            value = points.get(name)  # who scored this round stands out
            shown = cells.get(name) or "–"
            color = theme.ACCENT if value else theme.TEXT_DIM
            theme.text(surface, shown, (cell.centerx, mid), 18, color, bold=bool(value),
                       anchor="center", max_width=cell.width - 4)
