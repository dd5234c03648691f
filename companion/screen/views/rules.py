"""The rules view: the sheet in force at this table, so a dispute is settled by looking.

From the top: how the game is scored (method, target, options), then the championship's
regulation when it is the method, the deck's own rules (UNO Showdown's duels, UNO Mario
Kart's items, ...), the house rules the table chose at the new game, each in the rules'
wording, and last the house rules it did not choose, by name, so "do we play stacking?"
has an answer too. The text wraps to the screen and scrolls like the history (drag, wheel,
the arrow buttons, Up/Down/PageUp/PageDown).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.scoring import OPTIONS
from companion.table import house_rules as house
from companion.table.seed_rules import scoring_sources
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View, heading
from companion.touch.widgets import Button, Scroller
from showdown.contract.i18n import _ as core_

ARROWS_W = 64
TITLE_PX, BODY_PX, SECTION_PX = 18, 16, 20
#: One drawn line of the sheet: its text, size, colour, boldness and the space above it.
Line = tuple[str, int, theme.Color, bool, int]


class RulesView(View):
    name = "rules"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.scroll = Scroller()
        self.lines: list[Line] = []
        self._width = 0

    def enter(self) -> None:
        self._width = 0  # lay the text out again for the game shown now
        self.layout()

    def text_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 8, r.y + 48, r.width - 16 - ARROWS_W - 8, r.height - 56)

    def sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The sheet as (section title, [(rule title, text)]) in the order it is shown."""
        game = self.app.game
        if game is None:
            return []
        drawn = house.sheet(game.edition_key, game.rules.method.key, game.house_rules)
        def sourced(title: str, key: str) -> str:
            found = scoring_sources(key, (), game.edition_key)
            return f"{title} · {found[0].label()}" if found else title

        method = game.rules.method
        scoring = [(sourced(core_(method.label), method.key), core_(method.summary))]
        scoring += [(sourced(core_(OPTIONS[key].label), key), core_(OPTIONS[key].title))
                    for key in game.rules.modifiers]
        out = [(_("Scoring"), scoring)]
        if drawn.regulation:
            out.append((_("The championship's regulation"),
                        [(f"{core_(r.title)} · {r.source.label()}", core_(r.text))
                         for r in drawn.regulation]))
        if drawn.deck:
            out.append((_("{deck}: its own rules").format(deck=game.edition.title),
                        [(f"{core_(r.title)} · {r.source.label()}", core_(r.text))
                         for r in drawn.deck]))
        if drawn.regulation and drawn.deck:  # rule 2.4.8 plays the classic deck alone
            out[-1][1].append(("", core_(house.DIRECTORS_DECK).format(deck=game.edition.title)))
        if drawn.chosen:
            out.append((_("House rules in force"),
                        [(f"{core_(r.title)} · {r.source.label()}", core_(r.text))
                         for r in drawn.chosen]
                        + [(f"{title} · {source.label()}", text)
                           for title, text, source in drawn.settings()]))
        elif not drawn.regulation:
            out.append((_("House rules in force"), [("", _("None: the table chose none at "
                                                            "the new game."))]))
        if drawn.not_chosen:
            out.append((_("Not in force"), [("", ", ".join(core_(r.title)
                                                         for r in drawn.not_chosen))]))
        return out

    def layout(self) -> None:
        """Wrap the sheet to the text area's width (again only when the width changed)."""
        area = self.text_rect()
        if area.width == self._width and self.lines:
            return
        self._width = area.width
        width = area.width - 16
        lines: list[Line] = []
        for section, entries in self.sections():
            lines.append((section, SECTION_PX, theme.ACCENT, True, 14 if lines else 0))
            for title, text in entries:
                # A title with its source ("The challenge · our inference: …") wraps too.
                for i, part in enumerate(theme.wrap(title, TITLE_PX, width, bold=True)):
                    lines.append((part, TITLE_PX, theme.TEXT, True, 0 if i else 8))
                for i, part in enumerate(theme.wrap(text, BODY_PX, width)):
                    lines.append((part, BODY_PX, theme.TEXT_DIM, False, 0 if title or i else 6))
        self.lines = lines
        self.scroll.set_extent(sum(self.line_h(line) for line in lines) + 8, area.height)

    @staticmethod
    def line_h(line: Line) -> int:
        return line[1] + 6 + line[4]

    def buttons(self) -> list[Button]:
        if self.app.game is None:
            return []
        t = self.text_rect()
        x = t.right + 8
        h = (t.height - 8) // 2
        return [
            Button("up", pygame.Rect(x, t.y, ARROWS_W, h), "▲", lambda: self._page(-1),
                   enabled=self.scroll.offset > 0),
            Button("down", pygame.Rect(x, t.y + h + 8, ARROWS_W, h), "▼",
                   lambda: self._page(1),
                   enabled=self.scroll.offset < self.scroll.content_h - self.scroll.view_h),
        ]

    def _page(self, sign: int) -> None:
        self.scroll.scroll_by(sign * (self.text_rect().height - 40))

    def handle_scroll(self, event: pygame.event.Event) -> bool:
        return self.scroll.handle(event, self.text_rect())

    def handle_key(self, event: pygame.event.Event) -> bool:
        steps = {pygame.K_UP: -40, pygame.K_DOWN: 40,
                 pygame.K_PAGEUP: -(self.text_rect().height - 40),
                 pygame.K_PAGEDOWN: self.text_rect().height - 40}
        if event.key in steps:
            self.scroll.scroll_by(steps[event.key])
            return True
        return False

    def draw_content(self, surface: pygame.Surface) -> None:
        r = self.rect
        if self.app.game is None:
            theme.text(surface, _("No game yet"), (r.centerx, r.centery - 20), 28, bold=True,
                       anchor="center")
            theme.text(surface, _("Start one to see the rules it plays by."),
                       (r.centerx, r.centery + 20), 18, theme.TEXT_DIM, anchor="center")
            return
        heading(surface, _("The rules at this table"), r)
        self.layout()
        area = self.text_rect()
        pygame.draw.rect(surface, theme.PANEL, area, border_radius=8)
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip) if clip else area)
        y = area.y + 8 - self.scroll.offset
        for line in self.lines:
            text, size, color, bold, gap = line
            y += gap
            if y + size + 6 > area.y and y < area.bottom:
                theme.text(surface, text, (area.x + 8, y), size, color, bold=bold,
                           max_width=area.width - 16)
            y += size + 6
        surface.set_clip(clip)
