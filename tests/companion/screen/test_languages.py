"""The screen speaks the language chosen (its catalog is checked in tests/test_translations.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import CompanionApp
from companion.screen.views.facts import total_text
from companion.touch import theme
from showdown.contract.i18n import set_language
from tests.companion.screen.conftest import Driver

UNTRANSLATED = {"Showdown"}  # the brand name of the card stays as printed


@pytest.mark.parametrize(("lang", "standings"), [("ru", "Таблица"), ("uk", "Таблиця"),
                                                  ("hy", "Աղյուսակ"), ("en", "Standings")])
def test_the_screen_follows_the_chosen_language(app: CompanionApp, lang: str,
                                                standings: str) -> None:
    set_language(lang)
    driver = Driver(app)
    tab = next(b for b in driver.screen.buttons() if b.key == "tab:standings")
    assert theme.unhyphenated(tab.label) == standings  # a soft hyphen may mark its break
    for name in ("history", "chart", "duels", "new_game", "round_entry", "game_over"):
        driver.screen.go(name)
        driver.frame()  # every view draws in every language
        assert not driver.screen.dirty


def test_wins_are_counted_in_the_right_plural(db: Path) -> None:
    set_language("ru")
    app = CompanionApp.open(db, lang="ru")
    app.new_game("classic", "lazy", ["Аня", "Борис"])
    for _ in range(5):
        app.record_round("Аня", hands={"Борис": ["r1"]})
    driver = Driver(app)

    shown = [total_text(app, s) for s in driver.view.rows]
    assert shown == ["5 побед", "0 побед"]
    app.record_round("Борис", hands={"Аня": ["r1"]})
    assert total_text(app, app.standings()[1]) == "1 победа"
    app.close()
