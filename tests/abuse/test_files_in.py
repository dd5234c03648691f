"""Pin maps and duel logs as a hostile tester writes them: one sentence each, never a
traceback, never a read without end, and a launcher whose watchdog can always run.

Tried: `nan`, `inf` and `1e300` for every launcher time, `pin = "GPIO²"` (whose digit
`isdigit()` accepts and `int()` refuses), a map that is not UTF-8, `--pins /dev/zero`, tables
nested past the parser's recursion; a duel log of `/dev/zero`, one line of 50,000 `[`, a
recorded verdict that is a number, a stamp of 5,000 digits, a duel of a million presses;
and a duel log on a full disk under a running table.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from hardware.fake import FakeUnit
from hardware.pinmap import (
    DEFAULT_PINMAP,
    MAX_ON_LIMIT_MS,
    TIME_RANGES_MS,
    LauncherPins,
    PinMapError,
    load_pinmap,
)
from showdown.contract.events import PaddlePressed, Side, TimerPressed
from showdown.duel.engine import DuelConfig
from showdown.duel.replay import (
    MAX_INPUTS_PER_DUEL,
    MAX_LINE_CHARS,
    ReplayError,
    bounded_lines,
    iter_replay,
)
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService, VerdictGiven
from tests.abuse.helpers import cli, refused

DEFAULT = DEFAULT_PINMAP.read_text(encoding="utf-8")


def pin_map(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "pins.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def with_launcher(key: str, value: str) -> str:
    """The default map with the launcher's `key` set to `value` (added when absent)."""
    line = f"{key} = {value}"
    if re.search(rf"^{key} = ", DEFAULT, re.M):
        return re.sub(rf"^{key} = .*$", line, DEFAULT, flags=re.M)
    return DEFAULT.replace("[launcher]\n", f"[launcher]\n{line}\n")


LAUNCHER_TIMES = [k for k in TIME_RANGES_MS if k not in ("jam_ms", "run_on_ms")]


@pytest.mark.parametrize("key", LAUNCHER_TIMES)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e300", "-1", '"150"', "true"])
def test_every_launcher_time_has_a_range(tmp_path: Path, key: str, value: str) -> None:
    with pytest.raises(PinMapError, match=f"{key} should be a number of milliseconds from") as e:
        load_pinmap(pin_map(tmp_path, with_launcher(key, value)))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("key", ["jam_ms", "run_on_ms"])
@pytest.mark.parametrize("value", ["nan", "inf", "1e300", "-1"])
def test_the_card_sensor_times_have_a_range(tmp_path: Path, key: str, value: str) -> None:
    text = DEFAULT + f"\n[card_sensor]\npin = 16\n{key} = {value}\n"
    with pytest.raises(PinMapError, match=f"{key} should be a number of milliseconds from"):
        load_pinmap(pin_map(tmp_path, text))


def test_max_on_ms_has_a_hard_upper_bound(tmp_path: Path) -> None:
    loaded = load_pinmap(pin_map(tmp_path, with_launcher("max_on_ms", str(MAX_ON_LIMIT_MS))))
    assert loaded.launcher.max_on_us == MAX_ON_LIMIT_MS * 1000
    with pytest.raises(PinMapError, match=f"from 1 to {MAX_ON_LIMIT_MS}"):
        load_pinmap(pin_map(tmp_path, with_launcher("max_on_ms", str(MAX_ON_LIMIT_MS + 1))))
    # No other way round the bound either: the launcher's own settings refuse it.
    with pytest.raises(PinMapError, match="max_on_ms must be from 1"):
        replace(loaded.launcher, max_on_us=10**18)
    with pytest.raises(PinMapError):
        LauncherPins(forward=5, backward=6, max_on_us=0)


@pytest.mark.parametrize(("text", "why"), [
    (DEFAULT.replace("pin = 17 ", 'pin = "GPIO²" '), "is not a GPIO number"),
    (DEFAULT.replace("pin = 17 ", 'pin = "GPIO١٧" '), "is not a GPIO number"),
    (DEFAULT.replace("pin = 17 ", 'pin = "GPIO' + "1" * 5000 + '" '), "is not a GPIO number"),
    (DEFAULT.replace("pin = 17 ", "pin = 1e3 "), "is not a GPIO number"),
    (b"\xff\xfe[left_paddle]\n", "is not UTF-8 text"),
    ("x = " + "[" * 100_000, "is not a pin map"),
    ("[a]\n" + "b = {c = " * 3000, "not"),
])
def test_a_hostile_pin_map_is_one_sentence(tmp_path: Path, text: str | bytes, why: str) -> None:
    with pytest.raises(PinMapError, match=why) as e:
        load_pinmap(pin_map(tmp_path, text))
    assert "\n" not in str(e.value)


