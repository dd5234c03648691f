"""A local door into a running headless service: who duels next, over a Unix socket.

`uno-showdown run --headless` listens on a Unix socket; `uno-showdown duel ANN BOB` on the
same machine connects and says who sits at which paddle. No network port is opened. The
socket is a file with mode 0660 in a folder only its owner and group may enter, so only
the service's own user and the members of its group (the login user joins it, see the
Raspberry Pi guide) can open it; a systemd service gets the folder from
`RuntimeDirectory=` (/run/uno-showdown).

The machine's fixed places (/run/uno-showdown, /run/user/UID, /tmp) are looked for under
the folder $UNO_SHOWDOWN_SOCKET_ROOT instead of `/` when it is set: the test suite gives
each test a folder of its own there, so no test meets the user's own running table.

The exchange is one JSON object each way, one line each: the request
(`{"duel": {"players": ["Ann", "Bob"], "cards": 2}}`, or `{"status": {}}`) and the
reply (`{"ok": "what happens now"}` or `{"error": "what to change"}`). The service
answers from the listener's threads (one per connection, so a client that connects and
says nothing delays nobody else), one request at a time; nothing here touches the
service's loop.

Nobody else's socket is trusted, and nobody holds the service:

* a service makes its folder itself (mode 0700: the user's runtime folder, else
  `/tmp/uno-showdown-UID`) and checks an existing one: a real folder (not a link), the
  user's own, that nobody else may write; another user's is refused in one line;
* the client asks the kernel who listens (SO_PEERCRED) before it reads a byte: the user,
  root, or the owner of a folder root made for a service (systemd's /run/uno-showdown);
  anyone else's socket (one planted in /tmp first) is refused, unread;
* a reply is printed as text: a control character in it is written out (`\x1b`), never
  obeyed by the terminal;
* a request is at most `MAX_LINE` bytes, all of it within `TIMEOUT_S` (not per read: a
  client trickling a byte at a time is cut off too), JSON nested at most `MAX_DEPTH`; at
  most `MAX_CLIENTS` connections are answered at once, the next is told in one line; a
  malformed request gets one line back, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import stat
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from showdown.contract.i18n import _
from showdown.contract.json_depth import nests_deeper_than
from showdown.contract.text import shown

log = logging.getLogger(__name__)

SOCKET_NAME = "duel.sock"
#: The folder systemd makes for the service (`RuntimeDirectory=uno-showdown`).
SYSTEM_DIR = Path("/run/uno-showdown")
#: A folder that stands in for `/` in the fixed places the socket is looked for and made
#: (SYSTEM_DIR, /run/user/UID, /tmp); unset or empty, they are the machine's own.
ROOT_VARIABLE = "UNO_SHOWDOWN_SOCKET_ROOT"
#: Only the owner and the group may use the socket; a folder the service makes is its own.
SOCKET_MODE = 0o660
FOLDER_MODE = 0o700
#: The most a request may be, and how long either side waits for the whole of the other's.
MAX_LINE = 4096
TIMEOUT_S = 5.0
#: How deep a request's JSON may nest (a real one is 3 deep).
MAX_DEPTH = 8
#: The most connections answered at once; the next is told the service is busy.
MAX_CLIENTS = 16

Handler = Callable[[dict[str, Any]], dict[str, str]]


class SocketError(Exception):
    """The socket cannot be served or reached; the message says why, in one sentence."""


def _fixed(path: Path) -> Path:
    """One of the machine's fixed places (an absolute path), under $UNO_SHOWDOWN_SOCKET_ROOT
    when that is set."""
    root = os.environ.get(ROOT_VARIABLE)
    return Path(root) / path.relative_to("/") if root else path


def _user_dirs() -> list[Path]:
    """Per-user places for the socket: the session's runtime folder, else one in /tmp."""
    out = []
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    user_run = _fixed(Path(f"/run/user/{os.getuid()}"))
    if runtime:
        out.append(Path(runtime) / "uno-showdown")
    elif user_run.is_dir():
        out.append(user_run / "uno-showdown")
    out.append(_fixed(Path("/tmp")) / f"uno-showdown-{os.getuid()}")
    return out


