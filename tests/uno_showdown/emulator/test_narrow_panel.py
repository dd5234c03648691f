"""The emulator at 800x480 (`--size 800x480`): the companion panel beside the unit is
440 px wide, and everything in it must still read; key labels fit their buttons; the names
over the paddles follow the duel bar's chooser."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.app import CompanionApp
from companion.touch import theme
from showdown.contract.events import Side
from showdown.contract.i18n import set_language
from tests.uno_showdown.emulator.conftest import Table, make_table
from uno_showdown.window import unit_view as view
from uno_showdown.window.window import KeyMap

#: A short name, one that fits once made a little smaller, and one that cannot fit at all.
PLAYERS = {
    "en": ["An", "Alexandra Longname", "Maximilian-Alexander von Hohenberg"],
    "ru": ["Бо", "Александра Петрова", "Константин Константинович Воскресенский"],
}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


def open_app(tmp_path: Path, lang: str, names: list[str]) -> CompanionApp:
    app = CompanionApp.open(tmp_path / "games.db", lang=lang)
    app.new_game("showdown", "winner", names)
    return app


def panel(table: Table) -> pygame.Surface:
    return table.surface.subsurface(table.window.companion_rect)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_standings_show_every_name_beside_its_score_at_800x480(tmp_path: Path,
                                                                lang: str) -> None:
    names = PLAYERS[lang]
    app = open_app(tmp_path, lang, names)
    app.record_round(names[2], hands={names[0]: ["r5", "b7"], names[1]: ["g2"]})
    table = make_table(size=(800, 480), app=app)
    try:
        assert table.window.companion_rect.width == 440  # the panel at 800x480
        standings = table.window.companion.current
        assert standings.name == "standings" and standings.stacked()
        surface = panel(table)
        drawn = {full: row for full, row in zip([r.name for r in standings.rows],
                                                standings.drawn_rows, strict=True)}
        assert set(drawn) == set(names)
        for full, (shown, name_box, total_box) in drawn.items():
            row = next(r for r in standings.row_rects() if r.collidepoint(name_box.center))
            assert row.contains(name_box) and row.contains(total_box)
            assert name_box.right + 8 <= total_box.x, (full, name_box, total_box)
            # between the name and the score: only the row's own colour, no stray letter
            band = range(name_box.top + 2, name_box.bottom - 2)
            seen = {tuple(surface.get_at((x, y)))[:3] for y in band
                    for x in range(name_box.right + 2, total_box.x - 1)}
            assert seen <= {theme.PANEL, theme.PANEL_HI}, (full, seen)
            if full == names[2]:  # too long for any readable size: shortened, not squeezed
                assert shown.endswith("…") and full.startswith(shown[:-1])
                assert len(shown) >= 8 and name_box.height >= 16
            else:
                assert shown == full
        _shown, short_box, _total = drawn[names[0]]
        assert short_box.height >= 26  # a short name keeps its full size
        # the buttons and the last duel sit under the list, all on screen and finger-sized
        bounds = pygame.Rect((0, 0), table.window.companion_rect.size)
        buttons = {b.key: b.rect for b in table.window.companion.buttons()}
        for key in ("enter_round", "undo", "redo"):
            assert bounds.contains(buttons[key]) and min(buttons[key].size) >= 44
            assert buttons[key].top >= standings.list_rect().bottom
        assert standings.duel_rect() is not None
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_companion_view_fits_the_emulators_panel(tmp_path: Path, lang: str) -> None:
    names = PLAYERS[lang]
    app = open_app(tmp_path, lang, names)
    table = make_table(size=(800, 480), app=app)
    try:
        screen = table.window.companion
        bounds = pygame.Rect((0, 0), table.window.companion_rect.size)
        for name in ("standings", "history", "chart", "duels", "new_game", "round_entry",
                     "game_over"):
            screen.go(name)
            table.turn(20_000)
            for button in screen.buttons():
                assert bounds.contains(button.rect), (name, button.key)
                assert min(button.rect.size) >= 44, (name, button.key, button.rect)
        screen.go("new_game")
        new_game = screen.current
        target, count = new_game.number_boxes()
        assert not target.colliderect(count)
        # the target's number sits between its − and + and touches neither
        t_minus = next(b.rect for b in screen.buttons() if b.key == "target:-")
        t_plus = next(b.rect for b in screen.buttons() if b.key == "target:+")
        number = theme.font(24, True).size(str(new_game.target))[0]
        assert t_plus.x - t_minus.right > number + 8
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


def test_long_key_names_fit_the_timer_button() -> None:
    table = make_table(keys=KeyMap.parse("Z,M,RETURN"))
    try:
        layout = table.window.unit_layout
        assert layout is not None
        (cx, cy), r = layout.timer
        text = view.TextCache()
        size = max(10, r * 2 // 3)
        assert text.render("RETURN", size, view.PADDLE_EDGE).get_width() > \
            view.timer_label_width(r, size)  # the full name would not fit here
        caption = view.key_caption(text, "RETURN", size, view.timer_label_width(r, size),
                                   view.PADDLE_EDGE)
        assert caption.get_size() == text.render("RET", size, view.PADDLE_EDGE).get_size()
        # nothing of the label is drawn outside the yellow disc: its edge stays clean
        outside = set()
        for step in range(360):
            a = math.radians(step)
            for d in (3, 5):
                x, y = round(cx + (r + d) * math.cos(a)), round(cy + (r + d) * math.sin(a))
                outside.add(table.pixel((x, y)))
        assert outside == {view.BODY}, outside
        inside = {table.pixel((x, cy)) for x in range(cx - r // 2, cx + r // 2)}
        assert view.TIMER in inside and inside - {view.TIMER}  # the label is there
        # the default SPACE still fits whole, at full size, on the same button
        width = view.timer_label_width(r, size)
        assert view.key_caption(text, "SPACE", size, width, view.PADDLE_EDGE).get_size() == \
            text.render("SPACE", size, view.PADDLE_EDGE).get_size()
    finally:
        table.window.close()
        pygame.display.quit()


def test_the_names_over_the_paddles_follow_the_chooser_at_once(tmp_path: Path) -> None:
    app = open_app(tmp_path, "en", ["Ann", "Bob", "Cid"])
    table = make_table(app=app)
    try:
        layout = table.window.unit_layout
        assert layout is not None
        box = layout.names[Side.RIGHT]

        def right_label() -> bytes:
            return pygame.image.tobytes(table.surface.subsurface(box), "RGB")

        table.turn(20_000)
        showing_bob = right_label()
        table.key(pygame.K_F7)
        table.turn(20_000)
        assert table.window.chooser.name(Side.RIGHT) == "Cid"
        showing_cid = right_label()
        assert showing_cid != showing_bob  # no duel loaded yet, and the label moved on
        table.key(pygame.K_F10)  # loading the duel changes nothing more over the paddle
        table.run_for(40_000)
        assert table.window.chooser.busy
        assert right_label() == showing_cid
        table.key(pygame.K_ESCAPE)
        table.run_for(40_000)
        def left_label() -> bytes:
            return pygame.image.tobytes(table.surface.subsurface(layout.names[Side.LEFT]), "RGB")

        showing_ann = left_label()
        table.key(pygame.K_F6)  # Ann -> Bob at the left (Cid sits at the right)
        table.turn(20_000)
        assert table.window.chooser.name(Side.LEFT) == "Bob"
        assert left_label() != showing_ann
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


#: The states whose pages hold the most buttons: the round entry's card grid, the Table
#: view's rows for ten players, the new game's keyboard.
TOUCH_STATES = ("no game", "rounds", "house rules", "many duels")
#: The buttons laid out anew for the narrow panel, whose words must read whole there: the
#: card grid and the hands' bar under it, the Table view's rows, the keyboard.
NARROW_KEYS = ("card:", "colour:", "player:", "showdown", "wild:", "rows:", "kb:", "cancel",
               "change_winner", "out_on", "points", "take_back", "next", "confirm")


def narrow_pages(tmp_path: Path, lang: str) -> Iterator[tuple[str, Any, pygame.Surface,
                                                              list[tuple[str, int]]]]:
    """Every page of the score keeper reached in the emulator's panel at 800x480, drawn
    while watching for cut words: (where, the screen, what it drew, the words cut)."""
    from tests.companion.screen.test_every_state import PAGES, STATES

    set_language(lang)
    for state in TOUCH_STATES:
        app = CompanionApp.open(tmp_path / f"{state}-{lang}.db", lang=lang)
        STATES[state](app)
        table = make_table(size=(800, 480), app=app)
        try:
            screen = table.window.companion
            size = table.window.companion_rect.size
            for page in PAGES:
                screen.go("standings")
                screen.update(0)
                if not page.reach(screen):
                    continue
                screen.update(16)
                surface = pygame.Surface(size)
                with theme.watching_cuts() as cut:
                    screen.draw(surface)
                yield f"{state} / {page.name}", screen, surface, cut
        finally:
            table.window.close()
            pygame.display.quit()
            app.close()


def test_every_touch_target_in_the_narrow_panel_is_a_finger_wide(tmp_path: Path) -> None:
    """44 px each way (the platforms' guidance) beside the unit at 800x480 too: the card
    grid, the Table view's rows for ten players, the keyboard."""
    small = [(where, b.key, b.rect.size) for where, screen, _s, _c in narrow_pages(tmp_path, "en")
             for b in screen.buttons() if min(b.rect.size) < 44]
    assert not small, small[:12]


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "hy"])
def test_the_narrow_panels_finger_wide_buttons_read_whole(tmp_path: Path, lang: str) -> None:
    """Each button laid out for the narrow panel, drawn by itself: no word of it cut (a
    player's name may be: it is theirs, and ten of them share a row)."""
    cut = set()
    for where, screen, surface, _words in narrow_pages(tmp_path, lang):
        names = set(screen.app.player_names())
        for button in screen.buttons():
            if not button.key.startswith(NARROW_KEYS):
                continue
            with theme.watching_cuts() as words:
                button.draw(surface)
            cut |= {(where, button.key, w) for w, _width in words if w not in names}
    assert not cut, sorted(cut)[:12]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_tabs_read_whole_in_the_narrow_panel(tmp_path: Path, lang: str) -> None:
    """Seven tabs in 440 px: one smaller type for all, "New game" on two lines, no label
    cut. (Armenian's words are longer than the bar at the smallest type.)"""
    set_language(lang)
    app = open_app(tmp_path, lang, ["Ann", "Bob", "Cy"])
    table = make_table(size=(800, 480), app=app)
    try:
        screen = table.window.companion
        tabs = [b for b in screen.buttons() if b.key.startswith("tab:")]
        assert len(tabs) == 7 and min(min(b.rect.size) for b in tabs) >= 44
        surface = pygame.Surface(table.window.companion_rect.size)
        with theme.watching_cuts() as cut:
            for tab in tabs:
                tab.draw(surface)
        assert cut == []
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


