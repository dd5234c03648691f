"""A table's agent: `uno-showdown table join`. It keeps the table's games file and the
director in step through the broker, and never stands between the table and its file.

* The director's seating arrives (retained, signed): the agent writes the table's games and
  clocks into the table's own file, so the companion's screen or `uno-showdown game round`
  records there as at any table, offline or not.
* Whatever the table records, the agent finds in the file (SQLite's `data_version` tells it
  another program wrote) and queues in the outbox in the same file (`outbox`), then
  publishes at QoS 1; the director's acknowledgement empties the outbox. Without the
  broker the table keeps playing; on reconnect everything not acknowledged goes again.
* The standings and the clock the director broadcasts are kept in the file too
  (`uno-showdown table status` prints them). The standings change with every deal at every
  table, so only the newest is written, at most once every `STANDINGS_WRITE_S`: a table
  does not spend a disk write on each of fifty tables' deals.

One thread owns the file and the outbox; paho's thread only hands messages over.
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from championship.broker.link import BrokerAddress, BrokerLink
from championship.broker.signing import DirectorVerifier
from championship.core import messages as wire
from championship.core.access import Credentials
from championship.core.i18n import _
from championship.core.presence import HEARTBEAT_S
from championship.desk.quiet_log import QuietLog
from championship.store.table_file import TableFile
from companion.store import wallclock
from companion.store.games import Store
from showdown.contract.errors import CompanionError

log = logging.getLogger("uno-showdown.table")
quiet = QuietLog(log)

#: Seconds without an acknowledgement before everything unacknowledged is sent again,
#: counted from when the director answered a heartbeat sent after them: the broker passes a
#: table's messages on in order, so until then they may still be queued behind a burst of
#: fifty tables' (sending them again would only double the queue), and after it they were
#: lost (a broker that dropped one).
RESEND_S = 3.0
#: How often the agent looks at the games file for what the table recorded.
POLL_S = 0.1
#: The least time between two writes of the director's standings into the games file.
STANDINGS_WRITE_S = 1.0
#: The least change of the measured clock offset (µs) that moves the clocks in the file.
CLOCK_STEP_US = 200_000
#: The longest a stopping agent waits for the broker to take its last word.
LEAVE_S = 2.0
#: The most queued messages sent in one step.
OUTBOX_BATCH = 1000


def host_name() -> str:
    """This computer's name as the director is told it: printable, at most 64 characters."""
    try:
        name = socket.gethostname()
    except OSError:
        return ""
    return "".join(c for c in name if c.isprintable())[:64]


