"""The live page on the bar's screens, in headless Chromium: the TV mode fits 1920×1080 and
1280×720 with 200 players (paged, the finalists and the cut line on every page, nothing cut
or overlapping, every player on some page); on a phone "find my seat / my result" comes
first, and the awards and the final come first once the final is over.

The pages are the ones `tools/page_screenshots.py` draws for the docs: a real championship
played on a simulated clock, its document as `event serve` makes it."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from typing import Any

import pytest

from tools.page_screenshots import ARGS, PHONE, STAGES, TV_SIZES, chromium, demo_state, opened

CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")

#: What is on screen: every section shown, and each row or card in it not paged away.
LAYOUT = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; };
  const shown = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const sections = [...document.querySelectorAll("header, section")].filter(shown)
    .map(s => ({id: s.id || s.tagName, box: box(s),
                items: [...s.querySelectorAll(
                  "tr[data-number], .tbl, .award, .hit, .note, .cutnote")]
                  .filter(shown).map(box)}));
  return {sections, view: [innerWidth, innerHeight],
          scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
          cut: [...document.querySelectorAll("tr.cut")].filter(shown).map(box),
          rest: [...document.querySelectorAll("#standings tr[data-number]")].filter(shown)
            .map(r => Number(r.dataset.number))};
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (inner[0] >= outer[0] - 0.5 and inner[1] >= outer[1] - 0.5
            and inner[2] <= outer[2] + 0.5 and inner[3] <= outer[3] + 0.5)


def check_fits(layout: dict[str, Any], *, one_screen: bool) -> None:
    """Nothing cut (every item inside its section, every section inside the page's width,
    and on a TV inside the screen), nothing overlapping (no two sections)."""
    width, height = layout["view"]
    assert layout["scroll"][0] <= width, "the page is wider than the screen"
    if one_screen:
        assert layout["scroll"][1] <= height, "the TV page scrolls"
    sections = layout["sections"]
    for s in sections:
        assert s["box"][0] >= 0 and s["box"][2] <= width, f"{s['id']} is cut at the side"
        if one_screen:
            assert s["box"][3] <= height + 0.5, f"{s['id']} is cut at the bottom"
        for item in s["items"]:
            assert _inside(item, s["box"]), f"an item of {s['id']} is cut"
    for i, a in enumerate(sections):
        for b in sections[i + 1:]:
            assert not _overlap(a["box"], b["box"]), f"{a['id']} overlaps {b['id']}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@functools.cache
def _played(players: int, over: bool, stage: str | None) -> dict[str, Any]:
    return demo_state(players, over=over, stage=stage)


def night(players: int, *, over: bool = False, stage: str | None = None) -> dict[str, Any]:
    """`demo_state(players, over=..., stage=...)`, each night played once per run (a night of
    200 players takes seconds, and the tests ask for each several times at several sizes):
    a copy of it, so a test may mark it as it likes."""
    return copy.deepcopy(_played(players, over, stage))


@pytest.fixture(scope="module")
def crowd() -> dict[str, Any]:
    return night(200)


@pytest.mark.parametrize("size", TV_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tv_fits_200_players_paged_with_the_cut_always_on_screen(
        browser: Any, crowd: dict[str, Any], size: tuple[int, int]) -> None:
    with opened(browser, crowd, size, tv=True) as page:
        seen: set[int] = set()
        pages = 0
        while True:
            # Turn to the page and measure it in one call: the page also turns itself every
            # few seconds, and a slow machine must not let that skip a page between the two.
            layout = page.evaluate(f"() => {{ pageTurn = {pages}; fitTv(); return ({LAYOUT})(); }}")
            check_fits(layout, one_screen=True)
            assert len(layout["cut"]) == 1, "the cut line is on every page"
            new = set(layout["rest"]) - seen
            if not new:
                break
            seen |= new
            pages += 1
            assert pages <= 40
        assert seen == {ln["number"] for ln in crowd["qualifying"]}, "every player on a page"
        assert pages > 1
        label = page.inner_text("#standings h2 .pager")
        assert label.endswith(f"/{pages}")


@pytest.mark.parametrize("size", [PHONE, (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_phone_finds_my_seat_first_and_the_awards_first_after_the_final(
        browser: Any, size: tuple[int, int]) -> None:
    state = night(23)
    vera = next(ln for ln in state["qualifying"] if ln["name"] == "Vera")
    with opened(browser, state, size, tv=False) as page:
        tops = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            "section")].filter(s => !s.hidden).map(s => [s.id, s.getBoundingClientRect().top]))""")
        assert min(tops, key=tops.get) == "find"
        page.fill("#find input", str(vera["number"]))
        hit = page.inner_text("#find .hit")
        assert f"{vera['number']} Vera" in hit and "Table" in hit and "seat" in hit
        assert page.locator(f'#standings tr.me[data-number="{vera["number"]}"]').count() == 1
        check_fits(page.evaluate(LAYOUT), one_screen=False)
        page.fill("#find input", "nobody at all")
        assert "No player by that name or number." in page.inner_text("#find .hit")
    over = night(23, over=True)
    with opened(browser, over, size, tv=False) as page:
        tops = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            "section")].filter(s => !s.hidden).map(s => [s.id, s.getBoundingClientRect().top]))""")
        order = sorted(tops, key=tops.get)
        assert order[:4] == ["find", "awards", "final", "standings"]
        check_fits(page.evaluate(LAYOUT), one_screen=False)


LONG = "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaft"


def _renamed(state: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    import json

    return json.loads(json.dumps(state).replace(f'"{old}"', f'"{new}"'))


def _notice_covers_nothing(page: Any) -> None:
    """The held badge is shown, and no row, card or section's text lies under it."""
    found = page.evaluate("""() => {
      const n = document.getElementById("notice");
      if (n.hidden) return null;
      const r = n.getBoundingClientRect(), a = [r.left, r.top, r.right, r.bottom];
      const items = [...document.querySelectorAll(
        "tr[data-number], .tbl, .award, .hit, .note, .cutnote, section h2")]
        .filter(e => e.offsetParent !== null && e.getClientRects().length > 0)
        .map(e => { const b = e.getBoundingClientRect();
                    return [b.left, b.top, b.right, b.bottom]; });
      return {badge: a, items};
    }""")
    assert found is not None, "the held badge is not shown"
    assert not [i for i in found["items"] if _overlap(found["badge"], i)], "the badge covers"


