"""The seating plan: every flight's tables and who sits where, and the Draw button.

Seat 1 deals the first deal. A player who withdrew stays on the plan, greyed. The plan
scrolls when there are many tables (200 players are some 30 tables). Drawing again is
possible until the first stage starts; the seed is shown so a draw can be repeated.
"""

from __future__ import annotations

from typing import Any

import pygame

from championship.core.clock import FINAL
from championship.core.i18n import _, ngettext
from championship.screen.views.base import DirectorView
from companion.touch import theme
from companion.touch.widgets import Button, Scroller

CARD_W = 240
LINE_H = 24
TOP_H = 64


class SeatingView(DirectorView):
    name = "seating"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.scroll = Scroller()
        self._height = 0

    def can_draw(self) -> bool:
        snap = self.snap
        return snap is not None and not snap.data.clock and bool(snap.data.players)

    def draw_seats(self) -> None:
        self.director.act(lambda: self.director.champ.draw(), _("Seats drawn"))

    def body_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + TOP_H, r.width - 16, r.height - TOP_H - 8)

    def buttons(self) -> list[Button]:
        r = self.rect
        snap = self.snap
        if snap is None:
            return []
        label = _("Draw again") if snap is not None and snap.flights else _("Draw seats")
        return [Button("draw", pygame.Rect(r.right - 8 - 220, r.y + 8, 220, 48), label,
                       self.draw_seats, primary=True, enabled=self.can_draw())]

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        return self.scroll.handle(event, self.body_rect())

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
            return self.scroll.scroll_by(200 if event.key == pygame.K_PAGEDOWN else 40)
        if event.key in (pygame.K_UP, pygame.K_PAGEUP):
            return self.scroll.scroll_by(-200 if event.key == pygame.K_PAGEUP else -40)
        return False

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        snap = self.snap
        if snap is None:
            self.no_event(surface)
            return
        if not snap.flights:
            theme.text(surface, _("The seats are not drawn yet"), (r.x + 16, r.y + 32), 22,
                       bold=True, anchor="midleft", max_width=r.width - 260)
            playing = sum(1 for p in snap.data.players if not p.withdrawn)
            self.empty(surface, ngettext("{n} player to seat", "{n} players to seat",
                                         playing).format(n=playing),
                       _("Draw the seats when everyone has registered."))
            return
        title = ngettext("Seed {seed} · one flight", "Seed {seed} · {n} flights",
                         snap.flights).format(seed=snap.event.seed, n=snap.flights)
        theme.text(surface, title, (r.x + 16, r.y + 22), 22, bold=True, anchor="midleft",
                   max_width=r.width - 260)
        note = _("Seat 1 deals first.")
        color = theme.TEXT_DIM
        if snap.event.stale:
            note, color = _("Changed since the draw: draw the seats again."), theme.DANGER
        theme.text(surface, note, (r.x + 16, r.y + 48), 16, color, anchor="midleft",
                   max_width=r.width - 260)
        body = self.body_rect()
        clip = surface.get_clip()
        surface.set_clip(body)
        columns = max(1, (body.width + 8) // (CARD_W + 8))
        card_w = (body.width - 8 * (columns - 1)) // columns
        y = body.y - self.scroll.offset
        for plan in snap.plan:
            tables = snap.stage_tables(plan.key)
            if not tables:
                continue
            heading = _("{stage} · {minutes} min").format(
                stage=snap.stage_title(plan.key), minutes=plan.duration_us // 60_000_000)
            theme.text(surface, heading, (body.x + 4, y + 4), 20, theme.ACCENT, bold=True)
            y += 32
            tallest = 0
            for i, t in enumerate(tables):
                col = i % columns
                if col == 0 and i:
                    y += tallest + 8
                    tallest = 0
                h = 34 + LINE_H * max(1, len(t.seats)) + 6
                tallest = max(tallest, h)
                card = pygame.Rect(body.x + col * (card_w + 8), y, card_w, h)
                if card.colliderect(body):
                    self._draw_table(surface, card, t, plan.key == FINAL)
            y += tallest + 16
        surface.set_clip(clip)
        self._height = y + self.scroll.offset - body.y
        self.scroll.set_extent(self._height, body.height)
        self.scroll.draw(surface, body.move(7, 0))

    def _draw_table(self, surface: pygame.Surface, card: pygame.Rect, t: Any,
                    final: bool) -> None:
        snap = self.snap
        assert snap is not None
        pygame.draw.rect(surface, theme.PANEL, card, border_radius=8)
        title = _("Table {n}").format(n=t.table)
        theme.text(surface, title, (card.x + 10, card.y + 6), 18, bold=True,
                   max_width=card.width - 100)
        theme.text(surface, _("game {id}").format(id=t.game_id), (card.right - 10, card.y + 8),
                   14, theme.TEXT_DIM, anchor="topright")
        y = card.y + 34
        for seat, number in enumerate(t.seats, 1):
            player = snap.data.player(number)
            out = player is None or player.withdrawn
            color = theme.TEXT_DIM if out else theme.TEXT
            theme.text(surface, str(seat), (card.x + 22, y + LINE_H // 2), 14, theme.TEXT_DIM,
                       anchor="center")
            label = f"{number}  {snap.name_of(number)}"
            shown = theme.text(surface, label, (card.x + 38, y + LINE_H // 2), 17, color,
                               anchor="midleft", max_width=card.width - 48)
            if out:
                pygame.draw.line(surface, theme.TEXT_DIM, (shown.x, shown.centery),
                                 (shown.right, shown.centery), 1)
            y += LINE_H
