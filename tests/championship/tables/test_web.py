"""The live page, as `event serve` serves it, in a real headless Chromium: a round confirmed
at a table appears on the page by itself; the page only reads (no form, no POST)."""

from __future__ import annotations

import json
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from championship.broker.credentials import read_credentials
from championship.broker.link import BrokerAddress
from championship.desk.table_agent import TableAgent
from championship.store.table_file import TableFile
from companion.app import CompanionApp
from companion.store.games import Store
from tests.championship.tables.conftest import eventually
from tests.championship.tables.serving import Serving, serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Serving]:
    with serving(tmp_path) as s:
        yield s


def _join(s: Serving, tmp: Path, n: int) -> TableAgent:
    creds = read_credentials(s.credentials / f"table-{n}.json")
    agent = TableAgent(str(tmp / f"table{n}.db"), BrokerAddress("127.0.0.1", s.broker_port,
                                                                False), creds, n)
    agent.start()
    assert agent.seated.wait(20), "the table was never seated"
    return agent


def _deal(agent: TableAgent, points: int) -> list[str]:
    with Store(agent.store.path) as store:
        game_id = TableFile(store, agent.event_id, agent.table).current_game("flight-1")
    with CompanionApp.open(agent.store.path, game_id) as app:
        assert app.game is not None
        names = list(app.game.names)
        app.record_round(names[0], points={n: points for n in names[1:]})
        return names


def _state(s: Serving) -> dict[str, object]:
    with urllib.request.urlopen(s.url + "state.json", timeout=5) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def test_the_page_is_read_only_and_holds_the_event(served: Serving) -> None:
    state = _state(served)
    assert state["event"] == "Loopback Cup" and state["total_deals"] == 0
    req = urllib.request.Request(served.url, data=b"x=1", method="POST")
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=5)
    assert err.value.code == 405


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed: it shows the page")
def test_a_round_confirmed_at_a_table_appears_on_the_page(served: Serving,
                                                          tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    agents = [_join(served, tmp_path, n) for n in (1, 2)]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(served.url)
            page.wait_for_selector("#seating .tbl", timeout=15000)
            assert page.locator("body").get_attribute("data-deals") == "0"
            assert "Nothing yet" in page.inner_text("#standings")
            names = _deal(agents[0], 17)  # confirmed at table 1
            page.wait_for_function("document.body.dataset.deals === '1'", timeout=15000)
            standings = page.inner_text("#standings")
            for name in names[1:]:
                assert name in standings
            assert "17.00" in standings and "0.00" in standings
            seating = page.inner_text("#seating")
            assert "1 deal ·" in seating and "1 deals" not in seating
            _deal(agents[1], 4)
            page.wait_for_function("document.body.dataset.deals === '2'", timeout=15000)
            assert "4.00" in page.inner_text("#standings")
            assert page.locator("form, button, textarea, select").count() == 0
            # The one input is the search of "find my seat": read on the phone, never sent.
            assert page.locator("input").count() == 1
            assert page.locator("input").get_attribute("type") == "search"
            assert page.locator("input").get_attribute("name") is None
            browser.close()
    finally:
        for a in agents:
            a.stop()
    eventually(lambda: _state(served)["total_deals"] == 2, 10)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed: it shows the page")
def test_a_finalist_flashes_only_when_their_line_changes(served: Serving) -> None:
    """The qualifying and the final each remember what they showed: a finalist, on both,
    is not marked fresh on every update because the other table shows other numbers."""
    from playwright.sync_api import sync_playwright

    state = _state(served)
    lines = [{"rank": i, "number": i, "name": f"P{i}", "points": 10 * i, "games": 3,
              "shown": f"{10 * i / 3:.2f}", "withdrawn": False} for i in range(1, 5)]
    state["qualifying"] = lines
    state["final"] = [{**ln, "points": 0, "games": 0, "shown": "-"} for ln in lines[:2]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(served.url)
        page.wait_for_selector("#seating .tbl", timeout=15000)
        fresh = page.evaluate("""s => {
            state = s; render(); render();  // the same state twice: nothing changed
            const again = document.querySelectorAll("tr.fresh").length;
            s.final[0].games = 1; state = s; render();  // the first finalist's deal
            return [again, [...document.querySelectorAll("tr.fresh")].map(
                r => r.closest("section").id + ":" + r.dataset.number)];
        }""", state)
        browser.close()
    assert fresh == [0, ["final:1"]]


def test_a_table_the_draw_left_out_is_told_so(tmp_path: Path) -> None:
    """`table join --table 3` when 8 players fill two tables: a line, not a silent wait."""
    with serving(tmp_path, 8, 3) as s:
        state = _state(s)
        used = {t["table"] for stage in state["stages"] for t in stage["tables"]}
        assert 3 not in used, used
        said: list[str] = []
        creds = read_credentials(s.credentials / "table-3.json")
        agent = TableAgent(str(tmp_path / "table3.db"),
                           BrokerAddress("127.0.0.1", s.broker_port, False), creds, 3,
                           say=said.append)
        agent.start()
        try:
            eventually(lambda: any("seats nobody at table 3" in line for line in said), 20)
        finally:
            agent.stop()
        assert not agent.seated.is_set()
        assert sum("seats nobody" in line for line in said) == 1, said
