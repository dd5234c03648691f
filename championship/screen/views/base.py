"""What the director's views share: the snapshot they draw, and the standings table.

A view is the companion's `View` (buttons fire on release, press-and-hold state, keyboard
shortcuts through `tap`) whose navigator is the director's screen: it offers the event's
snapshot as last built, `act` to run an organiser's action, `go` and `notify`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pygame

from championship.core.i18n import _
from championship.core.snapshot import Reading, Snapshot
from championship.core.standings import Line
from championship.core.text import decimal_text
from championship.desk.operations import Championship
from companion.touch import theme
from companion.touch.view import View

if TYPE_CHECKING:
    pass

T = TypeVar("T")

#: Height of one line of a standings table.
LINE_H = 34


class Director(Protocol):
    champ: Championship
    snap: Snapshot | None
    reading: Reading | None

    def act(self, action: Callable[[], T], done: str = "") -> T | None: ...

    def go(self, view: str) -> None: ...

    def notify(self, message: str) -> None: ...


class DirectorView(View):
    """One tab of the director's screen."""

    def __init__(self, nav: Any) -> None:
        super().__init__(nav)
        self.director: Director = nav

    @property
    def snap(self) -> Snapshot | None:
        return self.director.snap

    def refresh(self) -> None:
        """The snapshot was built again (a second passed, or the file changed)."""

    def no_event(self, surface: pygame.Surface) -> None:
        self.empty(surface, _("No event yet"),
                   _("Create it on the Players tab (F1), or: uno-showdown event new NAME "
                     "--tables N"))

    def empty(self, surface: pygame.Surface, title: str, hint: str) -> None:
        r = self.rect
        theme.text(surface, title, (r.centerx, r.centery - 30), 28, bold=True, anchor="center",
                   max_width=r.width - 40)
        theme.text(surface, hint, (r.centerx, r.centery + 10), 18, theme.TEXT_DIM,
                   anchor="center", max_width=r.width - 40)


def columns(rect: pygame.Rect) -> list[tuple[int, int, str]]:
    """x positions of a standings table's columns: (x, anchor side, title)."""
    result = rect.right - 12
    games = result - max(90, min(130, rect.width // 7))
    points = games - max(76, min(120, rect.width // 8))
    return [
        (rect.x + 30, 0, "#"),
        (rect.x + 94, 0, _("No.")),
        (rect.x + 108, -1, _("Player")),
        (points, 0, _("Points")),
        (games, 0, _("Games")),
        (result, 0, _("Result")),
    ]


#: The least size a player's name shrinks to before it is cut with "…": readable from a step
#: back, on the Pi's 800×480 and on a TV.
NAME_MIN_PX = 16


def draw_lines(surface: pygame.Surface, rect: pygame.Rect, lines: Sequence[Line],
               cut: int | None, offset: int = 0, line_h: int = LINE_H,
               cut_label: str = "") -> int:
    """A standings table in `rect`, scrolled by `offset` pixels; returns the content height.

    The finalists (the first `cut` ranked lines) are bold, and a yellow line marks the cut.
    """
    cols = columns(rect)
    header = pygame.Rect(rect.x, rect.y, rect.width, line_h)
    pygame.draw.rect(surface, theme.PANEL, header, border_radius=6)
    for i, (x, side, title) in enumerate(cols):
        anchor = "midleft" if side < 0 else "midright"
        if title == "#":
            anchor = "center"
        # A right-aligned title ends at its column and starts after the one before ends, so
        # "Игры" and "Результат" keep a gap on a narrow table (the type shrinks to fit).
        before = cols[i - 1] if i else None
        room = x - before[0] - 10 if before is not None and before[1] >= 0 and i > 2 else 96
        theme.text(surface, title, (x, header.centery), 15, theme.TEXT_DIM, bold=True,
                   anchor=anchor, max_width=min(96, room) if side >= 0 else None)
    body = pygame.Rect(rect.x, rect.y + line_h + 4, rect.width, rect.height - line_h - 4)
    clip = surface.get_clip()
    surface.set_clip(body)
    y = body.y - offset
    for i, ln in enumerate(lines):
        if cut is not None and i == cut and ln.rank is not None:
            pygame.draw.line(surface, theme.ACCENT, (body.x, y + 2), (body.right, y + 2), 3)
            if cut_label:
                theme.text(surface, cut_label, (body.right - 8, y + 4), 13, theme.ACCENT,
                           bold=True, anchor="topright")
            y += 22
        finalist = cut is not None and ln.rank is not None and ln.rank <= cut
        row = pygame.Rect(body.x, y, body.width, line_h - 4)
        if body.colliderect(row):
            fill = theme.PANEL_HI if finalist else theme.PANEL
            pygame.draw.rect(surface, fill, row, border_radius=6)
            color = theme.TEXT if ln.rank is not None else theme.TEXT_DIM
            values = ["–" if ln.rank is None else str(ln.rank), str(ln.number), ln.name,
                      str(ln.points), str(ln.games), decimal_text(ln.result)]
            if ln.withdrawn:
                values[2] += " · " + _("withdrew")
            name_w = cols[3][0] - cols[2][0] - 64
            for (x, side, title), value in zip(cols, values, strict=True):
                anchor = "midleft" if side < 0 else "midright"
                if title == "#":
                    anchor = "center"
                theme.text(surface, value, (x, row.centery), 18,
                           theme.ACCENT if finalist and title == _("Result") else color,
                           bold=finalist or title == "#", anchor=anchor,
                           max_width=name_w if side < 0 else None,
                           min_size=NAME_MIN_PX)  # a long name ends in "…", still readable
        y += line_h
    surface.set_clip(clip)
    return y + offset - body.y
