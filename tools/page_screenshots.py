"""The live page's screenshots in docs/screenshots/, made by the project's own code: a real
championship played in a temporary games file on a simulated clock (200 players for the TV,
or the seed's 23 for the phone), its page document as `event serve` makes it
(`page_state`), and the page itself in headless Chromium, served from memory.

    python -m tools.page_screenshots              # writes docs/screenshots/many-tables-page-*.png

`tests/championship/tables/test_web_layout.py` opens the same pages at every size it checks, so what
the
docs show is what the tests measured.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from championship.core.clock import FINAL
from championship.core.page_state import page_state
from championship.core.settings import Settings
from championship.desk.operations import Championship
from companion.app import CompanionApp
from showdown.contract.i18n import set_language

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
#: 12 January 2017, 19:00 UTC: the seed's championship night.
START_US = 1_484_247_600_000_000
MINUTE_US = 60_000_000
ORIGIN = "http://uno-showdown.local/"
FIRST = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ivan", "Kira", "Lev",
         "Masha", "Nikita", "Olga", "Pavel", "Rita", "Sasha", "Tanya", "Ulyana", "Fedor",
         "Khariton", "Tsvetana", "Chingiz", "Shura", "Alla", "Bogdan", "Galina", "Danil",
         "Elena", "Zoya", "Igor", "Klara", "Leonid", "Marat", "Nina", "Oleg", "Polina",
         "Roman", "Sofia", "Timur", "Uliana"]
#: The sizes the page must fit: the bar's TV at 1080p and 720p, and a phone.
TV_SIZES = ((1920, 1080), (1280, 720))
PHONE = (390, 844)


def names(count: int) -> list[str]:
    """`count` distinct player names: first names, then with an initial."""
    out = list(FIRST[:count])
    for initial in "ABCDEFGHIKLMNOPRST":
        out += [f"{n} {initial}." for n in FIRST][:count - len(out)]
    return out[:count]


class _Clock:
    def __init__(self) -> None:
        self.now_us = START_US

    def __call__(self) -> int:
        return self.now_us


def _deals(db: str, champ: Championship, clock: _Clock, stage: str, rng: random.Random,
           rounds: int) -> None:
    for t in champ.snapshot().stage_tables(stage):
        for _ in range(rounds):
            game_id = champ.snapshot().stage_tables(stage)[t.table - 1].game_id
            with CompanionApp.open(db, game_id, clock=clock) as app:
                assert app.game is not None
                players = list(app.game.names)
                winner = rng.choice(players)
                app.record_round(winner, points={p: rng.randint(0, 90) for p in players
                                                 if p != winner})
            clock.now_us += MINUTE_US // 4


#: The night's states a page is drawn in: drawn but not started, flight 1 running, the
#: break after the qualifying, the final seated, the final over.
STAGES = ("before", "running", "break", "final", "over")


def demo_state(players: int = 200, *, over: bool = False, lang: str = "en",
               stage: str | None = None) -> dict[str, Any]:
    """The page's document for a championship of `players` in flight 1 with deals at every
    table (with `over`: played to the end, the awards given; `stage`, one of `STAGES`,
    names the state instead)."""
    stage = stage or ("over" if over else "running")
    set_language(lang)
    folder = tempfile.mkdtemp(prefix="uno-page-")
    try:
        db = str(Path(folder) / "cup.db")
        clock = _Clock()
        rng = random.Random(2017)
        with Championship.open(db, clock=clock) as champ:
            champ.new_event("Discovery UNO Cup", Settings(tables=max(3, -(-players // 14))))
            champ.register(names(players))
            champ.draw(seed=2017)
            if stage != "before":
                champ.start()
                _deals(db, champ, clock, "flight-1", rng, 3)
            if stage in ("break", "final", "over"):
                flights = champ.snapshot().flights
                for n in range(1, flights + 1):
                    if n > 1:
                        champ.start()
                        _deals(db, champ, clock, f"flight-{n}", rng, 3)
                    champ.end()
                    for t in champ.snapshot().stage_tables(f"flight-{n}"):
                        champ.done(t.table)
            if stage in ("final", "over"):
                champ.seat_final()
            if stage == "over":
                champ.start()
                _deals(db, champ, clock, FINAL, rng, 4)
                champ.end()
                champ.done(1)
            return page_state(champ.snapshot(), clock.now_us)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        set_language(None)


def page_html(lang: str = "en") -> str:
    page = resources.files("championship.web").joinpath("page.html").read_text("utf-8")
    return page.replace("{{lang}}", lang)


@contextmanager
def opened(browser: Any, state: dict[str, Any], size: tuple[int, int], *, tv: bool,
           lang: str = "en") -> Iterator[Any]:
    """A Playwright page showing `state` at `size` (the TV mode with `tv`), served from
    memory exactly as `event serve` serves it."""
    text = json.dumps(state, ensure_ascii=False)
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    body = {"": (page_html(lang), "text/html"), "state.json": (text, "application/json"),
            "events": (f"retry: 600000\ndata: {text}\n\n", "text/event-stream"),
            "time": (json.dumps({"now_us": state["at_us"]}), "application/json")}

    def fulfil(route: Any) -> None:
        path = route.request.url.split("?", 1)[0][len(ORIGIN):]
        content, kind = body.get(path, ("", "text/plain"))
        route.fulfill(status=200 if path in body else 404, body=content, content_type=kind)

    page.route(ORIGIN + "**", fulfil)
    page.goto(ORIGIN + ("?tv" if tv else ""))
    page.wait_for_function("document.body.dataset.synced >= 1", timeout=15000)
    # Served from memory, the stream ends after its one document: stop listening, so the
    # page does not say it is reconnecting.
    page.evaluate("source.close(); document.body.classList.remove('offline')")
    # The page fits the TV again once its fonts are in: wait for that, and a frame.
    page.evaluate("document.fonts.ready.then(() => new Promise(r => requestAnimationFrame("
                  "() => r(true))))")
    try:
        yield page
    finally:
        page.close()


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


#: The pictures `shoot` draws (docs/many-tables.md shows each).
NAMES = ("many-tables-page-tv-1080p.png", "many-tables-page-tv-720p.png",
         "many-tables-page-tv-final-720p.png",
         "many-tables-page-phone.png", "many-tables-page-phone-over.png")


def shoot(out: Path = SHOTS) -> list[Path]:
    """Write the live page's screenshots; returns the files written."""
    from playwright.sync_api import sync_playwright

    exe = chromium()
    if exe is None:
        raise SystemExit("Chromium is needed to draw the page")
    written = []
    tv_state, phone_state, over_state = demo_state(200), demo_state(23), demo_state(23, over=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        for (w, h) in TV_SIZES:
            with opened(browser, tv_state, (w, h), tv=True) as page:
                path = out / f"many-tables-page-tv-{h}p.png"
                page.screenshot(path=str(path))
                written.append(path)
        with opened(browser, demo_state(200, stage="final"), TV_SIZES[1], tv=True) as page:
            path = out / "many-tables-page-tv-final-720p.png"
            page.screenshot(path=str(path))
            written.append(path)
        with opened(browser, phone_state, PHONE, tv=False) as page:
            page.fill("#find input", "Vera")
            page.wait_for_selector("#find .hit b")
            path = out / "many-tables-page-phone.png"
            page.screenshot(path=str(path))
            written.append(path)
        with opened(browser, over_state, PHONE, tv=False) as page:
            path = out / "many-tables-page-phone-over.png"
            page.screenshot(path=str(path))
            written.append(path)
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=SHOTS, help="where the PNG files go")
    args = parser.parse_args(argv)
    for path in shoot(args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
