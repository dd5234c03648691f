"""The emulator starts quietly: no software-stamp warning, no ALSA noise without a sound card."""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.devices import open_unit
from hardware.emulated import EmulatorUnit
from hardware.fake import FakeUnit
from showdown.contract.native_stderr import native_stderr_silenced
from showdown.service.loop import ShowdownService
from uno_showdown.commands import cli
from uno_showdown.window import window

NOTICE = "does not stamp paddle edges"


def test_run_device_emulator_does_not_warn_about_software_stamps(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    unit = open_unit("emulator", argparse.Namespace())
    ShowdownService(unit).close()
    assert NOTICE not in caplog.text


def test_other_units_without_edge_stamps_still_warn(caplog: pytest.LogCaptureFixture) -> None:
    open_unit("emulator", argparse.Namespace())
    caplog.set_level(logging.WARNING)
    unit = FakeUnit(name="usb-box")
    unit.stamps_edges = False
    ShowdownService(unit).close()
    assert f"usb-box {NOTICE}" in caplog.text


def test_the_emulator_command_does_not_warn_about_software_stamps(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    opened: list[object] = []

    def window_closed_at_once(service: ShowdownService, app: object, **options: object) -> int:
        opened.append(service.unit)
        return 0

    monkeypatch.setattr(window, "run_table_window", window_closed_at_once)
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    caplog.set_level(logging.INFO)
    status = cli.main(["emulator", "--db", str(tmp_path / "s.db"),
                       "--duel-log", str(tmp_path / "duels.jsonl")])
    assert status == 0
    assert len(opened) == 1 and isinstance(opened[0], EmulatorUnit)
    assert NOTICE not in caplog.text
    assert NOTICE not in capsys.readouterr().err


def test_what_c_libraries_write_to_stderr_is_dropped_only_inside(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with native_stderr_silenced():
        os.write(2, b"ALSA lib pcm.c: Unknown PCM default\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"


def test_no_sound_card_means_no_alsa_lines(tmp_path: Path) -> None:
    """With SDL free to pick its audio driver: silent where there is no card, never noisy."""
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    done = subprocess.run(
        [sys.executable, "-c",
         "from hardware.emulated_sound import ToneBank; ToneBank(); "
         "print('ok')"],
        capture_output=True, text=True, env=env, timeout=60,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok"
    assert "ALSA lib" not in done.stderr and done.stderr == ""
