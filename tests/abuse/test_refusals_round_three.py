"""One line, exit status 2, nothing written: the inputs of the third hostile round.

Each once gave a traceback, a wrong answer or a late refusal: arguments that are not UTF-8
(`event new $'Cup\\x9b'` also left a 225 KB file behind), a games file whose schema text is
not UTF-8, championship columns holding garbage, a refused CONNECT whose client resets at
once, a signed seating the table cannot hold, `--credentials-dir /proc` (refused after the
secrets were written), a full disk (called "not a games file"), `event deals --table -1`,
`--tables ٣`, `--broker mqtts://h:0`, a request head of 100 KB, and control characters in
the free text that reaches the results sheet and terminals (`--why`, `--by`, an event's
name), which names already refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from championship.broker.signing import DirectorSigner
from championship.core import messages as wire
from championship.web import limits
from tests.abuse.helpers import cli as _cli
from tests.abuse.helpers import dump, refused
from tests.abuse.test_broker_sessions import connect_packet
from tests.abuse.test_csv_formulas import clock  # noqa: F401 (the simulated clock)
from tests.championship import test_cli as event_cli
from tests.championship.conftest import SimClock
from tests.championship.tables.conftest import Cluster, build, eventually

ROOT = Path(__file__).resolve().parents[2]
CONTROLS = ["\x1b]0;pwned\x07\x1b[2J", "Rita\x1b[5mBLINK", "evil\u202etxt", "zero\u200bwidth",
            "bell\x07", "two\nlines", "c1\x9bx"]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The CLI in this process, argparse's own refusals (SystemExit) included."""
    try:
        return _cli(capsys, *argv)
    except SystemExit as exc:
        out = capsys.readouterr()
        return int(exc.code or 0), out.out, out.err


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _uno(*argv: str | bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "uno_showdown", *argv], cwd=cwd,
                          capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture
def cup(tmp_path: Path, clock: SimClock) -> str:  # noqa: F811 (the fixture above)
    """An event whose first flight's time is up, with deal g1:1 at table 1."""
    db = str(tmp_path / "cup.db")
    event_cli.make_state(db, clock, "time_up")
    return db


def test_arguments_that_are_not_utf8_are_refused_and_leave_no_file(tmp_path: Path) -> None:
    done = _uno("event", "new", b"Cup\x9b", "--db", "g.db", "--tables", "2", cwd=tmp_path)
    assert done.returncode == 2, done
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "not UTF-8" in err and "Traceback" not in err, err
    assert "Cup\\x9b" in err
    assert not (tmp_path / "g.db").exists()


@pytest.mark.parametrize("option", ["--why", "--by"])
def test_a_why_or_by_that_is_not_utf8_is_one_line(
        cup: str, capsys: pytest.CaptureFixture[str], option: str) -> None:
    before = dump(Path(cup))
    argv = ["event", "void", "--db", cup, "--table", "1", "--deal", "g1:1", "--why", "recount"]
    argv[argv.index(option) + 1 if option in argv else len(argv):] = []
    argv += [option, "x\udc9b"]  # what Python makes of the byte 0x9b in an argument
    refused(cli(capsys, *argv), "not UTF-8")
    err = refused(cli(capsys, "event", "cards", "--db", cup, "--html", "c.html", "--url",
                      "http://x\udc9b/"), "not UTF-8")
    assert "damaged" not in err
    assert dump(Path(cup)) == before


