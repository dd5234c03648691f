"""`uno-showdown event serve`: the director's machine for tables on other machines.

It makes (once, then keeps) a user and secret per table and one for the director, writes
each table's credentials file (and a QR code with `--qr`), starts the embedded broker with
authentication and the topic ACL (or, with `--broker`, uses an existing one and writes the
mosquitto password file and ACL for it), runs the director's sync and serves the live page
(`--web`, on this computer only unless told otherwise), until Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import uvicorn

from championship.broker import credentials as cr
from championship.broker.embedded import EmbeddedBroker
from championship.broker.link import BrokerAddress, parse_broker
from championship.core.errors import ChampionshipError
from championship.core.i18n import _
from championship.desk import preflight
from championship.desk.director import DirectorSync
from championship.desk.operations import Championship
from championship.store.ledger import Ledger

log = logging.getLogger("uno-showdown.serve")

#: Seconds the page has to end its streams and close when `event serve` is stopped; after
#: them it is left behind (a daemon thread), so SIGTERM stops the process within 5 s
#: whatever the phones do.
STOP_GRACE_S = 2.5


def parse_host_port(text: str, default_host: str, what: str) -> tuple[str, int]:
    """`HOST:PORT`, `:PORT` or `PORT`; refused in one sentence otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host.strip("[]") or default_host
    # ASCII digits only: "²".isdigit() is true and int() refuses it
    if not (port.isascii() and port.isdigit() and len(port) <= 5) or not 0 < int(port) < 65536:
        raise ChampionshipError(_("{text} is not an address for {what}: write HOST:PORT, e.g. "
                           "0.0.0.0:8080").format(text=text, what=what))
    return host, int(port)


@dataclass
class ServeOptions:
    db: str | None
    event: int | None
    lang: str | None = None
    listen: str = "0.0.0.0:1883"
    broker: str | None = None  # an existing broker's URL; None: the embedded one
    advertise: str | None = None  # the address the tables use to reach this computer
    tls_cert: Path | None = None
    tls_key: Path | None = None
    ca: Path | None = None  # the certificate the tables (and we) trust
    credentials_dir: Path | None = None
    qr: bool = False
    web: str | None = "127.0.0.1:8080"
    say: Callable[[str], None] = field(default=print)


