"""The home view: who leads, who deals, how close everyone is to the target, and the last duel.

This is what the table glances at between rounds, so it is big and plain:
one row per player, the leader marked with a yellow star and bar, the dealer
with a blue "D", and a bar filling toward the target. The buttons to enter a
round and to undo sit on the right where a right thumb finds them.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.screen.views import facts
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View
from companion.touch.widgets import Button

#: Width of the right-hand column (last duel and the action buttons).
SIDE_W = 250
#: Height of one player's row when there is room.
ROW_H = 58
#: Below this width the right-hand column moves under the list (the emulator's side panel).
STACK_BELOW_PX = 640
#: Height of the action buttons.
BUTTON_H = 64
#: The smallest size a player's name is drawn at before it is shortened with "…".
NAME_MIN_PX = 16
#: The type size of the hint on the empty standings (no game yet).
EMPTY_HINT_PX = 20
#: The size of a note beside a total (seven-round UNO's hand in play).
NOTE_PX = 16


def draw_star(surface: pygame.Surface, center: tuple[int, int], radius: int,
              color: theme.Color) -> None:
    """A five-pointed star: the leader's mark (drawn, so it needs no glyph)."""
    import math

    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((center[0] + r * math.cos(a), center[1] + r * math.sin(a)))
    pygame.draw.polygon(surface, color, points)


def draw_dealer(surface: pygame.Surface, center: tuple[int, int], radius: int) -> None:
    """The dealer's mark: a blue disc with a D."""
    pygame.draw.circle(surface, theme.DEALER, center, radius)
    theme.text(surface, _("D"), center, int(radius * 1.3), theme.TEXT, bold=True,
               anchor="center")


