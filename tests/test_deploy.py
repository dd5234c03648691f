"""The Raspberry Pi set-up: the systemd units are valid, run commands that exist, and share
the games file and the duel log with the login user through the service's group.

The sharing is tried for real where the tests run as root (as CI does): two users, the
service's and a login user in its group, write the same games file in turn, following the
steps of docs/raspberry-pi.md (a setgid folder, the files made 0660 beforehand, a
symbolic link from the login user's default games file).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from uno_showdown.commands.cli import build_parser
from uno_showdown.headless import duel_socket

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
UNITS = sorted(DEPLOY.glob("*.service"))
STATE = "/var/lib/uno-showdown"


def read_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections and keys (a key may repeat); continued lines joined."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def exec_args(unit: Path) -> list[str]:
    argv = shlex.split(read_unit(unit)["Service"]["ExecStart"][0])
    assert argv[0] == "/opt/uno-showdown/venv/bin/uno-showdown"
    return argv[1:]


def test_the_three_units_are_there() -> None:
    assert [u.name for u in UNITS] == ["uno-showdown-screen.service",
                                       "uno-showdown-serial.service", "uno-showdown.service"]


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_systemd_reads_the_unit_without_a_complaint(unit: Path, tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian: systemd)")
    copy = _with_stub(unit, tmp_path)  # the program the unit starts, where the test can put it
    done = subprocess.run([analyze, "verify", "--man=no", str(copy)], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr.strip()) == (0, "")


def _with_stub(unit: Path, tmp_path: Path) -> Path:
    """A copy of `unit` whose ExecStart runs a program that exists here."""
    stub = tmp_path / "uno-showdown"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace("/opt/uno-showdown/venv/bin/uno-showdown",
                                             str(stub)))
    return copy


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_systemd_rates_the_unit_well_hardened(unit: Path, tmp_path: Path) -> None:
    """`systemd-analyze security` rated every unit 8.7 EXPOSED; hardened as far as the pins,
    the serial port and the screen allow, each is 2.0 or better ("OK")."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian: systemd)")
    done = subprocess.run([analyze, "security", "--offline=yes", "--no-pager",
                           str(_with_stub(unit, tmp_path))],
                          capture_output=True, text=True, timeout=60)
    overall = [line for line in done.stdout.splitlines() if "Overall exposure level" in line]
    if not overall:
        pytest.skip(f"this systemd-analyze cannot rate a unit file offline: {done.stderr}")
    level = float(overall[0].split(":")[-1].split()[0])
    assert level <= 2.0, done.stdout


@pytest.mark.parametrize(("name", "devices"), [
    ("uno-showdown.service", {"char-gpiochip"}),
    ("uno-showdown-serial.service", {"char-ttyACM"}),
    ("uno-showdown-screen.service", {"char-drm", "char-input", "char-tty", "char-alsa"}),
])
def test_the_hardened_unit_still_reaches_its_devices_and_the_games(name: str,
                                                                   devices: set[str]) -> None:
    """A closed device policy admits exactly the devices the unit drives; the read-only
    system still lets it write the games folder, its working folder."""
    service = read_unit(DEPLOY / name)["Service"]
    assert service["DevicePolicy"] == ["closed"]
    assert {entry.split()[0] for entry in service["DeviceAllow"]} == devices
    assert all(entry.split()[1] == "rw" for entry in service["DeviceAllow"])
    assert service["ProtectSystem"] == ["strict"]
    assert service["ReadWritePaths"] == [STATE] == service["WorkingDirectory"]


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_the_unit_runs_a_command_line_uno_showdown_accepts(unit: Path) -> None:
    argv = exec_args(unit)
    args = build_parser(argv).parse_args(argv)
    assert args.db == f"{STATE}/games.db"  # the one shared games file
    service = read_unit(unit)["Service"]
    assert service["User"] == ["showdown"] and service["Group"] == ["showdown"]
    assert service["UMask"] == ["0007"]  # what it makes stays writable for the group
    assert service["WorkingDirectory"] == [STATE]


@pytest.mark.parametrize(("name", "device", "group"), [
    ("uno-showdown.service", "gpio", "gpio"),
    ("uno-showdown-serial.service", "serial", "dialout"),
])
def test_a_table_service_runs_headless_with_the_duel_socket(name: str, device: str,
                                                           group: str) -> None:
    unit = DEPLOY / name
    argv = exec_args(unit)
    args = build_parser(argv).parse_args(argv)
    assert (args.command, args.device, args.headless) == ("run", device, True)
    assert args.duel_log == f"{STATE}/duels.jsonl"
    service = read_unit(unit)["Service"]
    assert group in service["SupplementaryGroups"][0].split()
    # systemd makes /run/uno-showdown, where `uno-showdown duel` looks first
    assert service["RuntimeDirectory"] == [duel_socket.SYSTEM_DIR.name]
    assert service["RuntimeDirectoryMode"] == ["0750"]
    other = "uno-showdown-serial.service" if device == "gpio" else "uno-showdown.service"
    assert read_unit(unit)["Unit"]["Conflicts"] == [other]


