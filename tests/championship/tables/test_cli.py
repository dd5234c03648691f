"""`event serve` and `table join` as a newcomer runs them: credentials files only their owner
reads, a table that joins as a real process, and bad input refused in one line (exit 2)
before anything is written or started."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

from championship.broker.credentials import read_credentials
from championship.broker.signing import public_key
from championship.core.access import new_signing_key
from companion.store.games import Store
from tests.championship.tables.conftest import eventually, make_event
from tests.championship.tables.serving import ROOT, serving, uno


def test_serve_writes_credentials_for_each_table_for_its_owner_only(tmp_path: Path) -> None:
    with serving(tmp_path, 14, 2, "--qr") as s:
        for n in (1, 2):
            path = s.credentials / f"table-{n}.json"
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
            creds = read_credentials(path)
            assert (creds.event, creds.table, creds.username) == (s.event_id, n, f"e1-table-{n}")
            assert creds.broker == f"mqtt://127.0.0.1:{s.broker_port}"
            png = path.with_suffix(".png")
            assert png.read_bytes().startswith(b"\x89PNG")
        assert b"password" not in subprocess.run(["ps", "-eo", "args"], capture_output=True
                                                 ).stdout  # no secret on a command line


def test_a_table_joins_as_a_process_and_its_deal_reaches_the_director(tmp_path: Path) -> None:
    with serving(tmp_path) as s:
        table_db = str(tmp_path / "table1.db")
        join = subprocess.Popen(
            [sys.executable, "-m", "uno_showdown.commands.cli", "table", "join", "--broker",
             f"mqtt://127.0.0.1:{s.broker_port}", "--event", "1", "--table", "1",
             "--credentials", str(s.credentials / "table-1.json"), "--db", table_db,
             "--lang", "en"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert join.stdout is not None
            assert "Table 1 of event 1: recording into" in join.stdout.readline()
            assert "Seated for flight-1: game 1" in join.stdout.readline()
            with Store(table_db) as store:
                names = list(store.games.load(1).names)
            hands = [a for n in names[1:] for a in ("--points", f"{n}: 12")]
            done = uno("game", "round", "--db", table_db, "--game", "1", "--winner", names[0],
                       *hands)
            assert done.returncode == 0, done.stderr

            def counted() -> bool:
                out = uno("event", "standings", "--db", s.db, "--json").stdout
                return sum(line["games"] for line in json.loads(out)) == len(names)

            eventually(counted, 30, "the deal in the director's standings")
            eventually(lambda: "Waiting to be sent: 0." in uno(
                "table", "status", "--db", table_db, "--lang", "en").stdout, 20)
            status = uno("table", "status", "--db", table_db, "--lang", "en").stdout
            assert "Qualifying, Table 1: game 1, playing, 59:" in status
            assert "The broker: connected since" in status
            assert uno("event", "end", "--db", s.db).returncode == 0
            eventually(lambda: "Table 1: game 1, time is up: finishing the deal in "
                       "progress." in uno("table", "status", "--db", table_db, "--lang",
                                          "en").stdout, 20, "the table knows time is up")
        finally:
            join.send_signal(signal.SIGTERM)
            join.wait(20)
        assert "`uno-showdown table join` stopped at" in uno(
            "table", "status", "--db", table_db, "--lang", "en").stdout


def _creds_file(tmp: Path, mode: int, table: int = 1, *, old: bool = False) -> Path:
    """A table's credentials file; `old`: as written before the director signed its
    messages (no director's key in it)."""
    path = tmp / f"table-{table}-{mode:o}{'-old' if old else ''}.json"
    data = {"kind": "uno-showdown broker credentials", "event": 1, "table": table,
            "username": f"e1-table-{table}", "password": "x" * 30, "broker": None}
    if not old:
        data["director_key"] = public_key(new_signing_key())
    path.write_text(json.dumps(data))
    path.chmod(mode)
    return path


def _join(tmp: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return uno("table", "join", "--event", "1", "--table", "1", "--db", str(tmp / "t.db"),
               "--lang", "en", *argv)


def test_join_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    good = ["--broker", "mqtt://127.0.0.1:1"]
    cases = [
        (["--credentials", str(_creds_file(tmp_path, 0o644)), *good],
         "can be read by other users of this computer: make it yours alone with `chmod 600"),
        (["--credentials", str(_creds_file(tmp_path, 0o600, 2)), *good],
         "holds the credentials of table 2 of event 1: use that table's file"),
        (["--credentials", str(tmp_path / "none.json"), *good],
         "cannot read the credentials file"),
        (["--credentials", str(_creds_file(tmp_path, 0o600, old=True)), *good],
         "was written by an older uno-showdown: it lacks the director's key, without which "
         "this table cannot tell the director's messages from a forgery. Run `uno-showdown "
         "event serve` again on the director's computer"),
        (["--credentials", str(_creds_file(tmp_path, 0o600)), "--broker", "http://x:1"],
         "is not a broker address: write mqtt://HOST:PORT"),
        (["--credentials", str(_creds_file(tmp_path, 0o600)), "--broker", "mqtts://x:1"],
         "holds no certificate"),
    ]
    for argv, words in cases:
        done = _join(tmp_path, *argv)
        assert done.returncode == 2 and words in done.stderr, (argv, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t.db").exists()


def test_serve_refuses_bad_input_and_writes_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    make_event(db, 14, 2)
    folder = tmp_path / "creds"
    for argv, words in (
        (["--listen", "somewhere"], "is not an address for the broker: write HOST:PORT"),
        (["--web", "127.0.0.1:99999"], "is not an address for the web page"),
        (["--broker", "tcp://x"], "is not a broker address"),
        (["--tls-cert", str(tmp_path / "none.crt")], "there is no file"),
    ):
        done = uno("event", "serve", "--db", db, "--credentials-dir", str(folder),
                   "--lang", "en", *argv)
        assert done.returncode == 2 and words in done.stderr, (argv, done.stderr)
    assert not folder.exists()


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    import socket

    db = str(tmp_path / "cup.db")
    make_event(db, 14, 2)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = uno("event", "serve", "--db", db, "--credentials-dir", str(tmp_path / "creds"),
                   "--lang", "en", "--no-web", "--listen", f"127.0.0.1:{port}")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and f"port {port} is in use" in done.stderr
    assert "--listen HOST:PORT" in done.stderr
    assert not (tmp_path / "creds").exists()  # refused before the credentials were made


def test_the_join_lines_serve_prints_run_as_printed(tmp_path: Path) -> None:
    """Each table's `table join` line, as `event serve` prints it, joins that table: it used
    to lack `--db` ("the following arguments are required: --db") and name no file."""
    import re
    import shlex

    from tests.championship.tables.test_one_agent import Join

    with serving(tmp_path) as s:
        assert s.proc.stdout is not None
        lines: dict[int, str] = {}
        while len(lines) < 2:
            line = s.proc.stdout.readline()
            assert line, "event serve ended"
            found = re.fullmatch(r"\s*Table (\d+): `(uno-showdown table join [^`]*)`\s*", line)
            if found:
                lines[int(found.group(1))] = found.group(2)
        words = shlex.split(lines[1])
        assert "--db" in words and words[words.index("--table") + 1] == "1"
        here = tmp_path / "table-computer"
        here.mkdir()
        join = Join(words[1:], cwd=here)
        try:
            eventually(lambda: join.said("Seated for flight-1"), 30, "the table seated")
        finally:
            join.stop()
        assert not join.err, join.err
        assert (here / "table1.db").exists()
