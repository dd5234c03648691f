"""The championship's pictures in docs/championship.md, drawn by the program itself.

One evening is played through the real program on a hand-moved clock: the seed's
"Discovery UNO Cup" (23 players, a bar of 3 tables, the draw's seed 2017, so two flights
of 45 minutes), created, registered, drawn and started through `Championship` as the
director's screen and `uno-showdown event` do, every deal recorded at its table through the
score keeper (`CompanionApp`) from cards dealt out of a real deck. Each picture plays the
evening up to its moment in a scratch games file and then draws what the docs show there:

* the director's screen (`DirectorScreen`) on one of its tabs, typed into or tapped as a
  finger would (the event's name, a player registered with Enter);
* a table's screen (`CompanionScreen`, the score keeper at table 1) with the clock's
  banner;
* the results sheet (`results_sheet`) in headless Chromium, as a browser shows it.

The clock, the draw's seed and the cards are fixed, and times are shown in UTC, so two runs
give the same pixels. `tools/screenshots.py` lists `SHOTS` with its own and draws them.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tools.page_screenshots import ARGS, chromium, names

if TYPE_CHECKING:
    from championship.core.snapshot import Snapshot
    from championship.screen.screen import DirectorScreen

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
PI = (800, 480)
#: The results sheet's picture: a browser window as wide as the sheet wants.
SHEET = (900, 1400)
EVENT = "Discovery UNO Cup"
PLAYERS = names(23)
SEED = 2017
#: 12 January 2017, 18:30 UTC: registration opens at the bar.
OPENS_US = 1_484_245_800_000_000
MINUTE_US = 60_000_000


def at(hhmm: str) -> int:
    """The evening's wall clock at HH:MM (or HH:MM:SS) UTC, in microseconds."""
    parts = [int(p) for p in hhmm.split(":")]
    h, m, s = (*parts, 0)[:3]
    return OPENS_US + ((h - 18) * 60 + m - 30) * MINUTE_US + s * 1_000_000


class Clock:
    """Wall-clock microseconds that move only when the evening says so."""

    def __init__(self) -> None:
        self.now_us = OPENS_US

    def __call__(self) -> int:
        return self.now_us


# -- the evening, step by step --


@dataclass
class Evening:
    """The championship in a scratch games file, played up to the moment a picture shows."""

    db: str
    clock: Clock
    rng: random.Random

    def act(self, action: Callable[..., object]) -> None:
        from championship.desk.operations import Championship

        with Championship.open(self.db, clock=self.clock) as champ:
            action(champ)

    def play(self, stage: str, until_us: int) -> None:
        """Every table of `stage` records the deals it finishes from now until `until_us`:
        each deal takes four to six minutes, and a table plays its deal in progress to the end after
        the time is up (then it is done)."""
        from championship.desk.operations import Championship
        from companion.app import CompanionApp
        from tests.championship.conftest import deal_hands

        with Championship.open(self.db, clock=self.clock) as champ:
            snap = champ.snapshot()
            tables = [t.table for t in snap.stage_tables(stage)]
        finished: list[tuple[int, int]] = []  # (when, table)
        for table in tables:
            when = self.clock.now_us
            for _ in range(30):
                when += self.rng.randint(240, 360) * 1_000_000
                finished.append((when, table))
        for when, table in sorted(finished):
            if when >= until_us:
                continue
            with Championship.open(self.db, clock=self.clock) as champ:
                seated = next(t for t in champ.snapshot().stage_tables(stage)
                              if t.table == table)
            if seated.done:
                continue
            self.clock.now_us = when
            with CompanionApp.open(self.db, seated.game_id, clock=self.clock) as app:
                assert app.game is not None
                players = list(app.game.names)
                winner = self.rng.choice(players)
                app.record_round(winner, hands=deal_hands(self.rng, players, winner))
        self.clock.now_us = until_us

    def expect(self, moment: str, shows: Callable[[Snapshot], bool], what: str) -> None:
        """Refuse to draw a picture of something the program did not do: the caption in the
        docs says `what` of this moment."""
        from championship.desk.operations import Championship

        with Championship.open(self.db, clock=self.clock) as champ:
            if not shows(champ.snapshot()):
                raise SystemExit(f"the evening at {moment!r} does not show {what}")


