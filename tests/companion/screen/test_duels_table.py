"""The duels table fits any width from 560 px up: columns never run into each other."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.views.duels import CELL_PX, fit_columns
from companion.touch import theme
from showdown.contract.i18n import set_language
from tests.companion.screen.conftest import Driver

PLAYERS = ["Anna", "Bob", "Maximiliane", "Dmitri"]
#: (challenger, opponent, winner, challenger ms, opponent ms)
DUELS = [("Anna", "Bob", "Anna", 187, 1212), ("Maximiliane", "Dmitri", "Dmitri", 236, 244),
         ("Anna", "Maximiliane", "Anna", 212, 280), ("Bob", "Dmitri", "Bob", 198, 248)]
ROW_COLOURS = {theme.BACKGROUND, theme.PANEL, theme.PANEL_HI}


@pytest.fixture
def dueled(db: Path) -> CompanionApp:
    app = CompanionApp.open(db, lang="en")
    app.new_game("showdown", "winner", PLAYERS)
    assert app.game is not None and app.game.id is not None
    for a, b, winner, a_ms, b_ms in DUELS:
        app.store.duels.add(app.game.id, 0, a, b, 2, "won", winner, b if winner == a else a,
                           a_ms * 1000, b_ms * 1000, "2024-05-01T20:00:00+00:00")
    app.switch_game(app.game.id)
    yield app
    app.close()


@pytest.mark.parametrize(("width", "lang"), [(560, "en"), (600, "en"), (640, "hy"),
                                             (700, "en"), (700, "ru"), (800, "en"),
                                             (800, "uk"), (1024, "en"), (1280, "en")])
def test_the_columns_fit_and_their_text_never_touches(dueled: CompanionApp, width: int,
                                                      lang: str) -> None:
    set_language(lang)
    driver = Driver(dueled, (width, 480))
    driver.tap("tab:duels")
    view = driver.view
    table = view.table_rect()
    columns = view.columns()
    shown = [i for i, _cell in columns]
    assert 0 in shown and 3 in shown  # the player and the best reaction always stay
    if width >= 800:
        assert shown == [0, 1, 2, 3, 4]
    assert columns[0][1].x == table.x and columns[-1][1].right <= table.right
    f = theme.font(CELL_PX)
    for i, cell in columns[1:]:  # numbers are drawn at full size, not squeezed
        for s in view.stats:
            assert f.size(view.cells(s)[i])[0] < cell.width, (i, view.cells(s)[i], cell)
    rows = pygame.Rect(table.x, table.y, table.width, (len(view.stats) + 1) * 40)
    for (_i, left), (_j, right) in pairwise(columns):
        assert left.right == right.x
        x = left.right  # the line between two columns crosses no letter or digit
        touched = {tuple(driver.surface.get_at((x, y))[:3]) for y in range(rows.top + 6,
                                                                             rows.bottom)}
        assert touched <= ROW_COLOURS, (width, lang, x, touched - ROW_COLOURS)


def test_columns_are_dropped_least_important_first() -> None:
    needs = [120, 60, 50, 80, 90]  # Player, Duels, Won, Best, Median
    assert fit_columns(500, needs, 90) == [220, 60, 50, 80, 90]
    assert fit_columns(370, needs, 90) == [90, 60, 50, 80, 90]
    assert fit_columns(360, needs, 90) == [140, None, 50, 80, 90]
    assert fit_columns(300, needs, 90) == [130, None, None, 80, 90]
    assert fit_columns(200, needs, 90) == [120, None, None, 80, None]
    assert fit_columns(150, needs, 90) == [70, None, None, 80, None]
