"""The unit's panel and the duel bar read whole in every language, at 800x480 and 1280x720.

`uno-showdown emulator --lang hy` shows the companion in Armenian: the unit beside it, its
digits and verdicts, the names over its paddles, the bar's buttons and every status line
must too, and fit where the English fits. An evening is played in each language at both
sizes (the unit's panel is 360 px wide at 800x480), and every status line the bar can say
is drawn in it; nothing a player reads may be cut ("…"), spill out of its place, shrink
past reading, or stay in English (key names, F-keys and the game's name excepted).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.touch import theme
from showdown.contract.events import (
    CountdownStarted,
    DuelLoaded,
    DuelResult,
    EarlyPressSeen,
    GoShown,
    LaunchFailed,
    LaunchFinished,
    Outcome,
    Side,
    UnitFault,
    VerdictContested,
    VerdictGiven,
)
from showdown.contract.i18n import _, set_language
from showdown.duel.engine import DuelConfig
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, Table, make_table
from uno_showdown.window import duel_bar
from uno_showdown.window import unit_view as view
from uno_showdown.window import window as window_module

LANGS = ("en", "ru", "uk", "hy")
SIZES = ((800, 480), (1280, 720))
PLAYERS = {
    "en": ["Ann", "Bob", "Cid"],
    "ru": ["Аня", "Борис", "Вика"],
    "uk": ["Оля", "Петро", "Іра"],
    "hy": ["Անի", "Արամ", "Գոռ"],
}
#: Latin words a translated panel may still show: key names, the game's name.
KEPT = {"F5", "F9", "F10", "Esc", "SPACE", "SPC", "UNO", "Showdown", "WILD"}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


class Muted:
    """A sound bank that is off (F9), so the window says so over the unit."""

    muted = True

    def toggle_mute(self) -> None:
        self.muted = not self.muted


def english_words(text: str, names: list[str]) -> set[str]:
    for name in names:
        text = text.replace(name, "")
    return {w for w in re.findall(r"[A-Za-z][A-Za-z!]+", text)} - KEPT


class Drawn:
    """What the unit and the bar drew in one frame: every text, and every one cut."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        self.sizes: dict[str, int] = {}
        self.cut: list[tuple[str, int]] = []
        render = view.TextCache.render
        text = theme.text

        def recording_render(cache: view.TextCache, words: str, size: int,
                             colour: tuple[int, int, int]) -> pygame.Surface:
            surf = render(cache, words, size, colour)
            self.texts.append(words)
            self.sizes[words] = surf.get_height()  # the last is the size drawn
            return surf

        def recording_text(surface: pygame.Surface, words: str, *args: object,
                           **kwargs: object) -> pygame.Rect:
            self.texts.append(words)
            return text(surface, words, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(view.TextCache, "render", recording_render)
        monkeypatch.setattr(theme, "text", recording_text)

    def frame(self, table: Table) -> None:
        """Draw the unit (with "sound off") and the bar afresh, watching for cuts."""
        self.texts.clear()
        self.sizes.clear()
        w = table.window
        companion, w.companion = w.companion, None  # the companion has its own tests
        try:
            with theme.watching_cuts() as cut:
                w._full_redraw = True
                w.render(table.clock.now + 1_000_000)
        finally:
            w.companion = companion
        self.cut = cut


def play(table: Table, drawn: Drawn, lang: str, where: str) -> list[str]:
    """An evening at the table: what did not read whole in the target language."""
    names = PLAYERS[lang]
    found: list[str] = []
    w = table.window

    def look(step: str) -> None:
        drawn.frame(table)
        found.extend(f"{where} / {step}: cut {words!r} in {width} px"
                     for words, width in drawn.cut if words not in names)
        if lang != "en":
            for text in drawn.texts:
                left = english_words(text, names)
                if left:
                    found.append(f"{where} / {step}: English {sorted(left)} in {text!r}")
        layout = w.unit_layout
        assert layout is not None
        for word in map(_, ("WIN", "EARLY", "TIE", "TIME", "STOP", "READY", "GO!")):
            # a longer word than "WIN" is drawn smaller, never too small to read across a table
            if word in drawn.sizes and drawn.sizes[word] < max(20, layout.digits.h // 6):
                found.append(f"{where} / {step}: {word!r} shrunk to {drawn.sizes[word]} px")

    def step(name: str, advance_us: int = 20_000) -> None:
        table.run_for(advance_us, step_us=50_000)
        look(name)

    step("idle")
    table.key(pygame.K_F6)
    table.key(pygame.K_F7)
    step("players chosen")
    table.key(pygame.K_SPACE)
    step("timer pressed with nothing loaded")
    for cards in (pygame.K_1, pygame.K_3, pygame.K_2):
        table.key(cards)
        step(f"{cards - pygame.K_0} cards")
    table.key(pygame.K_F10)
    step("loaded")
    table.key(pygame.K_SPACE)
    step("counting down", 1_000_000)
    step("go", COUNTDOWN_US)
    table.key(pygame.K_l)
    step("a win, cards in flight", 150_000)
    step("cards landed", 3_000_000)
    table.key(pygame.K_F10)
    table.key(pygame.K_SPACE)
    table.run_for(500_000, step_us=50_000)
    table.key(pygame.K_a)
    step("early press", 200_000)
    table.key(pygame.K_F10)
    table.key(pygame.K_SPACE)
    table.run_for(COUNTDOWN_US + 100_000, step_us=50_000)
    table.key(pygame.K_a)
    table.key(pygame.K_l)
    step("tie", 100_000)
    table.key(pygame.K_ESCAPE)
    step("tie aborted")
    table.key(pygame.K_F10)
    table.key(pygame.K_SPACE)
    step("timeout", COUNTDOWN_US + 4_000_000)
    w.sound = Muted()  # type: ignore[assignment]
    step("muted")
    w.sound = None
    # every other line the bar can say, in the bar of this size
    for what, status in every_status(table, names):
        w.chooser.status = status
        w.bar.dirty = True
        look(f"status: {what}")
    return found


def every_status(table: Table, names: list[str]) -> Iterator[tuple[str, str]]:
    """(what, the line) for every line the duel bar says, with these players seated."""
    chooser, keys = table.window.chooser, table.window.labels
    players = {Side.LEFT: names[0], Side.RIGHT: names[1]}
    result = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, Side.RIGHT, (),
                        {Side.LEFT: 187_000, Side.RIGHT: None})

    def verdict(r: DuelResult) -> VerdictGiven:
        return VerdictGiven(1, r, Side.LEFT, Side.RIGHT, 3, players)

    events = {
        "loaded": DuelLoaded(1, Side.LEFT, Side.RIGHT, 3, players),
        "counting": CountdownStarted(1, COUNTDOWN_US, 0),
        "go": GoShown(1, 0),
        "early seen": EarlyPressSeen(1, Side.RIGHT, 0),
        "a win": verdict(result),
        "early": verdict(DuelResult(Outcome.EARLY_PRESS, Side.LEFT, Side.RIGHT, Side.RIGHT,
                                    (), {})),
        "tie, again": verdict(DuelResult(Outcome.TIE, None, None, None, (), {}, rematch=True)),
        "tie": verdict(DuelResult(Outcome.TIE, None, None, None, (), {})),
        "timeout": verdict(DuelResult(Outcome.TIMEOUT, None, None, None, (), {})),
        "cancelled": verdict(DuelResult(Outcome.ABORTED, None, None, None, (), {},
                                        reason=window_module.CANCELLED)),
        "contested": VerdictContested(1, Side.RIGHT, 0, 42_000, Outcome.FASTER, Outcome.FASTER,
                                      Side.RIGHT, players),
        "contested, tie": VerdictContested(1, Side.RIGHT, 0, 42_000, Outcome.FASTER,
                                           Outcome.TIE, None, players),
        "launch failed": LaunchFailed(1, "no answer", result, Side.LEFT, Side.RIGHT, 3, players),
        "unit fault": UnitFault(0, "no answer"),
        "jammed": LaunchFinished(0, jammed=True),
    }
    for what, event in events.items():
        chooser.status = ""
        chooser.hear(event, keys)
        yield what, chooser.status
    for wild in (False, True):
        chooser.take(names[0], names[1], 3, wild)
        yield f"proposal, wild={wild}", chooser.status
    yield "no players", _(window_module.NO_PLAYERS)
    yield "no score keeper", _(window_module.NO_COMPANION)
    yield "nothing loaded", _(window_module.NOTHING_LOADED)
    yield "first", _(duel_bar.FIRST_STATUS)
    chooser.busy = False


@pytest.mark.parametrize("lang", LANGS)
def test_the_unit_and_the_bar_read_whole_in_every_language(
        tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    set_language(lang)
    drawn = Drawn(monkeypatch)
    found: list[str] = []
    for size in SIZES:
        app = CompanionApp.open(tmp_path / f"{size[0]}.db", lang=lang)
        app.new_game("showdown", "winner", PLAYERS[lang])
        config = DuelConfig(countdown_min_us=COUNTDOWN_US, countdown_max_us=COUNTDOWN_US)
        table = make_table(config, size=size, app=app)
        try:
            found += play(table, drawn, lang, f"{lang} {size[0]}x{size[1]}")
        finally:
            table.window.close()
            pygame.display.quit()
            app.close()
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_score_keeper_the_paddles_are_named_in_the_language(lang: str) -> None:
    set_language(lang)
    for size in SIZES:
        table = make_table(size=size)
        try:
            chooser = table.window.chooser
            assert chooser.name(Side.LEFT) == _("Left") and chooser.name(Side.RIGHT) == _("Right")
            labels = [b.label for b in table.window.bar.buttons(table.window.labels)]
            assert _("L: {name}").format(name=_("Left")) in labels
            surface = pygame.Surface(table.surface.get_size())
            with theme.watching_cuts() as cut:
                table.window.bar.draw(surface, table.window.labels)
            assert cut == [], (size, cut)
        finally:
            table.window.close()
            pygame.display.quit()


@pytest.mark.parametrize("lang", LANGS)
def test_the_sound_off_notice_stays_over_the_unit(lang: str) -> None:
    """"sound off (F9)" sits in the unit's top corner, above its body, whole."""
    set_language(lang)
    drawn: list[pygame.Rect] = []
    text = theme.text

    def recording(surface: pygame.Surface, words: str, *args: object,
                  **kwargs: object) -> pygame.Rect:
        rect = text(surface, words, *args, **kwargs)  # type: ignore[arg-type]
        if words == _(window_module.SOUND_OFF):
            drawn.append(rect)
        return rect

    for size in SIZES:
        table = make_table(size=size)
        try:
            w = table.window
            w.sound = Muted()  # type: ignore[assignment]
            drawn.clear()
            with pytest.MonkeyPatch.context() as patch, theme.watching_cuts() as cut:
                patch.setattr(theme, "text", recording)
                w._full_redraw = True
                w.render(table.clock.now + 1_000_000)
            assert cut == [] and len(drawn) == 1, (size, cut)
            layout = w.unit_layout
            assert layout is not None
            assert w.unit_rect.contains(drawn[0]) and not drawn[0].colliderect(layout.body)
        finally:
            table.window.close()
            pygame.display.quit()
