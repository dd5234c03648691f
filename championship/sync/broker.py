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

from championship.sync.credentials import Credentials, acl, amqtt_password_file

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
            "championship.sync.broker.TableTopicsPlugin": {
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


class EmbeddedBroker:
    """amqtt on a thread of its own; `start()` returns once it listens."""

    def __init__(self, host: str, port: int, event_id: int, users: Iterable[Credentials],
                 tables: Iterable[int], *, certfile: Path | None = None,
                 keyfile: Path | None = None) -> None:
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
        from amqtt.broker import Broker

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.ERROR)
        try:
            self._broker = Broker(self.config, loop=loop)
            loop.run_until_complete(self._broker.start())
        except BaseException as exc:
            ready.set_exception(exc)
            loop.close()
            return
        ready.set_result(None)
        loop.run_forever()
        loop.close()

    def stop(self, timeout: float = 20.0) -> None:
        loop, broker = self._loop, self._broker
        if loop is None or broker is None or self._thread is None:
            return
        done = asyncio.run_coroutine_threadsafe(broker.shutdown(), loop)
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
