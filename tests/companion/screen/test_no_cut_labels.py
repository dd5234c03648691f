"""No label cut short: every view of the score keeper's screen, at the Pi's 800×480, at
1280×720 and in the emulator's panel (704×720), in every language, draws every word whole.

`theme.watching_cuts` collects every text the screen drew cut with "…". A player's name may
be cut (ten players' columns are narrow, a name is the player's own); anything else cut is
a label nobody can read, so this test fails on any.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.screen import CompanionScreen
from companion.touch import theme
from companion.touch.widgets import Button
from showdown.contract.i18n import set_language
from tests.companion.screen.test_every_state import LANGS, PAGES, STATES

#: The Pi's display, a desktop window, and the emulator's panel beside the unit in its
#: default 1280x720 window.
SIZES = {"800x480": (800, 480), "1280x720": (1280, 720), "emulator panel": (704, 720)}


def cuts_in(tmp_path: Path, lang: str) -> set[tuple[str, str]]:
    """Every (language, words) cut on any page, in a few states, at both sizes."""
    set_language(lang)
    found: set[tuple[str, str]] = set()
    for state in ("no game", "rounds", "teams", "house rules"):
        app = CompanionApp.open(tmp_path / f"{state}-{lang}.db", lang=lang)
        try:
            STATES[state](app)
            names = set(app.player_names())
            for size in SIZES.values():
                for page in PAGES:
                    screen = CompanionScreen(app, size)
                    screen.update(0)
                    if not page.reach(screen):
                        continue
                    screen.update(16)
                    with theme.watching_cuts() as cut:
                        screen.draw(pygame.Surface(size))
                    found |= {(lang, words) for words, _width in cut if words not in names}
        finally:
            app.close()
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_no_label_is_cut_at_800x480_1280x720_or_in_the_emulators_panel(tmp_path: Path,
                                                                       lang: str) -> None:
    pygame.font.init()
    found = cuts_in(tmp_path, lang)
    assert not found, f"labels cut short: {sorted(found)}"


def test_the_watch_sees_a_cut_and_only_a_drawn_one() -> None:
    pygame.font.init()
    surface = pygame.Surface((200, 40))
    with theme.watching_cuts() as cut:
        theme.fit("a label far too long for forty pixels", 20, 40)  # measuring is no cut
        theme.text(surface, "Standings", (0, 0), 20, max_width=400)
        assert cut == []
        theme.text(surface, "Standings and more", (0, 0), 20, max_width=40)
    assert cut == [("Standings and more", 40)]


@pytest.mark.parametrize("lang", ["en", "hy"])
def test_every_touch_target_is_at_least_44_px_at_800x480(tmp_path: Path, lang: str) -> None:
    """A finger needs 44 px (the platforms' guidance) on the Pi's touch display."""
    pygame.font.init()
    set_language(lang)
    small = set()
    for state in ("no game", "rounds", "house rules"):
        app = CompanionApp.open(tmp_path / f"{state}.db", lang=lang)
        try:
            STATES[state](app)
            for page in PAGES:
                screen = CompanionScreen(app, SIZES["800x480"])
                screen.update(0)
                if not page.reach(screen):
                    continue
                screen.update(16)
                small |= {(page.name, b.key, b.rect.size) for b in screen.buttons()
                          if min(b.rect.size) < 44}
        finally:
            app.close()
    assert not small, sorted(small)


def test_a_long_label_over_its_sublabel_takes_two_lines_whole() -> None:
    """"другой картой" on a seven-key bar (105 × 56 px at 800×480) is cut on one line even at
    the smallest type; on two lines over "закончил · O" it reads whole."""
    pygame.font.init()
    surface = pygame.Surface((105, 56))
    button = Button("showdown", pygame.Rect(0, 0, 105, 56), "другой картой", lambda: None,
                    sublabel="закончил · O", font_px=17)
    with theme.watching_cuts() as cut:
        button.draw(surface)
    assert cut == []
    assert theme.fit(button.label, theme.MIN_TEXT_PX, 105 - 8, bold=True)[0] != button.label
