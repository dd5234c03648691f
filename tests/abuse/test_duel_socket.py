"""The duel socket trusts no one's folder and no one holds it.

What a hostile local user did: without `XDG_RUNTIME_DIR`, made `/tmp/uno-showdown-<uid>/
duel.sock` first, and the victim's `uno-showdown duel --seats` connected, exited 0 and
printed the attacker's reply raw (a window title, red text); a request of 3,000 `[` got no
reply and a RecursionError traceback; 500 idle connections made 510 threads; 200 clients
trickling one byte every 2 s were all still held after 40 s.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from uno_showdown.commands.cli import main
from uno_showdown.headless import duel_socket

ESCAPES = "\x1b]0;pwned\x07\x1b[31mred\x1b[0m\u202e"

#: A service of another user's, planted where the victim's `duel` looks: it answers every
#: connection with terminal escapes, and says on stdout when it listens.
PLANTED = r"""
import json, os, socket, sys
folder = sys.argv[1]
os.mkdir(folder, 0o755)
path = os.path.join(folder, "duel.sock")
s = socket.socket(socket.AF_UNIX)
s.bind(path)
os.chmod(path, 0o777)
s.listen(8)
print("listening", flush=True)
while True:
    c, _ = s.accept()
    c.sendall(json.dumps({"ok": sys.argv[2]}).encode() + b"\n")
    c.close()
