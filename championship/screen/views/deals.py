"""The director's word on deals: the deals held for the director first (a plausibility check
failed: they do not count until decided), then the void ones, then every deal that counts.

Tap a deal, say why (type, or tap the field for the on-screen keyboard), then Void it or
Count it: the same as `uno-showdown event void` and `event restore`, recorded with who, when
and why for the results sheet's audit.
"""

from __future__ import annotations

import getpass
from functools import partial
from typing import Any

import pygame

from championship.core.i18n import _
from championship.core.presence import held_text
from championship.desk.operations import DealItem, deal_list
from championship.screen.views.base import DirectorView
from companion.touch import theme
from companion.touch.widgets import Button, Keyboard, Scroller
from showdown.contract.errors import CompanionError

ROW_H = 44
FIELD_H = 56
MAX_WHY = 200


def _who() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "?"


class DealsView(DirectorView):
    name = "deals"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.items: list[DealItem] = []
        self._read_for: object = None  # the reading the items were listed for
        self.selected: str | None = None
        self.why = ""
        self.typing = False
        self.scroll = Scroller()
        self.keyboard = Keyboard(self._type, self._backspace, self._close_keyboard, _("Done"))

    @property
    def full_screen(self) -> bool:  # type: ignore[override]
        return self.typing

    def enter(self) -> None:
        super().enter()
        self.refresh()

    def refresh(self) -> None:
        # The deals are read from the file (every game of the event) only while this tab is
        # shown and when the event was read again (a change here or in the file): not at
        # each second the clock moves on, nor for each deal while another tab is shown.
        reading = self.director.reading
        if reading is not self._read_for and getattr(self.director, "current", None) is self:
            self._read_for = reading
            try:
                self.items = (deal_list(self.director.champ.deal_book())
                              if reading is not None else [])
            except CompanionError as exc:
                self.director.notify(str(exc))
                self.items = []
        if self.selected is not None and self.chosen() is None:
            self.selected = None

    def chosen(self) -> DealItem | None:
        return next((d for d in self.items if d.deal_id == self.selected), None)

    # -- actions --

    def choose(self, deal_id: str) -> None:
        self.selected = None if self.selected == deal_id else deal_id

    def decide(self) -> None:
        item = self.chosen()
        if item is None:
            return
        why = " ".join(self.why.split())
        if not why:
            self.director.notify(_("Say why first: tap the field and type a few words"))
            return
        champ = self.director.champ
        if item.state == "counts":
            done = self.director.act(lambda: champ.void_deal(item.table, item.deal_id, why,
                                                             _who()))
            note = _("Deal {deal} of table {table} is void").format(deal=item.short,
                                                                   table=item.table)
        else:
            done = self.director.act(lambda: champ.restore_deal(item.table, item.deal_id, why,
                                                                _who()))
            note = _("Deal {deal} of table {table} counts").format(deal=item.short,
                                                                  table=item.table)
        if done is not None:
            self.director.notify(note)
            self.why, self.selected = "", None

    def _type(self, text: str) -> None:
        if len(self.why) < MAX_WHY:
            self.why += text

    def _backspace(self) -> None:
        self.why = self.why[:-1]

    def _close_keyboard(self) -> None:
        self.typing = False

    def _open_keyboard(self) -> None:
        self.typing = True
        self.keyboard.shift = True

    # -- geometry --

    def list_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 8, r.width - 16, r.height - 16 - FIELD_H - 8)

    def bar_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.bottom - 8 - FIELD_H, r.width - 16, FIELD_H)

    def buttons(self) -> list[Button]:
        r = self.rect
        if self.typing:
            field = pygame.Rect(r.x + 8, r.y + 8, r.width - 16 - 128, FIELD_H)
            done = pygame.Rect(field.right + 8, field.y, 120, FIELD_H)
            keys = pygame.Rect(r.x + 8, r.y + FIELD_H + 24, r.width - 16,
                               r.height - FIELD_H - 32)
            return [Button("keyboard:done", done, _("Done"), self._close_keyboard,
                           sublabel="Esc"), *self.keyboard.buttons(keys)]
        out = []
        area = self.list_rect()
        self.scroll.set_extent(len(self.items) * (ROW_H + 4), area.height)
        for i, item in enumerate(self.items):
            cell = pygame.Rect(area.x, area.y + i * (ROW_H + 4) - self.scroll.offset,
                               area.width, ROW_H)
            if cell.y < area.y or cell.bottom > area.bottom:
                continue  # only whole rows: a row cut at the bottom lay over the hint
            out.append(Button(f"deal:{item.deal_id}", cell, self._label(item),
                              partial(self.choose, item.deal_id), font_px=16,
                              selected=self.selected == item.deal_id,
                              text_color=theme.DANGER if item.state == "held" else (
                                  theme.TEXT_DIM if item.state == "void" else None)))
        chosen = self.chosen()
        if chosen is not None and not chosen.closed:
            bar = self.bar_rect()
            field = pygame.Rect(bar.x, bar.y, bar.width - 216, bar.height)
            out.append(Button("why", field, self.why or _("Why? (tap to type)"),
                              self._open_keyboard, fill=theme.PANEL_HI, font_px=16))
            label = _("Void it") if chosen.state == "counts" else _("Count it")
            out.append(Button("decide", pygame.Rect(field.right + 8, bar.y, 208, bar.height),
                              label, self.decide, primary=chosen.state != "counts",
                              fill=theme.DANGER if chosen.state == "counts" else None))
        return out

    def _label(self, item: DealItem) -> str:
        snap = self.snap
        stage = snap.stage_title(item.stage) if snap is not None else item.stage
        points = ", ".join(f"{n}: {v}" for n, v in sorted(item.points.items()))
        state = {"counts": _("counts"), "void": _("void"),
                 "held": _("held") + ": " + held_text(item.held)}[item.state]
        return (_("Table {n}").format(n=item.table) + f" · {stage} · {item.short} · {state}"
                + f" · {points}")

    # -- input --

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        return not self.typing and self.scroll.handle(event, self.list_rect())

    def handle_text(self, event: pygame.event.Event) -> bool:
        chosen = self.chosen()
        if chosen is None or chosen.closed:
            return False
        self._type(event.text)
        return True

    def handle_key(self, event: pygame.event.Event) -> bool:
        chosen = self.chosen()
        if event.key == pygame.K_BACKSPACE and chosen is not None and not chosen.closed:
            self._backspace()
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE) and self.typing:
            self._close_keyboard()
            return True
        steps = {pygame.K_DOWN: ROW_H + 4, pygame.K_UP: -(ROW_H + 4),
                 pygame.K_PAGEDOWN: 5 * (ROW_H + 4), pygame.K_PAGEUP: -5 * (ROW_H + 4)}
        if not self.typing and event.key in steps:
            return self.scroll.scroll_by(steps[event.key])
        return self.typing

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        if self.typing:
            field = pygame.Rect(r.x + 8, r.y + 8, r.width - 16 - 128, FIELD_H)
            pygame.draw.rect(surface, theme.PANEL_HI, field, border_radius=8)
            theme.text(surface, self.why or _("Why?"), (field.x + 14, field.centery), 22,
                       theme.TEXT if self.why else theme.TEXT_DIM, anchor="midleft",
                       max_width=field.width - 28)
            return
        if self.snap is None:
            self.no_event(surface)
            return
        if not self.items:
            self.empty(surface, _("No deal yet"),
                       _("Deals held for the director, void ones and every deal that counts "
                         "appear here"))
            return
        chosen = self.chosen()
        if chosen.closed if chosen is not None else all(d.closed for d in self.items):
            theme.text(surface, _("The final is seated, so the qualifying results are closed: "
                                  "their deals stay as they are"),
                       (self.bar_rect().x + 8, self.bar_rect().centery), 18, theme.TEXT_DIM,
                       anchor="midleft", max_width=self.bar_rect().width - 16)
        elif chosen is None:
            theme.text(surface, _("Tap a deal to void it or count it"),
                       (self.bar_rect().x + 8, self.bar_rect().centery), 18, theme.TEXT_DIM,
                       anchor="midleft", max_width=self.bar_rect().width - 16)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if not self.typing:
            self.scroll.draw(surface, self.list_rect().move(7, 0))
