"""Tables on their own files, a director and a real broker, all on loopback: the embedded
amqtt always, Debian's mosquitto when it is installed (CI installs it).

Every broker listens on 127.0.0.1 on a free port, is started with a deadline and torn down
by its fixture. Nothing sleeps to wait: `eventually` polls a condition with a deadline.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import pytest

from championship.broker import credentials as cr
from championship.broker.embedded import EmbeddedBroker
from championship.broker.guarded import MAX_PACKET
from championship.broker.link import BrokerAddress
from championship.core.access import Credentials
from championship.core.snapshot import game_deals
from championship.core.standings import FINAL as FINAL_STAGE
from championship.core.standings import QUALIFYING, Deal, Entrant, Line, standings
from championship.desk.director import DirectorSync
from championship.desk.operations import Championship
from championship.desk.table_agent import TableAgent
from championship.store.ledger import Ledger
from championship.store.table_file import TableFile
from companion.app import CompanionApp
from companion.store.games import Store
from showdown.contract.i18n import set_language

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ivan", "Kira", "Lev",
         "Masha", "Nikita", "Olga", "Pavel", "Rita", "Sasha", "Tanya", "Ulyana", "Fedor",
         "Khariton", "Tsvetana"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def eventually(check: Callable[[], object], timeout: float = 20.0, what: str = "") -> None:
    """Wait for `check()` to be true, polling, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what or check}")
        time.sleep(0.02)


def wait_port(port: int, timeout: float = 10.0) -> None:
    def up() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            return False

    eventually(up, timeout, f"a broker on port {port}")


class Mosquitto:
    """Debian's mosquitto with the password file and ACL `event serve` writes."""

    def __init__(self, folder: Path, port: int, users: list[Credentials], event_id: int,
                 tables: list[int], tls: tuple[Path, Path] | None = None) -> None:
        self.folder, self.port = folder, port
        folder.mkdir(parents=True, exist_ok=True)
        passwd, acl = folder / "passwd", folder / "acl"
        passwd.write_text("".join(cr.mosquitto_password_line(u.username, u.secret)
                                  for u in users))
        acl.write_text(cr.mosquitto_acl(event_id, tables))
        lines = [f"listener {port} 127.0.0.1", "allow_anonymous false",
                 f"password_file {passwd}", f"acl_file {acl}", "persistence false",
                 f"max_packet_size {MAX_PACKET}"]  # as docs/many-tables.md configures it
        if os.geteuid() == 0:  # as root mosquitto would become "mosquitto", who cannot read
            lines.insert(0, "user root")  # the test's files
        if tls is not None:
            lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        for f in (passwd, acl, self.conf):
            f.chmod(0o600)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None


@dataclass
class Table:
    number: int
    db: str
    creds: Credentials
    agent: TableAgent | None = None

    def app(self, stage: str = "flight-1", at_us: int | None = None) -> CompanionApp:
        store = Store(self.db)
        file = TableFile(store, self.creds.event, self.number)
        game_id = file.current_game(stage)
        store.close()
        assert game_id is not None, f"table {self.number} is not seated for {stage}"
        return CompanionApp.open(self.db, game_id,
                                 clock=None if at_us is None else (lambda: at_us))


