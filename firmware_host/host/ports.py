"""Whether a name can be a serial port: the one check `run --device serial --port` and
`firmware --port` both make before anything waits on it.

A path must exist and be a terminal device (a tty, a pty, a USB serial adapter): a plain
file, a directory or /dev/null would "open" or fail quietly in a reader thread, which would
then wait for a board forever. A name that is no path (COM3) must be one the system lists.

It imports on Windows too (no `fcntl` there: Windows itself opens a COM port for one
program at a time, so `check_free` has nothing to add), and macOS names a Pico
/dev/cu.usbmodem....
"""

from __future__ import annotations

import errno
import os
import stat
import sys

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from serial.tools import list_ports

from showdown.contract.i18n import N_, _


def check_port(port: str) -> None:
    """Refuse a `--port` that cannot be a serial port (an OSError naming it and what to pass
    instead); see the module docstring."""
    try:
        mode: int | None = os.stat(port).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OSError(_("cannot look at the serial port {port} ({why}): check the path and "
                        "your access to it").format(port=port, why=exc.strerror)) from exc
    if mode is None:
        if any(info.device == port for info in list_ports.comports()):
            return
        raise FileNotFoundError(
            _("there is no serial port {port}: plug the board in, or pass the port it has "
              "{hint}").format(port=port, hint=_(_PORT_HINT)))
    if stat.S_ISDIR(mode):
        raise OSError(_("{port} is a directory, not a serial port: pass the board's port "
                        "{hint}").format(port=port, hint=_(_PORT_HINT)))
    if not stat.S_ISCHR(mode) or not _is_terminal(port):
        raise OSError(_("{port} is not a serial port (not a terminal device): pass the "
                        "board's port {hint}").format(port=port, hint=_(_PORT_HINT)))


def check_free(port: str) -> None:
    """Refuse a port another program holds (`run`, the service), in one line (OSError).

    pyserial's `exclusive=True` holds an exclusive `flock` on the port for as long as it is
    open; taking the same lock without waiting, and letting it go at once, tells whether
    some program holds it, before a link opens it and waits for a board that cannot answer.
    """
    if fcntl is None:
        return  # Windows: a COM port held by another program cannot be opened at all
    try:
        fd = os.open(port, os.O_RDWR | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return  # not a path (COM3), or not ours to open: `check_access` says why
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise OSError(errno.EBUSY, _("{port} is in use by another program: stop "
                                         "`uno-showdown run`, or the Pico table's service "
                                         "(`sudo systemctl stop uno-showdown-serial`), "
                                         "first").format(
                                             port=port)) from None
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def check_access(port: str) -> None:
    """Refuse a port this user may not open (PermissionError naming it and what to do).

    A Pico found by its USB id is checked before anything waits on it: on Linux a user
    outside the `dialout` group can see the port but not open it.
    """
    if not os.path.exists(port):
        return  # COM3, or gone meanwhile: whoever opens it says why
    try:
        fd = os.open(port, os.O_RDWR | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0))
    except PermissionError:
        raise PermissionError(permission_text(port)) from None
    except OSError:
        return
    os.close(fd)


def permission_text(port: str) -> str:
    """What to do when this user may not open `port`, in one sentence."""
    if sys.platform.startswith("linux"):
        return _("your user may not open {port} (permission denied): join the dialout group "
                 "(sudo usermod -aG dialout $USER), log out and in again, and retry").format(
                     port=port)
    return _("your user may not open {port} (permission denied): check your access to it, "
             "and that no other program holds it").format(port=port)


_PORT_HINT = N_("(e.g. --port /dev/ttyACM0 on Linux, /dev/cu.usbmodem1101 on macOS, COM3 on "
                "Windows), or leave out --port to find the Pico by itself")


def _is_terminal(port: str) -> bool:
    """True when the character device at `port` is a terminal (/dev/null, say, is not).

    Opened the way pyserial opens a port (no controlling tty, no waiting), and closed at once.
    """
    flags = os.O_RDWR | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(port, flags)
    except PermissionError:
        raise PermissionError(permission_text(port)) from None
    except OSError as exc:
        raise OSError(_("cannot open the serial port {port} ({why}): check your access to it "
                        "(on Linux, membership of the dialout group)").format(
                            port=port, why=exc.strerror)) from exc
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)
