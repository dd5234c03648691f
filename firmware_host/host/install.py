"""`uno-showdown firmware install` and `firmware version`: put the firmware on a Pico, ask it.

Install, in order:
1. Find the board: `--port`, else the first USB device with the Pico's
   MicroPython id. None: one line, exit 2.
2. Compile the board's files to `.mpy` with mpy-cross (board_files.py); a
   `--dry-run` stops here and lists what would be copied, and how.
3. If the board already runs this firmware and answers, ask it to restart
   (`RS`): a freshly booted board has no watchdog running yet and lets
   mpremote break in at the REPL (see PROTOCOL.md, "Safety on the board").
4. mpremote copies the files (main.py last) and resets the board.
5. The board comes back and says hello over the link: its protocol version
   must be this program's. An older one is named in one line.

`firmware version` is step 5 alone.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import serial

from firmware_host.host import board_files, link
from firmware_host.host.board_files import pico_extra_how
from firmware_host.host.ports import check_access, check_free, check_port
from firmware_host.wire import codec
from showdown.contract.i18n import _, ngettext

HELLO_TIMEOUT_S = 3.0  # a board that runs the firmware answers a hello at once
RETURN_TIMEOUT_S = 15.0  # after a reset, the USB port goes away and comes back
MPREMOTE_TIMEOUT_S = 120.0


class InstallError(Exception):
    """What went wrong, in one line; `bad_input` when it is the user's to fix (exit 2)."""

    def __init__(self, text: str, *, bad_input: bool = True) -> None:
        super().__init__(text)
        self.bad_input = bad_input


@dataclass(frozen=True)
class BoardHello:
    port: str
    version: int
    boot_id: int


def resolve_port(port: str | None) -> str:
    """The board's port: the one given (it must exist), else the Pico found by its USB id;
    either way one no other program holds (`run` or the service)."""
    if port is not None:
        try:  # the same check as `run --port`: a folder, a plain file or /dev/null is no port
            check_port(port)
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            raise InstallError(str(exc)) from None
    else:
        port = link.find_board()
        if port is None:
            raise InstallError(_("no Pico found: plug it in with a data USB cable, or pass "
                                 "its port with --port (e.g. --port /dev/ttyACM0)"))
    try:
        check_access(port)  # found by its USB id: the user may see it and not open it
        check_free(port)
    except OSError as exc:
        raise InstallError(exc.strerror or str(exc)) from None
    return port


def ask_version(port: str, timeout_s: float | None = None) -> BoardHello | None:
    """Say hello on `port`; the version and boot id the board answers, or None if it is silent.

    A board on another protocol version answers too (its hello names its version);
    the link then sends it nothing more.
    """
    heard: list[BoardHello] = []
    answered = threading.Event()

    def listen(event: link.LinkReport) -> None:
        if isinstance(event, link.Connected):
            heard.append(BoardHello(port, codec.VERSION, event.boot_id))
            answered.set()
        elif isinstance(event, link.VersionMismatch):
            heard.append(BoardHello(port, event.board_version, -1))
            answered.set()

    # A board still booting (right after an install's reset) misses a hello or two, and the
    # link says so in warnings; this probe's answer is its one line, so they stay quiet.
    quiet = logging.getLogger(link.__name__)
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    conn = link.BoardLink(port, listen, retry_open_s=0.05).start()
    try:
        answered.wait(HELLO_TIMEOUT_S if timeout_s is None else timeout_s)
    finally:
        conn.close()
        quiet.setLevel(level)
    return heard[0] if heard else None


def check_version(port: str, timeout_s: float | None = None) -> BoardHello:
    """The board's hello, or InstallError naming what is wrong (silent, or an older version)."""
    timeout_s = HELLO_TIMEOUT_S if timeout_s is None else timeout_s
    hello = ask_version(port, timeout_s)
    if hello is None:
        raise InstallError(_("no answer from the board on {port} in {seconds} s: is the "
                             "Showdown firmware on it? Install it with `uno-showdown firmware "
                             "install`").format(port=port, seconds=f"{timeout_s:.0f}"),
                           bad_input=False)
    if hello.version != codec.VERSION:
        raise InstallError(link.version_text(port, hello.version), bad_input=False)
    return hello


def restart_board(port: str, timeout_s: float = HELLO_TIMEOUT_S) -> bool:
    """Ask a board that runs this firmware to restart (`RS`); True when it acknowledged.

    Spoken frame by frame, not through the link: the link would say hello again to
    the restarted board, and a hello arms its watchdog, which is what this undoes.
    """
    try:
        ser = serial.Serial(port, link.BAUD, timeout=0.05, write_timeout=1, exclusive=True)
    except (serial.SerialException, OSError):
        return False
    dec = codec.Decoder()
    deadline = time.monotonic() + timeout_s

    def answer(pred: Callable[[tuple[int, str, tuple[int, ...]]], bool]) -> bool:
        while time.monotonic() < deadline:
            if any(pred(f) for f in dec.feed(ser.read(max(1, ser.in_waiting)))):
                return True
        return False

    try:
        ser.write(codec.encode(0, codec.HELLO, (codec.VERSION,)))
        if not answer(lambda f: f[1] == codec.HELLO and len(f[2]) == 3
                      and f[2][0] == codec.VERSION):
            return False
        ser.write(codec.encode(1, codec.RESET))
        return answer(lambda f: f[1] == codec.ACK and f[2][:1] == (1,))
    except (serial.SerialException, OSError):
        return False
    finally:
        ser.close()


