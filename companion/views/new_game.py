"""Starting a new game from the screen: edition, scoring method, target, and who plays.

Everything is a tap: the players start as "Player 1..N" (or the last game's
table, for a rematch), and tapping a name opens an on-screen keyboard with the
names the store already knows as quick picks. With a real keyboard attached,
typing works the same (Enter to keep the name, Esc to leave it).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion import theme
from companion.editions import EDITIONS
from companion.errors import CompanionError
from companion.game import MAX_PLAYERS, MIN_PLAYERS, check_name
from companion.names import MAX_NAME_LENGTH
from companion.scoring import DEFAULT_TARGETS, Method
from companion.views.base import View
from companion.views.i18n import N_, _
from companion.widgets import Button, Keyboard, grid, row

LABEL_W = 120
LINE_H = 52
#: Below this width the row labels go (the buttons say what they are) to leave the room
#: to the buttons, and "Target" and "Players" are written under their numbers.
NARROW_PX = 640
TARGET_STEP = 50
#: Space between the target's and the player count's boxes in a narrow panel.
GAP_BETWEEN_BOXES = 16

METHOD_LABELS = {
    Method.WINNER: N_("Winner collects"),
    Method.OWN: N_("Own hand"),
    Method.CHAMPIONSHIP: N_("Championship"),
    Method.LAZY: N_("Lazy"),
    Method.TEAMS: N_("Teams"),
}


class NewGameView(View):
    name = "new_game"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.edition = "showdown"
        self.method = Method.WINNER
        self.target: int | None = DEFAULT_TARGETS[Method.WINNER]
        self.names: list[str] = []
        self.editing: int | None = None
        self.draft = ""
        self.error = ""
        self.keyboard = Keyboard(self._type, self._backspace, self._finish_edit, _("Done"))

    @property
    def full_screen(self) -> bool:  # type: ignore[override]
        return self.editing is not None

    def enter(self) -> None:
        """Offer the current game's table again (a rematch), or four fresh players."""
        if self.editing is not None:
            return
        game = self.app.game
        self.error = ""
        if game is not None:
            self.edition, self.method = game.edition_key, game.rules.method
            self.target = game.rules.target
            self.names = [p.name for p in game.players]
        elif not self.names:
            self.names = [self.default_name(i) for i in range(4)]

    @staticmethod
    def default_name(index: int) -> str:
        return _("Player {n}").format(n=index + 1)

    # -- changes --

    def set_edition(self, key: str) -> None:
        self.edition = key
        if key == "teams":
            self.set_method(Method.TEAMS)

    def set_method(self, method: Method) -> None:
        self.method = method
        self.target = DEFAULT_TARGETS[method]
        if method is Method.TEAMS and (len(self.names) < 4 or len(self.names) % 2):
            self.set_count(max(4, len(self.names) + len(self.names) % 2))

    def step_target(self, sign: int) -> None:
        if self.target is not None:
            self.target = max(TARGET_STEP, self.target + sign * TARGET_STEP)

    def set_count(self, count: int) -> None:
        count = max(MIN_PLAYERS, min(MAX_PLAYERS, count))
        while len(self.names) < count:
            taken = {n.casefold() for n in self.names}
            i = len(self.names)
            while self.default_name(i).casefold() in taken:
                i += 1
            self.names.append(self.default_name(i))
        del self.names[count:]

    def step_count(self, sign: int) -> None:
        step = 2 if self.method is Method.TEAMS else 1
        low = 4 if self.method is Method.TEAMS else MIN_PLAYERS
        self.set_count(max(low, len(self.names) + sign * step))

    def start_edit(self, index: int) -> None:
        self.editing, self.draft, self.error = index, "", ""
        self.keyboard.shift = True

    def _type(self, text: str) -> None:
        if len(self.draft) < MAX_NAME_LENGTH:
            self.draft += text[: MAX_NAME_LENGTH - len(self.draft)]

    def _backspace(self) -> None:
        self.draft = self.draft[:-1]

    def _finish_edit(self, name: str | None = None) -> None:
        if self.editing is not None:
            typed = name if name is not None else self.draft
            if typed.strip():  # nothing typed keeps the name there was
                try:  # the same check as every other way a name comes in
                    self.names[self.editing] = check_name(typed)
                except CompanionError as exc:
                    self.error = str(exc)
        self.editing, self.draft = None, ""

    def _cancel_edit(self) -> None:
        self.editing, self.draft = None, ""

    def start(self) -> None:
        try:
            self.app.new_game(self.edition, self.method.value, list(self.names), self.target)
        except CompanionError as exc:  # GameError, RulesError: the message says what to change
            self.error = str(exc)
            return
        self.error = ""
        self.nav.notify(_("New game started"))
        self.nav.invalidate()
        self.nav.go("standings")

    def suggestions(self) -> list[str]:
        """Names from earlier games not already at this table: one tap instead of typing."""
        taken = {n.casefold() for n in self.names}
        out: list[str] = []
        try:
            games = self.app.games()
        except CompanionError:  # the file unreadable for now: no picks, typing still works
            games = []
        for info in sorted(games, key=lambda g: g.last_played, reverse=True):
            for name in info.players:
                if name.casefold() not in taken:
                    taken.add(name.casefold())
                    out.append(name)
        return out[:6]

    # -- geometry and buttons --

    def narrow(self) -> bool:
        return self.rect.width < NARROW_PX

    def line(self, index: int) -> pygame.Rect:
        r = self.rect
        label_w = 0 if self.narrow() else LABEL_W
        return pygame.Rect(r.x + 8 + label_w, r.y + 8 + index * (LINE_H + 8),
                           r.width - 16 - label_w, LINE_H)

    def number_boxes(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The target's and the player count's [−] n [+] boxes, side by side on line 2."""
        line = self.line(2)
        if self.narrow():
            width = (line.width - GAP_BETWEEN_BOXES) // 2
            return (pygame.Rect(line.x, line.y, width, line.height),
                    pygame.Rect(line.right - width, line.y, width, line.height))
        width = (line.width - LABEL_W - 24) // 2
        target = pygame.Rect(line.x, line.y, width, line.height)
        count = pygame.Rect(line.right - width, line.y, width, line.height)
        return target, count

    def names_rect(self) -> pygame.Rect:
        top = self.line(3).y + 24
        return pygame.Rect(self.rect.x + 8, top, self.rect.width - 16, 2 * LINE_H + 8)

    def buttons(self) -> list[Button]:
        if self.editing is not None:
            return self._edit_buttons()
        out: list[Button] = []
        for key, cell in zip(EDITIONS, row(self.line(0), len(EDITIONS)), strict=True):
            out.append(Button(f"edition:{key}", cell, EDITIONS[key].title,
                              lambda k=key: self.set_edition(k), selected=key == self.edition,
                              font_px=18))
        for method, cell in zip(Method, row(self.line(1), len(Method)), strict=True):
            out.append(Button(f"method:{method.value}", cell, _(METHOD_LABELS[method]),
                              lambda m=method: self.set_method(m),
                              selected=method is self.method, font_px=17))
        target_box, count_box = self.number_boxes()
        if self.target is not None:
            t = row(target_box, 3)
            out.append(Button("target:-", t[0], "−", lambda: self.step_target(-1), font_px=28))
            out.append(Button("target:+", t[2], "+", lambda: self.step_target(1), font_px=28))
        c = row(count_box, 3)
        out.append(Button("players:-", c[0], "−", lambda: self.step_count(-1), font_px=28,
                          enabled=len(self.names) > MIN_PLAYERS))
        out.append(Button("players:+", c[2], "+", lambda: self.step_count(1), font_px=28,
                          enabled=len(self.names) < MAX_PLAYERS))
        area = self.names_rect()
        for i, (name, cell) in enumerate(zip(self.names, grid(area, len(self.names), 5, LINE_H),
                                             strict=True)):
            out.append(Button(f"name:{i}", cell, name, lambda i=i: self.start_edit(i),
                              font_px=18, sublabel=self._seat_note(i)))
        bottom = pygame.Rect(self.rect.right - 8 - 240, self.rect.bottom - 8 - 60, 240, 60)
        out.append(Button("start", bottom, _("Start game"), self.start, primary=True,
                          font_px=22, sublabel="Enter"))
        return out

    def _seat_note(self, index: int) -> str:
        if self.method is not Method.TEAMS:
            return ""
        half = len(self.names) // 2
        return _("team {n}").format(n=index % half + 1)

    def _edit_buttons(self) -> list[Button]:
        r = self.rect
        out: list[Button] = []
        picks = pygame.Rect(r.x + 8, r.y + 72, r.width - 16, 48)
        names = self.suggestions()
        if names:
            for name, cell in zip(names, row(picks, 6), strict=False):
                out.append(Button(f"pick:{name}", cell, name,
                                  lambda n=name: self._finish_edit(n), font_px=18))
        cancel = pygame.Rect(r.right - 8 - 120, r.y + 8, 120, 56)
        out.append(Button("edit:cancel", cancel, _("Cancel"), self._cancel_edit, sublabel="Esc"))
        keys = pygame.Rect(r.x + 8, r.y + 128, r.width - 16, r.height - 136)
        out += self.keyboard.buttons(keys)
        return out

    # -- keys --

    def handle_text(self, event: pygame.event.Event) -> bool:
        if self.editing is None:
            return False
        self._type(event.text)
        return True

    def handle_key(self, event: pygame.event.Event) -> bool:
        if self.editing is not None:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._finish_edit()
            elif event.key == pygame.K_ESCAPE:
                self._cancel_edit()
            elif event.key == pygame.K_BACKSPACE:
                self._backspace()
            # other keys arrive as TEXTINPUT; swallow them so F-keys don't switch views
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
            return True
        return False

    # -- drawing --

    def draw_content(self, surface: pygame.Surface) -> None:
        if self.editing is not None:
            self._draw_editor(surface)
            return
        r = self.rect
        target_box, count_box = self.number_boxes()
        shown = str(self.target) if self.target is not None else _("none")
        if self.narrow():
            for label, value, box in ((_("Target"), shown, target_box),
                                      (_("Players"), str(len(self.names)), count_box)):
                middle = row(box, 3)[1]
                theme.text(surface, value, (middle.centerx, middle.centery + 2), 24, bold=True,
                           anchor="midbottom", max_width=middle.width)
                theme.text(surface, label, (middle.centerx, middle.centery + 2), 14,
                           theme.TEXT_DIM, anchor="midtop", max_width=middle.width + 8)
        else:
            for i, label in enumerate((_("Edition"), _("Scoring"))):
                theme.text(surface, label, (r.x + 12, self.line(i).centery), 18,
                           theme.TEXT_DIM, bold=True, anchor="midleft", max_width=LABEL_W - 12)
            theme.text(surface, _("Target"), (r.x + 12, target_box.centery), 18,
                       theme.TEXT_DIM, bold=True, anchor="midleft", max_width=LABEL_W - 12)
            theme.text(surface, shown, row(target_box, 3)[1].center, 26, bold=True,
                       anchor="center", max_width=row(target_box, 3)[1].width)
            theme.text(surface, _("Players"), (count_box.x - 12, count_box.centery), 18,
                       theme.TEXT_DIM, bold=True, anchor="midright", max_width=LABEL_W)
            theme.text(surface, str(len(self.names)), row(count_box, 3)[1].center, 26,
                       bold=True, anchor="center")
        theme.text(surface, _("Seating order, clockwise. Tap a name to change it."),
                   (r.x + 12, self.names_rect().y - 4), 16, theme.TEXT_DIM,
                   anchor="bottomleft", max_width=r.width - 24)
        if self.error:
            box = pygame.Rect(r.x + 8, r.bottom - 8 - 60, r.width - 16 - 248, 60)
            pygame.draw.rect(surface, theme.DANGER, box, border_radius=8)
            theme.text(surface, self.error, box.center, 16, anchor="center",
                       max_width=box.width - 16)

    def _draw_editor(self, surface: pygame.Surface) -> None:
        r = self.rect
        field = pygame.Rect(r.x + 8, r.y + 8, r.width - 16 - 128, 56)
        pygame.draw.rect(surface, theme.PANEL_HI, field, border_radius=8)
        pygame.draw.rect(surface, theme.ACCENT, field, width=2, border_radius=8)
        assert self.editing is not None
        prompt = _("Name for seat {n}:").format(n=self.editing + 1)
        p = theme.text(surface, prompt, (field.x + 12, field.centery), 18, theme.TEXT_DIM,
                       anchor="midleft")
        shown = self.draft or ""
        t = theme.text(surface, shown, (p.right + 12, field.centery), 26, bold=True,
                       anchor="midleft", max_width=field.right - p.right - 36)
        pygame.draw.line(surface, theme.ACCENT, (t.right + 3, field.y + 12),
                         (t.right + 3, field.bottom - 12), 2)
        if not self.suggestions():
            theme.text(surface, _("Type the name, then Done (Enter)."),
                       (r.x + 16, r.y + 96), 16, theme.TEXT_DIM, anchor="midleft")