def test_a_games_file_whose_schema_is_not_utf8_is_one_line(
        cup: str, capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(cup)  # everything into the file itself, none left in its WAL
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(Path(cup).read_bytes())
    broken = 0
    for m in re.finditer(rb"CREATE TABLE (rounds|places) \(", bytes(data)):
        data[m.end() - 1] ^= 0x80  # one flipped bit: "(" becomes a byte no UTF-8 starts with
        broken += 1
    assert broken
    Path(cup).write_bytes(bytes(data))
    before = _hash(Path(cup))
    for argv in (["game", "list"], ["game", "show"], ["event", "show"],
                 ["event", "standings"]):
        refused(cli(capsys, *argv, "--db", cup), "not a games file", "not UTF-8")
    assert _hash(Path(cup)) == before


@pytest.mark.parametrize("garbage", ["settings = '{garbage'", "settings = '[]'",
                                     "settings = '{\"tables\": \"x\"}'",
                                     "created_at = x'00ff'"])
def test_championship_columns_holding_garbage_are_one_line(
        cup: str, capsys: pytest.CaptureFixture[str], garbage: str) -> None:
    conn = sqlite3.connect(cup)
    conn.execute(f"UPDATE championship_events SET {garbage}")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file, to hash
    conn.close()
    before = _hash(Path(cup))
    for argv in (["show"], ["register", "Zoe"], ["pause"], ["standings", "--json"],
                 ["list"], ["results"]):
        status, _out, err = cli(capsys, "event", *argv, "--db", cup)
        assert status in (0, 2), (argv, err)
        assert "Traceback" not in err
        if status == 2:
            assert err.count("\n") == 1, err
    status, _out, err = cli(capsys, "event", "show", "--db", cup)
    if "created_at" not in garbage:
        assert status == 2, err
    assert _hash(Path(cup)) == before


def test_a_refused_connect_whose_client_resets_at_once_logs_nothing(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    c = build(tmp_path, "amqtt")  # started here, so its process writes into capfd's files
    try:
        creds = c.table_creds[1]
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", c.port), 10)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.sendall(connect_packet(creds.client_id, creds.username, "wrong"))
            sock.close()  # a reset, before the broker's refusal is written
        c.start_director()  # and a good client gets in after them all
        eventually(lambda: c.director is not None and c.director.link.connected.is_set(), 20)
    finally:
        c.close()
    err = capfd.readouterr().err
    assert "Unhandled exception" not in err and "Traceback" not in err, err[-3000:]


def test_a_signed_seating_the_table_cannot_hold_is_ignored_not_raised(
        amqtt_cluster: Cluster, caplog: pytest.LogCaptureFixture) -> None:
    c = amqtt_cluster
    agent = c.tables[1].agent
    assert agent is not None
    assert c.director_creds.signing_key is not None
    director = DirectorSigner(c.director_creds.signing_key)
    topic = wire.down_topic(c.event_id, 1)

    def seating(edition: str, names: tuple[str, str]) -> bytes:
        return wire.encode_seating(wire.Seating(1, "Cup", edition, 500, (wire.StageSeat(
            "flight-9", "Flight 9", 99, ((1, names[0]), (2, names[1])),
            wire.BoxState("open", None, None, 1), None),)), director)

    ignored = agent.ignored
    with caplog.at_level("DEBUG"):
        agent._handle(topic, seating("nosuchdeck", ("Ann", "Bob")))
        agent._handle(topic, seating("classic", ("Ann", "ANN")))
    assert agent.ignored == ignored + 2
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_credentials_dir_proc_is_refused_before_any_secret_is_written(
        cup: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = dump(Path(cup))
    refused(cli(capsys, "event", "serve", "--db", cup, "--credentials-dir", "/proc",
                "--no-web", "--listen", "127.0.0.1:1"), "cannot write the tables' credentials")
    assert dump(Path(cup)) == before


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a 2 MB tmpfs (mounting one needs root)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
            capture_output=True).returncode != 0:
        pytest.skip("a small disk to fill needs root and mount (CI runs as root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_full_disk_says_the_disk_is_full(full_disk: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = str(full_disk / "g.db")
    assert cli(capsys, "event", "new", "Cup", "--db", db, "--tables", "2")[0] == 0
    assert cli(capsys, "event", "register", "--db", db, "Ann", "Bob")[0] == 0
    with open(full_disk / "filler", "wb") as filler, contextlib.suppress(OSError):
        while True:
            filler.write(b"\0" * 65536)
            filler.flush()
    for argv in (["event", "show"], ["event", "register", "Zed"], ["game", "list"]):
        err = refused(cli(capsys, *argv, "--db", db), "the disk is full", "free some")
        assert "not a games file" not in err


@pytest.mark.parametrize("table", ["-1", "0", "99"])
def test_a_table_the_event_does_not_have_is_refused(
        cup: str, capsys: pytest.CaptureFixture[str], table: str) -> None:
    err = refused(cli(capsys, "event", "deals", "--db", cup, f"--table={table}"),
                  f"has no table {table}", "1 to 1")
    assert err == (f"uno-showdown event: the event has no table {table}: its tables are 1 "
                   "to 1\n")
    refused(cli(capsys, "event", "void", "--db", cup, f"--table={table}", "--deal", "g1:1",
                "--why", "x"), f"has no table {table}")


@pytest.mark.parametrize("tables", ["٣", " 5", "1_0", "+5", "5 ", "²"])
def test_a_number_not_in_ascii_digits_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], tables: str) -> None:
    db = tmp_path / "g.db"
    refused(cli(capsys, "event", "new", "Cup", "--db", str(db), f"--tables={tables}"),
            "not a whole number")
    assert not db.exists()


@pytest.mark.parametrize("url", ["mqtts://h:0", "mqtt://h:1?x=1", "mqtt://h:1#x",
                                 "mqtt://h:٣", "mqtt://h\x1b:1"])
def test_a_broker_address_with_more_or_less_than_host_and_port_is_refused(
        cup: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], url: str) -> None:
    before = dump(Path(cup))
    refused(cli(capsys, "event", "serve", "--db", cup, f"--broker={url}", "--no-web",
                "--credentials-dir", str(tmp_path / "creds")), "is not a broker address")
    assert dump(Path(cup)) == before and not (tmp_path / "creds").exists()


