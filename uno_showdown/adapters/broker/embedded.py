"""The embedded broker: amqtt, started by `uno-showdown event serve` on its own thread and
asyncio loop, with authentication on (amqtt's `FileAuthPlugin` over argon2 hashes: no
anonymous client gets in) and amqtt's topic ACL plugin (each table writes only its own
topic; see `credentials.acl`). Nothing else is loaded: no $SYS topics, no anonymous plugin.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
import threading
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from amqtt.plugins.topic_checking import TopicAccessControlListPlugin

from uno_showdown.adapters.broker.credentials import acl, amqtt_password_file
from uno_showdown.core.championship.access import Credentials

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
            "uno_showdown.adapters.broker.embedded.TableTopicsPlugin": {
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


class EmbeddedBroker:
    """amqtt on a thread of its own; `start()` returns once it listens."""

    def __init__(self, host: str, port: int, event_id: int, users: Iterable[Credentials],
                 tables: Iterable[int], *, certfile: Path | None = None,
                 keyfile: Path | None = None) -> None:
        users = list(users)
        self._client_ids = {c.username: c.client_id for c in users}
        self._dir = tempfile.TemporaryDirectory(prefix="uno-showdown-broker-")
        password_file = Path(self._dir.name) / "passwd"
        password_file.write_text(amqtt_password_file(users), encoding="utf-8")
        password_file.chmod(0o600)
        self.config = broker_config(host, port, password_file, event_id, list(tables),
                                    certfile, keyfile)
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Any = None

    def start(self, timeout: float = 20.0) -> None:
        ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="broker",
                                        daemon=True)
        self._thread.start()
        ready.result(timeout)

    def _run(self, ready: Future[None]) -> None:
        from uno_showdown.adapters.broker.guarded import GuardedBroker

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.ERROR)
        quiet_start = logging.getLogger("amqtt.broker")
        # A failed start is raised to the caller, who says it in one line: amqtt's own
        # traceback of it would only bury that line.
        quiet_start.setLevel(logging.CRITICAL)
        try:
            self._broker = GuardedBroker(self.config, loop, self._client_ids)
            loop.run_until_complete(self._broker.start())
            quiet_start.setLevel(logging.NOTSET)
        except BaseException as exc:
            self._loop = self._broker = None  # nothing runs: stop() has nothing to stop
            # amqtt wraps a port already in use in its BrokerError: the OSError under it is
            # what the caller can name (the address, and what to do).
            cause = exc.__cause__
            ready.set_exception(cause if isinstance(cause, OSError) else exc)
            loop.close()
            return
        ready.set_result(None)
        loop.run_forever()
        loop.close()

    def stop(self, timeout: float = 20.0) -> None:
        loop, broker = self._loop, self._broker
        if loop is None or broker is None or self._thread is None:
            return
        done = asyncio.run_coroutine_threadsafe(_shutdown(broker), loop)
        try:
            done.result(timeout)
        except Exception:  # the broker is going anyway
            log.exception("the broker did not shut down cleanly")
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(timeout)
        self._loop = self._broker = self._thread = None

    def close(self) -> None:
        self.stop()
        self._dir.cleanup()