#: The moments of the evening, in order, and what happens to reach each one.
def _steps() -> list[tuple[str, Callable[[Evening], None]]]:
    from championship.core.clock import FINAL, Status
    from championship.core.settings import make
    from companion.table.timebox import Phase

    def create(e: Evening) -> None:
        e.clock.now_us = at("18:30")
        e.act(lambda c: c.new_event(EVENT, make(tables=3)))

    def register(e: Evening) -> None:
        e.clock.now_us = at("18:41")
        e.act(lambda c: c.register(PLAYERS[:-1]))

    def register_last(e: Evening) -> None:
        e.clock.now_us = at("18:52")
        e.act(lambda c: c.register(PLAYERS[-1:]))

    def draw(e: Evening) -> None:
        e.clock.now_us = at("18:55")
        e.act(lambda c: c.draw(seed=SEED))

    def flight_1(e: Evening) -> None:
        e.clock.now_us = at("19:00")
        e.act(lambda c: c.start())
        e.play("flight-1", at("19:21:14"))
        e.expect("flight 1", lambda snap: all(
            t.phase is Phase.OPEN and t.deals >= 3 for t in snap.stage_tables("flight-1")),
            "every table playing, deals recorded")

    def time_up_1(e: Evening) -> None:
        e.play("flight-1", at("19:45:20"))
        e.expect("flight 1: time up", lambda snap: snap.clock.status is Status.TIME_UP
                 and snap.stage_tables("flight-1")[0].phase is Phase.LAST_DEAL,
                 "table 1 finishing its deal in progress after the time is up")

    def break_1(e: Evening) -> None:
        e.play("flight-1", at("19:53:30"))
        e.expect("break", lambda snap: snap.stage_done("flight-1")
                 and (snap.clock.break_left_us or 0) > 0, "both tables done, the break on")

    def flight_2(e: Evening) -> None:
        e.clock.now_us = at("20:01")
        e.act(lambda c: c.start())
        e.play("flight-2", at("20:53"))
        e.expect("qualified", lambda snap: snap.qualifying_done and len(snap.cut()) == 7,
                 "qualifying done, 7 finalists")

    def final(e: Evening) -> None:
        e.clock.now_us = at("20:58")
        e.act(lambda c: c.seat_final())
        e.act(lambda c: c.start())
        e.play(FINAL, at("22:09"))
        e.expect("over", lambda snap: snap.over, "the final over, the awards given")

    return [("new", create), ("registering", register), ("registered", register_last),
            ("drawn", draw), ("flight 1", flight_1), ("flight 1: time up", time_up_1),
            ("break", break_1), ("qualified", flight_2), ("over", final)]


def evening(folder: Path, name: str, moment: str) -> Evening:
    """A fresh games file for the picture `name`, the evening played up to `moment`."""
    from companion.store.games import Store

    db = folder / f"{name}.db"
    db.unlink(missing_ok=True)
    Store(str(db)).close()
    e = Evening(str(db), Clock(), random.Random(SEED))
    if moment == "empty":
        return e
    for step, run in _steps():
        run(e)
        if step == moment:
            return e
    raise ValueError(f"no moment {moment!r} in the evening")


# -- what each picture draws at its moment --


@contextmanager
def _utc_and_sim_clock(clock: Clock) -> Iterator[None]:
    """Times as the docs print them (UTC), and the program's wall clock on the evening's."""
    from companion.store import wallclock

    old_tz, old_now = os.environ.get("TZ"), wallclock.now
    os.environ["TZ"] = "UTC"
    time.tzset()
    wallclock.now = clock
    try:
        yield
    finally:
        wallclock.now = old_now
        if old_tz is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old_tz
        time.tzset()


def _director(e: Evening, shot: ChampionshipShot, path: Path) -> None:
    """The director's screen on the tab `shot.view` names ("director: TAB[: what's done]")."""
    import pygame

    from championship.desk.operations import Championship
    from championship.screen.screen import DirectorScreen

    tab = shot.view.split(": ")[1]
    with Championship.open(e.db, clock=e.clock, lang=shot.lang) as champ:
        screen = DirectorScreen(champ, shot.size)
        screen.go(tab)
        screen.update(16)
        if shot.view == "director: players: the event's name typed":
            _type(screen, EVENT)
        elif shot.view == "director: players: the last player registered":
            _type(screen, PLAYERS[-1])
            screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                                   unicode="\r"))
        screen.update(32)
        surface = pygame.Surface(shot.size)
        screen.draw(surface)
        pygame.image.save(surface, str(path))