def test_a_long_unbroken_name_wraps_on_a_phone_and_the_held_badge_covers_nothing(
        browser: Any) -> None:
    """Issue: a long unbroken name widened the page to 455 px on a 390 px phone (the result
    column, the search box and the awards cut), and the fixed red badge of the deals held
    for the director lay over the standings' rows."""
    state = _renamed(night(23, over=True), "Vera", LONG)
    state["held"] = 2
    with opened(browser, state, PHONE, tv=False) as page:
        page.fill("#find input", LONG[:12])
        layout = page.evaluate(LAYOUT)
        check_fits(layout, one_screen=False)
        assert LONG in page.inner_text("#standings")
        _notice_covers_nothing(page)


@pytest.mark.parametrize("size", TV_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tv_after_the_final_pages_without_cutting_and_the_badge_covers_nothing(
        browser: Any, size: tuple[int, int]) -> None:
    """Issue: after the final the TV's Seating panel showed its heading and a sliver of
    "Table 1"; and the held badge lay over the standings."""
    state = _renamed(night(23, over=True), "Vera", LONG)
    state["held"] = 1
    with opened(browser, state, size, tv=True) as page:
        for turn in range(3):
            layout = page.evaluate(f"() => {{ pageTurn = {turn}; fitTv(); return ({LAYOUT})(); }}")
            check_fits(layout, one_screen=True)
        _notice_covers_nothing(page)


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("size", TV_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tv_pages_every_panel_without_cutting_in_every_state(
        browser: Any, size: tuple[int, int], stage: str) -> None:
    """Every state of the night with 200 players (15 tables a flight, two flights, long
    lists beside the final's and the awards' panels): each page of the TV fits the screen,
    no table card nor row is cut, and every table of the seating is on some page: the
    stages still to play once one is played out (the final seated: its table, not the
    flights' thirty), every stage's otherwise (the break: both flights, paged).

    Issue: with the final seated, the seating was left a sliver below the awards and the
    final, its first table card cut at the screen's bottom."""
    state = night(200, stage=stage)
    state["held"] = 1
    to_play = [s for s in state["stages"] if any(t["phase"] != "done" for t in s["tables"])]
    cards = {f"{s['stage']}/{t['table']}" for s in to_play or state["stages"]
             for t in s["tables"]}
    with opened(browser, state, size, tv=True) as page:
        seen: set[str] = set()
        for turn in range(40):
            # The page turned, measured and its seating read in one call (one round trip).
            layout, shown = page.evaluate(f"""() => {{ pageTurn = {turn}; fitTv();
              return [({LAYOUT})(), [...document.querySelectorAll("#seating .tbl")]
                .filter(e => e.offsetParent !== null).map(e => e.dataset.table)]; }}""")
            check_fits(layout, one_screen=True)
            seen |= set(shown)
        if stage != "over":  # after the final the TV shows no seating
            assert seen == cards, f"tables never shown: {sorted(cards - seen)}"
