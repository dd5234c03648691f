"""One connection to the broker, on paho-mqtt: authenticated, optionally TLS, a persistent
session (clean_session false: the broker keeps what is published to us while we are away),
QoS 1, and reconnecting by itself.

paho runs its own network thread; messages are handed over through a queue and never
handled on that thread, so a slow disk never stalls the connection (the pattern of
pyserial's `serial.threaded`: callbacks outside the reader's lock).

Brokers are named by URL: `mqtt://HOST:PORT` (1883 by default) or `mqtts://HOST:PORT` (TLS,
8883 by default).
"""

from __future__ import annotations

import queue
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

from championship.core.errors import ChampionshipError
from championship.core.i18n import _


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(url: str) -> BrokerAddress:
    """`mqtt://HOST:PORT` or `mqtts://HOST:PORT`, refused in one sentence otherwise."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    port_text = parts.netloc.rpartition("]")[2].rpartition(":")[2] if parts and (
        ":" in parts.netloc.rpartition("]")[2]) else ""
    if parts is None or parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or (
            parts.path not in ("", "/")) or parts.username or parts.password or (
            parts.query or parts.fragment or "?" in url or "#" in url) or port == 0 or (
            port_text and not (port_text.isascii() and port_text.isdigit())) or (
            not url.isprintable()):
        raise ChampionshipError(_("{url} is not a broker address: write mqtt://HOST:PORT (or "
                           "mqtts://HOST:PORT for TLS)").format(url=url or "''"))
    tls = parts.scheme == "mqtts"
    return BrokerAddress(parts.hostname, port or (8883 if tls else 1883), tls)


#: Seconds between pings: a broker gone silent (or a connection taken over) is noticed in
#: one and a half of these, and the link reconnects at once.
KEEPALIVE_S = 4


@dataclass(frozen=True, slots=True)
class Inbound:
    topic: str
    payload: bytes


class BrokerLink:
    """A client of the broker; see the module docstring. `inbox` holds what arrives."""

    def __init__(self, address: BrokerAddress, client_id: str, username: str, password: str,
                 subscriptions: Sequence[str], *, ca_pem: str | None = None,
                 keepalive: int = KEEPALIVE_S, check_hostname: bool = True,
                 on_change: Callable[[str], None] | None = None,
                 clean_session: bool = False) -> None:
        self.address = address
        self.client_id = client_id
        self.subscriptions = tuple(subscriptions)
        self.inbox: queue.Queue[Inbound] = queue.Queue()
        self.connected = threading.Event()
        self.connections = 0  # how many times it has connected
        self.refused: str | None = None  # why the broker refused us, if it did
        self.refused_code: int | None = None  # and its reason code
        self.lost = 0  # how many times an open connection was lost
        self._closing = False
        self.on_change = on_change or (lambda text: None)  # told, from paho's thread
        # A clean session replaces a connection the broker still holds for the id: the
        # embedded broker refuses a persistent one while another client holds the id
        # (`guarded`), and closes that client's for a clean one. A table's agent connects
        # with an id of its own run and a clean session (`table_agent`).
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=clean_session, protocol=mqtt.MQTTv311)
        client.username_pw_set(username, password)
        if address.tls:
            context = ssl.create_default_context(cadata=ca_pem) if ca_pem else \
                ssl.create_default_context()
            # The director on the embedded broker's own loopback still checks the chain.
            context.check_hostname = check_hostname
            client.tls_set_context(context)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        client.max_inflight_messages_set(100)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client
        self.keepalive = keepalive

    def start(self) -> None:
        self.client.connect_async(self.address.host, self.address.port, self.keepalive)
        self.client.loop_start()

    def close(self) -> None:
        self._closing = True
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Hand a message to paho (QoS 1): it is sent now, or when the link is back."""
        self.client.publish(topic, payload, qos=1, retain=retain)

    def publish_last(self, topic: str, payload: bytes, timeout: float) -> bool:
        """Publish a last word before closing: wait (at most `timeout` seconds) until the
        broker has it; True if it does."""
        info = self.client.publish(topic, payload, qos=1)
        try:
            info.wait_for_publish(timeout)
        except (RuntimeError, ValueError):  # not connected, or the queue is full
            return False
        return info.is_published()

    # -- paho's thread --

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object,
                    reason: mqtt.ReasonCode, _props: object) -> None:
        if reason.is_failure:
            self.refused, self.refused_code = str(reason), reason.value
            return
        self.refused, self.refused_code = None, None
        for topic in self.subscriptions:
            client.subscribe(topic, qos=1)
        if self.lost:
            self.on_change(_("Connected to the broker at {url} again.").format(
                url=self.address.url))
        self.connections += 1
        self.connected.set()
        self.inbox.put(Inbound("", b""))  # wakes the owner: it sends its outbox again

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object,
                       reason: object, _props: object) -> None:
        was = self.connected.is_set()
        self.connected.clear()
        if was and not self._closing:
            self.lost += 1
            self.on_change(_("Lost the broker at {url} ({reason}); reconnecting.").format(
                url=self.address.url, reason=reason))

    def _on_message(self, _client: mqtt.Client, _userdata: object,
                    msg: mqtt.MQTTMessage) -> None:
        self.inbox.put(Inbound(msg.topic, bytes(msg.payload)))