def test_the_serial_service_waits_for_a_board_rather_than_giving_up() -> None:
    """With no Pico plugged in at boot, `run --device serial` (no --port) waits for one
    instead of exiting, so systemd's start limit (StartLimitBurst) never gives the unit up
    for a board plugged in late; only a real failure (a firmware of another protocol, a
    bad option) exits, and restarting that over and over would not help."""
    import argparse

    from firmware_host.host.link import find_board
    from hardware import serial_unit as serial_unit

    unit = DEPLOY / "uno-showdown-serial.service"
    argv = exec_args(unit)
    assert build_parser(argv).parse_args(argv).port is None
    if find_board() is not None:
        pytest.skip("a board is plugged in here, so a start without one cannot be tried")
    opened = serial_unit.open_unit(argparse.Namespace(port=None))  # returns: no exit
    opened.close()


def test_the_screen_draws_on_the_display_without_a_desktop() -> None:
    unit = DEPLOY / "uno-showdown-screen.service"
    argv = exec_args(unit)
    args = build_parser(argv).parse_args(argv)
    assert (args.command, args.fullscreen) == ("companion", True)
    service = read_unit(unit)["Service"]
    assert "SDL_VIDEODRIVER=kmsdrm" in service["Environment"]
    assert set(service["SupplementaryGroups"][0].split()) == {"video", "render", "input"}


def test_the_guide_installs_every_unit() -> None:
    guide = (ROOT / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")
    for unit in UNITS:
        assert f"deploy/{unit.name}" in guide


# -- sharing the games file, as root: the service's user and a login user in its group ----

SERVICE_UID, GROUP = 65534, 65534  # nobody / nogroup stand in for showdown / showdown
LOGIN_UID, LOGIN_GID = 4321, 4321  # a login user with its own group, joining GROUP

WRITE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA synchronous = FULL")
conn.execute("CREATE TABLE IF NOT EXISTS rounds (who TEXT)")
conn.execute("INSERT INTO rounds VALUES (?)", (sys.argv[2],))
conn.commit()
print(conn.execute("SELECT count(*) FROM rounds").fetchone()[0])
"""


def as_user(uid: int, gid: int, groups: list[int], path: Path, who: str) -> str:
    """Write one row as another user (with a Python that user may run); its output."""
    for python in ("/usr/bin/python3", sys.executable):
        try:
            done = subprocess.run([python, "-c", WRITE, str(path), who], user=uid, group=gid,
                                  extra_groups=groups, umask=0o022, capture_output=True,
                                  text=True, timeout=60)
        except PermissionError:
            continue
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()
    pytest.skip("no Python here that another user may run")


def test_the_service_and_a_login_user_in_its_group_share_the_games_file() -> None:
    if os.geteuid() != 0:
        pytest.skip("trying two users needs root (CI runs as root)")
    base = Path(tempfile.mkdtemp(prefix="uno-showdown-share-", dir="/tmp"))
    try:
        base.chmod(0o755)
        state = base / "state"  # /var/lib/uno-showdown, made as the guide says:
        state.mkdir()
        os.chown(state, SERVICE_UID, GROUP)
        state.chmod(0o2770)  # sudo install -d -m 2770 -o showdown -g showdown ...
        games = state / "games.db"
        games.touch()
        os.chown(games, SERVICE_UID, GROUP)
        games.chmod(0o660)  # sudo install -m 0660 -o showdown -g showdown /dev/null ...
        home = base / "home"  # the login user's default games file links to it
        home.mkdir()
        os.chown(home, LOGIN_UID, LOGIN_GID)
        link = home / "games.sqlite3"
        link.symlink_to(games)
        assert as_user(SERVICE_UID, GROUP, [], games, "service") == "1"
        assert as_user(LOGIN_UID, LOGIN_GID, [GROUP], link, "login user") == "2"
        assert as_user(SERVICE_UID, GROUP, [], games, "service") == "3"
        for made in state.iterdir():  # the journal files too: group-owned, group-writable
            info = made.stat()
            assert info.st_gid == GROUP and stat.S_IMODE(info.st_mode) & 0o060 == 0o060, made
        assert sorted(p.name for p in home.iterdir()) == ["games.sqlite3"]  # no stray journal
        with sqlite3.connect(games) as conn:
            assert conn.execute("SELECT who FROM rounds").fetchall() == [
                ("service",), ("login user",), ("service",)]
    finally:
        shutil.rmtree(base)
