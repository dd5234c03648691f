"""The game-over view: who won (or, under "loser at the target", who lost), and the final table.

It offers the three things a table does next: start a new game, take back
the last round if it was entered wrongly, or look at how the game went.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.screen.views import facts
from companion.screen.views.standings import draw_star
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View
from companion.touch.widgets import Button, row

BAR_H = 64
LINE_H = 36


class GameOverView(View):
    name = "game_over"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.rows: list[Any] = []

    def enter(self) -> None:
        self.rows = list(self.app.standings()) if self.app.game is not None else []

    def bar_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.bottom - BAR_H - 8, r.width - 16, BAR_H)

    def buttons(self) -> list[Button]:
        over = facts.game_over(self.app)
        cells = row(self.bar_rect(), 3)
        return [
            Button("new_game", cells[0], _("New game"), lambda: self.nav.go("new_game"),
                   primary=True, font_px=22),
            Button("undo", cells[1], _("Undo last round"), self.nav.undo, sublabel="Ctrl+Z",
                   enabled=over),
            Button("chart", cells[2], _("Chart"), lambda: self.nav.go("chart")),
        ]

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.key == pygame.K_n:
            self.nav.go("new_game")
            return True
        return False

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        game = self.app.game
        if game is None or not game.verdict.over:
            theme.text(surface, _("The game is still on"), (r.centerx, r.y + 80), 28,
                       bold=True, anchor="center")
            return
        theme.text(surface, _("Game over"), (r.centerx, r.y + 14), 30, theme.ACCENT, bold=True,
                   anchor="midtop")
        winners = list(game.verdict.winners)
        losers = list(game.verdict.losers)
        y = r.y + 60
        if winners:
            label = ", ".join(winners)
            line = _("{names} won!").format(names=label)
            rect = theme.text(surface, line, (r.centerx + 18, y), 30, theme.TEXT, bold=True,
                              anchor="midtop", max_width=r.width - 120)
            draw_star(surface, (rect.x - 24, rect.centery), 16, theme.ACCENT)
            y = rect.bottom + 6
        if game.verdict.reached:  # the championship: the game ends, nobody wins it
            for line in theme.wrap(_("{names} reached {points}: the game is over with no "
                                     "winner; the championship ranks points per deal.").format(
                    names=", ".join(game.verdict.reached), points=game.rules.target), 20,
                    r.width - 40):
                y = theme.text(surface, line, (r.centerx, y), 20, theme.TEXT, anchor="midtop",
                               max_width=r.width - 40).bottom + 2
        if losers:
            rect = theme.text(surface, _("{names} reached {points} and lost").format(
                names=", ".join(losers), points=game.rules.target), (r.centerx, y), 20,
                theme.DANGER, anchor="midtop", max_width=r.width - 40)
            y = rect.bottom
        self._draw_table(surface, y + 12)

    def _draw_table(self, surface: pygame.Surface, top: int) -> None:
        r = self.rect
        room = self.bar_rect().y - 10 - top
        line_h = min(LINE_H, (room - 8) // max(1, len(self.rows)))
        box = pygame.Rect(r.centerx - 220, top, 440, line_h * len(self.rows) + 8)
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        for i, s in enumerate(self.rows):
            y = box.y + 4 + i * line_h
            mid = y + line_h // 2
            won = s.status == "winner"
            color = theme.ACCENT if won else (theme.DANGER if s.status == "loser" else theme.TEXT)
            theme.text(surface, str(s.rank), (box.x + 28, mid), 20, theme.TEXT_DIM, bold=True,
                       anchor="center")
            theme.text(surface, s.name, (box.x + 56, mid), 20, color, bold=won,
                       anchor="midleft", max_width=box.width - 180)
            theme.text(surface, facts.total_text(self.app, s), (box.right - 16, mid), 20, color,
                       bold=True, anchor="midright")