class Served:
    """Everything `event serve` runs, started and stopped together (tests use it too)."""

    def __init__(self, opts: ServeOptions) -> None:
        """Checks every option and file first (`preflight`), and only then makes the
        tables' credentials: a refusal leaves nothing written."""
        self.opts = opts
        self.web_socket: socket.socket | None = None
        if opts.broker is not None:
            parse_broker(opts.broker)
        else:
            parse_host_port(opts.listen, "0.0.0.0", _("the broker"))
        web = parse_host_port(opts.web, "127.0.0.1", _("the web page")) if opts.web else None
        if opts.advertise is not None:
            preflight.check_host(opts.advertise, "--advertise")
        self.ca_pem = preflight.check_tls(opts.tls_cert if opts.broker is None else None,
                                          opts.tls_key if opts.broker is None else None,
                                          opts.ca)
        with Championship.open(opts.db, opts.event, lang=opts.lang, create=False) as champ:
            event_id = champ._require()
            settings = champ.snapshot().settings
            self.event_id, self.db = event_id, str(champ.store.path)
            self.tables = list(range(1, settings.tables + 1))
            self.folder = opts.credentials_dir or Path(self.db).resolve().parent / (
                f"credentials-event-{event_id}")
            preflight.check_folder(self.folder)
            if opts.broker is None:
                preflight.probe(*parse_host_port(opts.listen, "0.0.0.0", _("the broker")),
                                "--listen")
            if web is not None:
                self.web_socket = preflight.bind(web[0], web[1], "--web")
            try:
                director, tables = Ledger(champ.store).credentials(event_id, self.tables)
            except BaseException:
                self.close_web_socket()
                raise
        self.director_creds = director
        ca_pem = self.ca_pem
        if opts.broker is not None:
            self.address = parse_broker(opts.broker)
            self.public = self.address
            self.broker: EmbeddedBroker | None = None
        else:
            host, port = parse_host_port(opts.listen, "0.0.0.0", _("the broker"))
            tls = opts.tls_cert is not None
            local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
            self.address = BrokerAddress(local, port, tls)
            self.public = BrokerAddress(opts.advertise or (
                host if host not in ("0.0.0.0", "::") else socket.gethostname()), port, tls)
            self.broker = EmbeddedBroker(host, port, event_id, [director, *tables.values()],
                                         self.tables, certfile=opts.tls_cert,
                                         keyfile=opts.tls_key)
        self.table_creds = {t: replace(c, broker=self.public.url, ca_pem=ca_pem)
                            for t, c in cr.for_tables(director, tables).items()}
        self.sync: DirectorSync | None = None
        self.web_server: object | None = None
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    def write_files(self) -> list[str]:
        try:
            return self._write_files()
        except (OSError, ValueError) as exc:  # a folder that cannot be, a NUL in its name
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise ChampionshipError(_("cannot write the tables' credentials to {folder}: {reason}; "
                               "choose another --credentials-dir").format(
                folder=self.folder, reason=reason)) from None

    def join_lines(self) -> list[str]:
        """`table join` for each table, as it runs when typed: the broker as tables reach
        it, the table's credentials file where it was written, a games file of its own."""
        import shlex

        return ["  " + _("Table {n}: {command}").format(n=t, command="`" + shlex.join([
            "uno-showdown", "table", "join", "--broker", self.public.url, "--event",
            str(self.event_id), "--table", str(t), "--credentials",
            str(self.folder / f"table-{t}.json"), "--db", f"table{t}.db"]) + "`")
            for t in self.table_creds]

    def _write_files(self) -> list[str]:
        lines = []
        for t, creds in self.table_creds.items():
            path = self.folder / f"table-{t}.json"
            cr.write_credentials(path, creds)
            shown = str(path)
            if self.opts.qr:
                cr.qr_code(path.with_suffix(".png"), creds)
                shown += " " + _("(and {png})").format(png=path.with_suffix(".png").name)
            lines.append(_("Table {n}: {path}").format(n=t, path=shown))
        if self.broker is None:
            users = [self.director_creds, *self.table_creds.values()]
            passwd = self.folder / "mosquitto.passwd"
            passwd.write_text("".join(cr.mosquitto_password_line(u.username, u.secret)
                                      for u in users), encoding="utf-8")
            passwd.chmod(0o600)
            acl = self.folder / "mosquitto.acl"
            acl.write_text(cr.mosquitto_acl(self.event_id, self.tables), encoding="utf-8")
            acl.chmod(0o600)
            lines.append(_("For mosquitto: {passwd} and {acl} (see docs/many-tables.md)").format(
                passwd=passwd, acl=acl))
        return lines

    def start(self, on_state: Callable[[dict[str, object]], None] | None = None) -> None:
        if self.broker is not None:
            try:
                self.broker.start()
            except OSError as exc:
                raise ChampionshipError(_("the broker cannot listen on {addr}: {reason}; choose "
                                   "another with --listen HOST:PORT").format(
                    addr=self.opts.listen, reason=exc.strerror or exc)) from None
            self._watcher = threading.Thread(target=self._watch_broker, name="broker-watch",
                                             daemon=True)
            self._watcher.start()
        self.sync = DirectorSync(self.db, self.event_id, self.address, self.director_creds,
                                 self.table_creds, lang=self.opts.lang, on_state=on_state,
                                 ca_pem=self.ca_pem, check_hostname=self.broker is None)
        self.sync.start()

    def close_web_socket(self) -> None:
        if self.web_socket is not None:
            self.web_socket.close()
            self.web_socket = None

    def _watch_broker(self) -> None:
        """The embedded broker, watched while `event serve` runs: when its process ends by
        itself (killed, out of memory), it is reaped and started again on the same address
        with the same credentials, said once in the terminal and the log; the director and
        the tables reconnect by themselves, and the director sends each table its seating
        again until the table says it holds it."""
        broker = self.broker
        assert broker is not None
        while not self._stopping.is_set():
            status = broker.wait_ended(0.5)
            if status is None or self._stopping.is_set():
                continue
            text = _("The broker stopped (exit status {status}): starting it again on {addr}; "
                     "the tables reconnect by themselves.").format(status=status,
                                                                   addr=self.opts.listen)
            log.warning("%s", text)
            self.opts.say(text)
            tries = 0
            while not self._stopping.is_set():
                try:
                    broker.restart()
                except OSError as exc:  # the port not free yet: again, a little later
                    tries += 1
                    if tries == 1:
                        log.warning("the broker cannot start again yet (%s): trying on", exc)
                    self._stopping.wait(min(0.2 * tries, 2.0))
                    continue
                if self._stopping.is_set():
                    broker.stop()
                    return
                text = _("The broker is back on {addr}.").format(addr=self.opts.listen)
                log.warning("%s", text)
                self.opts.say(text)
                break

    def stop(self) -> None:
        self._stopping.set()
        self.close_web_socket()
        if self._watcher is not None:
            self._watcher.join(25)
            self._watcher = None
        if self.sync is not None:
            self.sync.stop()
            self.sync = None
        if self.broker is not None:
            self.broker.close()


