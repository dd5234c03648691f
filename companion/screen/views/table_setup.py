"""Two pages of the new-game view: the house rules in force, and who deals first.

**House rules.** Every optional rule the table's deck and scoring method allow
(`companion.table.house_rules.offered`), as toggles; a tap turns one on or off (bringing the rules
it needs and dropping those it cannot go with) and shows its wording underneath, so the
table reads what it is choosing. Under the championship's regulation there is nothing to
choose, and the page says why.

**First dealer.** By the highest-card draw (UNO Mario Kart's way, and a fair one for any
deck): each player in turn taps the rank of the card they drew on the pad (action cards and
wilds count 0); the highest deals, and players tied on it draw again until one is highest.
Or by hand: tap who deals. `companion.table.deal.highest_card` decides; these pages only collect
taps.

Both are plain objects the new-game view owns and draws into its full-screen area.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame

from companion.table import house_rules as house
from companion.table.deal import DealerDraw, highest_card
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.widgets import Button, grid, row
from showdown.contract.i18n import _ as core_

TOP_H = 56
TOGGLE_H = 48
DETAIL_PX = 16


class HouseRulesPicker:
    """Toggles for the house rules a new game may take; `chosen` is what is on."""

    def __init__(self) -> None:
        self.chosen: set[str] = set()
        #: The rule whose wording is shown (the one tapped last).
        self.detail: str | None = None

    def fit(self, edition: str, method: str) -> None:
        """Keep only what the deck and method allow (after either changed)."""
        offered = {r.key for r in house.offered(edition, method)}
        self.chosen &= offered
        if self.detail not in offered:
            self.detail = None

    def tap(self, edition: str, method: str, key: str) -> None:
        self.chosen = set(house.toggle(edition, method, self.chosen, key))
        self.detail = key

    def label(self) -> str:
        """The new-game view's button for this page."""
        return _("House rules") + f" · {len(self.chosen)}"

    def toggle_cells(self, rect: pygame.Rect, count: int) -> list[pygame.Rect]:
        columns = 3 if rect.width >= 600 else 2
        area = pygame.Rect(rect.x + 8, rect.y + TOP_H + 16, rect.width - 16, rect.height)
        return grid(area, count, columns, TOGGLE_H, 6)

    def buttons(self, rect: pygame.Rect, edition: str, method: str,
                done: Callable[[], None]) -> list[Button]:
        offered = house.offered(edition, method)
        out = [Button(f"house:{r.key}", cell, core_(r.title),
                      partial(self.tap, edition, method, r.key), font_px=15,
                      selected=r.key in self.chosen)
               for r, cell in zip(offered, self.toggle_cells(rect, len(offered)), strict=True)]
        out.append(Button("house:done", pygame.Rect(rect.right - 8 - 140, rect.y + 8, 140,
                                                    TOP_H), _("Done"), done, primary=True,
                          sublabel="Esc"))
        return out

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, edition: str,
             method: str) -> None:
        offered = house.offered(edition, method)
        title = _("House rules for this game")
        theme.text(surface, title, (rect.x + 16, rect.y + 8 + TOP_H // 2), 24, bold=True,
                   anchor="midleft", max_width=rect.width - 190)
        if not offered:
            text = _("The championship's regulation fixes the rules and allows no other "
                     "(rule 2.4.8): the Rules tab shows them.")
            y = rect.y + TOP_H + 32
            for line in theme.wrap(text, 18, rect.width - 40):
                y = theme.text(surface, line, (rect.x + 20, y), 18, theme.TEXT_DIM).bottom + 4
            return
        cells = self.toggle_cells(rect, len(offered))
        top = cells[-1].bottom + 12
        area = pygame.Rect(rect.x + 8, top, rect.width - 16, rect.bottom - 8 - top)
        if area.height < 2 * DETAIL_PX:
            return
        pygame.draw.rect(surface, theme.PANEL, area, border_radius=8)
        if self.detail is None:
            text, color = _("Tap a rule to put it in force (or out) and read it here."), \
                theme.TEXT_DIM
        else:
            rule = house.HOUSE_RULES[self.detail]
            state = _("in force") if self.detail in self.chosen else _("not in force")
            text, color = f"{core_(rule.title)} ({state}): {core_(rule.text)}", theme.TEXT
        y = area.y + 8
        for line in theme.wrap(text, DETAIL_PX, area.width - 24):
            if y + DETAIL_PX + 4 > area.bottom:
                break
            y = theme.text(surface, line, (area.x + 12, y), DETAIL_PX, color,
                           max_width=area.width - 24).bottom + 2


class DealerPicker:
    """Who deals first: by the highest-card draw, or tapped by hand."""

    def __init__(self) -> None:
        self.by_hand = False
        #: The ranks each player drew, in order (the draw), by name.
        self.draws: dict[str, list[int]] = {}
        #: Who deals first: the draw's winner or the player tapped; None for the first seat.
        self.dealer: str | None = None
        #: Who taps their card next (by default the first player still to draw).
        self.drawing: str | None = None

    def fit(self, names: Sequence[str]) -> None:
        """The players changed: forget the draw if its players are not all still there."""
        if set(self.draws) - set(names) or (self.dealer is not None and self.dealer not in
                                            names):
            self.clear()
        self.draws = {n: r for n, r in self.draws.items() if n in names}

    def clear(self) -> None:
        self.draws, self.dealer, self.drawing = {}, None, None

    def result(self, names: Sequence[str]) -> DealerDraw:
        return highest_card(list(names), self.draws)

    def next_to_draw(self, names: Sequence[str]) -> str | None:
        """Whose card the pad types next: the one tapped, else the first still to draw."""
        if self.by_hand:
            return None
        waiting = self.result(names).waiting
        if self.drawing in waiting:
            return self.drawing
        return waiting[0] if waiting else None

    def type_rank(self, names: Sequence[str], rank: int) -> None:
        player = self.next_to_draw(names)
        if player is None:
            return
        self.draws.setdefault(player, []).append(rank)
        self.drawing = None
        self.dealer = self.result(names).dealer

    def take_back(self, names: Sequence[str]) -> None:
        """Take back the last rank typed (the latest draw of whoever drew most)."""
        drawn = [n for n in names if self.draws.get(n)]
        if not drawn:
            return
        last = max(drawn, key=lambda n: (len(self.draws[n]), names.index(n)))
        self.draws[last].pop()
        self.dealer = None if self.by_hand else self.result(names).dealer

    def choose(self, names: Sequence[str], name: str) -> None:
        """A tap on a player: by hand they deal; in the draw, they type their card next."""
        if self.by_hand:
            self.dealer = name
        else:
            self.drawing = name

    def set_by_hand(self, names: Sequence[str], by_hand: bool) -> None:
        self.by_hand = by_hand
        self.dealer = None if by_hand else self.result(names).dealer

    def label(self, names: Sequence[str]) -> str:
        """The new-game view's button for this page."""
        dealer = self.dealer or (names[0] if names else "")
        return _("{name} deals first").format(name=dealer)

    def player_cells(self, rect: pygame.Rect, count: int) -> list[pygame.Rect]:
        """The players, above the status line (left of the pad while drawing)."""
        width = rect.width - 16 if self.by_hand else self._players_w(rect)
        top = rect.y + TOP_H + 16
        area = pygame.Rect(rect.x + 8, top, width, rect.bottom - 8 - 44 - 8 - top)
        columns = 2 if count <= 6 else 3
        rows = -(-count // columns)
        h = max(theme.TOUCH_PX, min(64, (area.height - 6 * (rows - 1)) // rows))
        return grid(area, count, columns, h, 6)

    @staticmethod
    def _players_w(rect: pygame.Rect) -> int:
        """The players' part of the width while drawing: three fifths, but two beside the
        unit, where the pad's keys need the room for "Очистить" and "действие, дикая"."""
        return (rect.width - 16) * (2 if rect.width < 600 else 3) // 5

    def pad_rect(self, rect: pygame.Rect) -> pygame.Rect:
        left = rect.x + 8 + self._players_w(rect) + 12
        top = rect.y + TOP_H + 16
        return pygame.Rect(left, top, rect.right - 8 - left, rect.bottom - 8 - 44 - 8 - top)

    def buttons(self, rect: pygame.Rect, names: Sequence[str],
                done: Callable[[], None]) -> list[Button]:
        out: list[Button] = []
        modes = pygame.Rect(rect.x + 8 + 330, rect.y + 8, rect.width - 16 - 330 - 148, TOP_H)
        if modes.width < 200:  # a narrow panel: the modes go under the title
            modes = pygame.Rect(rect.x + 8, rect.y + 8, rect.width - 16 - 148, TOP_H)
        draw_cell, hand_cell = row(modes, 2, 6)
        out.append(Button("dealer:draw", draw_cell, _("Highest card"),
                          partial(self.set_by_hand, names, False), selected=not self.by_hand,
                          font_px=16))
        out.append(Button("dealer:hand", hand_cell, _("By hand"),
                          partial(self.set_by_hand, names, True), selected=self.by_hand,
                          font_px=16))
        out.append(Button("dealer:done", pygame.Rect(rect.right - 8 - 140, rect.y + 8, 140,
                                                     TOP_H), _("Done"), done, primary=True,
                          sublabel="Esc"))
        current = self.next_to_draw(names)
        for name, cell in zip(names, self.player_cells(rect, len(names)), strict=True):
            ranks = " · ".join(str(r) for r in self.draws.get(name, []))
            note = _("deals") if name == self.dealer else ranks
            out.append(Button(f"dealer:{name}", cell, name, partial(self.choose, names, name),
                              selected=name == self.dealer or name == current, font_px=18,
                              sublabel=note or " "))
        if not self.by_hand:
            pad = self.pad_rect(rect)
            digits = [*range(1, 10), 0]
            cell_h = (pad.height - 3 * 6) // 4
            cells = grid(pad, 12, 3, cell_h, 6)
            for d, cell in zip(digits, [*cells[:9], cells[10]], strict=True):
                out.append(Button(f"rank:{d}", cell, str(d),
                                  partial(self.type_rank, names, d), font_px=24,
                                  enabled=current is not None,
                                  sublabel=_("action, wild") if d == 0 else ""))
            out.append(Button("rank:back", cells[11], "⌫", partial(self.take_back, names),
                              font_px=22, enabled=any(self.draws.values())))
            out.append(Button("rank:clear", cells[9], _("Clear"), self.clear, font_px=16,
                              enabled=any(self.draws.values())))
        return out

    def status(self, names: Sequence[str]) -> str:
        """One line under the players: what the draw says now."""
        if self.by_hand:
            return _("Tap who deals the first round.")
        result = self.result(names)
        if result.dealer is not None:
            return _("{name} drew the highest card and deals first.").format(
                name=result.dealer)
        current = self.next_to_draw(names)
        if result.tied_on is not None:
            return _("{names} tied on {rank}: they draw again. {name}, tap your card.").format(
                names=", ".join(result.contenders), rank=result.tied_on, name=current)
        return _("Everyone draws a card: {name}, tap its rank (action cards and wilds are "
                 "0).").format(name=current)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, names: Sequence[str]) -> None:
        wide = rect.width - 16 - 330 - 148 >= 200
        if wide:
            theme.text(surface, _("Who deals first?"), (rect.x + 16, rect.y + 8 + TOP_H // 2),
                       24, bold=True, anchor="midleft", max_width=320)
        foot = pygame.Rect(rect.x + 8, rect.bottom - 8 - 44, rect.width - 16, 44)
        pygame.draw.rect(surface, theme.PANEL, foot, border_radius=8)
        theme.line_or_two(surface, self.status(names), foot.x + 12, foot.centery,
                          foot.width - 24, 17, theme.ACCENT)