def test_a_pin_map_that_never_ends_is_refused_at_the_cap(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    refused(cli(capsys, "selftest", "--pins", "/dev/zero"), "larger than 1024 KiB")


# -- duel logs --


LOAD = '{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}\n'
START = '{"t_us": 1000, "input": "start", "countdown_us": 3000000}\n'
PRESS = '{"t_us": 3150000, "input": "press", "side": "right"}\n'


@pytest.mark.parametrize(("text", "why"), [
    ("[" * 50_000 + "\n", "nested too deeply"),
    (LOAD + START + '{"input": "verdict", "result": 5}\n', 'needs a "result" object'),
    (LOAD + START + '{"input": "verdict", "result": [1]}\n', 'needs a "result" object'),
    ('{"t_us": ' + "7" * 5000 + ', "input": "load"}\n', "too many digits"),
    ('{"t_us": ' + "7" * 30 + ', "input": "load"}\n', "64-bit"),
    ("x" * (MAX_LINE_CHARS + 1), "longer than"),
    (LOAD + START + PRESS * (MAX_INPUTS_PER_DUEL + 1), "more than"),
])
def test_a_hostile_duel_log_is_one_sentence(text: str, why: str) -> None:
    with pytest.raises(ReplayError, match=why) as e:
        list(iter_replay(bounded_lines(io.StringIO(text))))
    assert "\n" not in str(e.value)


def test_replay_reads_a_log_as_it_goes(capsys: pytest.CaptureFixture[str]) -> None:
    """The first duel's verdict comes before the rest of an endless log is read."""
    one_duel = [LOAD, START, PRESS]
    endless = itertools.cycle(one_duel)
    verdicts = iter_replay(bounded_lines(io.StringIO("".join(one_duel) + LOAD)))
    assert next(verdicts).result.outcome.value == "faster"
    lazy = iter_replay(endless)
    assert next(lazy).result.winner is Side.RIGHT  # an endless input still gives its first
    refused(cli(capsys, "replay", "/dev/zero"), "longer than")


def test_a_log_on_a_full_disk_does_not_stop_the_table(caplog: pytest.LogCaptureFixture) -> None:
    """The duel log fails to write; the duels go on being judged, and the table hears of it
    once, in the log of the program, not as a dead service."""

    class FullDisk(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(28, "No space left on device")

    unit = FakeUnit()
    duel_log = DuelLog(stream=FullDisk())
    config = DuelConfig(countdown_min_us=1_000_000, countdown_max_us=1_000_000)
    service = ShowdownService(unit, config, duel_log=duel_log)
    verdicts: list[VerdictGiven] = []

    def listen(event: object) -> None:
        if isinstance(event, VerdictGiven):
            verdicts.append(event)
            service.stop()

    service.add_listener(listen)
    service.load(Side.LEFT, Side.RIGHT, 2)
    unit.deliver(TimerPressed(100_000))
    unit.deliver(PaddlePressed(Side.LEFT, 1_300_000))
    service.run()
    assert [v.result.winner for v in verdicts] == [Side.LEFT]
    duel_log.flush(5.0)  # the writer thread met the full disk
    assert duel_log.failed is not None
    assert sum("cannot write the duel log" in r.message for r in caplog.records) == 1


def test_simulate_says_when_its_log_cannot_be_written(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    refused(cli(capsys, "simulate", "--duels", "2", "--log", "/dev/full"),
            "cannot write the duel log /dev/full")
    refused(cli(capsys, "simulate", "--duels", "2", "--log", str(tmp_path)),
            "give another file with --log")
    status, _out, _err = cli(capsys, "simulate", "--duels", "2", "--log",
                             str(tmp_path / "ok.jsonl"))
    assert status == 0
    lines = (tmp_path / "ok.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(isinstance(json.loads(line), dict) for line in lines)