def serve(opts: ServeOptions, stop: threading.Event) -> int:
    """Run until `stop` is set, then clean up; returns the exit status. The command that
    runs the process sets it on Ctrl-C and SIGTERM (`uno-showdown event serve`): the process's
    signals are its program's to own, not a library's."""
    served = Served(opts)
    say = opts.say
    try:
        for line in served.write_files():
            say(line)
        web = parse_host_port(opts.web, "127.0.0.1", _("the web page")) if opts.web else None
        hub = None
        if web is not None:
            from championship.web.app import Hub

            hub = Hub()
        served.start(on_state=hub.publish if hub is not None else None)
        say(_("The broker: {url}. Each table joins with its line, on its own computer "
              "(with its credentials file there):").format(url=served.public.url))
        for line in served.join_lines():
            say(line)
        if web is not None and hub is not None and served.web_socket is not None:
            _run_web(hub, web, served.web_socket, say, stop)
        else:
            say(_("Press Ctrl-C to stop."))
            stop.wait()
    finally:
        served.stop()
    return 0


def _run_web(hub: object, web: tuple[str, int], sock: socket.socket,
             say: Callable[[str], None], stop: threading.Event) -> None:
    """The live page on the socket bound before anything was written, until `stop`."""
    from championship.web.app import Hub, create_app
    from championship.web.limits import server_limits

    assert isinstance(hub, Hub)
    from showdown.contract.i18n import current_language

    app = create_app(hub, current_language())
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False,
                            **server_limits())
    server = _QuietServer(config)
    hosts = preflight.page_hosts(web[0])
    urls = [f"http://{h if ':' not in h else f'[{h}]'}:{web[1]}/" for h in hosts]
    say(_("The live page: {url} (Ctrl-C stops everything).").format(url=", ".join(urls)))
    if web[0] in ("127.0.0.1", "::1", "localhost"):
        say(_("Only this computer can open it; --web 0.0.0.0:{port} lets phones on the "
              "bar's network in.").format(port=web[1]))
    elif sys.stdout.isatty():
        say(preflight.qr_text(urls[0]))

    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as exc:  # raised again in the main thread
            failed.append(exc)
        finally:
            stop.set()  # a page that ended by itself stops the rest too

    page = threading.Thread(target=run, name="web", daemon=True)
    page.start()
    stop.wait()
    hub.close()  # the phones' streams end first: nothing left for the server to cancel
    server.should_exit = True
    page.join(STOP_GRACE_S)
    if page.is_alive():  # whatever the streams do, the stop is the director's
        server.force_exit = True
        page.join(1.0)
    if failed:
        raise failed[0]


class _QuietServer(uvicorn.Server):
    """uvicorn's server without its own signal handling: `event serve` owns SIGINT and
    SIGTERM, and `serve` stops the page, the director and the broker the same way for both
    (uvicorn raised the signal again after its own shutdown, and SIGTERM then ended the
    process before the broker and the director were stopped)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
