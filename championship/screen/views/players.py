"""Registration: type a name, Register, and the player has a number; tap a player to
withdraw them (a second tap confirms, so a stray finger withdraws nobody).

With a real keyboard, typing goes straight into the name and Enter registers. Tapping the
name opens the companion's on-screen keyboard. Registration closes when qualifying starts.

Without an event yet, the same field names a new one and a stepper sets the bar's tables,
so a championship can be run from the screens alone (every other setting keeps the seed's
default; `uno-showdown event set` changes them).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from championship.core.i18n import _
from championship.screen.views.base import DirectorView
from companion.touch import theme
from companion.touch.widgets import Button, Keyboard, Scroller, grid, row

FIELD_H = 56
CELL_H = 46
#: The scroll bar sits in the margin right of the grid.
BAR_GAP_PX = 7
#: Up/Down move one row of players.
ROW_STEP_PX = CELL_H + 6
MAX_NAME = 40
MAX_EVENT_NAME = 80


def wrap(text: str, size: int, width: int) -> list[str]:
    """`text` in lines that fit `width` at `size` pixels, broken between words."""
    font = theme.font(size)
    lines: list[str] = []
    for word in text.split():
        if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


class PlayersView(DirectorView):
    name = "players"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.draft = ""
        self.typing = False  # the on-screen keyboard is open
        self.selected: int | None = None
        self.confirming = False
        self.tables = 3  # for a new event
        self.scroll = Scroller()
        self.keyboard = Keyboard(self._type, self._backspace, self._close_keyboard, _("Done"))

    @property
    def full_screen(self) -> bool:  # type: ignore[override]
        return self.typing

    def open(self) -> bool:
        """Does the name field take typing: registration is open, or there is no event yet."""
        snap = self.snap
        return snap is None or not snap.data.clock

    # -- a new event --

    def create(self) -> None:
        from championship.core.settings import make

        name = " ".join(self.draft.split())
        if not name:
            self.director.notify(_("Type the event's name first"))
            return
        tables = self.tables
        made = self.director.act(lambda: self.director.champ.new_event(name, make(tables=tables)))
        if made is not None:
            self.draft = ""
            self.director.notify(_("{name} is created: register the players").format(name=name))

    def step_tables(self, step: int) -> None:
        self.tables = max(1, min(100, self.tables + step))

    def stepper_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 8 + FIELD_H + 56, 300, FIELD_H)

    # -- actions --

    def register(self) -> None:
        if self.snap is None:
            self.create()
            return
        name = " ".join(self.draft.split())
        if not name:
            self.director.notify(_("Type the player's name first"))
            return
        added = self.director.act(lambda: self.director.champ.register([name]))
        if added:
            number, clean = added[0]
            self.draft = ""
            self.director.notify(_("{name} is number {n}").format(name=clean, n=number))
            snap = self.snap
            if snap is not None and snap.event.stale:
                self.director.notify(_("{name} is number {n}: draw the seats again").format(
                    name=clean, n=number))

    def tap_player(self, number: int) -> None:
        self.confirming = False
        self.selected = None if self.selected == number else number

    def withdraw(self) -> None:
        if self.selected is None:
            return
        if not self.confirming:
            self.confirming = True
            return
        number = self.selected
        notes = self.director.act(lambda: self.director.champ.withdraw(number))
        self.selected, self.confirming = None, False
        if notes:
            self.director.notify(" ".join(notes))

    def _type(self, text: str) -> None:
        if len(self.draft) < (MAX_EVENT_NAME if self.snap is None else MAX_NAME):
            self.draft += text

    def _backspace(self) -> None:
        self.draft = self.draft[:-1]

    def _close_keyboard(self) -> None:
        self.typing = False
        if self.draft.strip():
            self.register()

    # -- geometry --

    def field_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 8, r.width - 16 - 200, FIELD_H)

    def grid_rect(self) -> pygame.Rect:
        r = self.rect
        top = r.y + 8 + FIELD_H + 40
        return pygame.Rect(r.x + 8, top, r.width - 16, r.bottom - 8 - 64 - top)

    def columns(self) -> int:
        return max(2, self.rect.width // 190)

    def buttons(self) -> list[Button]:
        r = self.rect
        if self.typing:
            field = pygame.Rect(r.x + 8, r.y + 8, r.width - 16 - 128, FIELD_H)
            cancel = pygame.Rect(field.right + 8, field.y, 120, FIELD_H)
            out = [Button("keyboard:cancel", cancel, _("Cancel"), self._cancel_keyboard,
                          sublabel="Esc")]
            keys = pygame.Rect(r.x + 8, r.y + FIELD_H + 24, r.width - 16,
                               r.height - FIELD_H - 32)
            return out + self.keyboard.buttons(keys)
        snap = self.snap
        out = []
        field = self.field_rect()
        is_open = self.open()
        out.append(Button("name", field, "", self._open_keyboard, enabled=is_open,
                          fill=theme.PANEL_HI))
        if snap is None:  # no event yet: name one and give the bar's tables
            out.append(Button("create", pygame.Rect(field.right + 8, field.y, 192, FIELD_H),
                              _("Create event"), self.create, primary=True, sublabel="Enter"))
            cells = row(self.stepper_rect(), 3)
            out.append(Button("tables:-", cells[0], "−", lambda: self.step_tables(-1),
                              font_px=28, enabled=self.tables > 1))
            out.append(Button("tables:+", cells[2], "+", lambda: self.step_tables(1),
                              font_px=28, enabled=self.tables < 100))
            return out
        out.append(Button("register", pygame.Rect(field.right + 8, field.y, 192, FIELD_H),
                          _("Register"), self.register, primary=True, enabled=is_open,
                          sublabel="Enter"))
        area = self.grid_rect()
        players = snap.data.players
        cells = grid(area, len(players), self.columns(), CELL_H, 6)
        self.scroll.set_extent((cells[-1].bottom - area.y) if cells else 0, area.height)
        for p, cell in zip(players, cells, strict=True):
            cell = cell.move(0, -self.scroll.offset)
            if cell.bottom <= area.y or cell.y >= area.bottom:
                continue
            label = f"{p.number}  {p.name}"
            out.append(Button(f"player:{p.number}", cell, label,
                              partial(self.tap_player, p.number), font_px=18,
                              selected=self.selected == p.number,
                              text_color=theme.TEXT_DIM if p.withdrawn else None,
                              sublabel=_("withdrew") if p.withdrawn else ""))
        if self.selected is not None:
            player = snap.data.player(self.selected)
            if player is not None and not player.withdrawn and not snap.over:
                box = pygame.Rect(r.right - 8 - 320, r.bottom - 8 - 56, 320, 56)
                label = (_("Tap again: {name} withdraws") if self.confirming
                         else _("Withdraw {name}")).format(name=player.name)
                out.append(Button("withdraw", box, label, self.withdraw,
                                  fill=theme.DANGER if self.confirming else None))
        return out

    def _open_keyboard(self) -> None:
        self.typing = True
        self.keyboard.shift = True

    def _cancel_keyboard(self) -> None:
        self.typing = False

    # -- input --

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        return not self.typing and self.scroll.handle(event, self.grid_rect())

    def handle_text(self, event: pygame.event.Event) -> bool:
        if not self.open():
            return False
        self._type(event.text)
        return True

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.typing:
                self._close_keyboard()
            else:
                self.register()
            return True
        if event.key == pygame.K_BACKSPACE and self.open():
            self._backspace()
            return True
        if event.key == pygame.K_ESCAPE and self.typing:
            self._cancel_keyboard()
            return True
        steps = {pygame.K_DOWN: ROW_STEP_PX, pygame.K_UP: -ROW_STEP_PX,
                 pygame.K_PAGEDOWN: 5 * ROW_STEP_PX, pygame.K_PAGEUP: -5 * ROW_STEP_PX}
        if not self.typing and event.key in steps:  # as on Seating and Standings
            return self.scroll.scroll_by(steps[event.key])
        return self.typing  # swallow other keys while typing (they come as text)

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        snap = self.snap
        if self.typing:
            field = pygame.Rect(r.x + 8, r.y + 8, r.width - 16 - 128, FIELD_H)
            self._draw_field(surface, field)
            return
        if snap is None:
            theme.text(surface, _("No event yet: name it and give the bar's tables"),
                       (r.x + 16, r.y + 8 + FIELD_H + 24), 18, theme.TEXT_DIM,
                       anchor="midleft", max_width=r.width - 32)
            stepper = self.stepper_rect()
            middle = row(stepper, 3)[1]
            theme.text(surface, str(self.tables), (middle.centerx, middle.centery + 2), 26,
                       bold=True, anchor="midbottom")
            theme.text(surface, _("tables"), (middle.centerx, middle.centery + 2), 14,
                       theme.TEXT_DIM, anchor="midtop")
            y = stepper.bottom + 24
            for line in wrap(_("At most 7 players a table, an hour of qualifying (two flights "
                               "of 45 minutes if the bar cannot seat everyone), a final of the "
                               "best 7: the regulation's defaults."), 17, r.width - 32):
                theme.text(surface, line, (r.x + 16, y), 17, theme.TEXT_DIM,
                           max_width=r.width - 32)
                y += 24
            return
        players = snap.data.players
        withdrawn = sum(1 for p in players if p.withdrawn)
        state = _("registration is open") if self.open() else _("registration is closed")
        line = _("{event}: {n} players, {w} withdrawn; {state}").format(
            event=snap.event.name, n=len(players) - withdrawn, w=withdrawn, state=state)
        theme.text(surface, line, (r.x + 16, r.y + 8 + FIELD_H + 10), 18, theme.TEXT_DIM,
                   max_width=r.width - 32)
        if not players:
            theme.text(surface, _("Nobody has registered yet."), self.grid_rect().center, 20,
                       theme.TEXT_DIM, anchor="center")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if not self.typing:
            self._draw_field(surface, self.field_rect())
            grid = self.grid_rect()
            self.scroll.draw(surface, grid.move(BAR_GAP_PX, 0))

    def _draw_field(self, surface: pygame.Surface, field: pygame.Rect) -> None:
        pygame.draw.rect(surface, theme.PANEL_HI, field, border_radius=8)
        if self.open():
            pygame.draw.rect(surface, theme.ACCENT, field, width=2, border_radius=8)
        if self.draft:
            t = theme.text(surface, self.draft, (field.x + 14, field.centery), 26, bold=True,
                           anchor="midleft", max_width=field.width - 40)
            pygame.draw.line(surface, theme.ACCENT, (t.right + 3, field.y + 12),
                             (t.right + 3, field.bottom - 12), 2)
        else:
            if self.snap is None:
                hint = _("The event's name (type, or tap for a keyboard)")
            elif self.open():
                hint = _("New player's name (type, or tap for a keyboard)")
            else:
                hint = _("Registration is closed: qualifying has started")
            theme.text(surface, hint, (field.x + 14, field.centery), 18, theme.TEXT_DIM,
                       anchor="midleft", max_width=field.width - 28)
