"""The docs' screenshots, drawn by the program itself from scripted states: `make screenshots`.

Each picture in docs/screenshots/ is listed in `SHOTS` with the state it shows: a game built
through the score keeper (`CompanionApp`), the view reached as a finger would (the same
steps the layout tests take, `tests/companion/screen/test_every_state.py`), drawn with SDL's dummy
driver and saved as PNG. A duel a picture shows is played through the real service: on
the in-memory unit (`simulate`'s) for the Duels view, with a press that reaches the table
late or a launch the board never confirms. The emulator's pictures are its whole window at
its default 1280x720 on a hand-moved clock, so a countdown, cards in flight or a late
press are caught at the same instant every time.

The live page's pictures are made in headless Chromium by `tools/page_screenshots.py` when
the project has it (the hook `page_shots`); the championship's pictures (the director's
screen, a table's screen, the results sheet) by `tools/championship_screenshots.py`.
`tests/test_screenshots.py` fails when a picture the docs show is made by nothing here,
or a view of the screen has no picture.

Run: python -m tools.screenshots [NAME ...]   (no names: every picture)
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools import championship_screenshots

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
PI = (800, 480)
DESKTOP = (1280, 720)
PLAYERS = ["Anna", "Bob", "Carla", "Dmitri", "Eve"]


@dataclass(frozen=True)
class Shot:
    """One picture: its file name, what the app holds, and the view shown."""

    name: str
    build: Callable[..., None]  # (app) -> None: the game as the picture shows it
    view: str  # a page of `tests.companion.screen.test_every_state.PAGES`, by name
    lang: str = "en"
    size: tuple[int, int] = PI


# -- the games the pictures show --


def no_game(app: Any) -> None:
    """Nothing yet: the first thing a newcomer sees."""


def three_rounds(app: Any) -> None:
    """A Showdown game of five, three rounds in, with duels played."""
    from showdown.contract.events import Outcome, Side
    from tests.companion.screen.test_every_state import _duel

    app.new_game("showdown", "winner", PLAYERS)
    app.record_round("Carla", hands={"Anna": ["r5", "gskip"], "Bob": ["wild"],
                                     "Dmitri": ["b2", "y7"], "Eve": ["r1"]})
    app.record_round("Anna", hands={"Bob": ["g9"], "Carla": ["wild+4"],
                                    "Dmitri": ["rskip"], "Eve": ["b3", "b4"]})
    app.record_round("Dmitri", hands={"Anna": ["y1"], "Bob": ["r2", "g2"],
                                      "Carla": ["b8"], "Eve": ["wild"]})
    _duel(app, 1, "Anna", "Bob", Outcome.FASTER, Side.LEFT, {Side.LEFT: 212_000,
                                                           Side.RIGHT: 268_000})
    _duel(app, 2, "Carla", "Dmitri", Outcome.FASTER, Side.RIGHT, {Side.LEFT: 301_000,
                                                                 Side.RIGHT: 187_000})
    _duel(app, 3, "Eve", "Anna", Outcome.EARLY_PRESS, None, {Side.LEFT: -40_000,
                                                            Side.RIGHT: None})


def game_over(app: Any) -> None:
    app.new_game("classic", "winner", ["Anna", "Bob", "Carla"], target=50)
    app.record_round("Carla", hands={"Anna": ["wild+4"], "Bob": ["r5"]})


def house_rules(app: Any) -> None:
    app.new_game("showdown", "winner", PLAYERS,
                 house_rules=["jump_in", "stacking", "seven_zero"])
    app.record_round("Anna", hands={"Bob": ["r5"], "Carla": ["g2"], "Dmitri": ["b7"],
                                    "Eve": ["y1"]})
    app.reverse()


def mario_kart(app: Any) -> None:
    app.new_game("mario-kart", "winner", ["Anna", "Bob", "Carla", "Dmitri"])


def to_the_last(app: Any) -> None:
    """Playing to the last player, two rounds in: the third's order is tapped in."""
    app.new_game("classic", "last", PLAYERS)
    app.record_round(None, order=["Bob", "Anna", "Carla", "Dmitri", "Eve"])
    app.record_round(None, order=["Eve", "Carla", "Bob", "Anna", "Dmitri"])


