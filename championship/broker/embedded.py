"""The embedded broker: amqtt, started by `uno-showdown event serve` in a process of its
own, with authentication on (amqtt's `FileAuthPlugin` over argon2 hashes: no anonymous
client gets in) and amqtt's topic ACL plugin (each table writes only its own topic; see
`credentials.acl`). Nothing else is loaded: no $SYS topics, no anonymous plugin.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import multiprocessing
import multiprocessing.connection
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from amqtt.plugins.topic_checking import TopicAccessControlListPlugin

from championship.broker.credentials import acl, amqtt_password_file
from championship.core.access import Credentials
from championship.core.i18n import _

log = logging.getLogger("uno-showdown.broker")


def broker_config(host: str, port: int, password_file: Path, event_id: int,
                  tables: Iterable[int], certfile: Path | None = None,
                  keyfile: Path | None = None) -> dict[str, Any]:
    publish, subscribe = acl(event_id, tables)
    listener: dict[str, Any] = {"type": "tcp", "bind": f"{host}:{port}"}
    if certfile is not None:
        listener |= {"ssl": True, "certfile": str(certfile), "keyfile": str(keyfile)}
    return {
        "listeners": {"default": listener},
        "plugins": {
            "amqtt.plugins.authentication.FileAuthPlugin": {"password_file": str(password_file)},
            "championship.broker.embedded.TableTopicsPlugin": {
                "publish_acl": publish, "acl": subscribe, "receive_acl": subscribe},
        },
    }


class TableTopicsPlugin(TopicAccessControlListPlugin):
    """amqtt's topic ACL, also asked before a message is passed on to a client: amqtt 0.12
    reads a `receive-acl` but its plugin's configuration has no field for it."""

    @dataclass
    class Config:
        publish_acl: dict[str, list[str]] = field(default_factory=dict)
        acl: dict[str, list[str]] = field(default_factory=dict)
        receive_acl: dict[str, list[str]] = field(default_factory=dict)


async def _shutdown(broker: Any) -> None:
    """amqtt's shutdown, after the listeners and the clients' connections are closed.

    amqtt stops each client's handler by cancelling its reader and waiting until the reader
    says it stopped; on Python 3.11 a cancellation that meets a read completing inside
    `asyncio.wait_for` can be lost, the reader never says so, and the shutdown waits for
    ever. amqtt closes its listeners only at the end of it, so the port then stays bound and
    a broker started again on it is refused ("address already in use"; the restart test saw
    it under load). So: first stop listening (no client gets in while the broker goes down,
    and the port is free whatever happens next), then close each client's connection (its
    reader sees the end of the stream and stops on its own, lost cancellation or not; the
    tables reconnect, as after any broker restart), then amqtt's own shutdown. `close()`
    only on the listeners: `wait_closed()` would wait, on Python 3.12, for the very
    connections the shutdown is about to end.
    """
    for server in broker._servers.values():
        instance = getattr(server, "instance", None)  # an external listener has none
        if instance is not None:
            instance.close()
    for _session, handler in list(broker._sessions.values()):
        stream = getattr(getattr(handler, "writer", None), "_writer", None)
        if isinstance(stream, asyncio.StreamWriter):
            stream.close()
    await broker.shutdown()


def _serve(config: dict[str, Any], client_ids: dict[str, str], conn: Connection,
           connect_timeout_s: float | None) -> None:
    """The broker's process: amqtt on its own loop until the parent says stop (or goes away:
    its end of the pipe closes), then the clean shutdown. Tells the parent `ready`, or why it
    could not start, in one message."""
    import os

    from championship.broker.guarded import GuardedBroker

    os.setsid()  # out of the terminal's group: Ctrl-C is the parent's, which stops us in turn
    loggers = [logging.getLogger(name) for name in ("amqtt", "transitions")]
    for logger in loggers:  # a failed start is told to the parent, not as a traceback here
        logger.setLevel(logging.CRITICAL)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        broker = GuardedBroker(config, loop, client_ids, connect_timeout_s=connect_timeout_s)
        loop.run_until_complete(broker.start())
    except BaseException as exc:  # told to the parent, which says it in one line
        conn.send(("error", *_why(exc)))
        loop.close()
        return
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    conn.send(("ready", None, ""))
    stop = asyncio.Event()
    loop.add_reader(conn.fileno(), stop.set)  # a word from the parent, or its end
    loop.run_until_complete(stop.wait())
    try:
        loop.run_until_complete(asyncio.wait_for(_shutdown(broker), 20))
    except Exception:  # the process ends anyway, and the port with it
        log.exception("the broker did not shut down cleanly")
    loop.close()