class StandingsView(View):
    name = "standings"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.rows: list[Any] = []
        #: What the last frame showed in each row: the name as drawn, its box, the total's box.
        self.drawn_rows: list[tuple[str, pygame.Rect, pygame.Rect]] = []

    def enter(self) -> None:
        self.rows = list(self.app.standings()) if self.app.game is not None else []

    # -- geometry (also what the tests tap and look at) --

    def stacked(self) -> bool:
        """Too narrow for two columns: the list on top, last duel and buttons under it."""
        return self.rect.width < STACK_BELOW_PX

    def _list_h(self) -> int:
        """The list's height when stacked: what its rows want, leaving the buttons room."""
        r = self.rect
        room = r.height - 48 - BUTTON_H - 16
        want = max(1, len(self.rows)) * (ROW_H + 4) - 4
        return max(0, min(room, want))

    def side_rect(self) -> pygame.Rect:
        r = self.rect
        if self.stacked():
            top = r.y + 48 + self._list_h() + 8
            return pygame.Rect(r.x + 8, top, r.width - 16, r.bottom - 8 - top)
        return pygame.Rect(r.right - SIDE_W - 8, r.y + 8, SIDE_W, r.height - 16)

    def list_rect(self) -> pygame.Rect:
        r = self.rect
        if self.stacked():
            return pygame.Rect(r.x + 8, r.y + 48, r.width - 16, self._list_h())
        return pygame.Rect(r.x + 8, r.y + 48, r.width - SIDE_W - 24, r.height - 56)

    def duel_rect(self) -> pygame.Rect | None:
        """The "Last duel" box, or None when the stacked layout has no room for it."""
        side = self.side_rect()
        if self.stacked():
            box = pygame.Rect(side.x, side.y, side.width, side.height - BUTTON_H - 8)
            return box if box.height >= 60 else None
        return pygame.Rect(side.x, side.y, side.width, side.height - 2 * BUTTON_H - 24)

    def row_rects(self) -> list[pygame.Rect]:
        area = self.list_rect()
        n = max(1, len(self.rows))
        h = min(ROW_H, (area.height - 4 * (n - 1)) // n)
        return [pygame.Rect(area.x, area.y + i * (h + 4), area.width, h) for i in range(n)]

    # -- buttons --

    def empty_layout(self) -> tuple[int, list[str], pygame.Rect]:
        """Without a game: where the title goes, the hint's lines, and the New game button
        under them (the hint says what to do first, so nothing may cover it)."""
        r = self.rect
        lines = theme.wrap(_("Start a game first: tap New game, choose the players, "
                             "then Start game."), EMPTY_HINT_PX, r.width - 48)
        height = 40 + len(lines) * (EMPTY_HINT_PX + 8) + 16 + BUTTON_H
        top = r.y + max(8, (r.height - height) // 2)
        button = pygame.Rect(0, 0, min(300, r.width - 32), BUTTON_H)
        button.midtop = (r.centerx, top + 40 + len(lines) * (EMPTY_HINT_PX + 8) + 16)
        return top, lines, button

    def buttons(self) -> list[Button]:
        if self.app.game is None:
            box = self.empty_layout()[2]
            return [Button("new_game", box, _("New game"), lambda: self.nav.go("new_game"),
                           primary=True, font_px=24)]
        side = self.side_rect()
        h = BUTTON_H
        if self.stacked():  # one row: the main button, then undo and redo
            enter = pygame.Rect(side.x, side.bottom - h, (side.width - 16) // 2, h)
            undo = pygame.Rect(enter.right + 8, enter.y, (side.width - enter.width - 16) // 2, h)
            redo = pygame.Rect(undo.right + 8, enter.y, side.right - undo.right - 8, h)
        else:
            enter = pygame.Rect(side.x, side.bottom - 2 * h - 8, side.width, h)
            undo = pygame.Rect(side.x, side.bottom - h, (side.width - 8) // 2, h)
            redo = pygame.Rect(undo.right + 8, undo.y, side.width - undo.width - 8, h)
        if facts.game_over(self.app):
            main = Button("game_over", enter, _("Game over"), lambda: self.nav.go("game_over"),
                          primary=True, font_px=22)
        else:
            main = Button("enter_round", enter, _("Enter round"),
                          lambda: self.nav.go("round_entry"), primary=True, font_px=22,
                          enabled=facts.may_record(self.app))
        return [
            main,
            Button("undo", undo, _("Undo"), self.nav.undo, sublabel="Ctrl+Z", font_px=20),
            Button("redo", redo, _("Redo"), self.nav.redo, sublabel="Ctrl+Y", font_px=20),
        ]

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.mod & pygame.KMOD_CTRL:  # Ctrl+R is the screen's Reverse, not "round"
            return False
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_r):
            return self.tap("game_over") or self.tap("enter_round") or self.tap("new_game")
        return False

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        if self.app.game is None:
            top, lines, _button = self.empty_layout()
            theme.text(surface, _("No game yet"), (r.centerx, top), 32, bold=True,
                       anchor="midtop", max_width=r.width - 32)
            for i, line in enumerate(lines):
                theme.text(surface, line, (r.centerx, top + 44 + i * (EMPTY_HINT_PX + 8)),
                           EMPTY_HINT_PX, theme.TEXT_DIM, anchor="midtop",
                           max_width=r.width - 32)
            return
        header_w = r.width - 32 if self.stacked() else r.width - SIDE_W - 40
        lines, size = facts.game_line_lines(self.app, 20, header_w)
        for i, line in enumerate(lines):  # two lines where one would be cut
            theme.text(surface, line, (r.x + 16, r.y + (12 if len(lines) == 1 else 4 + i * 17)),
                       size, theme.TEXT_DIM, max_width=header_w, min_size=size)
        self.drawn_rows = []
        for rect, standing in zip(self.row_rects(), self.rows, strict=False):
            self._draw_row(surface, rect, standing)
        self._draw_side(surface)

    def _draw_row(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        leader = bool(getattr(s, "is_leader", False))
        pygame.draw.rect(surface, theme.PANEL_HI if leader else theme.PANEL, rect,
                         border_radius=8)
        if leader:
            pygame.draw.rect(surface, theme.ACCENT, (rect.x, rect.y, 8, rect.height),
                             border_top_left_radius=8, border_bottom_left_radius=8)
        mid = rect.y + rect.height // 2 - 3
        big = max(16, min(26, rect.height // 2))
        theme.text(surface, str(getattr(s, "rank", "")), (rect.x + 32, mid), big,
                   theme.TEXT_DIM, bold=True, anchor="center")
        x = rect.x + 56
        if leader:
            draw_star(surface, (x + 12, mid), 13, theme.ACCENT)
        x += 30
        if getattr(s, "is_dealer", False):
            draw_dealer(surface, (x + 12, mid), 12)
        x += 32
        total_rect = theme.text(surface, facts.total_text(self.app, s), (rect.right - 16, mid),
                                big + 4, theme.ACCENT if leader else theme.TEXT, bold=True,
                                anchor="midright")
        note = facts.total_note(self.app, s)
        if note:  # e.g. the hand in play under seven-round UNO, in small type before the total
            total_rect = theme.text(surface, note, (total_rect.x - 10, mid), NOTE_PX,
                                    theme.TEXT_DIM, anchor="midright",
                                    max_width=(total_rect.x - x) // 2).union(total_rect)
        shown, size = theme.fit(str(s.name), big, total_rect.x - x - 12, bold=leader,
                                min_size=min(big, NAME_MIN_PX))
        name_rect = theme.text(surface, shown, (x, mid), size, theme.TEXT, bold=leader,
                               anchor="midleft")
        self.drawn_rows.append((shown, name_rect, total_rect))
        progress = getattr(s, "progress", None)
        if progress is not None:
            bar = pygame.Rect(x, rect.bottom - 9, rect.right - 16 - x, 5)
            pygame.draw.rect(surface, theme.LINE, bar, border_radius=2)
            fill = bar.copy()
            fill.width = round(bar.width * max(0.0, min(1.0, float(progress))))
            if fill.width:
                color = theme.DANGER if facts.lower_is_better(self.app) else theme.GOOD
                pygame.draw.rect(surface, color, fill, border_radius=2)

    def _draw_side(self, surface: pygame.Surface) -> None:
        box = self.duel_rect()
        if box is None:
            return
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
        theme.text(surface, _("Last duel"), (box.x + 12, box.y + 8), 18, theme.TEXT_DIM,
                   bold=True, max_width=box.width - 24)
        lines = facts.duel_lines(self.app.last_duel())
        if not lines:
            lines = [(_("No duel yet"), theme.TEXT_DIM)]
        y = box.y + 36
        for line, color in lines:
            if y + 24 > box.bottom:
                break
            theme.text(surface, line, (box.x + 12, y), 18, color, max_width=box.width - 24)
            y += 26