def test_a_request_head_over_16_kb_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.abuse.test_page_slowloris import page

    monkeypatch.setattr(limits, "LIMITS", limits.Counts())
    with contextlib.contextmanager(page.__wrapped__)(monkeypatch) as port:  # type: ignore[attr-defined]
        for size in (100 * 1024, 17 * 1024):
            head = (b"GET /state.json HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * size
                    + b"\r\n\r\n")
            with socket.create_connection(("127.0.0.1", port), 10) as sock:
                with contextlib.suppress(OSError):
                    sock.sendall(head)
                sock.settimeout(10)
                got = b""
                with contextlib.suppress(OSError):
                    while chunk := sock.recv(4096):
                        got += chunk
            assert got.startswith(b"HTTP/1.1 431"), got[:100]
        small = b"GET /state.json HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 8000 + b"\r\n\r\n"
        with socket.create_connection(("127.0.0.1", port), 10) as sock:
            sock.sendall(small)
            sock.settimeout(10)
            assert sock.recv(100).startswith(b"HTTP/1.1 200")
        assert limits.LIMITS.too_large == 2


@pytest.mark.parametrize("text", CONTROLS)
def test_control_characters_are_refused_in_every_free_text(
        cup: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    before = dump(Path(cup))
    for argv in (["void", "--table", "1", "--deal", "g1:1", "--why", text],
                 ["void", "--table", "1", "--deal", "g1:1", "--why", "recount", "--by", text],
                 ["restore", "--table", "1", "--deal", "g1:1", "--why", text],
                 ["void", "--table", "1", "--deal", f"g1:1{text}", "--why", "recount"],
                 ["cards", "--html", str(tmp_path / "c.html"), "--url", f"http://x/{text}"]):
        err = refused(cli(capsys, "event", *argv[:1], "--db", cup, *argv[1:]), "U+",
                      "cannot hold the invisible or control character")
        assert "\x1b" not in err and "\x07" not in err and "damaged" not in err
    assert dump(Path(cup)) == before
    assert not (tmp_path / "c.html").exists()
    new = tmp_path / "new.db"
    refused(cli(capsys, "event", "new", f"Cup {text}", "--db", str(new), "--tables", "1"),
            "U+")
    assert not new.exists()
