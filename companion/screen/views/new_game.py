"""Starting a new game from the screen: edition, scoring method and its options, target,
and who plays.

Everything is a tap: the players start as "Player 1..N" (or the last game's
table, for a rematch), and tapping a name opens an on-screen keyboard with the
names the store already knows as quick picks. With a real keyboard attached,
typing works the same (Enter to keep the name, Esc to leave it).

The scoring row shows the method chosen, with what it does; tapping it opens the list of
every method (`companion.scoring.METHODS`) with a line on each, so a table can pick one it
does not know by name. Beside it are the house rules that method takes (a lone 0 worth 50,
H2O's deductions); choosing H2O also chooses the deck that has its cards. A method that
fixes its own target (seven-round UNO: 7 hands) shows it without − and +.

Beside Start, two buttons open a page each (`table_setup`): the house rules the game plays
by (the rules of its deck and method, each with its wording), and who deals first (the
highest-card draw, or by hand).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from companion.deck.editions import EDITIONS
from companion.scoring import METHODS, OPTIONS, ScoringMethod
from companion.screen.views.round_entry import DIGIT_KEYS
from companion.screen.views.table_setup import DealerPicker, HouseRulesPicker
from companion.table.game import check_name
from companion.table.names import MAX_NAME_LENGTH
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View
from companion.touch.widgets import Button, Keyboard, grid, row, two_lines
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _ as core_

LABEL_W = 120
LINE_H = 52
#: Below this width the row labels go (the buttons say what they are) to leave the room
#: to the buttons, and "Target" and "Players" are written under their numbers.
NARROW_PX = 640
TARGET_STEP = 50
#: Space between the target's and the player count's boxes in a narrow panel.
GAP_BETWEEN_BOXES = 16
#: The width of an option's toggle beside the method, on a wide screen.
OPTION_W = 150
#: The height of a method's line in the list of methods.
CHOICE_H = 52
#: A method's name on its button, and the size of the line or two saying how it plays.
METHOD_PX = 17
SUMMARY_PX = 12


def summary_fits(method: ScoringMethod, box: pygame.Rect) -> bool:
    """Whether how `method` plays reads whole under its name on `box` (two lines at most)."""
    summary = core_(method.summary)
    width = box.width - 16
    lines = two_lines(summary, SUMMARY_PX, width) or (summary,)
    return all(theme.fit(line, SUMMARY_PX, width)[0] == line for line in lines)


def draw_method(surface: pygame.Surface, box: pygame.Rect, method: ScoringMethod,
                chosen: bool = False, summary_below: bool = True) -> None:
    """A method's name on its button and, below it, how it plays (over two lines if need be;
    not at all when `summary_below` is False: the view writes it where there is room)."""
    summary = core_(method.summary)
    width = box.width - 16
    lines: tuple[str, ...] = two_lines(summary, SUMMARY_PX, width) or (summary,)
    if not summary_below:
        lines = ()
    top = box.y + max(2, (box.height - METHOD_PX - 15 * len(lines) - 4) // 2)
    name = core_(method.label) + (" ▾" if chosen else "")
    drawn = theme.text(surface, name, (box.centerx, top), METHOD_PX, bold=True,
                       anchor="midtop", max_width=width)
    y = drawn.bottom
    for line in lines:
        y = theme.text(surface, line, (box.centerx, y), SUMMARY_PX, theme.TEXT_DIM,
                       anchor="midtop", max_width=width).bottom - 2


class NewGameView(View):
    name = "new_game"

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.edition = "showdown"
        self.method: ScoringMethod = next(iter(METHODS.values()))  # the first offered
        self.target: int | None = self.method.default_target
        #: The house rules chosen, by key (only ones the method takes).
        self.options: set[str] = set()
        self.names: list[str] = []
        self.editing: int | None = None
        #: The list of methods is open.
        self.choosing = False
        #: The view is on screen (between `enter` and `leave`).
        self.shown = False
        self.draft = ""
        self.error = ""
        self.keyboard = Keyboard(self._type, self._backspace, self._finish_edit, _("Done"))
        #: The house rules page and the first dealer page, and which of them is open.
        self.house_rules = HouseRulesPicker()
        self.dealer = DealerPicker()
        self.page: str | None = None

    @property
    def full_screen(self) -> bool:  # type: ignore[override]
        return self.editing is not None or self.choosing or self.page is not None

    def enter(self) -> None:
        """Offer the current game's table again (a rematch), or four fresh players.

        Only on arriving: while the view is shown, a change elsewhere (a duel recorded, a
        round from the command line) leaves what the table has chosen so far as it is.
        """
        if self.editing is not None or self.choosing or self.page is not None or self.shown:
            return
        self.shown = True
        game = self.app.game
        self.error = ""
        if game is not None:
            self.edition, self.method = game.edition_key, game.rules.method
            self.target = game.rules.target
            self.options = set(game.rules.options)
            self.names = [p.name for p in game.players]
            self.house_rules.chosen = set(game.house_rules)
            self.dealer.clear()  # a rematch draws (or chooses) its first dealer afresh
        elif not self.names:
            self.names = [self.default_name(i) for i in range(4)]

    def leave(self) -> None:
        self.shown = False

    @staticmethod
    def default_name(index: int) -> str:
        return _("Player {n}").format(n=index + 1)

    # -- changes --

    def set_edition(self, key: str) -> None:
        """Choose the deck; a method made for it (UNO Teams) comes with it."""
        self.edition = key
        made_for = [m for m in METHODS.values() if m.edition == key]
        if made_for:
            self.set_method(made_for[0])
        self.options = {o for o in self.options if self._deck_fits(o)}
        self.house_rules.fit(self.edition, self.method.key)

    def _deck_fits(self, option: str) -> bool:
        return all(EDITIONS[self.edition].holds(c) for c in OPTIONS[option].needs_cards)

    def set_method(self, method: ScoringMethod) -> None:
        self.method = method
        self.target = method.default_target
        self.options &= set(method.options)
        self.house_rules.fit(self.edition, method.key)
        self.choosing = False
        count = len(self.names)
        if count % method.players_step:
            count += method.players_step - count % method.players_step
        self.set_count(count)

    def toggle_option(self, key: str) -> None:
        """Turn a house rule on or off; one that needs other cards brings their deck."""
        if key in self.options:
            self.options.discard(key)
            return
        self.options.add(key)
        if not self._deck_fits(key):
            self.edition = next(e for e in EDITIONS if all(
                EDITIONS[e].holds(c) for c in OPTIONS[key].needs_cards))
            self.house_rules.fit(self.edition, self.method.key)

    def step_target(self, sign: int) -> None:
        if self.target is not None and self.method.takes_target:
            self.target = max(TARGET_STEP, self.target + sign * TARGET_STEP)

    def set_count(self, count: int) -> None:
        count = max(self.method.min_players, min(self.method.max_players, count))
        while len(self.names) < count:
            taken = {n.casefold() for n in self.names}
            i = len(self.names)
            while self.default_name(i).casefold() in taken:
                i += 1
            self.names.append(self.default_name(i))
        del self.names[count:]
        self.dealer.fit(self.names)

    def step_count(self, sign: int) -> None:
        self.set_count(len(self.names) + sign * self.method.players_step)

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
                self.dealer.fit(self.names)
        self.editing, self.draft = None, ""

    def _cancel_edit(self) -> None:
        self.editing, self.draft = None, ""

    def start(self) -> None:
        target = self.target if self.method.takes_target else None
        options = [o for o in OPTIONS if o in self.options]
        try:
            self.app.new_game(self.edition, self.method.key, list(self.names), target, options,
                              house_rules=sorted(self.house_rules.chosen),
                              first_dealer=self.dealer.dealer)
        except CompanionError as exc:  # GameError, RulesError: the message says what to change
            self.error = str(exc)
            return
        self.dealer.clear()
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

    def _edition_label(self, key: str) -> str:
        """The deck's name; in a narrow panel without the "UNO" every deck's name shares."""
        title = EDITIONS[key].title
        short = title.removeprefix("UNO ").strip()
        return short if self.narrow() and short else title

    def scoring_cells(self) -> tuple[pygame.Rect, list[pygame.Rect]]:
        """The method's button and, right of it, one toggle per option the method takes."""
        line = self.line(1)
        count = len(self.method.options)
        width = min(OPTION_W, (line.width - 8) // 4) if count else 0
        method = pygame.Rect(line.x, line.y, line.width - count * (width + 8), line.height)
        toggles = [pygame.Rect(method.right + 8 + i * (width + 8), line.y, width, line.height)
                   for i in range(count)]
        return method, toggles

    def open_page(self, page: str) -> None:
        self.page, self.error = page, ""
        self.dealer.fit(self.names)

    def close_page(self) -> None:
        self.page = None

    def buttons(self) -> list[Button]:
        if self.editing is not None:
            return self._edit_buttons()
        if self.choosing:
            return self._method_buttons()
        if self.page == "house_rules":
            return self.house_rules.buttons(self.rect, self.edition, self.method.key,
                                            self.close_page)
        if self.page == "dealer":
            return self.dealer.buttons(self.rect, self.names, self.close_page)
        out: list[Button] = []
        gap = 3 if self.narrow() else theme.GAP_PX  # five decks in a narrow panel: every pixel
        for key, cell in zip(EDITIONS, row(self.line(0), len(EDITIONS), gap), strict=True):
            out.append(Button(f"edition:{key}", cell, self._edition_label(key),
                              partial(self.set_edition, key), selected=key == self.edition,
                              font_px=18))
        method_cell, toggles = self.scoring_cells()
        # its words (the name, and how it plays in a line or two) are drawn by `draw`
        out.append(Button("method", method_cell, "", self.open_methods))
        for key, cell in zip(self.method.options, toggles, strict=True):
            out.append(Button(f"option:{key}", cell, core_(OPTIONS[key].label),
                              partial(self.toggle_option, key),
                              selected=key in self.options, font_px=16))
        target_box, count_box = self.number_boxes()
        if self.target is not None and self.method.takes_target:
            t = row(target_box, 3)
            out.append(Button("target:-", t[0], "−", lambda: self.step_target(-1), font_px=28))
            out.append(Button("target:+", t[2], "+", lambda: self.step_target(1), font_px=28))
        c = row(count_box, 3)
        out.append(Button("players:-", c[0], "−", lambda: self.step_count(-1), font_px=28,
                          enabled=len(self.names) > self.method.min_players))
        out.append(Button("players:+", c[2], "+", lambda: self.step_count(1), font_px=28,
                          enabled=len(self.names) < self.method.max_players))
        area = self.names_rect()
        for i, (name, cell) in enumerate(zip(self.names, grid(area, len(self.names), 5, LINE_H),
                                             strict=True)):
            out.append(Button(f"name:{i}", cell, name, partial(self.start_edit, i),
                              font_px=18, sublabel=self._seat_note(i)))
        bottom = self.start_rect()
        out.append(Button("start", bottom, _("Start game"), self.start, primary=True,
                          font_px=22, sublabel="Enter"))
        pages = pygame.Rect(self.rect.x + 8, bottom.y, bottom.x - 8 - self.rect.x - 8, 60)
        rules_cell, dealer_cell = row(pages, 2)
        out.append(Button("house_rules", rules_cell, self.house_rules.label(),
                          partial(self.open_page, "house_rules"), font_px=17))
        out.append(Button("first_dealer", dealer_cell, self.dealer.label(self.names),
                          partial(self.open_page, "dealer"), font_px=17))
        return out

    def start_rect(self) -> pygame.Rect:
        """Start, bottom right; in a narrow panel a third of the row, sharing it with the
        house rules and first dealer buttons."""
        width = (self.rect.width - 32) // 3 if self.narrow() else 240
        return pygame.Rect(self.rect.right - 8 - width, self.rect.bottom - 8 - 60, width, 60)

    def _seat_note(self, index: int) -> str:
        """A seat's team, where the method seats teams (partners opposite each other)."""
        try:
            seating = self.method.seat(self.names, lambda name: name)
        except CompanionError:
            return ""
        team = seating[index][1] if index < len(seating) else None
        return "" if team is None else _("team {n}").format(n=team + 1)

    # -- the list of methods --

    def open_methods(self) -> None:
        self.choosing, self.error = True, ""

    def close_methods(self) -> None:
        self.choosing = False

    def method_rects(self) -> list[pygame.Rect]:
        r = self.rect
        area = pygame.Rect(r.x + 8, r.y + 72, r.width - 16, r.height - 80)
        height = max(44, min(CHOICE_H, (area.height - 6 * (len(METHODS) - 1)) // len(METHODS)))
        return grid(area, len(METHODS), 1, height, 6)

    def _method_buttons(self) -> list[Button]:
        # each method's words are drawn by `draw`, like the scoring button's
        out = [Button(f"method:{m.key}", cell, "", partial(self.set_method, m),
                      selected=m is self.method)
               for m, cell in zip(METHODS.values(), self.method_rects(), strict=True)]
        cancel = pygame.Rect(self.rect.right - 8 - 120, self.rect.y + 8, 120, 56)
        out.append(Button("methods:cancel", cancel, _("Cancel"), self.close_methods,
                          sublabel="Esc"))
        return out

    def _edit_buttons(self) -> list[Button]:
        r = self.rect
        out: list[Button] = []
        picks = pygame.Rect(r.x + 8, r.y + 72, r.width - 16, 48)
        names = self.suggestions()
        if names:
            for name, cell in zip(names, row(picks, 6), strict=False):
                out.append(Button(f"pick:{name}", cell, name,
                                  partial(self._finish_edit, name), font_px=18))
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
        if self.choosing:
            if event.key == pygame.K_ESCAPE:
                self.close_methods()
            return True
        if self.page is not None:
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.close_page()
            elif self.page == "dealer" and event.key in DIGIT_KEYS:
                self.dealer.type_rank(self.names, DIGIT_KEYS[event.key])
            elif self.page == "dealer" and event.key == pygame.K_BACKSPACE:
                self.dealer.take_back(self.names)
            return True
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
        if self.page == "house_rules":
            self.house_rules.draw(surface, self.rect, self.edition, self.method.key)
            return
        if self.page == "dealer":
            self.dealer.draw(surface, self.rect, self.names)
            return
        r = self.rect
        if self.choosing:
            theme.text(surface, _("How does this table keep score?"), (r.x + 16, r.y + 22), 24,
                       bold=True, max_width=r.width - 160)
            return
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
        if self.error:  # between the names and the buttons under them
            top = self.names_rect().bottom + 2
            box = pygame.Rect(r.x + 8, top, r.width - 16, r.bottom - 8 - 60 - 2 - top)
            pygame.draw.rect(surface, theme.DANGER, box, border_radius=8)
            theme.text(surface, self.error, box.center, 16, anchor="center",
                       max_width=box.width - 16)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.editing is not None or self.page is not None:
            return
        if self.choosing:
            for method, box in zip(METHODS.values(), self.method_rects(), strict=True):
                draw_method(surface, box, method)
        else:
            box = self.scoring_cells()[0]
            below = not self.narrow() or summary_fits(self.method, box)
            draw_method(surface, box, self.method, chosen=True, summary_below=below)
            if not below and not self.error:
                self._draw_summary_under_names(surface)

    def _draw_summary_under_names(self, surface: pygame.Surface) -> None:
        """How the method plays, too long for its button beside the unit: in the room
        between the players' names and the buttons under them, whole or not at all."""
        r = self.rect
        names = [b.rect for b in self.buttons() if b.key.startswith("name:")]
        top = max((c.bottom for c in names), default=self.names_rect().y) + 8
        area = pygame.Rect(r.x + 12, top, r.width - 24, r.bottom - 8 - 60 - 6 - top)
        summary = core_(self.method.summary)
        for size in (15, 13, theme.MIN_TEXT_PX):
            lines = theme.wrap(summary, size, area.width)
            step = size + 4
            if len(lines) * step <= area.height and all(
                    theme.fit(line, size, area.width)[0] == line for line in lines):
                for k, line in enumerate(lines):
                    theme.text(surface, line, (area.x, area.y + k * step), size,
                               theme.TEXT_DIM, max_width=area.width)
                return

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