def seven_rounds(app: Any) -> None:
    """Seven-round UNO, six hands emptied: Anna 3, Bob 2, Dmitri 1, Carla none."""
    app.new_game("classic", "seven", ["Anna", "Bob", "Carla", "Dmitri"])
    for winner in ("Anna", "Bob", "Anna", "Dmitri", "Bob", "Anna"):
        app.record_round(winner)


def h2o(app: Any) -> None:
    """Own hand with the H2O deck and its option, two rounds in."""
    app.new_game("h2o", "own", ["Anna", "Bob", "Carla", "Dmitri"], options=["h2o"])
    app.record_round("Anna", hands={"Bob": ["r5"], "Carla": ["wild+1"], "Dmitri": ["b2"]},
                     out_on="wild+1")
    app.record_round("Dmitri", hands={"Anna": ["g7", "y3"], "Bob": ["r9"], "Carla": ["b0"]})


# -- duels played through the service: the unit's own inputs, late or unconfirmed --

#: What the serial unit reports when the board never acknowledged the launch's frame.
NOT_ACKNOWLEDGED = "lost the board: the board did not acknowledge command LA #3"


@dataclass(frozen=True)
class Duel:
    """One duel as the unit's inputs make it: who sits where, and when each press is
    stamped (ms after go) and reaches the table (`right_arrives_ms`: late, after the
    verdict); `unconfirmed`: the board never confirms the launch."""

    left: str
    right: str
    cards: int
    left_ms: int
    right_ms: int
    right_arrives_ms: int | None = None
    unconfirmed: bool = False


def play_duels(app: Any, duels: list[Duel]) -> None:
    """Play `duels` through the real service on the in-memory unit (the one `simulate`
    uses), the game's score keeper listening as at a table: every verdict, late press and
    failed launch is the service's own, on a clock moved by the unit, the same every run."""
    import random

    from hardware.fake import FakeUnit
    from showdown.contract.events import PaddlePressed, Side, TimerPressed, UnitFault
    from showdown.duel.engine import DuelConfig
    from showdown.service.loop import ShowdownService

    countdown = 1_000_000
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(countdown_min_us=countdown,
                                               countdown_max_us=countdown),
                              rng=random.Random(1), listeners=(app.on_service_event,))
    for duel in duels:
        # A launch never confirmed: the board's confirmation never comes in the duel's time.
        unit.launch_us = 60_000_000 if duel.unconfirmed else 300_000
        service.load(Side.LEFT, Side.RIGHT, duel.cards,
                     players={Side.LEFT: duel.left, Side.RIGHT: duel.right})
        start = unit.now_us() + 100_000
        go = start + countdown
        unit.deliver(TimerPressed(start))
        unit.deliver(PaddlePressed(Side.LEFT, go + duel.left_ms * 1000))
        arrives = None if duel.right_arrives_ms is None else go + duel.right_arrives_ms * 1000
        unit.deliver(PaddlePressed(Side.RIGHT, go + duel.right_ms * 1000), arrive_us=arrives)
        if duel.unconfirmed:
            unit.deliver(UnitFault(go + 800_000, NOT_ACKNOWLEDGED, abort_duel=True,
                                   launch_failed=True))
        while unit.now_us() < go + 2_000_000:
            service.step(0.05)
    assert service.flush_listeners(5.0) == []
    service.close()


def contested(app: Any) -> None:
    """Two duels; in the last, Bob's press (stamped first) reached the table after Anna's
    verdict: the verdict stands, contested."""
    app.new_game("showdown", "winner", ["Anna", "Bob", "Carla"])
    app.record_round("Carla", hands={"Anna": ["r5", "gskip"], "Bob": ["wild"]})
    play_duels(app, [Duel("Carla", "Anna", 1, 231, 305),
                     Duel("Anna", "Bob", 2, 212, 190, right_arrives_ms=279)])