"""


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The machine's fixed places in a folder every user may enter, with a /tmp everyone
    may write (sticky, as the real one), and no runtime folder: the case of the finding."""
    base = Path(tempfile.mkdtemp(prefix="uno-hostile-socket-", dir="/tmp"))
    base.chmod(0o755)
    (base / "tmp").mkdir(mode=0o1777)
    (base / "tmp").chmod(0o1777)
    monkeypatch.setenv(duel_socket.ROOT_VARIABLE, str(base))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _as_nobody(script: str, *args: str) -> subprocess.Popen[str]:
    """A Python program run as user nobody (uid 65534), with an interpreter it may run."""
    for python in ("/usr/bin/python3", sys.executable):
        try:
            proc = subprocess.Popen([python, "-c", script, *args], user=65534, group=65534,
                                    extra_groups=[], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        except PermissionError:
            continue
        line = proc.stdout.readline() if proc.stdout else ""
        if line.strip() == "listening":
            return proc
        proc.kill()
        proc.wait()
    pytest.skip("no Python here that user nobody may run")


def test_a_socket_planted_by_another_user_is_refused_unread(
        machine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() != 0:
        pytest.skip("playing another local user needs root (CI runs as root)")
    folder = machine / "tmp" / f"uno-showdown-{os.getuid()}"
    planted = _as_nobody(PLANTED, str(folder), ESCAPES)
    try:
        assert (folder / "duel.sock").exists()
        assert main(["duel", "--seats"]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.count("\n") == 1 and "served by another user (uid 65534)" in err, err
        assert "\x1b" not in err and "pwned" not in err
        # and the victim's own table refuses that folder in one line, naming it
        with pytest.raises(duel_socket.SocketError, match="belongs to another user"):
            duel_socket.open_server(None, lambda r: {"ok": ""})
    finally:
        planted.kill()
        planted.wait()


def test_the_folder_a_service_makes_is_its_own_and_closed(machine: Path) -> None:
    with duel_socket.serving(None, lambda r: {"ok": "hi"}) as server:
        folder = server.path.parent
        info = folder.lstat()
        assert folder == machine / "tmp" / f"uno-showdown-{os.getuid()}"
        assert info.st_uid == os.getuid() and info.st_mode & 0o7777 == 0o700
    folder.chmod(0o777)  # a folder of ours that others could write: closed again
    with duel_socket.serving(None, lambda r: {"ok": "hi"}):
        assert folder.lstat().st_mode & 0o7777 == 0o700
    shutil.rmtree(folder)
    elsewhere = machine / "elsewhere"
    elsewhere.mkdir()
    folder.symlink_to(elsewhere)  # a link, even to a folder of ours
    with pytest.raises(duel_socket.SocketError, match="symbolic link"):
        duel_socket.open_server(None, lambda r: {"ok": ""})
    folder.unlink()
    folder.symlink_to(machine / "nowhere")  # a dangling link
    with pytest.raises(duel_socket.SocketError):
        duel_socket.open_server(None, lambda r: {"ok": ""})


def test_a_reply_is_printed_as_text_never_obeyed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "duel.sock"
    with duel_socket.DuelSocketServer(path, lambda r: {"ok": "next: " + ESCAPES}).start():
        assert main(["duel", "--seats", "--socket", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == "next: \\x1b]0;pwned\\x07\\x1b[31mred\\x1b[0m\\u202e\n"


def _raw(path: Path, data: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(10)
        conn.connect(str(path))
        conn.sendall(data)
        got = b""
        while not got.endswith(b"\n"):
            chunk = conn.recv(4096)
            if not chunk:
                break
            got += chunk
        return got


@pytest.mark.parametrize("request_bytes", [
    b"[" * 3000 + b"\n", b"{" * 3000 + b"\n", b'{"a":' * 900 + b"\n",
    b"\xff\xfe\n", b"[]\n", b"x" * 5000 + b"\n", b'{"duel": [[[[[[[[[[1]]]]]]]]]]}\n'])
def test_a_malformed_request_gets_one_line_back_and_no_traceback(
        tmp_path: Path, request_bytes: bytes, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "duel.sock"
    handled: list[object] = []
    with caplog.at_level(logging.DEBUG), duel_socket.DuelSocketServer(
            path, lambda r: handled.append(r) or {"ok": "fine"}).start():
        got = _raw(path, request_bytes)
        assert got.count(b"\n") == 1 and b'"error"' in got, got[:200]
        assert duel_socket.ask(path, {"status": {}}) == {"ok": "fine"}  # still serving
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert handled == [{"status": {}}]


def test_trickling_clients_are_cut_off_and_idle_ones_capped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duel_socket, "TIMEOUT_S", 1.0)
    path = tmp_path / "duel.sock"
    threads_before = threading.active_count()
    held: list[socket.socket] = []
    with duel_socket.DuelSocketServer(path, lambda r: {"ok": "fine"}).start():
        try:
            for _ in range(60):  # idle: connect and say nothing
                conn = socket.socket(socket.AF_UNIX)
                conn.connect(str(path))
                held.append(conn)
            # at most MAX_CLIENTS are answered at once; the others are told so at once
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and (
                    threading.active_count() - threads_before > duel_socket.MAX_CLIENTS + 2):
                time.sleep(0.05)
            assert threading.active_count() - threads_before <= duel_socket.MAX_CLIENTS + 2
            for conn in held:
                conn.close()
            held.clear()
            # a trickle of one byte every 0.2 s never ends its request: cut off within the
            # request's whole time, not held while each byte comes in time
            trickling = []
            for _ in range(10):
                conn = socket.socket(socket.AF_UNIX)
                conn.connect(str(path))
                conn.settimeout(0.05)
                trickling.append(conn)
            started = time.monotonic()
            open_ = set(range(len(trickling)))
            while open_ and time.monotonic() - started < 6:
                for i in list(open_):
                    try:
                        trickling[i].sendall(b" ")
                        if trickling[i].recv(4096) == b"":
                            open_.discard(i)
                    except TimeoutError:
                        continue
                    except OSError:
                        open_.discard(i)
                    else:
                        open_.discard(i)  # an answer (the error line): cut off too
                time.sleep(0.2)
            # Each is cut off after the request's whole time (1 s here); 6 s leaves a loaded
            # machine room, while a server that only times each byte would hold them forever.
            assert not open_, f"{len(open_)} trickling clients still held after 6 s"
            assert duel_socket.ask(path, {"status": {}}) == {"ok": "fine"}
        finally:
            for conn in held:
                with contextlib.suppress(OSError):
                    conn.close()