@dataclass
class Cluster:
    """A director's games file with an event drawn and started, its credentials, a broker,
    and tables with files of their own."""

    tmp: Path
    kind: str
    director_db: str
    event_id: int
    director_creds: Credentials
    table_creds: dict[int, Credentials]
    port: int
    broker: EmbeddedBroker | Mosquitto
    tables: dict[int, Table] = field(default_factory=dict)
    director: DirectorSync | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(13))
    ca_pem: str | None = None  # set: the broker speaks TLS with this certificate

    @property
    def address(self) -> BrokerAddress:
        return BrokerAddress("127.0.0.1", self.port, self.ca_pem is not None)

    def start_director(self) -> DirectorSync:
        self.director = DirectorSync(self.director_db, self.event_id, self.address,
                                     self.director_creds, self.table_creds, ca_pem=self.ca_pem)
        self.director.start()
        return self.director

    def stop_director(self) -> None:
        if self.director is not None:
            self.director.stop()
            self.director = None

    def start_table(self, n: int) -> Table:
        table = self.tables.get(n) or Table(n, str(self.tmp / f"table{n}.db"),
                                            self.table_creds[n])
        self.tables[n] = table
        table.agent = TableAgent(table.db, self.address, table.creds, n)
        table.agent.start()
        return table

    def stop_table(self, n: int) -> None:
        agent = self.tables[n].agent
        if agent is not None:
            agent.stop()
            self.tables[n].agent = None

    def seated(self, n: int, stage: str = "flight-1") -> None:
        def ok() -> bool:
            with Store(self.tables[n].db) as store:
                return TableFile(store, self.event_id, n).current_game(stage) is not None

        eventually(ok, 20, f"table {n} seated")

    def deal(self, n: int, stage: str = "flight-1", at_us: int | None = None) -> None:
        """A deal at table n, recorded as the table's screen would: committed first (at
        `at_us` on the table's wall clock, if given)."""
        with self.tables[n].app(stage, at_us) as app:
            game = app.game
            assert game is not None
            names = list(game.names)
            winner = self.rng.choice(names)
            app.record_round(winner, points={p: self.rng.randint(1, 60) for p in names
                                             if p != winner})

    @contextmanager
    def tables_seating(self, stage: str = "flight-1") -> Iterator[dict[int, list[int]]]:
        """Who sits where in a stage, as the director drew it."""
        with Championship.open(self.director_db, self.event_id) as champ:
            yield {t.table: list(t.players) for t in champ.snapshot().stage_tables(stage)}

    def director_lines(self) -> Sequence[Line]:
        with Championship.open(self.director_db, self.event_id) as champ:
            return champ.snapshot().qualifying

    def tables_lines(self) -> list[Line]:
        """The standings worked out from the tables' own files alone."""
        with Championship.open(self.director_db, self.event_id) as champ:
            data = champ.read().data
        deals: list[Deal] = []
        for t in self.tables.values():
            with Store(t.db) as store:
                file = TableFile(store, self.event_id, t.number)
                for stage, (box_id, _s, _p) in file.stages().items():
                    kind = FINAL_STAGE if stage == "final" else QUALIFYING
                    for gid in store.boxes.load(box_id).game_ids:
                        game = store.games.load(gid)
                        deals += [Deal(f"{t.number}/{d.deal_id}", d.revision, kind, d.points)
                                  for d in game_deals(game, data, kind)]
        entrants = [Entrant(p.number, p.name, p.lot, p.withdrawn) for p in data.players]
        return standings(entrants, deals, QUALIFYING, data.event.settings.tie_break)

    def converged(self) -> bool:
        return [_key(x) for x in self.director_lines()] == [_key(x) for x in self.tables_lines()]

    def wait_converged(self, timeout: float = 30.0) -> None:
        eventually(self.converged, timeout, "the director's standings equal the tables' files")
        assert any(ln.games for ln in self.director_lines())

    def close(self) -> None:
        for n in list(self.tables):
            self.stop_table(n)
        self.stop_director()
        if isinstance(self.broker, EmbeddedBroker):
            self.broker.close()
        else:
            self.broker.stop()


def _key(line: Line) -> tuple[object, ...]:
    return (line.rank, line.number, line.points, line.games,
            Fraction(line.result) if line.result is not None else None)


def make_event(db: str, players: int, tables: int) -> int:
    with Championship.open(db) as champ:
        from championship.core.settings import Settings

        event_id = champ.new_event("Loopback Cup", Settings(tables=tables))
        champ.register(NAMES[:players])
        champ.draw(seed=2017)
        champ.start()
    return event_id


def build(tmp: Path, kind: str, players: int = 14, tables: int = 2,
          tls: tuple[Path, Path] | None = None) -> Cluster:
    set_language("en")
    db = str(tmp / "director.db")
    event_id = make_event(db, players, tables)
    with Store(db) as store:
        director, table_creds = Ledger(store).credentials(event_id, list(range(1, tables + 1)))
    table_creds = cr.for_tables(director, table_creds)
    port = free_port()
    users = [director, *table_creds.values()]
    broker: EmbeddedBroker | Mosquitto
    if kind == "amqtt":
        broker = EmbeddedBroker("127.0.0.1", port, event_id, users, range(1, tables + 1),
                                certfile=tls[0] if tls else None,
                                keyfile=tls[1] if tls else None)
    else:
        broker = Mosquitto(tmp / "mosquitto", port, users, event_id,
                           list(range(1, tables + 1)), tls)
    broker.start()
    ca_pem = tls[0].read_text() if tls else None
    if ca_pem:
        table_creds = {n: replace(c, ca_pem=ca_pem) for n, c in table_creds.items()}
    return Cluster(tmp, kind, db, event_id, director, table_creds, port, broker, ca_pem=ca_pem)


BROKERS = ["amqtt", pytest.param("mosquitto", marks=pytest.mark.skipif(
    MOSQUITTO is None, reason="Debian's mosquitto is not installed (CI installs it)"))]


@pytest.fixture(params=BROKERS)
def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cluster]:
    c = build(tmp_path, request.param)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def amqtt_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """The embedded broker, the director and table 1 seated, ready."""
    c = build(tmp_path, "amqtt")
    try:
        c.start_director()
        c.start_table(1)
        c.seated(1)
        yield c
    finally:
        c.close()