def launch_failed(app: Any) -> None:
    """Two duels; the last one's launch the board never confirmed."""
    app.new_game("showdown", "winner", ["Anna", "Bob", "Carla"])
    app.record_round("Carla", hands={"Anna": ["r5", "gskip"], "Bob": ["wild"]})
    play_duels(app, [Duel("Carla", "Anna", 1, 231, 305),
                     Duel("Anna", "Bob", 2, 212, 262, unconfirmed=True)])


SHOTS: list[Shot | championship_screenshots.ChampionshipShot] = [
    Shot("companion-no-game.png", no_game, "standings"),
    Shot("companion-standings.png", three_rounds, "standings"),
    Shot("companion-standings-hy.png", three_rounds, "standings", lang="hy"),
    Shot("companion-history.png", three_rounds, "history"),
    Shot("companion-chart.png", three_rounds, "chart"),
    Shot("companion-duels.png", three_rounds, "duels"),
    Shot("companion-round-winner.png", three_rounds, "round entry: who went out"),
    Shot("companion-round-entry.png", three_rounds, "round entry: cards"),
    Shot("companion-round-entry-ru.png", three_rounds, "round entry: cards", lang="ru"),
    Shot("companion-points-entry.png", three_rounds, "round entry: points"),
    Shot("companion-edit-round.png", three_rounds, "round entry: correcting a round"),
    Shot("companion-round-showdown-lost.png", three_rounds,
         "round entry: a showdown card last"),
    Shot("companion-game-over.png", game_over, "game over"),
    Shot("companion-new-game.png", no_game, "new game"),
    Shot("companion-new-game-keyboard.png", no_game, "new game: naming a player"),
    Shot("companion-house-rules.png", no_game, "new game: house rules chosen"),
    Shot("companion-first-dealer.png", no_game, "new game: first dealer by the draw"),
    Shot("companion-rules.png", house_rules, "rules"),
    Shot("companion-table-seats.png", house_rules, "table: seats"),
    Shot("companion-table-showdown.png", three_rounds, "table: showdown proposed"),
    Shot("companion-item-box.png", mario_kart, "table: Item Box"),
    Shot("companion-first-card.png", mario_kart, "table: first card, a Reverse"),
    Shot("companion-scoring-methods.png", no_game, "new game: the list of methods"),
    Shot("companion-new-game-variants.png", no_game,
         "new game: own hand, a lone 0 worth 50, H2O"),
    Shot("companion-round-entry-h2o.png", h2o, "round entry: H2O, out on a Wild +2"),
    Shot("companion-finishing-order.png", to_the_last, "round entry: a finishing order"),
    Shot("companion-seven-rounds.png", seven_rounds, "standings"),
    Shot("companion-duels-contested.png", contested, "duels"),
    Shot("companion-launch-failed.png", launch_failed, "duels"),
]

SHOTS += championship_screenshots.SHOTS  # the championship's evening, drawn by its module

#: The views a picture need not show: a second way into a view pictured already.
VIEWS_WITHOUT_A_PICTURE = {
    "table",  # the Table view opens on its first page, pictured as Seats
    "new game: house rules",  # pictured with rules chosen
    "new game: first dealer by hand",  # the draw's page is pictured
    "table: a Wild Showdown's opponent",  # the Showdown page is pictured
    "rules: scrolled",
    "table: first card",  # pictured with a Reverse turned up
}


def extra_pages() -> list:
    """Views reached with other taps than the layout tests': a Reverse turned up first, the
    scoring variants' choices and entries."""
    from tests.companion.screen.test_every_state import Page, _new_game_page, _table, _tap

    def round_entry(*keys: str) -> Callable[[Any], bool]:
        def reach(screen: Any) -> bool:
            screen.go("round_entry")
            return _tap(screen, *keys)
        return reach

    return [
        Page("table: first card, a Reverse", _table("first_card", "first:rev")),
        Page("new game: the list of methods", _new_game_page("method")),
        Page("new game: own hand, a lone 0 worth 50, H2O",
             _new_game_page("method", "method:own", "option:lone_zero_50", "option:h2o")),
        Page("round entry: H2O, out on a Wild +2",
             round_entry("winner:Carla", "out_on", "out_on", "card:g4", "card:rskip",
                         "player:Bob", "card:wild+1", "player:Dmitri", "card:b9")),
        Page("round entry: a finishing order",
             round_entry("place:Carla", "place:Anna", "place:Eve", "place:Dmitri")),
    ]


