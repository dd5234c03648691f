"""`run --headless`, `duel`, `replay`, `selftest`, `firmware` and `simulate` answer in the language
asked with `--lang`, as `game` and `event` do (issue 36): their refusals, what they print, the
headless table's lines and the duel socket's replies all go through the catalogs."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.host import link
from hardware.fake import FakeUnit
from showdown.contract import i18n
from showdown.contract.events import PaddlePressed, Side, TimerPressed, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from uno_showdown.commands.cli import main
from uno_showdown.commands.run import run_headless
from uno_showdown.headless.table import HeadlessTable


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The language is the process's: the next test starts in English again."""
    yield
    i18n.set_language("en")


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_run_refuses_and_the_headless_table_speaks_in_russian(capsys) -> None:
    status, _out, err = cli(capsys, "run", "--lang", "ru", "--device", "emulator", "--headless")
    assert status == 2 and "эмулятор устройства работает в окне" in err
    i18n.set_language("ru")
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(countdown_min_us=1_000_000,
                                               countdown_max_us=1_000_000),
                              rng=random.Random(1))

    def stop_after_the_verdict(event: object) -> None:
        if isinstance(event, VerdictGiven):
            service.stop()

    service.add_listener(stop_after_the_verdict)
    unit.deliver(TimerPressed(100_000))
    unit.deliver(PaddlePressed(Side.RIGHT, 1_350_000))
    unit.deliver(PaddlePressed(Side.LEFT, 1_300_000))
    assert run_headless(service, 2, None) == 0
    out = capsys.readouterr().out
    assert "нажмите кнопку таймера, чтобы начать дуэль" in out
    assert "дуэль 1: левый: быстрее; правый берёт 2" in out


def test_duel_refuses_and_the_duel_socket_replies_in_russian(capsys) -> None:
    status, _out, err = cli(capsys, "duel", "ANN", "--lang", "ru")
    assert status == 2 and "назовите двух игроков" in err
    status, _out, err = cli(capsys, "duel", "--lang", "ru")  # no table runs in this test's world
    assert status == 2 and "здесь не запущена служба без экрана" in err
    # The table's replies, which `duel` prints, in the table's language.
    service = ShowdownService(FakeUnit(), DuelConfig())
    table = HeadlessTable(service, 1, None, say=lambda line: None)
    assert table.request({"duel": {"players": ["Ann"]}}) == {
        "error": "назовите двух игроков (первым — у левой кнопки) или никого"}
    assert table.request({"duel": {"players": ["Ann", "Bob"]}})["error"].startswith(
        "этот стол не ведёт счёт")


def test_replay_says_what_is_wrong_in_russian(capsys, tmp_path: Path) -> None:
    empty = tmp_path / "duels.jsonl"
    empty.write_text("", encoding="utf-8")
    status, _out, err = cli(capsys, "replay", str(empty), "--lang", "ru")
    assert status == 2 and f"{empty} пуст: укажите журнал дуэлей" in err


def test_selftest_refuses_in_russian(capsys) -> None:
    status, _out, err = cli(capsys, "selftest", "--lang", "ru", "--echo-seconds", "-1")
    assert status == 2 and "--echo-seconds должно быть числом секунд от 0 до 999999" in err


def test_firmware_says_no_pico_in_russian(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(link, "find_board", lambda: None)
    status, _out, err = cli(capsys, "firmware", "version", "--lang", "ru")
    assert status == 2 and "Pico не найден" in err
    status, _out, err = cli(capsys, "virtual-mcu", "--lang", "ru", "--start-ticks", "-1")
    assert status == 2 and "--start-ticks должно быть от 0 до" in err


def test_simulate_prints_its_summary_in_russian(capsys) -> None:
    status, out, _err = cli(capsys, "simulate", "--duels", "4", "--lang", "ru")
    assert status == 0
    rows = dict(re.findall(r"^(\S[^\d]*?)\s{2,}(\d+)", out, re.M))
    assert rows["дуэли"] == "4" and "победы левого" in rows
    status, _out, err = cli(capsys, "simulate", "--duels", "0", "--lang", "ru")
    assert status == 2 and "--duels должно быть от 1 до 1000000, а не 0" in err
