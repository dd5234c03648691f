"""Pin map files: the default one loads, and every mistake gets one line naming the culprit."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hardware.pinmap import (
    DEFAULT_PINMAP,
    CountdownKind,
    PinMapError,
    load_pinmap,
    parse_pinmap,
    pin_uses,
)
from showdown.contract.events import Side
from uno_showdown.commands.cli import main


def default_data() -> dict:
    return tomllib.loads(DEFAULT_PINMAP.read_text())


def error_for(data: dict) -> str:
    with pytest.raises(PinMapError) as info:
        parse_pinmap(data, "table.toml")
    message = str(info.value)
    assert "\n" not in message
    return message


def test_the_default_map_loads_with_every_pin_once() -> None:
    pinmap = load_pinmap()
    assert pinmap.paddle(Side.LEFT).pin == 17 and pinmap.launcher.forward_side is Side.LEFT
    assert pinmap.countdown is not None and pinmap.countdown.kind is CountdownKind.DIGIT
    pins = [p for _, p in pin_uses(pinmap)]
    assert len(pins) == len(set(pins)) == 16


def test_a_pin_used_twice_names_both_users() -> None:
    data = default_data()
    data["right_arrow"]["pin"] = 27
    assert error_for(data) == (
        "table.toml: GPIO27 is used twice, by right_paddle and right_arrow")


def test_a_pin_used_twice_inside_a_device_is_caught() -> None:
    data = default_data()
    data["countdown"]["segments"][6] = 4
    assert "GPIO4 is used twice, by countdown.segments and countdown.segments" in error_for(data)


def test_an_unknown_device_is_named() -> None:
    data = default_data()
    data["left_paddel"] = {"pin": 5}
    assert error_for(data).startswith("table.toml: unknown device 'left_paddel' (known: ")


def test_a_missing_required_device_is_named() -> None:
    data = default_data()
    del data["timer_button"]
    assert error_for(data) == "table.toml: required device 'timer_button' is missing"


def test_optional_devices_may_be_left_out() -> None:
    data = default_data()
    for name in ("countdown", "buzzer"):
        del data[name]
    pinmap = parse_pinmap(data)
    assert pinmap.countdown is None and pinmap.buzzer is None and pinmap.card_sensor is None


@pytest.mark.parametrize(
    ("device", "change", "expected"),
    [
        ("go_light", {"pin": 1}, "go_light pin: GPIO1 is not a usable header pin"),
        ("go_light", {"pin": "pin 7"}, "go_light pin: 'pin 7' is not a GPIO number"),
        ("go_light", {"colour": "green"}, "go_light has an unknown option 'colour'"),
        ("launcher", {"speed": 2}, "launcher speed should be a number from 0.1 to 1.0"),
        ("launcher", {"forward_side": "up"}, "launcher forward_side should be 'left' or 'right'"),
        ("launcher", {"max_on_ms": 100}, "base_ms + per_card_ms is longer than max_on_ms"),
        ("countdown", {"kind": "lcd"}, "countdown kind should be one of 'digit', 'digits', 'bar'"),
        ("countdown", {"segments": [4, 24]}, "countdown segments should list 7 pins"),
        ("buzzer", {"kind": "loud"}, "buzzer kind should be one of 'tonal', 'plain'"),
    ],
)
def test_bad_values_are_named(device: str, change: dict, expected: str) -> None:
    data = default_data()
    data[device] |= change
    assert expected in error_for(data)


def test_pins_may_be_written_as_gpio_names_and_short_tables() -> None:
    data = default_data()
    data["go_light"] = "GPIO23"
    data["left_paddle"] = {"pin": "gpio17"}
    pinmap = parse_pinmap(data)
    assert pinmap.go_light == 23 and pinmap.left_paddle.pin == 17


def test_a_bar_countdown_and_a_card_sensor(tmp_path: Path) -> None:
    text = DEFAULT_PINMAP.read_text().replace(
        'kind = "digit"\nsegments = [4, 24, 25, 19, 20, 21, 26]',
        'kind = "bar"\npins = [4, 24, 25, 19, 20]',
    ) + "\n[card_sensor]\npin = 16\njam_ms = 250\n"
    path = tmp_path / "bar.toml"
    path.write_text(text)
    pinmap = load_pinmap(path)
    assert pinmap.countdown is not None and pinmap.countdown.kind is CountdownKind.BAR
    assert pinmap.countdown.pins == (4, 24, 25, 19, 20)
    assert pinmap.card_sensor is not None and pinmap.card_sensor.jam_us == 250_000


def test_file_problems_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="not found: check the --pins path"):
        load_pinmap(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[go_light\npin = 3")
    with pytest.raises(PinMapError, match="is not valid TOML"):
        load_pinmap(broken)


def test_the_cli_reports_a_bad_map_in_one_line_without_a_traceback(tmp_path: Path,
                                                                  capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(DEFAULT_PINMAP.read_text().replace("pin = 13 ", "pin = 17 "))
    assert main(["selftest", "--device", "gpio", "--pins", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0
    assert "GPIO17 is used twice, by left_paddle and right_arrow" in err
    assert "Traceback" not in err
