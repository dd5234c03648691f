"""What `event serve` checks before it writes or starts anything, so that every refusal is
one sentence, before the tables' credentials are made: the ports it will listen on (free,
allowed, on an address of this computer), the TLS files (PEM, a key that fits the
certificate, a CA that can be trusted), the credentials folder (there or makeable, without
making its parents). And the addresses to print for the live page: the ones a phone on the
bar's network can open, never 0.0.0.0, with a QR code of the first for the terminal.
"""

from __future__ import annotations

import contextlib
import errno
import io
import ipaddress
import os
import socket
import ssl
import stat
from pathlib import Path

from championship.core.errors import ChampionshipError
from championship.core.i18n import _

#: The largest certificate or key file read (a chain of a few certificates fits many times).
MAX_PEM_BYTES = 256 * 1024
ANY = ("0.0.0.0", "::", "")


def bind(host: str, port: int, option: str) -> socket.socket:
    """A listening socket on HOST:PORT, or one sentence saying why not and what to do."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError):
        raise ChampionshipError(_("{host} is not an address of this computer: give {option} "
                                  "an address it has, e.g. 0.0.0.0:{port}").format(
            host=host, option=option, port=port)) from None
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host in ("::", ""):
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            text = _("port {port} is in use on {host} (another broker or server has it): stop "
                     "it, or choose another with {option} HOST:PORT")
        elif exc.errno in (errno.EACCES, errno.EPERM):
            text = _("this user may not listen on port {port} of {host}: choose one above "
                     "1023 with {option} HOST:PORT")
        else:
            text = _("cannot listen on {host}:{port} ({reason}): give {option} an address "
                     "of this computer")
        raise ChampionshipError(text.format(port=port, host=host or "0.0.0.0", option=option,
                                            reason=exc.strerror or exc)) from None
    return sock


def probe(host: str, port: int, option: str) -> None:
    """`bind`, let go at once: the embedded broker binds the port itself, a moment later."""
    bind(host, port, option).close()


def _pem(path: Path, option: str) -> str:
    """A PEM file's text: a regular file, small, ASCII, with a PEM block in it."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ChampionshipError(_("{path} is not a file: give {option} a PEM file").format(
                path=path, option=option))
        with open(path, "rb") as stream:
            raw = stream.read(MAX_PEM_BYTES + 1)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ChampionshipError(_("cannot read {path}: {reason}").format(
            path=path, reason=reason)) from None
    if len(raw) > MAX_PEM_BYTES or not raw.isascii() or b"-----BEGIN " not in raw:
        raise ChampionshipError(_("{path} is not a PEM file (text starting with -----BEGIN): "
                                  "give {option} the certificate or key openssl wrote").format(
            path=path, option=option))
    return raw.decode("ascii")


def check_tls(cert: Path | None, key: Path | None, ca: Path | None) -> str | None:
    """The certificate the tables trust (PEM text), after checking the broker's certificate
    and key go together and the CA is one a table can load; None without TLS."""
    if (cert is None) != (key is None):
        raise ChampionshipError(_("TLS needs both --tls-cert and --tls-key"))
    ca_pem = _pem(ca, "--ca") if ca is not None else None
    if ca_pem is not None:
        try:
            ssl.create_default_context(cadata=ca_pem)
        except (ssl.SSLError, ValueError) as exc:
            raise ChampionshipError(_("{path} holds no certificate a table can trust ({reason}): "
                                      "give --ca the broker's certificate (PEM)").format(
                path=ca, reason=getattr(exc, "reason", None) or exc)) from None
    if cert is None or key is None:
        return ca_pem
    cert_pem = _pem(cert, "--tls-cert")
    _pem(key, "--tls-key")
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
        ssl.create_default_context(cadata=ca_pem or cert_pem)
    except (ssl.SSLError, ValueError, OSError) as exc:
        raise ChampionshipError(_("{cert} and {key} are not a certificate and its key "
                                  "({reason}): make them again as docs/many-tables.md shows"
                                  ).format(cert=cert, key=key,
                                           reason=getattr(exc, "reason", None) or exc)) from None
    return ca_pem or cert_pem  # self-signed: the tables trust the certificate itself


def check_folder(folder: Path) -> None:
    """The credentials folder: a folder we may write, or one we may make in a folder that is
    there (its parents are not made: a typo must not plant folders)."""
    try:
        where = folder if folder.exists() else folder.parent
        ok = where.is_dir() and os.access(where, os.W_OK | os.X_OK) and _can_make_a_file(where)
    except (OSError, ValueError):
        ok = False
    if not ok:
        raise ChampionshipError(_("cannot write the tables' credentials to {folder}: it is not "
                                  "a folder this user can write, or its parent is not there; "
                                  "choose another --credentials-dir").format(folder=folder))


def _can_make_a_file(folder: Path) -> bool:
    """Can a file really be made in `folder`? (`os.access` says yes to root everywhere, and
    to /proc, where nothing can be written.) The probe is removed at once."""
    import tempfile

    try:
        handle, name = tempfile.mkstemp(prefix=".uno-showdown-probe-", dir=folder)
    except OSError:
        return False
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return True


def check_host(host: str, option: str) -> None:
    """A host name or address the tables can be given (`--advertise`)."""
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    if not host or len(host) > 253 or not all(
            0 < len(label) <= 63 and label.isascii() and label.replace("-", "").isalnum()
            and not label.startswith("-") for label in labels):
        raise ChampionshipError(_("{host} is not a host name or address: give {option} the "
                                  "name or address the tables reach this computer at").format(
            host=host, option=option))


def page_hosts(host: str) -> list[str]:
    """Where a phone opens the page: the host given, or, listening on every address, this
    computer's addresses on its networks (never 0.0.0.0), else its name."""
    if host not in ANY:
        return ["localhost" if host in ("127.0.0.1", "::1") else host]
    found: list[str] = []
    try:  # the address the default route leaves from (nothing is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_sock:
            probe_sock.connect(("192.0.2.1", 9))
            found.append(probe_sock.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    lan = []
    for addr in found:
        if not ipaddress.ip_address(addr).is_loopback and addr not in lan:
            lan.append(addr)
    return lan or [socket.gethostname()]


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with block characters, for a phone to scan off the
    terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