def draw_companion(shot: Shot, folder: Path) -> None:
    """Build `shot`'s game in a scratch games file, reach its view, save the screen."""
    import pygame

    from companion.app import CompanionApp
    from companion.screen.screen import CompanionScreen
    from showdown.contract.i18n import set_language
    from tests.companion.screen.test_every_state import PAGES

    pygame.font.init()
    set_language(shot.lang)
    app = CompanionApp.open(folder / f"{shot.name}.db", lang=shot.lang)
    try:
        shot.build(app)
        assert app.flush_duels(5.0)
        page = next(p for p in (*PAGES, *extra_pages()) if p.name == shot.view)
        screen = CompanionScreen(app, shot.size)
        screen.update(0)
        if not page.reach(screen):
            raise SystemExit(f"{shot.name}: the view {shot.view!r} cannot be reached")
        screen.update(16)
        surface = pygame.Surface(shot.size)
        screen.draw(surface)
        pygame.image.save(surface, str(OUT / shot.name))
    finally:
        app.close()


# -- the emulator: its whole window at each moment of a duel --


def draw_emulator(folder: Path) -> list[str]:
    """The emulator's pictures, one duel played on a hand-moved clock."""
    import pygame

    from companion.app import CompanionApp
    from showdown.contract.events import GoShown, Side
    from showdown.contract.i18n import set_language
    from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, make_table

    set_language("en")
    app = CompanionApp.open(folder / "emulator.db", lang="en")
    made = []
    try:
        three_rounds(app)
        assert app.flush_duels(5.0)  # the duels are on file before the window reads them
        app.refresh()
        table = make_table(size=DESKTOP, app=app)
        # The window opens at 1280x720 unless the screen is smaller (`fit_screen`); SDL's
        # dummy driver says its screen is 1024x768, so the window is set to the size a
        # desktop gives it, as a window manager would.
        pygame.display.set_mode(DESKTOP, pygame.RESIZABLE)
        table.window.layout(DESKTOP)
        table.service.add_listener(app.on_service_event)

        def save(name: str) -> None:
            # What the table said is recorded, and the screen has read it, before the picture.
            table.service.flush_listeners(5.0)
            app.flush_duels(5.0)
            table.turn(250_000)  # the screen looks at the file again after a moment
            table.window.render(table.clock.now)
            pygame.image.save(table.surface, str(OUT / name))
            made.append(name)

        table.run_for(100_000)
        save("emulator-idle.png")
        app.propose_showdown("Dmitri", 3)
        table.run_for(50_000)
        save("emulator-pairing.png")
        table.key(pygame.K_F10)
        table.turn(20_000)
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        table.run_for(COUNTDOWN_US // 2)
        save("emulator-countdown.png")
        table.run_for(COUNTDOWN_US // 2 + 190_000)
        table.key(pygame.K_l)
        table.turn(5_000)
        table.run_for(150_000)
        save("emulator-launch.png")
        table.run_for(1_500_000)
        save("emulator-verdict.png")
        table.key(pygame.K_F10)
        table.turn(20_000)
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        table.run_for(COUNTDOWN_US // 3)
        table.key(pygame.K_a)
        table.run_for(400_000)
        save("emulator-early.png")
        # A contested verdict: Anna presses 200 ms after go and wins; Bob's press, stamped
        # 150 ms after go, reaches the unit only after the verdict (a stalled driver).
        table.run_for(2_000_000)
        table.key(pygame.K_F10)
        table.turn(20_000)
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        before = len(table.heard)
        table.run_for(COUNTDOWN_US + 100_000)
        go_at = next(e.t_us for e in table.heard[before:] if isinstance(e, GoShown))
        table.run_for(go_at + 200_000 - table.clock.now)
        table.key(pygame.K_a)
        table.turn()
        table.run_for(100_000)
        table.unit.press_paddle(Side.RIGHT, go_at + 150_000)
        table.turn()
        table.run_for(150_000)
        save("emulator-contested.png")
        table.window.close()
        pygame.display.quit()
    finally:
        app.close()
    return made


#: The emulator in another language (`--lang`): a verdict at the default 1280x720 in Russian,
#: and in Armenian at the Pi's 800x480, where the unit's panel is narrowest.
EMULATOR_LANGUAGE_SHOTS = {"emulator-verdict-ru.png": ("ru", DESKTOP),
                           "emulator-verdict-hy.png": ("hy", PI)}


def draw_emulator_in(folder: Path, name: str) -> str:
    """One duel in the emulator in a language: the verdict, with the cards landed, as
    `uno-showdown emulator --lang xx` shows it."""
    import pygame

    from companion.app import CompanionApp
    from showdown.contract.i18n import set_language
    from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, make_table

    lang, size = EMULATOR_LANGUAGE_SHOTS[name]
    set_language(lang)
    app = CompanionApp.open(folder / f"emulator-{lang}.db", lang=lang)
    try:
        three_rounds(app)
        assert app.flush_duels(5.0)
        app.refresh()
        table = make_table(size=size, app=app)
        pygame.display.set_mode(size, pygame.RESIZABLE)  # as in `draw_emulator`
        table.window.layout(size)
        table.service.add_listener(app.on_service_event)
        table.run_for(100_000)
        app.propose_showdown("Dmitri", 2)
        table.run_for(50_000)
        table.key(pygame.K_F10)
        table.turn(20_000)
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        table.run_for(COUNTDOWN_US + 230_000)
        table.key(pygame.K_a)
        table.turn(5_000)
        table.run_for(1_700_000)
        table.service.flush_listeners(5.0)
        app.flush_duels(5.0)
        table.turn(250_000)
        table.window.render(table.clock.now)
        pygame.image.save(table.surface, str(OUT / name))
        table.window.close()
        pygame.display.quit()
    finally:
        app.close()
        set_language("en")
    return name


EMULATOR_SHOTS = ["emulator-idle.png", "emulator-pairing.png", "emulator-countdown.png",
                  "emulator-launch.png", "emulator-verdict.png", "emulator-early.png",
                  "emulator-contested.png"]


# -- the live page: headless Chromium, by the page's own tool --


def page_shots() -> list[str]:
    """The live page's pictures, made by `tools/page_screenshots.py` when the project has
    it (the page's layouts own it); the names it makes are the `many-tables-page-*` ones."""
    tool = ROOT / "tools" / "page_screenshots.py"
    if not tool.exists():
        return []
    subprocess.run([sys.executable, str(tool)], cwd=ROOT, check=True)
    return sorted(p.name for p in OUT.glob("many-tables-page-*.png"))


def main(argv: list[str]) -> int:
    wanted = set(argv)
    # The service logs a late press and a failed launch as warnings, as it would at a
    # table; here they are a picture's script, not news.
    for part in ("showdown", "firmware_host", "hardware", "companion", "championship",
                 "uno_showdown"):
        logging.getLogger(part).setLevel(logging.ERROR)
    OUT.mkdir(parents=True, exist_ok=True)
    made: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["XDG_DATA_HOME"] = str(folder)
        for shot in SHOTS:
            if not wanted or shot.name in wanted:
                if isinstance(shot, championship_screenshots.ChampionshipShot):
                    shot.draw(folder)
                else:
                    draw_companion(shot, folder)
                made.append(shot.name)
        if not wanted or wanted & set(EMULATOR_SHOTS):
            made += draw_emulator(folder)
        for name in EMULATOR_LANGUAGE_SHOTS:
            if not wanted or name in wanted:
                made.append(draw_emulator_in(folder, name))
        if not wanted:
            made += page_shots()
    for name in made:
        print(f"docs/screenshots/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