def _type(screen: DirectorScreen, text: str) -> None:
    """Type `text` as a keyboard would, a character at a time."""
    import pygame

    for ch in text:
        screen.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=ch))


def _table(e: Evening, shot: ChampionshipShot, path: Path) -> None:
    """Table 1's screen (the score keeper opened on its flight 1 game), on its standings."""
    import pygame

    from championship.desk.operations import Championship
    from championship.store.table_file import link_state
    from companion.app import CompanionApp
    from companion.screen.screen import CompanionScreen

    with Championship.open(e.db, clock=e.clock) as champ:
        game_id = champ.snapshot().stage_tables("flight-1")[0].game_id
    with CompanionApp.open(e.db, game_id, lang=shot.lang, clock=e.clock) as app:
        screen = CompanionScreen(app, shot.size, link_state=lambda: link_state(app.store))
        screen.update(0)
        screen.update(16)
        surface = pygame.Surface(shot.size)
        screen.draw(surface)
        pygame.image.save(surface, str(path))


def _sheet(e: Evening, shot: ChampionshipShot, path: Path) -> None:
    """The results sheet `event results --html` writes, in headless Chromium."""
    from playwright.sync_api import sync_playwright

    from championship.desk.operations import Championship
    from championship.desk.sheet import results_sheet

    with Championship.open(e.db, clock=e.clock, lang=shot.lang) as champ:
        html = results_sheet(champ.snapshot())
    exe = chromium()
    if exe is None:
        raise SystemExit("Chromium is needed to draw the results sheet")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        page = browser.new_page(viewport={"width": shot.size[0], "height": shot.size[1]})
        page.set_content(html)
        page.screenshot(path=str(path))
        browser.close()


@dataclass(frozen=True)
class ChampionshipShot:
    """One picture: its file name, the evening's moment it shows, and what is drawn then."""

    name: str
    moment: str  # a step of the evening (`_steps`), or "empty"
    view: str  # "director: TAB...", "table 1: standings" or "results sheet"
    lang: str = "en"
    size: tuple[int, int] = PI

    def draw(self, folder: Path, out: Path = OUT) -> None:
        """Play the evening up to the moment in a scratch file (in `folder`), then draw and
        save the picture in `out`."""
        import pygame

        from showdown.contract.i18n import set_language

        pygame.font.init()
        set_language(self.lang)
        e = evening(folder, self.name, self.moment)
        drawer = (_director if self.view.startswith("director:") else
                  _table if self.view.startswith("table") else _sheet)
        try:
            with _utc_and_sim_clock(e.clock):
                drawer(e, self, out / self.name)
        finally:
            set_language(None)


SHOTS: list[ChampionshipShot] = [
    ChampionshipShot("championship-new-event.png", "empty",
                     "director: players: the event's name typed"),
    ChampionshipShot("championship-players.png", "registering",
                     "director: players: the last player registered"),
    ChampionshipShot("championship-seating.png", "drawn", "director: seating"),
    ChampionshipShot("championship-table-clock.png", "flight 1", "table 1: standings"),
    ChampionshipShot("championship-clock.png", "flight 1", "director: clock"),
    ChampionshipShot("championship-table-last-deal.png", "flight 1: time up",
                     "table 1: standings"),
    ChampionshipShot("championship-break.png", "break", "director: clock"),
    ChampionshipShot("championship-standings.png", "qualified", "director: standings"),
    ChampionshipShot("championship-standings-ru.png", "qualified", "director: standings",
                     lang="ru"),
    ChampionshipShot("championship-final.png", "over", "director: final"),
    ChampionshipShot("championship-results-sheet.png", "over", "results sheet", size=SHEET),
]


def main(argv: list[str]) -> int:
    import tempfile

    wanted = set(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for shot in SHOTS:
            if not wanted or shot.name in wanted:
                shot.draw(Path(tmp))
                print(f"docs/screenshots/{shot.name}")
    return 0


if __name__ == "__main__":
    import sys

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.exit(main(sys.argv[1:]))
