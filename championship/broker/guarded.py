"""amqtt's broker, with what a bar's network needs and amqtt 0.12 does not do.

* **Credentials before sessions.** amqtt 0.12 deletes (clean session) or takes over
  (persistent session) the session of a CONNECT's client id before it checks the user and
  password: one CONNECT without a password and the director's id cut the director off, its
  TCP connection left open so it never noticed. Here the CONNECT is authenticated first,
  and its client id must be the one these credentials make (`access.client_id`); a CONNECT
  that fails either is answered "not authorised" and closed, and no session is touched.
* **One client per id.** A second CONNECT with the same credentials and id while the first
  is connected (a second `table join` of one table) is refused ("identifier rejected"),
  unless it asks for a clean session: that is a take-over (`table join --take-over`), and
  the old connection is closed, so its owner sees it (and, reconnecting, is refused in
  turn and says so), instead of being left on a socket nobody reads.
* **Bounded.** A CONNECT must arrive within `CONNECT_TIMEOUT_S`; at most `MAX_CONNECTIONS`
  clients are held at once (the next is closed at once, not queued on a file descriptor);
  a packet larger than `MAX_PACKET` closes its connection before it is read into memory.
* **Each table reads only its own topics, retained ones included.** amqtt sends a client
  that connects the retained messages of every subscription in the broker, whoever made
  it, without asking the topic ACL; here only its own subscriptions', and the ACL is asked
  for each.
* **No broadcast lost to a race.** amqtt iterates its subscriptions while it awaits the
  ACL plugin; a client subscribing meanwhile ended the broadcast task ("dictionary changed
  size during iteration") and dropped a message it had acknowledged. Its tables of
  subscriptions and retained messages iterate over a copy here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Mapping
from typing import Any

from amqtt.adapters import StreamReaderAdapter, StreamWriterAdapter
from amqtt.broker import Broker
from amqtt.contexts import Action
from amqtt.errors import AMQTTError, MQTTError, NoDataError
from amqtt.mqtt.connack import IDENTIFIER_REJECTED, ConnackPacket
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.session import Session

from championship.core.messages import MAX_PAYLOAD

log = logging.getLogger("uno-showdown.broker")

#: Seconds a new connection has to send its CONNECT.
CONNECT_TIMEOUT_S = 10.0
#: The most clients connected at once (a hundred tables, the director, watchers, and the ones
#: still connecting); with the page's 400 it stays under the usual 1,024 descriptors.
MAX_CONNECTIONS = 300
#: The largest packet read: a message of `MAX_PAYLOAD` and its topic and headers.
MAX_PACKET = MAX_PAYLOAD + 4096


class PacketTooLarge(Exception):
    """A client announced a packet larger than `MAX_PACKET`."""


class SnapshotDict(dict[Any, Any]):
    """A dict whose iteration is over a copy, so code that awaits while it iterates (amqtt's
    broadcast, its retained messages on reconnect) never sees it change size."""

    def __iter__(self) -> Iterator[Any]:
        return iter(list(super().__iter__()))

    def items(self) -> Any:
        return list(super().items())

    def values(self) -> Any:
        return list(super().values())

    def keys(self) -> Any:
        return list(super().keys())


class BoundedReader(StreamReaderAdapter):
    """amqtt reads a packet's body in one `read(n)`: a body larger than `MAX_PACKET` is
    refused before it is buffered (the connection ends)."""

    async def read(self, n: int = -1) -> bytes:
        if n < 0 or n > MAX_PACKET:
            raise PacketTooLarge(n)
        return await super().read(n)


class GuardedBroker(Broker):
    """See the module docstring. `client_ids` maps each user to its client id: it may
    connect with that id, or that id and `-` and anything (a second client of the same
    credentials, such as a watcher, with a session of its own)."""

    def __init__(self, config: dict[str, Any], loop: asyncio.AbstractEventLoop,
                 client_ids: Mapping[str, str], *,
                 connect_timeout_s: float | None = None) -> None:
        """`connect_timeout_s`: how long a new connection has to send its CONNECT (None:
        `CONNECT_TIMEOUT_S`)."""
        super().__init__(config, loop=loop)
        self.connect_timeout_s = (CONNECT_TIMEOUT_S if connect_timeout_s is None
                                  else connect_timeout_s)
        self._subscriptions: dict[str, Any] = SnapshotDict()  # empty until it starts
        self._retained_messages: dict[str, Any] = SnapshotDict()
        self._client_ids = dict(client_ids)
        self._vouched: set[int] = set()  # sessions authenticated before amqtt asks again
        self._connections = 0
        self.refused = 0  # CONNECTs refused (credentials, client id, time, the cap)

    async def stream_connected(self, reader: asyncio.StreamReader,
                               writer: asyncio.StreamWriter, listener_name: str) -> None:
        if self._connections >= MAX_CONNECTIONS:
            self.refused += 1
            writer.close()
            return
        self._connections += 1
        try:
            await self._client_connected(listener_name, BoundedReader(reader),
                                         StreamWriterAdapter(writer))
        except (OSError, asyncio.IncompleteReadError):
            # the client went away under us (a refused CONNECT whose client reset at once,
            # ENOTCONN, EPIPE): nothing to answer, and nothing for the log
            pass
        finally:
            self._connections -= 1
            if not writer.is_closing():
                writer.close()

    async def _initialize_client_session(self, reader: Any, writer: Any, remote_address: str,
                                         remote_port: int) -> tuple[BrokerProtocolHandler,
                                                                    Session]:
        try:
            handler, incoming = await asyncio.wait_for(
                BrokerProtocolHandler.init_from_connect(reader, writer, self.plugins_manager),
                self.connect_timeout_s)
        except (TimeoutError, MQTTError, NoDataError, PacketTooLarge, OSError,
                asyncio.IncompleteReadError) as exc:
            self.refused += 1
            with contextlib.suppress(OSError):
                await writer.close()
            raise AMQTTError(f"no valid CONNECT: {exc!r}") from None
        if not await self._authenticated(incoming):
            self.refused += 1
            incoming.parent = 0
            handler.attach(incoming, reader, writer)
            with contextlib.suppress(OSError):  # a client that reset at once hears nothing
                await handler.mqtt_connack_authorize(False)
                await writer.close()
            raise AMQTTError("not authorised")
        session = incoming
        previous = self._sessions.get(incoming.client_id)
        if (previous is not None and previous[0].transitions.is_connected()
                and not incoming.clean_session):
            # A second client with the same credentials and id while the first is connected
            # (a second `table join` of one table): refused, unless it takes over (a clean
            # session, `table join --take-over`).
            self.refused += 1
            incoming.parent = 0
            handler.attach(incoming, reader, writer)
            with contextlib.suppress(OSError):
                await handler._send_packet(ConnackPacket.build(0, IDENTIFIER_REJECTED))
                await writer.close()
            raise AMQTTError("the client id is connected")
        if previous is not None and previous[0].transitions.is_connected():
            await _close(previous[1])  # the old connection's owner must see it go
            for _ in range(100):  # until amqtt has seen it go (else its own take-over)
                if not previous[0].transitions.is_connected():
                    break
                await asyncio.sleep(0.02)
        if incoming.clean_session:
            await self._delete_session(incoming.client_id)
            incoming.parent = 0
        elif previous is not None and incoming.client_id in self._sessions:
            session = previous[0]
            session.keep_alive = incoming.keep_alive
            session.username, session.password = incoming.username, incoming.password
            session.will_flag, session.will_message = incoming.will_flag, incoming.will_message
            session.will_topic, session.will_qos = incoming.will_topic, incoming.will_qos
            session.parent = 1
        else:
            incoming.parent = 0
        self._vouched.add(id(session))
        return handler, session

    async def _authenticated(self, session: Session) -> bool:
        """The user's password (amqtt's plugins), and the client id of that user."""
        own = self._client_ids.get(session.username or "")
        cid = session.client_id or ""
        if own is None or not (cid == own or cid.startswith(own + "-")):
            return False
        return bool(await super()._authenticate(session, None))

    async def _authenticate(self, session: Session, listener: Any) -> bool:
        """amqtt asks again once the session is chosen: the answer was given above."""
        if id(session) in self._vouched:
            self._vouched.discard(id(session))
            return True
        return False

    async def _publish_retained_messages_for_subscription(
            self, subscription: tuple[str, int], session: Session) -> None:
        """amqtt's, but only for the session's own subscriptions (amqtt passes a client
        that connects the retained messages of every client's), and only what the ACL lets
        it receive."""
        topic_filter, qos = subscription
        handler = self._get_handler(session)
        if handler is None or not any(
                s.client_id == session.client_id
                for s, _qos in self._subscriptions.get(topic_filter, [])):
            return
        tasks = []
        for topic, retained in self._retained_messages.items():
            if self._matches(topic, topic_filter) and await self._topic_filtering(
                    session, topic=topic, action=Action.RECEIVE):
                tasks.append(asyncio.ensure_future(handler.mqtt_publish(
                    retained.topic, retained.data, min(qos, retained.qos or qos),
                    retain=True)))
        if tasks:
            await asyncio.wait(tasks)


async def _close(handler: BrokerProtocolHandler) -> None:
    """Close a client's connection under it (its reader then ends on its own)."""
    writer = getattr(handler, "writer", None)
    stream = getattr(writer, "_writer", None)
    if isinstance(stream, asyncio.StreamWriter):
        stream.close()
