"""Issue 26, finding 5, and issue 21, finding 8: `event serve`'s start-up errors were
tracebacks (a port in use: 63 lines; `--listen 256.0.0.1:1883`; a certificate that is
not PEM, or a binary file; `--ca /etc/hostname`), `--web` on a busy port exited 3 after
printing the page's address, and a bad `--credentials-dir` or a lone `--tls-cert` were
refused only after the tables' credentials were written. `--broker ''` silently started the
embedded broker on 0.0.0.0:1883. Now each is one line, exit 2, with nothing written."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.abuse.helpers import cli, dump, refused
from tests.championship.tables.conftest import free_port, make_event, wait_port
from tests.championship.tables.serving import start_serve


@pytest.fixture
def taken() -> Iterator[int]:
    """A port some other program listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.fixture
def event_db(tmp_path: Path) -> Path:
    db = tmp_path / "cup.db"
    make_event(str(db), 6, 2)
    return db


def _files(tmp: Path) -> Path:
    (tmp / "binary.pem").write_bytes(bytes(range(256)) * 8)
    (tmp / "words.txt").write_text("not a certificate\n")
    (tmp / "fake.pem").write_text("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    os.mkfifo(tmp / "fifo")
    return tmp


def cases(tmp: Path, taken: int) -> list[tuple[list[str], tuple[str, ...]]]:
    free = str(free_port())
    f = _files(tmp)
    return [
        (["--listen", f"127.0.0.1:{taken}"], (f"port {taken} is in use", "--listen")),
        (["--listen", f"127.0.0.1:{free}", "--web", f"127.0.0.1:{taken}"],
         (f"port {taken} is in use", "--web")),
        (["--listen", "256.0.0.1:1883"], ("256.0.0.1 is not an address of this computer",)),
        (["--listen", "127.0.0.1:99999"], ("is not an address for",)),
        (["--listen", "127.0.0.1:1²"], ("is not an address for",)),
        (["--listen", f"127.0.0.1:{free}", "--tls-cert", "/bin/true", "--tls-key", "/bin/true"],
         ("is not a PEM file",)),
        (["--listen", f"127.0.0.1:{free}", "--tls-cert", str(f / "binary.pem"), "--tls-key",
          str(f / "binary.pem")], ("is not a PEM file",)),
        (["--listen", f"127.0.0.1:{free}", "--tls-cert", str(f / "fake.pem"), "--tls-key",
          str(f / "fake.pem")], ("are not a certificate and its key",)),
        (["--listen", f"127.0.0.1:{free}", "--tls-cert", str(f / "words.txt")],
         ("TLS needs both",)),
        (["--listen", f"127.0.0.1:{free}", "--ca", str(f / "words.txt")],
         ("is not a PEM file",)),
        (["--listen", f"127.0.0.1:{free}", "--ca", str(f / "fake.pem")],
         ("no certificate a table can trust",)),
        (["--listen", f"127.0.0.1:{free}", "--ca", str(f / "fifo")], ("fifo",)),
        (["--broker", ""], ("is not a broker address",)),
        (["--listen", f"127.0.0.1:{free}", "--credentials-dir", str(tmp / "no" / "such")],
         ("cannot write the tables' credentials",)),
        (["--listen", f"127.0.0.1:{free}", "--credentials-dir", str(f / "words.txt")],
         ("cannot write the tables' credentials",)),
        (["--listen", f"127.0.0.1:{free}", "--advertise", "a b"],
         ("is not a host name or address",)),
    ]


def test_every_refusal_is_one_line_before_anything_is_written(
        tmp_path: Path, event_db: Path, taken: int, capsys: pytest.CaptureFixture[str]) -> None:
    before = dump(event_db)
    listed = sorted(p.name for p in tmp_path.iterdir())
    for extra, words in cases(tmp_path, taken):
        no_web = [] if "--web" in extra else ["--no-web"]
        refused(cli(capsys, "event", "serve", "--db", str(event_db), "--lang", "en", *no_web,
                    *extra), *words)
        assert dump(event_db) == before, extra  # no credentials were made
    assert not (tmp_path / "credentials-event-1").exists()
    assert not (tmp_path / "no").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*listed, "binary.pem", "words.txt", "fake.pem", "fifo"])


def test_sigterm_stops_serve_as_ctrl_c_does(tmp_path: Path, event_db: Path) -> None:
    broker, web = free_port(), free_port()
    proc = start_serve(str(event_db), broker, web, tmp_path / "credentials")
    try:
        wait_port(broker, 30)
        wait_port(web, 30)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, (proc.returncode, err)
    assert "Traceback" not in err
    assert "The live page: http://localhost:" in out
    # Both ports were let go: a second `serve` binds them as it would (SO_REUSEADDR, which
    # still refuses a port something listens on, but not one whose last connection, here
    # wait_port's probe, lingers in TIME_WAIT).
    for port in (broker, web):
        with socket.socket() as again:
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
            again.listen()


def test_a_phone_following_the_page_does_not_hold_up_the_stop(tmp_path: Path,
                                                              event_db: Path) -> None:
    """A phone still reading the live page's event stream when the director stops: the
    server waited out its grace, cancelled the stream and printed uvicorn's traceback."""
    import http.client

    broker, web = free_port(), free_port()
    proc = start_serve(str(event_db), broker, web, tmp_path / "credentials")
    phone = http.client.HTTPConnection("127.0.0.1", web, timeout=30)
    try:
        wait_port(broker, 30)
        wait_port(web, 30)
        phone.request("GET", "/events")
        stream = phone.getresponse()
        assert stream.status == 200 and stream.readline().startswith(b"retry:")
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=30)
    finally:
        phone.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, (proc.returncode, err)
    assert "Traceback" not in err and "ERROR" not in err, err


def test_the_page_address_is_one_a_phone_can_open() -> None:
    """Issue 21, finding 8: the printed address was http://0.0.0.0:8080/."""
    from championship.desk.preflight import page_hosts, qr_text

    hosts = page_hosts("0.0.0.0")
    assert hosts and not {"0.0.0.0", "::", ""} & set(hosts)
    assert all(not h.startswith("127.") for h in hosts)
    assert page_hosts("192.168.1.20") == ["192.168.1.20"]
    assert page_hosts("127.0.0.1") == ["localhost"]
    code = qr_text(f"http://{hosts[0]}:8080/")
    lines = code.splitlines()
    assert len(lines) >= 10 and len({len(ln) for ln in lines}) == 1  # a square of blocks
    assert any(ch in code for ch in "█▀▄")
