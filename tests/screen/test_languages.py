"""The screen speaks English, Russian, Ukrainian and Armenian, and its font can draw all of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import theme
from companion.app import CompanionApp
from companion.i18n import LOCALE_DIR, set_language
from companion.msgfmt import PACKAGE, extract
from companion.views.facts import total_text
from companion.views.i18n import DOMAIN, _catalog
from tests.screen.conftest import Driver

UNTRANSLATED = {"Showdown"}  # the brand name of the card stays as printed


def msgids() -> list[str]:
    text = (LOCALE_DIR / "en" / "LC_MESSAGES" / f"{DOMAIN}.po").read_text(encoding="utf-8")
    return [m for m in re.findall(r'^msgid "(.+)"$', text, re.M)]


def test_every_string_the_screen_marks_is_in_its_catalog() -> None:
    sources = [PACKAGE / "screen.py", PACKAGE / "widgets.py",
               *sorted((PACKAGE / "views").glob("*.py"))]
    assert sorted(set(extract(sources)) - set(msgids())) == []


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_every_screen_string_is_translated(lang: str) -> None:
    catalog = _catalog(lang)
    ids = msgids()
    assert len(ids) > 60
    missing = [m for m in ids if m not in UNTRANSLATED and catalog.gettext(m) == m
               and catalog.ngettext(m, m + "s", 5) == m]
    assert missing == []
    for m in ids:  # placeholders survive translation
        assert set(re.findall(r"{\w+}", catalog.gettext(m))) <= set(re.findall(r"{\w+}", m))


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_the_bundled_font_has_every_glyph(lang: str) -> None:
    catalog = _catalog(lang)
    chars = {ch for m in msgids() for ch in catalog.gettext(m)}
    for bold in (False, True):
        f = theme.font(20, bold)
        assert [ch for ch in sorted(chars) if f.metrics(ch)[0] is None] == []


@pytest.mark.parametrize(("lang", "standings"), [("ru", "Таблица"), ("uk", "Таблиця"),
                                                  ("hy", "Աղյուսակ"), ("en", "Standings")])
def test_the_screen_follows_the_chosen_language(app: CompanionApp, lang: str,
                                                standings: str) -> None:
    set_language(lang)
    driver = Driver(app)
    tab = next(b for b in driver.screen.buttons() if b.key == "tab:standings")
    assert tab.label == standings
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
