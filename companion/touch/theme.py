"""Colours, sizes and fonts of the companion screen, in one place so every view agrees.

The screen is read across a card table, often in a dim room, on a small
800x480 touch panel: high contrast, big type, and hit targets of at least
`TOUCH_PX` so a finger (not a mouse pointer) can hit them. Fonts are the
bundled DejaVu Sans, because pygame's default font has no Armenian glyphs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from importlib import resources

import pygame

Color = tuple[int, int, int]

#: The smallest side of anything a finger has to hit.
TOUCH_PX = 48
#: Height of the tab bar along the top.
TAB_BAR_PX = 56
#: Gap between widgets.
GAP_PX = 8

BACKGROUND: Color = (24, 26, 32)
PANEL: Color = (38, 42, 52)
PANEL_HI: Color = (56, 62, 76)
LINE: Color = (78, 86, 104)
TEXT: Color = (236, 238, 242)
TEXT_DIM: Color = (160, 166, 180)
ACCENT: Color = (255, 196, 0)  # UNO yellow: the leader, the selected tab
DEALER: Color = (64, 160, 255)
DANGER: Color = (230, 60, 60)
GOOD: Color = (60, 190, 100)
BUTTON: Color = (62, 70, 88)
BUTTON_PRESSED: Color = (92, 104, 130)
BUTTON_PRIMARY: Color = (214, 40, 40)  # UNO red
BUTTON_DISABLED: Color = (46, 50, 60)

#: The four UNO colours, and black for wild cards.
CARD_COLORS: dict[str, Color] = {
    "red": (214, 40, 40),
    "yellow": (240, 190, 0),
    "green": (40, 160, 70),
    "blue": (30, 110, 200),
    "wild": (12, 12, 14),
}

#: One colour per player in the chart and on the history table, in seat order.
PLAYER_COLORS: tuple[Color, ...] = (
    (255, 196, 0),
    (64, 160, 255),
    (240, 80, 80),
    (80, 210, 120),
    (200, 120, 255),
    (255, 140, 60),
    (60, 220, 220),
    (250, 120, 190),
    (180, 180, 180),
    (160, 200, 60),
)


def player_color(index: int) -> Color:
    return PLAYER_COLORS[index % len(PLAYER_COLORS)]


def _font_path(bold: bool) -> str:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return str(resources.files("companion.touch") / "fonts" / name)


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled font at `size` pixels (cached: opening a font file is slow on a Pi)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(_font_path(bold), size)


#: The smallest type `text` shrinks to before it shortens the words instead.
MIN_TEXT_PX = 12


#: Where a translator allows a long word to break over two lines on a narrow button
#: ("Պատմու\u00adթյուն"): drawn as "-" at the end of the first line, else not at all.
SOFT_HYPHEN = "\u00ad"


def unhyphenated(content: str) -> str:
    """`content` as drawn on one line: without its soft hyphens."""
    return content.replace(SOFT_HYPHEN, "")


#: While `watching_cuts` is active: every text `text` drew cut, with the width it had.
_cuts: list[list[tuple[str, int]]] = []


@contextlib.contextmanager
def watching_cuts() -> Iterator[list[tuple[str, int]]]:
    """Collect every text drawn cut with "…" while the block runs: what was cut and the
    width it had (a `fit` that only measures is no cut). A label cut on a screen is a label
    nobody can read, so the layout tests draw each view inside this and fail on any cut; the
    drawing code itself never looks."""
    found: list[tuple[str, int]] = []
    _cuts.append(found)
    try:
        yield found
    finally:
        _cuts.remove(found)


def fit(content: str, size: int, max_width: int | None, *, bold: bool = False,
        min_size: int = MIN_TEXT_PX) -> tuple[str, int]:
    """What `text` draws for `content` in `max_width`: the words and the font size.

    The font shrinks one pixel at a time down to `min_size` (never below what
    was asked for); if the words are still too wide they are cut and end in
    "…", so a long name reads "Alexand…" instead of running under its neighbour.
    """
    content = unhyphenated(content)
    if max_width is None:
        return content, size
    floor = min(size, min_size)
    while size > floor and font(size, bold).size(content)[0] > max_width:
        size -= 1
    f = font(size, bold)
    if f.size(content)[0] <= max_width:
        return content, size
    cut = content.rstrip()
    while cut and f.size(cut + "…")[0] > max_width:
        cut = cut[:-1].rstrip()
    return (cut + "…" if cut else ""), size


def text(
    surface: pygame.Surface,
    content: str,
    pos: tuple[int, int],
    size: int = 20,
    color: Color = TEXT,
    *,
    bold: bool = False,
    anchor: str = "topleft",
    max_width: int | None = None,
    min_size: int = MIN_TEXT_PX,
) -> pygame.Rect:
    """Draw one line of text anchored at `pos`, fitted into `max_width` (see `fit`)."""
    shown, size = fit(content, size, max_width, bold=bold, min_size=min_size)
    if shown != unhyphenated(content) and _cuts and max_width is not None:
        for watch in _cuts:
            watch.append((content, max_width))
    image = font(size, bold).render(shown, True, color)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


def line_or_two(surface: pygame.Surface, content: str, left: int, centery: int,
                max_width: int, size: int, color: Color = TEXT, *, small: int = 14) -> None:
    """A status line in a strip about 44 px high (a view's foot): one line at `size` where
    it fits, else two at `small` about `centery`, so a long language's sentence in a narrow
    window reads whole instead of ending in "…"."""
    if fit(content, size, max_width)[0] == unhyphenated(content):
        text(surface, content, (left, centery), size, color, anchor="midleft",
             max_width=max_width)
        return
    for i, part in enumerate(wrap(content, small, max_width, max_lines=2)):
        text(surface, part, (left, centery + (i * 2 - 1) * (small * 3 // 4)), small, color,
             anchor="midleft", max_width=max_width)


def fits_in_two(content: str, size: int, max_width: int) -> bool:
    """Whether `line_or_two` draws `content` whole in `max_width` (on one line at `size` or
    two at `small`): a view with a shorter way to say it asks first."""
    lines = wrap(content, size, max_width, max_lines=2)
    return all(fit(line, size, max_width)[0] == unhyphenated(line) for line in lines)


def wrap(content: str, size: int, max_width: int, *, bold: bool = False,
         max_lines: int | None = None) -> list[str]:
    """`content` broken at spaces into lines no wider than `max_width` at `size`.

    A word too long for a line stays whole on its own line (`text` cuts it when drawn);
    past `max_lines` (when given) the last line takes the rest, and `text` ends it in "…".
    """
    f = font(size, bold)
    lines: list[str] = []
    for word in content.split():
        full = max_lines is not None and len(lines) >= max_lines
        if lines and (full or f.size(lines[-1] + " " + word)[0] <= max_width):
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
