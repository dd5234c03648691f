"""The director's screen at the Pi's 800×480 with a crowded night: 15 tables, long names, a
deal held for the director, every tab, in each state from the draw to the end (before the
start, running, the break, the final seated, over), in English, Russian and Armenian. No
two texts overlap, nothing is drawn off the screen, no label is cut, and every text is at a
readable size (a name may end in "…"; on the standings and the final it never shrinks below
16 px).

The issue this holds: the held-deals line lay over "The championship is over" on the Clock
tab, the Deals tab's last row covered its hint, the table cards cut to "7 players ·…", and
long names in the Final tab shrank to an unreadable size."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pygame
import pytest

from championship.core.presence import HELD_NOBODY_OUT
from championship.core.settings import make
from championship.desk.operations import Championship
from championship.screen.screen import TABS, DirectorScreen
from companion.app import CompanionApp
from companion.touch import theme
from showdown.contract.i18n import set_language
from tests.championship.conftest import SimClock

SIZE = (800, 480)
#: Long names, as a bar's players give them (a name may be cut, never shrunk unreadable).
NAMES = [f"Maximilian-Alexander {n:02d} Hohenzollern" for n in range(105)]


def _play(db: str, clock: SimClock, game_id: int) -> None:
    with CompanionApp.open(db, game_id, clock=clock) as app:
        assert app.game is not None
        names = app.game.names
        app.record_round(names[0], points={n: 10 + i for i, n in enumerate(names[1:])})


#: The director's screen's states, in the night's order: drawn but not started, the
#: qualifying running, the break after it, the final seated, the championship over.
STATES = ["before", "running", "break", "final", "over"]
#: English, and the two languages whose words run longest on the screen.
LANGS = ["en", "ru", "hy"]


def crowded(db: str, clock: SimClock, state: str) -> None:
    """15 tables of 7, one flight, brought to `state`, with a deal held for the director."""
    with Championship.open(db, clock=clock) as champ:
        champ.new_event("The Long Names Cup of the Bar", make(tables=15, finalists=7))
        champ.register(NAMES)
        _draw, seated = champ.draw(seed=7)
        stage = "flight-1"
        if state != "before":
            champ.start()
            for s in seated:  # a deal at every table: more than the Deals tab shows at once
                _play(db, clock, s.game_id)
        if state in ("break", "final", "over"):
            champ.end()
            for t in range(1, 16):
                champ.done(t)
        if state in ("final", "over"):
            final = champ.seat_final()
        if state == "over":
            champ.start()
            _play(db, clock, final.game_id)
            clock.advance(61)
            champ.done(1)
            stage = "final"
        with champ.store.transaction() as conn:
            assert champ.event_id is not None
            champ.events.put_remote_deal(conn, champ.event_id, stage, 1,
                                         f"t1/{stage}/{'ab' * 8}/g9:1", 1, {1: 5, 2: 7},
                                         held=HELD_NOBODY_OUT)


@contextmanager
def drawn_texts() -> Iterator[list[tuple[str, pygame.Rect, int]]]:
    """Every text drawn while the block runs: its words, where, and the size it had."""
    found: list[tuple[str, pygame.Rect, int]] = []
    original = theme.text

    def text(surface: pygame.Surface, content: str, pos: tuple[int, int], size: int = 20,
             *args: Any, **kw: Any) -> pygame.Rect:
        rect = original(surface, content, pos, size, *args, **kw)
        shown = theme.fit(content, size, kw.get("max_width"), bold=kw.get("bold", False),
                          min_size=kw.get("min_size", theme.MIN_TEXT_PX))
        if content.strip():
            found.append((content, rect, shown[1]))
        return rect

    theme.text = text  # type: ignore[assignment]
    try:
        yield found
    finally:
        theme.text = original  # type: ignore[assignment]


def problems(screen: DirectorScreen, tab: str) -> list[str]:
    """What a director cannot read on `tab`: a label cut, a text over another (more than
    the few pixels two lines' boxes share), a text smaller than 12 px."""
    out: list[str] = []
    surface = pygame.Surface(SIZE)
    with drawn_texts() as texts, theme.watching_cuts() as cuts:
        screen.draw(surface)
    for words, _width in cuts:
        if not any(name in words for name in NAMES):
            out.append(f"{tab}: cut {words!r}")
    for i, (words, rect, size) in enumerate(texts):
        if size < theme.MIN_TEXT_PX:
            out.append(f"{tab}: {words!r} at {size} px")
        for other, orect, _s in texts[i + 1:]:
            both = rect.clip(orect)
            if both.width > 4 and both.height > 4:
                out.append(f"{tab}: {words!r} overlaps {other!r}")
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", STATES)
def test_a_crowded_night_reads_whole_on_every_tab_at_800x480(
        state: str, lang: str, db: str, clock: SimClock) -> None:
    pygame.font.init()
    crowded(db, clock, state)
    set_language(lang)
    found: list[str] = []
    with Championship.open(db, clock=clock, lang=lang) as champ:
        screen = DirectorScreen(champ, SIZE)
        for name, _label, _key in TABS:
            screen.go(name)
            screen.update(16)
            found += problems(screen, name)
            if name == "deals":  # no row reaches over the hint below the list
                area = screen.current.list_rect()  # type: ignore[attr-defined]
                rows = [b for b in screen.buttons() if b.key.startswith("deal:")]
                assert len(rows) >= (5 if state != "before" else 1)
                found += [f"deals: {b.key} at {b.rect} leaves the list {area}" for b in rows
                          if not area.contains(b.rect)]
    assert not found, "\n".join(found)
