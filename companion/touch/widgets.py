"""Touch widgets: buttons that fire on release, drag-to-scroll, an on-screen keyboard and keypad.

A button fires when the finger (or mouse) is lifted over the same button it
went down on, so a finger that slides off cancels, as on a phone. SDL turns
touches into mouse events, so handling the mouse covers the touch panel too.
Widgets are plain values rebuilt by their view on every frame; the view keeps
the little state that must survive (which button is held, the scroll offset).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import pygame

from companion.touch import theme


@dataclass
class Button:
    """A rectangle that does something when tapped; `key` names it for the view and the tests."""

    key: str
    rect: pygame.Rect
    label: str
    on_tap: Callable[[], object]
    enabled: bool = True
    primary: bool = False
    selected: bool = False
    fill: theme.Color | None = None
    text_color: theme.Color | None = None
    font_px: int = 20
    sublabel: str = ""
    outline: theme.Color | None = None

    def draw(self, surface: pygame.Surface, pressed: bool = False) -> None:
        if not self.enabled:
            fill = theme.BUTTON_DISABLED
        elif pressed:
            fill = theme.BUTTON_PRESSED
        elif self.fill is not None:
            fill = self.fill
        elif self.primary:
            fill = theme.BUTTON_PRIMARY
        elif self.selected:
            fill = theme.PANEL_HI
        else:
            fill = theme.BUTTON
        pygame.draw.rect(surface, fill, self.rect, border_radius=8)
        if self.selected:
            pygame.draw.rect(surface, theme.ACCENT, self.rect, width=3, border_radius=8)
        elif self.outline is not None and self.enabled:
            pygame.draw.rect(surface, self.outline, self.rect, width=2, border_radius=8)
        color = self.text_color or (theme.TEXT if self.enabled else theme.TEXT_DIM)
        inner = self.rect.width - 8
        lines = two_lines(self.label, self.font_px, inner) if not self.sublabel else None
        if lines is not None and self.rect.height >= 2 * theme.MIN_TEXT_PX + 12:
            size = max(theme.MIN_TEXT_PX, min(self.font_px, (self.rect.height - 12) // 2))
            size = min(theme.fit(line, size, inner, bold=True)[1] for line in lines)
            theme.text(surface, lines[0], (self.rect.centerx, self.rect.centery + 1), size,
                       color, bold=True, anchor="midbottom", max_width=inner)
            theme.text(surface, lines[1], (self.rect.centerx, self.rect.centery - 1), size,
                       color, bold=True, anchor="midtop", max_width=inner)
        elif self.sublabel and self._label_on_two_lines(surface, color):
            return
        elif self.sublabel:
            small = max(theme.MIN_TEXT_PX, self.font_px - 6)
            # A sublabel too long for one line ("действие, дикая" under a digit) takes two,
            # when the button is tall enough: a cut sublabel says nothing.
            sub = (two_lines(self.sublabel, small, inner)
                   if self.rect.height >= self.font_px + 2 * small + 8 else None)
            if sub is not None:
                small = theme.MIN_TEXT_PX
                top = self.rect.centery - (self.font_px + 2 * small) // 2
                label = theme.text(surface, self.label, (self.rect.centerx, top),
                                   self.font_px, color, bold=True, anchor="midtop",
                                   max_width=inner)
                for i, line in enumerate(sub):
                    theme.text(surface, line, (self.rect.centerx, label.bottom + i * small),
                               small, color, anchor="midtop", max_width=inner)
                return
            theme.text(surface, self.label, (self.rect.centerx, self.rect.centery - 2),
                       self.font_px, color, bold=True, anchor="midbottom", max_width=inner)
            theme.text(surface, self.sublabel, (self.rect.centerx, self.rect.centery + 1),
                       small, color, anchor="midtop", max_width=inner)
        else:
            theme.text(surface, self.label, self.rect.center, self.font_px, color,
                       bold=True, anchor="center", max_width=inner)


    def _label_on_two_lines(self, surface: pygame.Surface, color: theme.Color) -> bool:
        """Draw a label too wide for one line ("другой картой" on a seven-key bar) on two,
        over its sublabel, when the button is tall enough for three lines; True if drawn.
        A label cut short says nothing, and a smaller type on two lines reads fine."""
        inner = self.rect.width - 8
        lines = two_lines(self.label, self.font_px, inner)
        small = theme.MIN_TEXT_PX
        size = min(self.font_px, (self.rect.height - small - 8) // 2)
        if lines is None or size < theme.MIN_TEXT_PX:
            return False
        size = min(theme.fit(line, size, inner, bold=True)[1] for line in lines)
        if any(theme.fit(line, size, inner, bold=True)[0] != line for line in lines):
            return False
        top = self.rect.centery - (2 * size + small) // 2
        for i, line in enumerate(lines):
            theme.text(surface, line, (self.rect.centerx, top + i * size), size, color,
                       bold=True, anchor="midtop", max_width=inner)
        theme.text(surface, self.sublabel, (self.rect.centerx, top + 2 * size + 1), small,
                   color, anchor="midtop", max_width=inner)
        return True


def two_lines(label: str, size: int, width: int) -> tuple[str, str] | None:
    """`label` split at the space nearest its middle, when it would not fit on one line
    without being cut short ("Winner collects" on a narrow button); None otherwise."""
    words, _size = theme.fit(label, size, width, bold=True)
    if words == theme.unhyphenated(label):
        return None
    breaks = [i for i, ch in enumerate(label.strip()) if ch in (" ", theme.SOFT_HYPHEN)]
    if not breaks:
        return None
    label = label.strip()
    cut = min(breaks, key=lambda i: abs(len(label) - 2 * i))
    first = label[:cut].strip() + ("-" if label[cut] == theme.SOFT_HYPHEN else "")
    return theme.unhyphenated(first), theme.unhyphenated(label[cut + 1:].strip())


def button_at(buttons: Sequence[Button], pos: tuple[int, int]) -> Button | None:
    """The topmost button under `pos` (later buttons are drawn on top)."""
    for button in reversed(buttons):
        if button.rect.collidepoint(pos):
            return button
    return None


def row(rect: pygame.Rect, count: int, gap: int = theme.GAP_PX) -> list[pygame.Rect]:
    """Split `rect` into `count` equal cells side by side."""
    if count <= 0:
        return []
    width = (rect.width - gap * (count - 1)) / count
    return [
        pygame.Rect(round(rect.x + i * (width + gap)), rect.y, round(width), rect.height)
        for i in range(count)
    ]


def row_weighted(rect: pygame.Rect, weights: Sequence[float], gap: int = theme.GAP_PX,
                 minimum: int = 0) -> list[pygame.Rect]:
    """Split `rect` into cells side by side, each `minimum` wide and sharing the rest of the
    room in proportion to how much its weight asks beyond that."""
    if not weights:
        return []
    room = rect.width - gap * (len(weights) - 1)
    floor = min(minimum, room / len(weights))
    extra = room - floor * len(weights)
    wants = [max(0.0, w - floor) for w in weights]
    total = sum(wants)
    cells, x = [], float(rect.x)
    for want in wants:
        width = floor + (extra * want / total if total else extra / len(weights))
        cells.append(pygame.Rect(round(x), rect.y, round(x + width) - round(x), rect.height))
        x += width + gap
    return cells


def grid(rect: pygame.Rect, count: int, columns: int, cell_h: int,
         gap: int = theme.GAP_PX) -> list[pygame.Rect]:
    """Cells of `cell_h` laid left to right, top to bottom, `columns` to a row."""
    cells: list[pygame.Rect] = []
    for start in range(0, count, columns):
        line = pygame.Rect(rect.x, rect.y + (start // columns) * (cell_h + gap), rect.width,
                           cell_h)
        cells.extend(row(line, columns, gap)[: count - start])
    return cells


#: The width of a scroll bar.
BAR_PX = 6
TOUCH_PX = theme.TOUCH_PX


class Scroller:
    """Vertical drag-to-scroll (and mouse wheel) over content taller than its window.

    A drag only starts after the finger has moved `SLOP_PX`, so a tap on a row
    still counts as a tap.
    """

    SLOP_PX = 12

    def __init__(self) -> None:
        self.offset = 0
        self.content_h = 0
        self.view_h = 0
        self._grab_y: int | None = None
        self._grab_offset = 0
        self.dragging = False

    def set_extent(self, content_h: int, view_h: int) -> None:
        self.content_h, self.view_h = content_h, view_h
        self.offset = self._clamp(self.offset)

    def _clamp(self, offset: int) -> int:
        return max(0, min(offset, max(0, self.content_h - self.view_h)))

    def scroll_by(self, dy: int) -> bool:
        new = self._clamp(self.offset + dy)
        changed = new != self.offset
        self.offset = new
        return changed

    def handle(self, event: pygame.event.Event, area: pygame.Rect) -> bool:
        """Feed a mouse event; True when the scroll position changed or a drag is under way."""
        if event.type == pygame.MOUSEWHEEL:
            return self.scroll_by(-event.y * 40)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and area.collidepoint(
                event.pos):
            self._grab_y, self._grab_offset, self.dragging = event.pos[1], self.offset, False
            return False
        if event.type == pygame.MOUSEMOTION and self._grab_y is not None:
            dy = event.pos[1] - self._grab_y
            if not self.dragging and abs(dy) >= self.SLOP_PX:
                self.dragging = True
            if self.dragging:
                self.offset = self._clamp(self._grab_offset - dy)
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was = self.dragging
            self._grab_y, self.dragging = None, False
            return was
        return False

    def bar_rect(self, area: pygame.Rect) -> pygame.Rect | None:
        """Where the scroll bar's thumb is drawn along `area`'s right edge; None when
        everything fits."""
        if self.content_h <= self.view_h or area.height <= 0:
            return None
        thumb = max(TOUCH_PX // 2, area.height * self.view_h // self.content_h)
        travel = area.height - thumb
        y = area.y + travel * self.offset // max(1, self.content_h - self.view_h)
        return pygame.Rect(area.right - BAR_PX, y, BAR_PX, thumb)

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """A scroll bar on `area`'s right edge when there is more than fits, so a list that
        goes on below (or above) says so."""
        thumb = self.bar_rect(area)
        if thumb is None:
            return
        track = pygame.Rect(thumb.x, area.y, BAR_PX, area.height)
        pygame.draw.rect(surface, theme.PANEL_HI, track, border_radius=BAR_PX // 2)
        pygame.draw.rect(surface, theme.TEXT_DIM, thumb, border_radius=BAR_PX // 2)


#: On-screen keyboard layouts: the scripts of the table's languages.
KEYBOARD_LAYOUTS: dict[str, tuple[str, ...]] = {
    "ABC": ("1234567890", "QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM.'"),
    "АБВ": ("АБВГҐДЕЁЄЖ", "ЗИІЇЙКЛМНО", "ПРСТУФХЦЧШ", "ЩЪЫЬЭЮЯ'-"),
    "ԱԲԳ": ("ԱԲԳԴԵԶԷԸԹԺ", "ԻԼԽԾԿՀՁՂՃՄ", "ՅՆՇՈՉՊՋՌՍՎ", "ՏՐՑՒՓՔՕՖ-"),
}
#: Where ten keys to a row are narrower than a finger (the emulator's panel at 800x480),
#: the keys flow into shorter rows in this order: the alphabet's, which reads in any row
#: length (the QWERTY rows do not); the other layouts are in alphabetical order already.
NARROW_ORDER = {"ABC": "ABCDEFGHIJKLMNOPQRSTUVWXYZ-.'1234567890"}


class Keyboard:
    """A touch keyboard for typing a player's name when no real keyboard is attached."""

    def __init__(self, on_char: Callable[[str], None], on_backspace: Callable[[], None],
                 on_done: Callable[[], None], done_label: str) -> None:
        self.on_char, self.on_backspace, self.on_done = on_char, on_backspace, on_done
        self.done_label = done_label
        self.layout = "ABC"
        self.shift = False

    def _cycle_layout(self) -> None:
        names = list(KEYBOARD_LAYOUTS)
        self.layout = names[(names.index(self.layout) + 1) % len(names)]

    def buttons(self, rect: pygame.Rect) -> list[Button]:
        rows = KEYBOARD_LAYOUTS[self.layout]
        gap = 4
        fit = max(1, (rect.width + gap) // (theme.TOUCH_PX + gap))
        narrow = max(len(r) for r in rows) > fit
        if narrow:
            chars = NARROW_ORDER.get(self.layout, "".join(rows))
            rows = tuple(chars[i:i + fit] for i in range(0, len(chars), fit))
        n_rows = len(rows) + 1
        key_h = max(theme.TOUCH_PX - 6, (rect.height - theme.GAP_PX * (n_rows - 1)) // n_rows)
        out: list[Button] = []
        columns = max(len(r) for r in rows)
        key_w = (rect.width - gap * (columns - 1)) // columns
        for r, chars in enumerate(rows):
            y = rect.y + r * (key_h + gap)
            x0 = rect.x + (rect.width - (len(chars) * (key_w + gap) - gap)) // 2
            for c, ch in enumerate(chars):
                shown = ch if self.shift else ch.lower()
                out.append(Button(f"kb:{ch}", pygame.Rect(x0 + c * (key_w + gap), y, key_w,
                                                          key_h),
                                  shown, partial(self._type, shown), font_px=20))
        y = rect.y + len(rows) * (key_h + gap)
        bottom = pygame.Rect(rect.x, y, rect.width, key_h)
        cells = row(bottom, 7 if narrow else 6, gap)  # narrow: Done takes two keys' room
        names = list(KEYBOARD_LAYOUTS)
        nxt = names[(names.index(self.layout) + 1) % len(names)]
        out.append(Button("kb:layout", cells[0], nxt, self._cycle_layout))
        out.append(Button("kb:shift", cells[1], "⇧", self._toggle_shift, selected=self.shift))
        out.append(Button("kb:space", cells[2].union(cells[3]), "␣", lambda: self.on_char(" ")))
        out.append(Button("kb:back", cells[4], "⌫", self.on_backspace))
        out.append(Button("kb:done", cells[5].union(cells[-1]), self.done_label, self.on_done,
                          primary=True))
        return out

    def _type(self, char: str) -> None:
        self.on_char(char)
        self.shift = False  # one capital, as phone keyboards do

    def _toggle_shift(self) -> None:
        self.shift = not self.shift


#: The number pad's keys, laid out like a phone's: 1 2 3 on top, then Clear, 0, Backspace.
PAD_KEYS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "back")


def number_pad(rect: pygame.Rect, on_digit: Callable[[int], None],
               on_back: Callable[[], None], on_clear: Callable[[], None],
               clear_label: str) -> list[Button]:
    """A phone-style numeric keypad filling `rect` (3 columns, 4 rows), for typing points.

    Tables that count their cards by hand only need digits, and a finger-sized pad is quicker
    than a whole keyboard; keys are named `pad:0` ... `pad:9`, `pad:clear`, `pad:back`.
    """
    cell_h = (rect.height - theme.GAP_PX * 3) // 4
    out: list[Button] = []
    for key, cell in zip(PAD_KEYS, grid(rect, len(PAD_KEYS), 3, cell_h), strict=True):
        if key == "back":
            out.append(Button("pad:back", cell, "⌫", on_back, font_px=26))
        elif key == "clear":
            out.append(Button("pad:clear", cell, clear_label, on_clear, font_px=20))
        else:
            out.append(Button(f"pad:{key}", cell, key, partial(on_digit, int(key)),
                              font_px=30))
    return out