def service_socket_path() -> Path:
    """Where a service listens unless told otherwise: systemd's runtime folder for it,
    else the user's runtime folder, else a private folder in /tmp."""
    runtime = os.environ.get("RUNTIME_DIRECTORY")  # set by systemd's RuntimeDirectory=
    if runtime:
        return Path(runtime.split(":")[0]) / SOCKET_NAME
    return _user_dirs()[0] / SOCKET_NAME


def client_socket_paths() -> list[Path]:
    """Where `uno-showdown duel` looks, in order: the system service's, then the user's."""
    out = [_fixed(SYSTEM_DIR) / SOCKET_NAME]
    runtime = os.environ.get("RUNTIME_DIRECTORY")
    if runtime:
        out.insert(0, Path(runtime.split(":")[0]) / SOCKET_NAME)
    out += [d / SOCKET_NAME for d in _user_dirs()]
    return list(dict.fromkeys(out))


def find_socket() -> Path:
    """The first socket a service listens on; SocketError naming where it looked."""
    candidates = client_socket_paths()
    refused: Path | None = None
    for path in candidates:
        try:
            if stat.S_ISSOCK(path.stat().st_mode):
                return path
        except PermissionError:  # the service's folder admits its group only
            refused = refused or path
        except OSError:
            continue
    if refused is not None:
        raise SocketError(_not_allowed(refused))
    raise SocketError(
        _("no headless service is running here (nothing listens at {places}): start one with "
          "`uno-showdown run --headless` (or the table's service: `sudo systemctl start "
          "uno-showdown` for a GPIO table, `uno-showdown-serial` for a Pico table), or give "
          "its --socket")
        .format(places=_(" or ").join(str(p) for p in candidates))
    )


def _private_folder(folder: Path) -> None:
    """Make `folder` for the socket (mode 0700), or check that an existing one is safe to
    use: a folder, not a link, the user's own, that nobody else may write."""
    try:
        folder.mkdir(mode=FOLDER_MODE, parents=False, exist_ok=True)
        info = folder.lstat()  # the name itself: a link to a folder is not the folder
    except FileExistsError:  # mkdir's answer for a link to nowhere, or a file
        raise SocketError(_("{folder} is not a folder of yours: remove it, or give another "
                            "--socket").format(folder=folder)) from None
    except FileNotFoundError:
        raise SocketError(_("the folder {folder} does not exist: create it, or give another "
                            "--socket").format(folder=folder.parent)) from None
    except OSError as exc:
        raise SocketError(_("cannot make the folder {folder} for the socket ({reason}): give "
                            "another --socket").format(folder=folder, reason=exc.strerror)
                          ) from None
    if stat.S_ISLNK(info.st_mode):
        raise SocketError(_("{folder} is a symbolic link: remove it, or give another "
                            "--socket").format(folder=folder))
    if not stat.S_ISDIR(info.st_mode):
        raise SocketError(_("{folder} is not a folder of yours: remove it, or give another "
                            "--socket").format(folder=folder))
    if info.st_uid != os.getuid():
        raise SocketError(_("{folder} belongs to another user: give another --socket").format(
            folder=folder))
    if stat.S_IMODE(info.st_mode) != FOLDER_MODE:
        os.chmod(folder, FOLDER_MODE)  # ours: nobody else may write in it, or look inside