def _why(exc: BaseException) -> tuple[int | None, str]:
    """The errno and the words of the OSError behind a failed start (amqtt wraps it)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno:
            return seen.errno, seen.strerror or str(seen)
        seen = seen.__cause__ or seen.__context__
    return None, " ".join(str(exc).split()) or type(exc).__name__


class EmbeddedBroker:
    """amqtt in a process of its own; `start()` returns once it listens.

    Its own process, not a thread beside the director: a burst of fifty tables' messages
    keeps amqtt's loop busy, and in one interpreter it and the director's sync would take
    turns at one lock, each delivery waiting for the other's work. Apart, each has a core.
    The process is started fresh (`spawn`: nothing of the director's threads is copied),
    told to stop through a pipe, and shuts down by itself if the director dies.
    """

    def __init__(self, host: str, port: int, event_id: int, users: Iterable[Credentials],
                 tables: Iterable[int], *, certfile: Path | None = None,
                 keyfile: Path | None = None, connect_timeout_s: float | None = None) -> None:
        """`connect_timeout_s`: how long a new connection has to send its CONNECT (None:
        `guarded.CONNECT_TIMEOUT_S`). The broker's process is told it when it starts: a
        change of `guarded.CONNECT_TIMEOUT_S` in this process does not reach it."""
        users = list(users)
        self.connect_timeout_s = connect_timeout_s
        self._client_ids = {c.username: c.client_id for c in users}
        self._dir = tempfile.TemporaryDirectory(prefix="uno-showdown-broker-")
        password_file = Path(self._dir.name) / "passwd"
        password_file.write_text(amqtt_password_file(users), encoding="utf-8")
        password_file.chmod(0o600)
        self.config = broker_config(host, port, password_file, event_id, list(tables),
                                    certfile, keyfile)
        self.host, self.port = host, port
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    @property
    def pid(self) -> int | None:
        """The broker's process (for a benchmark's CPU figures), while it runs."""
        return self._process.pid if self._process is not None else None

    def start(self, timeout: float = 20.0) -> None:
        """Start the broker and wait until it listens; OSError says why it cannot (the
        port taken, a certificate that does not load), in its own words."""
        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(self.config, self._client_ids, theirs,
                                                   self.connect_timeout_s),
                              name="broker", daemon=True)
        process.start()
        theirs.close()
        try:
            if not mine.poll(timeout):
                raise OSError(errno.ETIMEDOUT, _("it did not start in {s:g} s").format(s=timeout))
            kind, code, reason = mine.recv()
        except EOFError:
            kind, code, reason = "error", None, _(
                "its process ended at once (exit status {status})").format(
                status=process.exitcode)
        except BaseException:
            process.kill()
            process.join()
            mine.close()
            raise
        if kind != "ready":
            process.join(5)
            mine.close()
            raise OSError(code or 0, reason)
        self._process, self._conn = process, mine

    def wait_ended(self, timeout: float) -> int | None:
        """Wait up to `timeout` s for the broker's process to end by itself; its exit
        status when it has (a SIGKILL: -9), None while it runs or when it was not started."""
        process = self._process
        if process is None:
            return None
        multiprocessing.connection.wait([process.sentinel], timeout)
        if process.is_alive():
            return None
        process.join()  # reaped: no <defunct> process left behind
        return process.exitcode if process.exitcode is not None else -1

    def restart(self, timeout: float = 20.0) -> None:
        """Start the broker again after its process ended, on the same address with the
        same users, passwords and client ids (the password file is kept for the broker's
        whole life): the tables' and the director's credentials stay good, and they
        reconnect by themselves. OSError when it cannot listen again yet."""
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
        if self._process is not None:
            self._process.join(timeout)
        self._process = self._conn = None
        self.start(timeout)

    def stop(self, timeout: float = 20.0) -> None:
        process, conn = self._process, self._conn
        if process is None or conn is None:
            return
        with contextlib.suppress(OSError):
            conn.send("stop")
        process.join(timeout)
        if process.is_alive():
            log.error("the broker did not stop in %g s: ended", timeout)
            process.kill()
            process.join()
        conn.close()
        self._process = self._conn = None

    def close(self) -> None:
        self.stop()
        self._dir.cleanup()