class TableAgent:
    """See the module docstring. `start()` runs it in a thread, `stop()` ends it."""

    def __init__(self, db_path: str, address: BrokerAddress, creds: Credentials, table: int,
                 *, say: Callable[[str], None] | None = None, take_over: bool = False) -> None:
        assert creds.table == table
        if creds.director_key is None:  # `read_credentials` refuses such a file first
            raise ValueError(f"table {table}'s credentials hold no director's key")
        self.creds = creds
        #: The director's public key: what the director says is checked against it, never
        #: against the table's own secret (anyone holding this table's file has that).
        self.director = DirectorVerifier(creds.director_key)
        self.event_id = creds.event
        self.table = table
        self.store = Store(db_path)
        self.file = TableFile(self.store, creds.event, table)
        #: This run of the agent, as the director knows it (`championship.core.agents`): a
        #: token, this computer's name, and whether it was asked to take the table over.
        self.token = secrets.token_hex(8)
        self.host = host_name()
        self.take_over = take_over
        #: Set when the director told this agent to stop (another holds the table).
        self.stopped: wire.Stop | None = None
        # A client id of its own (the credentials' id and the token), in a clean session: a
        # broker never throws one agent of a table off for another (mosquitto lets the newer
        # of two connections with one id win, for ever in turn); the director decides which
        # agent holds the table, and a reconnection of this one replaces its own old
        # connection at once.
        self.link = BrokerLink(address, f"{creds.client_id}-{self.token}",
                         creds.username, creds.secret,
                         [wire.down_topic(creds.event, table), wire.ack_topic(creds.event, table),
                          wire.standings_topic(creds.event)], ca_pem=creds.ca_pem,
                         on_change=self._said, clean_session=True)
        self.say = say or (lambda text: None)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._sent_upto = 0  # the highest outbox number sent on this connection
        self._unsent = True  # the outbox may hold messages above `_sent_upto`
        self._last_progress = time.monotonic()
        self._sent_us = 0  # when the outbox was last sent from (this clock, µs)
        self._passed_at: float | None = None  # when a heartbeat sent after that was answered
        self._data_version = -1
        self._standings: bytes | None = None  # the newest standings, not yet written
        self._standings_written = -STANDINGS_WRITE_S
        self._beaten = -HEARTBEAT_S  # when the last heartbeat went (monotonic)
        self._linked: bool | None = None  # the broker, as last noted in the file
        self._losses = 0  # the link's count of lost connections, as last looked at
        self._lost = False  # the loss of the broker was said, its return not yet
        #: This clock minus the director's (µs), from (round trip, offset) of recent replies.
        self.offset_us = 0
        self._times: deque[tuple[int, int]] = deque(maxlen=8)
        self._seating: wire.Seating | None = None
        self.seated = threading.Event()
        self._told_unused: set[str] = set()  # the draws this table was told it has no seat in
        self.acked = 0
        self.ignored = 0

    def _said(self, text: str) -> None:
        """The link lost the broker or found it again: logged (the table's terminal hears it
        once, from `note_link`, with what waits to be sent)."""
        log.info("table %s: %s", self.table, text)

    # -- running --

    def start(self) -> None:
        self.link.start()
        self._thread = threading.Thread(target=self._run, name=f"table-{self.table}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(10)
        if self.stopped is None and self.link.connected.is_set():
            self._leave()
        if self._thread is None or not self._thread.is_alive():  # else it still owns the file
            try:
                self.write_standings(force=True)
                with self.store.transaction() as conn:
                    self.file.set_meta(conn, "link", json.dumps(
                        {"linked": False, "since": wallclock.now(), "stopped": True}))
            except Exception:  # the file is busy or gone: the next run is told them again
                log.exception("table %s: could not keep the last standings", self.table)
        self.link.close()
        self.store.close()

    def _leave(self) -> None:
        """The agent's last heartbeat: it stops, so the table is free for another agent (a
        replacement machine) at once, not once the director stops hearing this one."""
        up = wire.Up(self.table, self.file.source, 0, wire.Heartbeat(
            wallclock.now(), self.file.pending(), self.token, self.host, self.take_over,
            leaving=True))
        self.link.publish_last(wire.up_topic(self.event_id, self.table),
                               wire.encode_up(up, self.creds.secret), LEAVE_S)

    def _run(self) -> None:
        self.scan()
        while not self._stop.is_set() and self.stopped is None:
            msgs = []
            try:
                msgs.append(self.link.inbox.get(timeout=POLL_S))
                while True:  # take everything waiting before writing anything
                    msgs.append(self.link.inbox.get_nowait())
            except queue.Empty:
                pass
            for msg in msgs:
                try:
                    self._handle(msg.topic, msg.payload)
                except Exception:  # a bad message must not end the table's sync
                    log.exception("table %s: a message on %s failed", self.table, msg.topic)
            if self.stopped is not None:  # told to stop: not a lost broker, nothing to send
                break
            try:
                self.step()
            except Exception:  # a bad moment must not end the table's sync
                log.exception("table %s: sync step failed", self.table)

    def step(self) -> None:
        """Queue what the table recorded, send what is queued, say it is here."""
        version = self.store.data_version()
        if version != self._data_version:
            self._data_version = version
            self.scan()
        self.beat()  # first: the director hears of this file before its deals
        self.flush()
        self.note_link()
        self.write_standings()

    def beat(self) -> None:
        """Every `HEARTBEAT_S` while the broker is there (and at once on connecting): the
        table's clock and its outbox, so the director measures the clock's offset and shows
        the table as present. Never queued: a heartbeat is worth something only now."""
        if not self.link.connected.is_set():
            return
        now = time.monotonic()
        if now - self._beaten < HEARTBEAT_S:
            return
        self._beaten = now
        up = wire.Up(self.table, self.file.source, 0,
                     wire.Heartbeat(wallclock.now(), self.file.pending(), self.token,
                                    self.host, self.take_over))
        self.link.publish(wire.up_topic(self.event_id, self.table),
                          wire.encode_up(up, self.creds.secret))

    def note_link(self) -> None:
        """When the broker went or came back, in the file (for `table status`) and said.

        A loss is the link's count of lost connections moving, not only a connection seen
        here and then missed: one lost between two looks (connected and dropped before this
        thread first saw it, on a busy machine) is said all the same."""
        linked = self.link.connected.is_set()
        losses = self.link.lost
        went, self._losses = losses != self._losses, losses
        if linked == self._linked and not went:
            return
        self._linked = linked
        since = wallclock.now()
        with self.store.transaction() as conn:
            self.file.set_meta(conn, "link", json.dumps({"linked": linked, "since": since}))
        if went and not self._lost:
            self._lost = True
            self.say(_("Lost the broker at {time}: the table keeps recording (waiting to be "
                       "sent: {n}).").format(time=wallclock.local_time(since),
                                                  n=self.file.pending()))
        if linked and self._lost:  # back already, maybe since the same look
            self._lost = False
            self.say(_("The broker is back: sending what waits."))

    def write_standings(self, *, force: bool = False) -> None:
        """Keep the newest standings in the file, at most once every `STANDINGS_WRITE_S`."""
        now = time.monotonic()
        if self._standings is None or (
                not force and now - self._standings_written < STANDINGS_WRITE_S):
            return
        with self.store.transaction() as conn:
            self.file.set_meta(conn, "standings", self._standings.decode())
        self._standings, self._standings_written = None, now

    def scan(self) -> int:
        queued = self.file.scan()
        if queued:
            self._unsent = True
        return queued

    def flush(self) -> None:
        if not self.link.connected.is_set():
            return
        now = time.monotonic()
        passed = self._passed_at
        if passed is not None and now - max(self._last_progress, passed) > RESEND_S:
            self._last_progress = now
            if self.file.pending():
                self._sent_upto = 0  # no word from the director for a while: send all again
                self._unsent = True
        if not self._unsent:
            return
        batch = self.file.outbox(OUTBOX_BATCH, after=self._sent_upto)
        if batch and self.acked >= self._sent_upto:
            self._last_progress = now  # nothing was waiting for an answer: the wait starts now
        for q in batch:
            self.link.publish(wire.up_topic(self.event_id, self.table),
                              self.file.payload(q, self.creds.secret))
            self._sent_upto = q.seq
        if batch:  # the next heartbeat answered tells they are through the broker
            self._sent_us, self._passed_at = wallclock.now(), None
        self._unsent = len(batch) == OUTBOX_BATCH  # more waits behind a full batch

    def _took_time(self, reply: wire.TimeReply) -> None:
        """The director answered a heartbeat: this clock's offset to the director's is the
        middle of the round trip minus the director's time, taken from the quickest of the
        recent round trips. When it moves, the clocks in the file are moved with it."""
        arrived = wallclock.now()
        if reply.echo_us > self._sent_us and self._passed_at is None:
            self._passed_at = time.monotonic()  # what was sent before it is through
        rtt = arrived - reply.echo_us
        if rtt < 0:
            return  # not one of this run's heartbeats
        self._times.append((rtt, (reply.echo_us + arrived) // 2 - reply.now_us))
        offset = min(self._times)[1]
        if abs(offset - self.offset_us) < CLOCK_STEP_US:
            return
        self.offset_us = offset
        with self.store.transaction() as conn:
            self.file.set_meta(conn, "clock", json.dumps({"offset_us": offset,
                                                          "rtt_us": min(self._times)[0]}))
        if self._seating is not None:
            self.file.apply_seating(self._seating, offset)

    def _say_if_unused(self, state: dict[str, Any]) -> None:
        """Tell whoever waits at a table the draw left out, once per draw: otherwise `table
        join` on it would wait for a seating that never comes, in silence."""
        if self.seated.is_set():
            return
        stages = [s for s in state.get("stages", ()) if isinstance(s, dict)]
        ours = any(isinstance(t, dict) and t.get("table") == self.table
                   for s in stages for t in s.get("tables", ()))
        if not stages or ours:
            return
        title = str(stages[-1].get("title", ""))
        if title in self._told_unused:
            return
        self._told_unused.add(title)
        used = sorted({t["table"] for s in stages for t in s.get("tables", ())
                       if isinstance(t, dict) and isinstance(t.get("table"), int)})
        self.say(_("The draw of {stage} seats nobody at table {table} (it uses tables "
                   "{used}): this table waits, in case a later draw seats it; Ctrl-C stops."
                   ).format(stage=title, table=self.table,
                            used=", ".join(str(n) for n in used)))

    # -- what arrives --

    def _handle(self, topic: str, payload: bytes) -> None:
        if topic == "":  # (re)connected: everything unacknowledged goes again
            self._beaten = -HEARTBEAT_S  # and the director hears the table's clock at once
            self._sent_upto = 0
            self._unsent = True
            self._last_progress = time.monotonic()
            self._passed_at = None
            return
        try:
            if topic == wire.down_topic(self.event_id, self.table):
                seating = wire.decode_seating(payload, self.director, self.table)
                self._seating = seating
                for stage in self.file.apply_seating(seating, self.offset_us):
                    self.say(_("Seated for {stage}: game {game} in {path}.").format(
                        stage=stage, game=self.file.current_game(stage),
                        path=self.store.path))
                for text in self.file.note_words(seating.words):  # the director's word
                    log.info("table %s: %s", self.table, text)
                    self.say(text)
                self.seated.set()
                self.scan()
                # in the file: the director may stop sending it again
                self.link.publish(wire.up_topic(self.event_id, self.table), wire.encode_seen(
                    self.table, wire.seating_digest(payload), self.creds.secret))
                # The director is there: it hears this file now, before the deals seated on
                # it (a heartbeat sent before it listened was lost, and the next is up to
                # HEARTBEAT_S away: the first deals would be held as from an unknown file).
                self._beaten = -HEARTBEAT_S
            elif topic == wire.ack_topic(self.event_id, self.table) and wire.is_stop(payload):
                stop = wire.decode_stop(payload, self.director, self.table)
                if stop.agent == self.token:  # another agent holds the table: this one ends
                    log.info("table %s: told to stop (%s, the agent on %s holds it)",
                                self.table, stop.why, stop.host)
                    self.stopped = stop
                    self.link.close()
            elif topic == wire.ack_topic(self.event_id, self.table) and wire.is_time(payload):
                self._took_time(wire.decode_time(payload, self.director, self.table))
            elif topic == wire.ack_topic(self.event_id, self.table):
                ack = wire.decode_ack(payload, self.director, self.table)
                if self.file.acknowledged(ack.source, ack.seq) or ack.seq >= self._sent_upto:
                    self._last_progress = time.monotonic()
                self.acked = max(self.acked, ack.seq)
                if ack.source == self.file.source:
                    for text in self.file.note_refused(ack.refused):
                        log.warning("table %s: %s", self.table, text)
                        self.say(text)
            elif topic == wire.standings_topic(self.event_id):
                state = wire.decode_standings(payload)  # written by `write_standings`
                self._standings = payload
                self._say_if_unused(state)
            else:  # amqtt 0.12 may pass on another table's retained topics: not ours
                log.debug("table %s: not our topic: %s", self.table, topic)
                return
        except wire.WireError as exc:
            self.ignored += 1
            quiet.warning(f"table {self.table}: ignored a message on {topic}: {exc}")
        except CompanionError as exc:  # signed, but not a seating this table can hold (a
            self.ignored += 1  # deck it does not know, two names that are one player)
            quiet.warning(f"table {self.table}: cannot use the message on {topic}: {exc}")
