"""The director's screen, driven the way a finger or a keyboard would: every tab in every
state of the championship draws (800x480 and larger, in every language), and the organiser
can run the whole event from it: register, withdraw, draw, start, pause, call time, mark a
table done, seat the final, save the results sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from championship.desk.operations import Championship
from championship.screen.screen import TABS, DirectorScreen
from companion.app import CompanionApp
from showdown.contract.i18n import set_language
from tests.championship.conftest import SimClock
from tests.championship.test_cli import make_state
from uno_showdown.commands.cli import main

STATES = ["empty", "new", "registered", "drawn", "running", "paused", "time_up", "qualified",
          "final_seated", "over"]


class Driver:
    def __init__(self, champ: Championship, size: tuple[int, int] = (800, 480)) -> None:
        self.surface = pygame.Surface(size)
        self.screen = DirectorScreen(champ, size)
        self.now_ms = 0
        self.frame()

    def frame(self) -> None:
        self.now_ms += 16
        self.screen.update(self.now_ms)
        if self.screen.dirty:
            self.screen.draw(self.surface)

    def button(self, key: str) -> Any:
        for b in self.screen.buttons():
            if b.key == key:
                return b
        keys = [b.key for b in self.screen.buttons()]
        raise AssertionError(f"no button {key!r} on {self.screen.current.name}: {keys}")

    def tap(self, key: str) -> None:
        pos = self.button(key).rect.center
        self.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        self.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        self.frame()

    def key(self, key: int) -> None:
        self.screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        self.frame()

    def type_text(self, text: str) -> None:
        for ch in text:
            self.screen.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        self.frame()

    def colours(self) -> int:
        """How many colours the screen shows: a drawn view has many."""
        small = pygame.transform.scale(self.surface, (200, 120))
        return len({small.get_at((x, y))[:3] for x in range(200) for y in range(120)})

    @property
    def notice(self) -> str:
        return self.screen._notice


@pytest.fixture(autouse=True)
def _fonts() -> None:
    pygame.font.init()


@pytest.mark.parametrize("state", STATES)
def test_every_tab_draws_in_every_state(state: str, db: str, clock: SimClock) -> None:
    make_state(db, clock, state)
    with Championship.open(db, clock=clock) as champ:
        for size in ((800, 480), (1280, 720)):
            driver = Driver(champ, size)
            for name, _label, _key in TABS:
                driver.screen.go(name)
                driver.frame()
                assert driver.colours() > 6, (state, name, size)
                assert all(b.rect.width >= 48 and b.rect.height >= 40
                           for b in driver.screen.buttons() if not b.key.startswith("kb:"))


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_every_tab_draws_in_every_language(lang: str, db: str, clock: SimClock) -> None:
    make_state(db, clock, "final_seated")
    set_language(lang)
    with Championship.open(db, clock=clock, lang=lang) as champ:
        driver = Driver(champ)
        labels = [b.label for b in driver.screen.buttons() if b.key.startswith("tab:")]
        assert "Players" not in labels and "Standings" not in labels
        for name, _label, _key in TABS:
            driver.screen.go(name)
            driver.frame()
            assert driver.colours() > 6


def test_registration_and_withdrawal_by_touch_and_keys(db: str, clock: SimClock) -> None:
    make_state(db, clock, "new")
    with Championship.open(db, clock=clock) as champ:
        d = Driver(champ)
        assert d.screen.current.name == "players"
        d.type_text("Zoe")
        d.key(pygame.K_RETURN)
        assert d.notice == "Zoe is number 1"
        d.tap("name")  # the on-screen keyboard
        assert d.screen.current.full_screen
        for ch in "ELI":
            d.tap(f"kb:{ch}")
        d.tap("kb:done")
        assert not d.screen.current.full_screen and d.notice == "Eli is number 2"
        d.type_text("zoe")
        d.key(pygame.K_RETURN)  # a duplicate name: the event's own sentence
        assert "zoe is already registered as number 1" in d.notice
        d.tap("player:1")
        d.tap("withdraw")
        assert "Tap again" in d.button("withdraw").label
        d.tap("withdraw")
        assert "Zoe (number 1) has withdrawn." in d.notice
        assert champ.snapshot().data.player(1).withdrawn  # type: ignore[union-attr]


def test_the_whole_event_from_the_screen(db: str, clock: SimClock) -> None:
    make_state(db, clock, "registered")
    with Championship.open(db, clock=clock) as champ:
        d = Driver(champ)
        d.screen.go("seating")
        d.tap("draw")
        assert d.notice == "Seats drawn" and champ.snapshot().flights == 2
        d.screen.go("clock")
        assert d.button("start").label == "Start Flight 1"
        d.tap("start")
        assert d.button("start").label == "Flight 1 is on" and not d.button("start").enabled
        clock.advance(5)
        d.frame()
        d.tap("pause")
        assert d.button("pause").label == "Resume"
        d.tap("pause")
        d.tap("end")
        assert champ.snapshot().clock.status.value == "running"  # one tap only asks
        d.tap("end")
        assert champ.snapshot().clock.status.value == "time_up"
        d.tap("done:1")
        assert d.button("start").label == "Start Flight 2"
        d.tap("start")
        d.tap("end")
        d.tap("end")
        # a table records its last deal from elsewhere: the screen sees it
        game_id = champ.snapshot().stage_tables("flight-2")[0].game_id
        with CompanionApp.open(db, game_id, clock=clock) as table:
            assert table.game is not None
            names = table.game.names
            table.record_round(names[0], points={n: 9 for n in names[1:]})
        clock.advance(1)
        d.now_ms += 1000
        d.frame()
        assert d.button("seat_final").label == "Seat the final"
        d.tap("seat_final")
        assert d.notice == "The final is seated"
        d.tap("start")
        d.screen.go("standings")
        d.frame()
        d.screen.go("final")
        d.frame()
        d.tap("sheet")
        sheet = Path(db).with_name("results-event-1.html")
        assert sheet.exists() and "Results sheet saved" in d.notice


def test_the_clock_is_redrawn_every_second(db: str, clock: SimClock) -> None:
    make_state(db, clock, "running")
    with Championship.open(db, clock=clock) as champ:
        d = Driver(champ)
        d.frame()
        assert not d.screen.dirty
        clock.now_us += 400_000
        d.screen.update(d.now_ms + 16)
        clock.now_us += 700_000
        d.screen.update(d.now_ms + 32)
        assert d.screen.dirty


def test_without_a_display_it_says_how_to_run_it(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str],
                                                 db: str, clock: SimClock) -> None:
    make_state(db, clock, "new")
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-display")
    assert main(["event", "screen", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no display" in err[0] and "xvfb-run" in err[0]


def test_a_championship_can_start_from_the_screen_alone(db: str, clock: SimClock) -> None:
    make_state(db, clock, "empty")
    with Championship.open(db, clock=clock) as champ:
        d = Driver(champ)
        assert d.screen.current.name == "players"
        assert [b.key for b in d.screen.buttons() if not b.key.startswith("tab:")] == [
            "name", "create", "tables:-", "tables:+"]
        d.tap("create")
        assert d.notice == "Type the event's name first" and champ.event_id is None
        d.type_text("Bar Cup")
        d.tap("tables:+")
        d.tap("create")
        assert d.notice == "Bar Cup is created: register the players"
        snap = champ.snapshot()
        assert snap.event.name == "Bar Cup" and snap.settings.tables == 4
        for name in ("Ann", "Bob"):
            d.type_text(name)
            d.key(pygame.K_RETURN)
        assert [p.name for p in champ.snapshot().data.players] == ["Ann", "Bob"]
        for tab in ("seating", "clock", "final"):
            d.screen.go(tab)
            d.frame()


def test_every_scrolling_tab_shows_a_bar_and_scrolls_by_keys(db: str, clock: SimClock) -> None:
    make_state(db, clock, "new")
    with Championship.open(db, clock=clock) as champ:
        champ.register([f"Player {i:02d}" for i in range(1, 24)])  # 23: more than fit
        d = Driver(champ)
        view = d.screen.current
        assert view.name == "players"
        grid = view.grid_rect()

        def shown() -> list[str]:
            return [b.key for b in d.screen.buttons() if b.key.startswith("player:")
                    and grid.contains(b.rect)]

        assert "player:23" not in shown()
        assert view.scroll.bar_rect(grid) is not None  # the screen says there is more
        top_bar = view.scroll.bar_rect(grid)
        for _ in range(3):
            d.key(pygame.K_PAGEDOWN)
        assert "player:23" in shown() and "player:1" not in shown()
        assert view.scroll.bar_rect(grid).y > top_bar.y  # type: ignore[union-attr]
        d.key(pygame.K_UP)
        d.key(pygame.K_PAGEUP)
        d.key(pygame.K_PAGEUP)
        d.key(pygame.K_PAGEUP)
        assert "player:1" in shown()


def test_the_clock_tab_shows_each_tables_presence_and_the_held_deals(
        db: str, clock: SimClock) -> None:
    from championship.core.presence import Heard
    from championship.screen.views.clock import presence_note

    make_state(db, clock, "running")
    with Championship.open(db, clock=clock) as champ:
        assert presence_note(champ.snapshot(), 1) is None  # one games file: nobody to hear
        with champ.store.transaction() as conn:
            champ.events.put_presence(conn, champ.event_id or 0, 1,
                                      Heard(clock(), -600_000_000, 0))
            champ.events.put_remote_deal(conn, champ.event_id or 0, "flight-1", 1,
                                         "t1/flight-1/abababababababab/g1:1", 1, {1: 5, 2: 7},
                                         held="nobody-out")
        assert presence_note(champ.snapshot(), 1) == ("clock off by -600.0 s", True)
        clock.advance(1)
        assert presence_note(champ.snapshot(), 1) == ("offline since "
                                                      f"{_hhmm(clock() - 60_000_000)}", True)
        driver = Driver(champ)
        driver.screen.go("clock")
        driver.frame()
        assert driver.colours() > 6
        assert len(champ.snapshot().held) == 1


def _hhmm(at_us: int) -> str:
    from datetime import datetime

    return datetime.fromtimestamp(at_us / 1_000_000).astimezone().strftime("%H:%M")


def test_the_director_voids_and_restores_a_deal_from_the_screen(db: str,
                                                                clock: SimClock) -> None:
    make_state(db, clock, "time_up")  # one deal at table 1 of flight 1
    with Championship.open(db, clock=clock) as champ:
        driver = Driver(champ)
        driver.key(pygame.K_F6)
        assert driver.screen.current.name == "deals"
        deal = next(b.key for b in driver.screen.buttons() if b.key.startswith("deal:"))
        driver.tap(deal)
        driver.tap("decide")
        assert driver.notice == "Say why first: tap the field and type a few words"
        driver.tap("why")
        driver.type_text("wrong hands")
        driver.tap("keyboard:done")
        assert driver.button("decide").label == "Void it"
        driver.tap("decide")
        assert "is void" in driver.notice
        snap = champ.snapshot()
        assert all(ln.games == 0 for ln in snap.qualifying)
        assert [(a.action, a.why) for a in snap.audit] == [("void", "wrong hands")]
        driver.tap(deal)
        driver.type_text("recounted")  # a real keyboard types straight into the field
        assert driver.button("decide").label == "Count it"
        driver.tap("decide")
        snap = champ.snapshot()
        assert any(ln.games for ln in snap.qualifying)
        assert [a.action for a in snap.audit] == ["void", "restore"]
        assert driver.colours() > 6
