"""The final and the awards: the finalists' table with its live standings, and the four
awards (1st, 2nd, 3rd from the final; the luckiest from qualifying), marked provisional
until the final is over. From here the organiser seats the final and saves the results
sheet (an HTML page beside the games file, to print).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from championship.core.i18n import _
from championship.core.standings import Line
from championship.core.text import decimal_text
from championship.screen.views.base import NAME_MIN_PX, DirectorView, draw_lines
from companion.touch import theme
from companion.touch.widgets import Button

AWARDS_W = 300
AWARD_H = 70


class FinalView(DirectorView):
    name = "final"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.saved: Path | None = None

    def sheet_path(self) -> Path:
        snap = self.snap
        event_id = snap.event.id if snap is not None else 0
        return Path(self.director.champ.store.path).with_name(f"results-event-{event_id}.html")

    def save_sheet(self) -> None:
        from championship.desk.sheet import results_sheet

        snap = self.snap
        if snap is None:
            return
        path = self.sheet_path()
        try:
            path.write_text(results_sheet(snap), encoding="utf-8")
        except OSError as exc:
            self.director.notify(_("cannot write {path}: {reason}").format(
                path=path, reason=exc.strerror))
            return
        self.saved = path
        self.director.notify(_("Results sheet saved: {path}").format(path=path))

    def seat_final(self) -> None:
        self.director.act(self.director.champ.seat_final, _("The final is seated"))

    def awards_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.right - 8 - AWARDS_W, r.y + 8, AWARDS_W, r.height - 16)

    def final_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 44, self.awards_rect().x - r.x - 16, r.height - 52)

    def buttons(self) -> list[Button]:
        snap = self.snap
        if snap is None:
            return []
        aw = self.awards_rect()
        out = [Button("sheet", pygame.Rect(aw.x, aw.bottom - 52, aw.width, 52),
                      _("Save results sheet"), self.save_sheet, enabled=snap is not None,
                      font_px=18)]
        if snap is not None and not snap.final_seated:
            box = self.final_rect()
            seat = pygame.Rect(0, 0, min(300, box.width - 16), 64)
            seat.center = (box.centerx, box.centery + 40)
            out.append(Button("seat_final", seat, _("Seat the final"), self.seat_final,
                              primary=True, enabled=snap.qualifying_done, font_px=22))
        return out

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        snap = self.snap
        if snap is None:
            self.no_event(surface)
            return
        box = self.final_rect()
        if snap.final_seated:
            table = snap.stage_tables("final")[0]
            head = _("Final at table {n} · game {game}").format(n=table.table,
                                                                game=table.game_id)
            theme.text(surface, head, (r.x + 16, r.y + 22), 20, bold=True, anchor="midleft",
                       max_width=box.width)
            draw_lines(surface, box, snap.final, None)
        else:
            hint = (_("The {n} best qualifiers play it.").format(n=snap.settings.finalists)
                    if snap.qualifying_done
                    else _("Once every qualifying table is done, the best {n} play it.").format(
                        n=snap.settings.finalists))
            # The hint may take two lines (Armenian's at 800×480): cut, it would say nothing.
            # The title and the hint then move up a line, clear of the seat button below.
            lines = theme.wrap(hint, 17, box.width - 16, max_lines=2)
            up = 22 * (len(lines) - 1)
            theme.text(surface, _("The final is not seated yet"),
                       (box.centerx, box.centery - 40 - up), 22, bold=True, anchor="center",
                       max_width=box.width)
            for i, line in enumerate(lines):
                theme.text(surface, line, (box.centerx, box.centery - 8 - up + i * 22), 17,
                           theme.TEXT_DIM, anchor="center", max_width=box.width - 16)
        self._draw_awards(surface, snap)

    def _draw_awards(self, surface: pygame.Surface, snap: Any) -> None:
        aw = self.awards_rect()
        a = snap.awards
        given = a.final_over  # the final is over and none of its deals is held
        title = _("Awards") if given else _("Awards (provisional)")
        theme.text(surface, title, (aw.x + 4, aw.y + 14), 20, theme.ACCENT if given
                   else theme.TEXT_DIM, bold=True, anchor="midleft", max_width=aw.width)
        places: list[Line | None] = list(a.places) + [None] * (3 - len(a.places))
        entries = [(_("1st place"), places[0]), (_("2nd place"), places[1]),
                   (_("3rd place"), places[2]), (_("The luckiest"), a.luckiest)]
        y = aw.y + 34
        for i, (label, line) in enumerate(entries):
            card = pygame.Rect(aw.x, y, aw.width, AWARD_H)
            pygame.draw.rect(surface, theme.PANEL_HI if i == 0 else theme.PANEL, card,
                             border_radius=8)
            if i == 0 and line is not None and given:
                pygame.draw.rect(surface, theme.ACCENT, card, width=2, border_radius=8)
            theme.text(surface, label, (card.x + 12, card.y + 8), 14, theme.TEXT_DIM, bold=True,
                       max_width=card.width - 24)
            if line is None:
                theme.text(surface, "—", (card.x + 12, card.bottom - 10), 22, theme.TEXT_DIM,
                           anchor="bottomleft")
            else:
                who = f"{line.number}  {line.name}"
                theme.text(surface, who, (card.x + 12, card.bottom - 10), 22, bold=True,
                           anchor="bottomleft", max_width=card.width - 100,
                           min_size=NAME_MIN_PX)  # a long name ends in "…", still readable
                theme.text(surface, decimal_text(line.result), (card.right - 12,
                                                                card.bottom - 10), 20,
                           theme.ACCENT if i < 3 else theme.TEXT, bold=True,
                           anchor="bottomright")
            y += AWARD_H + 8