def remove_stale_code() -> str:
    """The MicroPython that removes `stale_sources()` from the board, quiet when absent."""
    return (f"import os\nfor f in {tuple(stale_sources())!r}:\n try:\n  os.remove(f)\n"
            " except OSError:\n  pass")


def stale_sources() -> list[str]:
    """Sources an older install (or a copy by hand) may have left: MicroPython would import
    `fw_core.py` before `fw_core.mpy`, so they go before the new files are copied."""
    return [name[: -len(".mpy")] + ".py" for name, _ in board_files.BOARD_FILES
            if name.endswith(".mpy")]


def mpremote_command(port: str, files: list[Path]) -> list[str]:
    """One mpremote run: connect, remove stale sources, copy each file to the root, reset."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "exec", remove_stale_code()]
    for path in files:
        cmd += ["+", "fs", "cp", str(path), f":{path.name}"]
    return [*cmd, "+", "reset"]


def install(port_arg: str | None, *, dry_run: bool, out: TextIO | None = None) -> int:
    """The `firmware install` command; see the module docstring."""
    write = (out or sys.stdout).write
    with tempfile.TemporaryDirectory(prefix="uno-showdown-firmware-") as tmp:
        try:
            files = board_files.build(Path(tmp))
        except board_files.CompileError as exc:
            raise InstallError(str(exc)) from exc
        if dry_run:
            try:
                port = resolve_port(port_arg)
            except InstallError:
                if port_arg is not None:
                    raise
                port = None
            where = port or _("the Pico (none plugged in now)")
            write(_("would copy to {where}:").format(where=where) + "\n")
            for (name, source), built in zip(board_files.BOARD_FILES, files, strict=True):
                write(f"  {name:<13} " + _("{size:>6} bytes  from {source}").format(
                    size=built.stat().st_size, source=source.name) + "\n")
            write(_("removing first, if there: {files}").format(
                files=", ".join(stale_sources())) + "\n")
            shown = mpremote_command(port or "PORT", [Path(f.name) for f in files])[3:]
            write(_("with: mpremote {arguments}").format(arguments=" ".join(
                repr(a) if "\n" in a else a for a in shown)) + "\n")
            write(_("then check that the board says hello in protocol v{version}").format(
                version=codec.VERSION) + "\n")
            return 0
        port = resolve_port(port_arg)
        if importlib.util.find_spec("mpremote") is None:
            raise InstallError(_("mpremote is not installed: {how}").format(how=pico_extra_how()))
        if restart_board(port):  # its USB port goes away for a moment, then comes back
            _wait_for_port(port, RETURN_TIMEOUT_S, vanish_s=2.0)
        write(ngettext("copying {n} file to {port} ...", "copying {n} files to {port} ...",
                       len(files)).format(n=len(files), port=port) + "\n")
        try:
            done = subprocess.run(mpremote_command(port, files), capture_output=True, text=True,
                                  timeout=MPREMOTE_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as exc:
            raise InstallError(_("mpremote got no answer from {port}: unplug the Pico, plug "
                                 "it in again while holding the timer button, and retry")
                               .format(port=port), bad_input=False) from exc
        if done.returncode != 0:
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or [_("no output")]
            raise InstallError(_("mpremote could not install the firmware on {port} ({reason}): "
                                 "unplug the Pico, plug it in again while holding the timer "
                                 "button, and retry").format(port=port, reason=last[0]),
                               bad_input=False)
    _wait_for_port(port, RETURN_TIMEOUT_S)
    hello = check_version(port, RETURN_TIMEOUT_S)
    write(_("installed: the board on {port} speaks protocol v{version} (boot {boot})").format(
        port=port, version=hello.version, boot=f"{hello.boot_id:08x}") + "\n")
    return 0


def version(port_arg: str | None, out: TextIO | None = None) -> int:
    """The `firmware version` command: what the board on the port says it speaks."""
    port = resolve_port(port_arg)
    hello = check_version(port)
    (out or sys.stdout).write(
        _("{port}: Showdown firmware, protocol v{version} (this program: v{ours}), boot {boot}")
        .format(port=port, version=hello.version, ours=codec.VERSION,
                boot=f"{hello.boot_id:08x}") + "\n")
    return 0


def _wait_for_port(port: str, timeout_s: float, vanish_s: float = 0.0) -> None:
    """Wait for a board's port to go away with its reset (up to `vanish_s`) and come back."""
    gone = time.monotonic() + vanish_s
    while os.path.exists(port) and time.monotonic() < gone:
        time.sleep(0.05)  # polling the device node: USB gives no event to wait on here
    back = time.monotonic() + timeout_s
    while not os.path.exists(port) and time.monotonic() < back:
        time.sleep(0.05)