def _peer_uid(conn: socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (the kernel's word)."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return int(uid)


def _trusted_uids(path: Path) -> set[int]:
    """Whose service a client may believe at `path`: its own user, root, and the owner of
    the socket's folder when root made that folder for a service (its parent is root's and
    nobody else may write there, as systemd's /run/uno-showdown under /run)."""
    trusted = {os.getuid(), 0}
    with contextlib.suppress(OSError):
        folder, parent = path.parent.lstat(), path.parent.parent.lstat()
        if (stat.S_ISDIR(folder.st_mode) and not folder.st_mode & 0o002
                and parent.st_uid == 0 and not parent.st_mode & 0o022):
            trusted.add(folder.st_uid)
    return trusted


def _answering(path: Path) -> bool:
    """Whether something listens at `path` now (a second service, not a stale file)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


class DuelSocketServer:
    """Listens at `path` and answers each request with `handler`, each connection on a
    thread of its own (requests are handled one at a time).

    The socket is made under a private name, given its mode, then moved into place, so
    it is never reachable with looser permissions; a stale socket of a service that
    died is replaced, a live one is refused.
    """

    def __init__(self, path: Path, handler: Handler) -> None:
        self.path = Path(path)
        self.handler = handler
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._closed = threading.Event()
        self._handling = threading.Lock()
        self._clients = threading.BoundedSemaphore(MAX_CLIENTS)

    def start(self) -> DuelSocketServer:
        if not self.path.parent.is_dir():
            raise SocketError(_("the folder {folder} does not exist: create it, or give "
                                "another --socket").format(folder=self.path.parent))
        if self.path.exists() or self.path.is_symlink():
            if not stat.S_ISSOCK(self.path.lstat().st_mode):
                raise SocketError(_("{path} exists and is not a socket: remove it, or give "
                                    "another --socket").format(path=self.path))
            if _answering(self.path):
                raise SocketError(_("another service already listens at {path}: stop it "
                                    "first, or give this one another --socket").format(
                    path=self.path))
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
            sock.bind(str(temporary))
            os.chmod(temporary, SOCKET_MODE)
            os.replace(temporary, self.path)
            sock.listen(8)
        except OSError as exc:
            sock.close()
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise SocketError(_("cannot listen at {path} ({reason}): give another --socket")
                              .format(path=self.path, reason=exc.strerror)) from None
        sock.settimeout(0.5)  # so close() is noticed promptly
        self._sock = sock
        self._thread = threading.Thread(target=self._serve, name="duel-socket", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self._sock is not None:
            self._sock.close()
            with contextlib.suppress(OSError):
                if stat.S_ISSOCK(self.path.lstat().st_mode):
                    self.path.unlink()

    def __enter__(self) -> DuelSocketServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _serve(self) -> None:
        assert self._sock is not None
        while not self._closed.is_set():
            try:
                conn, _addr = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._closed.is_set():
                    return
                log.exception("the duel socket stopped accepting")
                return
            # Each connection on a thread of its own: a client that connects and says
            # nothing holds up only itself (for TIMEOUT_S), never the next `duel`; past
            # MAX_CLIENTS at once, the next is told so at once and closed.
            if not self._clients.acquire(blocking=False):
                with conn:
                    conn.settimeout(0.5)
                    with contextlib.suppress(OSError):
                        conn.sendall(json.dumps({"error": _(
                            "the service is answering {n} others: try again in a few "
                            "seconds").format(n=MAX_CLIENTS)}).encode() + b"\n")
                continue
            threading.Thread(target=self._answer, args=(conn,), name="duel-socket client",
                             daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        try:
            with conn:
                self._answer_on(conn)
        finally:
            self._clients.release()

    def _answer_on(self, conn: socket.socket) -> None:
        try:
            request = json.loads(_read_line(conn, TIMEOUT_S))
            if not isinstance(request, dict):
                raise ValueError(_("not a JSON object"))
            if nests_deeper_than(request, MAX_DEPTH):
                raise ValueError(_("nested deeper than {n}").format(n=MAX_DEPTH))
        except RecursionError:
            reply: dict[str, str] = {"error": _("the request was not understood ({reason})")
                                     .format(reason=_("nested too deep"))}
        except (OSError, ValueError) as exc:
            reply = {"error": _("the request was not understood ({reason})").format(
                reason=exc)}
        else:
            try:
                with self._handling:  # requests are answered one at a time
                    reply = self.handler(request)
            except Exception as exc:  # one bad request must not end the listener
                log.exception("the duel request %r failed", request)
                reply = {"error": _("the service could not do it: {reason}").format(
                    reason=exc)}
        with contextlib.suppress(OSError):
            conn.settimeout(TIMEOUT_S)
            conn.sendall(json.dumps(reply).encode() + b"\n")


def _read_line(conn: socket.socket, timeout_s: float) -> str:
    """One line of at most MAX_LINE bytes, the whole of it within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(_("it took longer than {s:g} s").format(s=timeout_s))
        conn.settimeout(left)
        chunk = conn.recv(1024)
        if not chunk:
            break
        data += chunk
        if len(data) > MAX_LINE:
            raise ValueError(_("the request is too long"))
    return data.split(b"\n", 1)[0].decode("utf-8")


def _not_allowed(path: Path) -> str:
    return _("you may not talk to the service at {path}: join its group (sudo usermod -aG "
             "showdown $USER) and log in again").format(path=path)


def _unreachable(path: Path) -> str:
    """Why nothing answered at `path`: nothing there, not a socket, or a stale socket."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return _("nothing exists at {path}: start the service, or check --socket").format(
            path=path)
    if not stat.S_ISSOCK(mode):
        return _("{path} is not a socket: start the service, or check --socket").format(
            path=path)
    return _("no service answers at {path} (it has stopped): start the service, or check "
             "--socket").format(path=path)


def ask(path: Path, request: dict[str, Any], timeout_s: float = TIMEOUT_S) -> dict[str, str]:
    """Send one request to the service at `path` and return its reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout_s)
        try:
            conn.connect(str(path))
        except PermissionError:
            raise SocketError(_not_allowed(path)) from None
        except OSError as exc:
            if isinstance(exc, (ConnectionRefusedError, FileNotFoundError)):
                raise SocketError(_unreachable(path)) from None
            raise SocketError(_("cannot reach the service at {path}: {reason}").format(
                path=path, reason=exc.strerror)) from None
        try:
            peer = _peer_uid(conn)
        except OSError as exc:
            raise SocketError(_("cannot reach the service at {path}: {reason}").format(
                path=path, reason=exc.strerror)) from None
        if peer not in _trusted_uids(path):  # before a byte is read from it
            raise SocketError(_("the socket {path} is served by another user (uid {uid}), "
                                "not by you or the system's service: it was not used; "
                                "remove it, or give another --socket").format(
                path=path, uid=peer))
        try:
            conn.sendall(json.dumps(request).encode() + b"\n")
            line = _read_line(conn, timeout_s)
        except (OSError, ValueError) as exc:
            raise SocketError(_("the service at {path} did not answer ({reason})").format(
                path=path, reason=exc)) from None
    try:
        reply = json.loads(line)
    except (ValueError, RecursionError):
        raise SocketError(_("the service at {path} gave an answer that is not JSON").format(
            path=path)) from None
    if not isinstance(reply, dict) or not all(
            isinstance(v, str) for k, v in reply.items() if k in ("ok", "error")):
        raise SocketError(_("the service at {path} gave an answer that is not a JSON object")
                          .format(path=path))
    # printed as text: a control character in it is shown, never obeyed by the terminal
    return {k: shown(v) for k, v in reply.items() if isinstance(v, str)}


def open_server(path: Path | None, handler: Handler) -> DuelSocketServer:
    """Listen at `path`, or where a service listens by default (making its private folder
    when systemd has not made one); SocketError says why not."""
    if path is None:
        path = service_socket_path()
        if not os.environ.get("RUNTIME_DIRECTORY"):
            _private_folder(path.parent)
    return DuelSocketServer(path, handler).start()


@contextlib.contextmanager
def serving(path: Path | None, handler: Handler) -> Iterator[DuelSocketServer]:
    server = open_server(path, handler)
    try:
        yield server
    finally:
        server.close()