def excused(words: str, names: list[str]) -> bool:
    """A cut that is the players' own: a name (or a piece of one, a wrapped name's first
    line), or a line holding a name of twelve characters or more, which no layout beside
    the unit can be asked to hold whole with words around it."""
    return any(name == words or name.startswith(words + " ") for name in names) or any(
        len(name) >= 12 and name in words for name in names)


def narrow_cuts(tmp_path: Path, lang: str) -> set[tuple[str, str, int]]:
    """Every label drawn cut on any page, in every state, in the emulator's narrow panel:
    (where, the words, the width they had)."""
    from tests.companion.screen.test_every_state import PAGES, STATES

    set_language(lang)
    found: set[tuple[str, str, int]] = set()
    for state in STATES:
        app = CompanionApp.open(tmp_path / f"{state}-{lang}.db", lang=lang)
        STATES[state](app)
        names = app.player_names()
        table = make_table(size=(800, 480), app=app)
        try:
            size = table.window.companion_rect.size
            assert size[0] <= 440
            for page in PAGES:
                # a fresh panel for each page, as the emulator's own is made: no page's
                # state (a draw typed, a page turned) hides another's
                screen = type(table.window.companion)(app, size)
                screen.update(0)
                if not page.reach(screen):
                    continue
                screen.update(16)
                with theme.watching_cuts() as cut:
                    screen.draw(pygame.Surface(size))
                found |= {(f"{state} / {page.name}", words, width) for words, width in cut
                          if not excused(words, names)}
        finally:
            table.window.close()
            pygame.display.quit()
            app.close()
    return found


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "hy"])
def test_no_label_is_cut_on_any_page_of_the_narrow_panel(tmp_path: Path, lang: str) -> None:
    """Every page of the score keeper, in every state the screen tests build, drawn in the
    440 px panel beside the unit at 800x480: no word cut short, in any language."""
    found = narrow_cuts(tmp_path, lang)
    by_words = sorted({(words, width, where) for where, words, width in found})
    assert not found, f"{len({w for _p, w, _x in found})} labels cut: {by_words}"
