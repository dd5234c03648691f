"""The score-over-rounds chart: each player's running total as a coloured line, and the target.

`plot` is the pure part (numbers in, pixel points out), so the geometry is
tested without a window; the view only draws what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygame

from companion.screen.views import facts
from companion.touch import theme
from companion.touch.i18n import _
from companion.touch.view import View, heading


@dataclass(frozen=True, slots=True)
class Plot:
    """Where everything goes inside the plotting rectangle."""

    lines: dict[str, list[tuple[int, int]]]
    y_max: int
    y_ticks: list[tuple[int, int]]  # (value, pixel y)
    x_ticks: list[tuple[int, int]]  # (round number, pixel x)
    target_y: int | None
    #: The lowest value on the axis: 0, or below it when a total went negative (H2O).
    y_min: int = 0


def nice_step(span: int, steps: int = 5) -> int:
    """A round tick step (1, 2, 5 x 10^n) giving about `steps` ticks over `span`."""
    raw = max(1, span) / steps
    magnitude = 1
    while magnitude * 10 <= raw:
        magnitude *= 10
    for m in (1, 2, 5, 10):
        if m * magnitude >= raw:
            return m * magnitude
    return 10 * magnitude


def plot(series: Mapping[str, Sequence[int]], area: pygame.Rect,
         target: int | None = None) -> Plot:
    """Map cumulative scores to pixels in `area`; round 0 (everyone at 0) is the left edge.

    The axis starts at 0, or lower when a total went below 0 (H2O's deductions)."""
    rounds = max((len(v) for v in series.values()), default=0)
    top_value = max([0, *(max(v, default=0) for v in series.values())])
    low_value = min([0, *(min(v, default=0) for v in series.values())])
    if target is not None:
        top_value = max(top_value, target)
    step = nice_step(top_value - low_value)
    y_max = max(step, -(-top_value // step) * step)
    y_min = (low_value // step) * step

    def px(i: int, value: int) -> tuple[int, int]:
        x = area.x + round(i * area.width / max(1, rounds))
        y = area.bottom - round((value - y_min) * area.height / (y_max - y_min))
        return x, y

    lines = {name: [px(0, 0)] + [px(i + 1, v) for i, v in enumerate(values)]
             for name, values in series.items()}
    y_ticks = [(v, px(0, v)[1]) for v in range(y_min, y_max + 1, step)]
    x_step = max(1, nice_step(rounds, 8))
    x_ticks = [(i, px(i, 0)[0]) for i in range(0, rounds + 1, x_step)]
    target_y = px(0, target)[1] if target is not None else None
    return Plot(lines, y_max, y_ticks, x_ticks, target_y, y_min)


class ChartView(View):
    name = "chart"

    def __init__(self, nav: object) -> None:
        super().__init__(nav)  # type: ignore[arg-type]
        self.series: dict[str, list[int]] = {}

    def enter(self) -> None:
        self.series = dict(self.app.series()) if self.app.game is not None else {}

    def plot_rect(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 70, r.y + 56, r.width - 70 - 190, r.height - 56 - 44)

    def draw_content(self, surface: pygame.Surface) -> None:
        top = heading(surface, _("Score over rounds"), self.rect)
        if not self.series or not any(self.series.values()):
            empty = _("No game yet") if self.app.game is None else _("No rounds yet")
            theme.text(surface, empty, (self.rect.centerx, top + 120), 24, theme.TEXT_DIM,
                       anchor="center")
            return
        area = self.plot_rect()
        target = facts.target(self.app)
        p = plot(self.series, area, target)
        for value, y in p.y_ticks:
            pygame.draw.line(surface, theme.PANEL_HI, (area.x, y), (area.right, y))
            theme.text(surface, str(value), (area.x - 8, y), 16, theme.TEXT_DIM,
                       anchor="midright")
        for number, x in p.x_ticks:
            theme.text(surface, str(number), (x, area.bottom + 6), 16, theme.TEXT_DIM,
                       anchor="midtop")
        theme.text(surface, _("round"), (area.right, area.bottom + 24), 14, theme.TEXT_DIM,
                   anchor="topright")
        pygame.draw.line(surface, theme.LINE, area.bottomleft, area.bottomright, 2)
        pygame.draw.line(surface, theme.LINE, area.topleft, area.bottomleft, 2)
        if p.target_y is not None:
            for x in range(area.x, area.right, 16):
                pygame.draw.line(surface, theme.DANGER, (x, p.target_y),
                                 (min(x + 8, area.right), p.target_y), 2)
            theme.text(surface, _("target {points}").format(points=target),
                       (area.right - 4, p.target_y - 4), 14, theme.DANGER, anchor="bottomright")
        names = list(self.series)
        for i, name in enumerate(names):
            points = p.lines[name]
            color = theme.player_color(i)
            if len(points) > 1:
                pygame.draw.lines(surface, color, False, points, 4)
            for point in points[1:]:
                pygame.draw.circle(surface, color, point, 5)
        self._legend(surface, names, area)

    def _legend(self, surface: pygame.Surface, names: list[str], area: pygame.Rect) -> None:
        x = area.right + 24
        y = area.y
        for i, name in enumerate(names):
            values = self.series[name]
            color = theme.player_color(i)
            pygame.draw.rect(surface, color, (x, y + 4, 18, 18), border_radius=4)
            score = theme.text(surface, str(values[-1] if values else 0),
                               (self.rect.right - 12, y), 18, color, bold=True,
                               anchor="topright")
            theme.text(surface, name, (x + 26, y), 18, theme.TEXT,
                       max_width=min(110, score.x - 8 - (x + 26)))
            y += 30
