"""The director's side of the sync: takes the tables' messages into the director's games
file and tells every table its seating, its clock and the standings.

One thread owns the file: it drains what paho's thread hands over, checks every message
(`wire.decode_up`: signed with the credentials of the table whose topic it came on, about
that same table, well formed) and then the championship's own rules (a deal's players are
seated at that table in that stage), and writes a batch in one transaction: the deals at
their highest revision, each table's late deals into its time box, the duels, and how far
each table's messages were taken. Only after that commit does it acknowledge, so a table
drops from its outbox only what is on the director's disk. A message that fails a check
is logged and dropped; nothing a table sends can stop the thread.

After each batch, and whenever the file changes under it (`uno-showdown event start` in
another terminal, the director's screen), it publishes each table's seating (retained,
signed) and the standings (retained), and hands the page's state to `on_state`.
"""

from __future__ import annotations

import json
import logging
import math
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from championship.broker.link import BrokerAddress, BrokerLink, Inbound
from championship.broker.signing import DirectorSigner
from championship.core import messages as wire
from championship.core import presence
from championship.core.access import Credentials
from championship.core.agents import Contest, Holder, TableAgents
from championship.core.clock import FINAL, Kind
from championship.core.i18n import _
from championship.core.model import ChampionshipData
from championship.core.page_state import page_state
from championship.core.snapshot import Snapshot
from championship.desk.operations import Championship
from championship.desk.quiet_log import QuietLog
from championship.store.ledger import Ledger
from companion.store.wallclock import local_time
from companion.table.timebox import State, TimeBoxError
from showdown.contract.record import replace

log = logging.getLogger("uno-showdown.director")
quiet = QuietLog(log)

#: The most messages taken in one transaction.
BATCH = 500
#: How often the file is checked for the organiser's changes, and the state sent again.
POLL_S = 0.1
#: The least time between two standings sent to the tables (the page has every change).
STANDINGS_EVERY_S = 1.0
#: What the standings may cost the broker, in bytes a second: they go to every table, and
#: at fifty tables of seven the standings are some 50 kB, so once a second would be 2.5 MB a
#: second through the broker (and as many decoded at the tables), most of what a burst
#: moved through amqtt. Past this budget they go less often (every 2.5 s at fifty tables).
STANDINGS_BYTES_PER_S = 1_000_000
#: The least time between two states made for the page: a state costs the same for one deal
#: as for a hundred, so in a burst the deals of that moment share one (and a deal waits at
#: most this long for it).
STATE_EVERY_S = 0.05
#: The same while deals keep coming (a state was made less than this ago): the page still
#: moves several times a second, and the director's time goes to taking the deals instead
#: of drawing every few of them (with a broker that passes a burst on a few messages at a
#: time, a state every `STATE_EVERY_S` was most of the director's work per deal).
STATE_BUSY_S = 0.2
#: Seconds between sendings of a seating to a table that has not said it holds it.
RESEND_S = 3.0
#: The least time between two rounds of acknowledgements. A broker that passes a burst on a
#: few messages at a time (amqtt) would otherwise cost one acknowledgement per table per
#: batch, each a message through the broker and a write at the table; a table sends again
#: only after `table_agent.RESEND_S` without one, so this wait costs nothing.
ACK_EVERY_S = 0.25


@dataclass
class _Acks:
    """How far one table's messages (from one games file) have been taken, and the deals
    taken off its outbox without counting (repeated in every acknowledgement, newest last)."""

    upto: int
    waiting: set[int]
    refused: tuple[wire.Refused, ...] = ()


class DirectorSync:
    """See the module docstring."""

    def __init__(self, db_path: str, event_id: int, address: BrokerAddress,
                 director: Credentials, tables: Mapping[int, Credentials], *,
                 lang: str | None = None, clock: Callable[[], int] | None = None,
                 on_state: Callable[[dict[str, Any]], None] | None = None,
                 ca_pem: str | None = None, check_hostname: bool = True) -> None:
        self.champ = Championship.open(db_path, event_id, lang=lang, clock=clock)
        self.event_id = event_id
        self.ledger = Ledger(self.champ.store)
        self.ledger.serve()
        self.secrets = {t: c.secret for t, c in tables.items()}  # what the tables sign with
        if director.signing_key is None:
            raise ValueError("the director's credentials hold no signing key (Ledger makes it)")
        #: What the director signs its own messages with: no table's secret can forge them.
        self.signer = DirectorSigner(director.signing_key)
        self.link = BrokerLink(address, director.client_id, director.username,
                         director.secret, [wire.up_topic(event_id, "+")], ca_pem=ca_pem,
                         check_hostname=check_hostname,
                         on_change=lambda text: log.info("director: %s", text))
        self.on_state = on_state
        self.rejected: list[str] = []  # what was ignored, newest last (kept short)
        self.taken = 0
        self._acks: dict[tuple[int, str], _Acks] = {}
        self._acks_due: set[tuple[int, str]] = set()  # taken, not yet acknowledged
        self._acks_sent = -math.inf  # when acknowledgements last went
        self.acks_sent = 0  # acknowledgements published (one per table per round)
        self._sent: dict[str, bytes] = {}
        self._seatings: dict[int, tuple[str, bytes, str]] = {}  # table: topic, payload, digest
        self._seen: dict[int, str] = {}  # the digest of the seating each table says it holds
        self._resent_at: dict[int, float] = {}
        self.resent = 0  # seatings sent again to a table that had not said it held them
        self._data_version = -1
        self._data: ChampionshipData | None = None
        self._data_version_seen = -1
        self._seating_values: dict[int, wire.Seating] = {}  # what each was last sent
        self._seated: dict[int, set[int]] = {}  # by box: who played there (one batch)
        self._standings_sent = -math.inf  # when the tables were last sent the standings
        self._state_sent = -math.inf  # when the page's state was last made
        self._state_due: float | None = None  # when the next is to be made
        self._standings_due: float | None = None  # when the newest are to go to them
        self._standings_gap = STANDINGS_EVERY_S  # the least time between two (see the budget)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.state: dict[str, Any] = {}
        #: Each table's recent `sent − arrived` samples, and its last heartbeat.
        self._samples: dict[int, deque[int]] = {}
        self.heard: dict[int, presence.Heard] = {}
        self._linked: bool | None = None  # the broker, as last noted
        self._broker_noted = 0
        self._presence_sig: tuple[tuple[int, bool, bool], ...] = ()
        self._started = time.monotonic()
        self._unreachable_said = False
        self._ever_linked = False
        self.link_url = address.url
        #: Which agent holds each table (one per table, whatever the broker does).
        self._agents: dict[int, TableAgents] = {}

    # -- running --

    def start(self) -> None:
        self.publish_state()
        self.link.start()
        self._thread = threading.Thread(target=self._run, name="director", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        self.link.close()
        self.champ.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            batch: list[Inbound] = []
            due = min(self._state_due or math.inf,
                      self._acks_sent + ACK_EVERY_S if self._acks_due else math.inf)
            wait = min(POLL_S, max(0.0, due - time.monotonic()))
            try:
                batch.append(self.link.inbox.get(timeout=wait))
                while len(batch) < BATCH:
                    batch.append(self.link.inbox.get_nowait())
            except queue.Empty:
                pass
            try:
                reconnected = any(m.topic == "" for m in batch)
                if reconnected:
                    self._sent.clear()  # a broker that restarted lost its retained messages
                before = self.taken
                self.ingest([m for m in batch if m.topic])
                taken = self.taken > before  # heartbeats alone change nothing shown
                watched = self.watch()
                version = self.champ.store.data_version()
                if taken or reconnected or watched or version != self._data_version:
                    self._data_version = version
                    if self._state_due is None:
                        self._state_due = self._state_sent + state_gap(
                            time.monotonic() - self._state_sent)
                now = time.monotonic()
                if self._acks_due and now >= self._acks_sent + ACK_EVERY_S:
                    self.send_acks()
                if self._state_due is not None and now >= self._state_due:
                    self.publish_state()
                elif self._standings_due is not None and now >= self._standings_due:
                    self._send_standings()
                self.resend_unseen()
            except Exception:  # a bad moment must not end the director's sync
                log.exception("director: sync step failed")

    def watch(self) -> bool:
        """Note the broker's health in the file (now and then, and when it changes) and
        whether any table's presence changed; True if the page should be told."""
        now = self.champ.clock()
        linked = self.link.connected.is_set()
        was = self._linked
        if not linked and not self._ever_linked and not self._unreachable_said and (
                time.monotonic() - self._started > presence.HEARTBEAT_S):
            self._unreachable_said = True  # never connected: say so once
            log.warning("%s", _("the broker at {url} does not answer: the tables cannot reach "
                                "the director until it does").format(url=self.link_url))
        if linked and not self._ever_linked and self._unreachable_said:  # said it did not
            log.warning("%s", _("the broker at {url} answers now: the tables reach the "
                                "director").format(url=self.link_url))
        if was is not None and linked != was:  # one line each way (the link's own is info)
            log.warning("%s", _("the broker at {url} is back").format(url=self.link_url)
                        if linked else _("lost the broker at {url}: the tables keep recording "
                                         "and send when it is back").format(url=self.link_url))
        if linked != was or (linked and now - self._broker_noted
                             > presence.HEARTBEAT_S * 1_000_000):
            with self.champ.store.transaction() as conn:
                self.champ.events.put_presence(conn, self.event_id, 0, presence.Heard(
                    now if linked else self._broker_noted or now, 0, 0, linked))
            if linked:
                self._broker_noted = now
        self._linked = linked
        self._ever_linked |= linked
        changed = linked != was
        sig = tuple(sorted((t, now - h.heard_us > presence.OFFLINE_AFTER_US,
                            presence.clock_off(h.offset_us)) for t, h in self.heard.items()))
        changed |= sig != self._presence_sig
        self._presence_sig = sig
        return changed

    def _data_of(self, conn: sqlite3.Connection) -> ChampionshipData:
        """The stored event (players, tables, clock), read again only when another program
        wrote the file since: this thread writes deals and boxes, never the event itself, so
        a deal costs no reading of a thousand players."""
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        if self._data is None or version != self._data_version_seen:
            self._data = self.champ.events.load(conn, self.event_id)
            self._data_version_seen = version
        return self._data

    # -- taking the tables' messages --

    def ingest(self, batch: list[Inbound]) -> int:
        """Take a batch in one transaction; returns how many messages were taken."""
        if not batch:
            return 0
        ups: list[wire.Up] = []
        beats: list[wire.Up] = []
        arrived = self.champ.clock()
        for msg in batch:
            up = self._check(msg)
            if up is not None:
                (beats if isinstance(up.report, wire.Heartbeat) else ups).append(up)
        if not ups and not beats:
            return 0
        event_id = self.event_id
        store = self.champ.store
        touched: set[tuple[int, str]] = set()
        with store.transaction() as conn:
            for up in beats:
                self._beat(conn, up, arrived)
            data = self._data_of(conn)
            tables = {(t.stage, t.table): t for t in data.tables}
            self._seated.clear()  # who played at each table, read once per batch
            for up in ups:
                key = (up.table, up.source)
                acks = self._acks.get(key)
                if acks is None:
                    acks = self._acks[key] = _Acks(
                        self.ledger.acked(conn, event_id, up.table, up.source), set())
                if up.seq <= acks.upto:
                    touched.add(key)  # seen before: acknowledge again
                    continue
                refusal = self._apply_alone(conn, data, tables, up, arrived)
                if refusal is not None:
                    acks.refused = (*acks.refused, refusal)[-wire.MAX_REFUSED:]
                acks.waiting.add(up.seq)
                while acks.upto + 1 in acks.waiting:
                    acks.upto += 1
                    acks.waiting.discard(acks.upto)
                touched.add(key)
            for table, source in touched:  # how far each was taken, once per batch
                self.ledger.set_acked(conn, event_id, table, source,
                                      self._acks[(table, source)].upto)
        self._acks_due |= touched  # committed: acknowledged with the next round
        self.taken += len(ups)
        return len(ups) + len(beats)

    def send_acks(self) -> None:
        """Acknowledge, once per table and games file, everything taken since the last
        round (only what is committed is ever in it): the newest `upto` says it all."""
        self._acks_sent = time.monotonic()
        due, self._acks_due = self._acks_due, set()
        for table, source in sorted(due):
            acks = self._acks[(table, source)]
            self.link.publish(wire.ack_topic(self.event_id, table),
                              wire.encode_ack(table, source, acks.upto, self.signer,
                                              acks.refused), retain=True)
            self.acks_sent += 1

    def _beat(self, conn: Any, up: wire.Up, arrived: int) -> None:
        """A table's heartbeat: which agent holds the table (`agents`), then measure its
        clock, note it was heard and what it announced. An agent told to stop is not heard
        as the table."""
        beat = up.report
        assert isinstance(beat, wire.Heartbeat)
        if not self._arbitrate(conn, up, beat, arrived):
            return
        samples = self._samples.setdefault(up.table, deque(maxlen=presence.SAMPLES))
        samples.append(beat.at_us - arrived)
        heard = presence.Heard(arrived, presence.offset_of(samples), beat.waiting)
        was = self.heard.get(up.table)
        self.heard[up.table] = heard
        if (was is None or presence.clock_off(was.offset_us) != presence.clock_off(
                heard.offset_us)) and presence.clock_off(heard.offset_us):
            self._reject(_("table {table}'s clock is off by {offset}: its deals are "
                           "judged on the director's clock").format(
                table=up.table, offset=presence.offset_text(heard.offset_us)))
        self.link.publish(wire.ack_topic(self.event_id, up.table),
                          wire.encode_time(up.table, beat.at_us, self.champ.clock(),
                                           self.signer))
        events = self.champ.events
        events.put_presence(conn, self.event_id, up.table, heard)
        if events.put_source(conn, self.event_id, up.table, up.source):
            events.release_source(conn, self.event_id, up.table, up.source,
                                  presence.HELD_SOURCE)

    def _arbitrate(self, conn: Any, up: wire.Up, beat: wire.Heartbeat, arrived: int) -> bool:
        """One agent per table: tell whichever agent must stop, say what happened once (the
        log, and the ledger for `event show`); False if this heartbeat's agent must stop."""
        agents = self._agents.get(up.table)
        if agents is None:  # the table's first heartbeat since the director started
            agents = self._agents[up.table] = TableAgents()
            noted = self.ledger.holder_note(conn, self.event_id, up.table)
            if noted is not None:  # its holder then: not the first heartbeat to arrive now
                agents.resume(*noted, arrived)
        if beat.agent is None:  # an agent of an older version names no token: not
            # arbitrated, and heard as the table only if no other file speaks for it (else
            # any holder of the credentials could announce a file of its own this way)
            speaker = self._holder_source(conn, up.table)
            return speaker is None or speaker == up.source
        if agents.impostor(beat, up.source):
            return False
        was = agents.holder
        stop, contest = agents.heard(beat, up.source, arrived)
        holder = agents.holder
        if holder is not None and (was is None or was.agent != holder.agent):
            self.ledger.put_holder(conn, self.event_id, up.table, holder.agent, holder.host,
                                   holder.source, holder.since_us)
        elif holder is None and was is not None:  # it left: the table is free
            self.ledger.put_left(conn, self.event_id, up.table)
        if stop is not None:
            self.link.publish(wire.ack_topic(self.event_id, up.table),
                              wire.encode_stop(up.table, stop, self.signer))
        if contest is not None:
            self.ledger.put_contest(conn, self.event_id, up.table, contest.why,
                                    contest.loser_host, contest.at_us)
            log.warning("%s", contest_text(up.table, contest, holder))
        return stop is None or stop.agent != beat.agent

    def _holder_source(self, conn: Any, table: int) -> str | None:
        """The games file that speaks for a table: its holder's as arbitrated in this run,
        else (no agent heard yet since the director started, or the holder left) the last
        holder's as the ledger noted it; None if no agent was ever arbitrated there (agents
        of an older version name none)."""
        agents = self._agents.get(table)
        if agents is not None and agents.holder is not None:
            return agents.holder.source
        return self.ledger.holder_source(conn, self.event_id, table)

    def _check(self, msg: Inbound) -> wire.Up | None:
        table = wire.table_of_topic(self.event_id, msg.topic)
        if table is None:
            return self._reject(_("ignored a message on {topic}: not a table's topic").format(
                topic=msg.topic))
        secret = self.secrets.get(table)
        if secret is None:
            return self._reject(_("ignored a message on {topic}: this event has no table "
                                  "{table}").format(topic=msg.topic, table=table))
        claimed = wire.peek_table(msg.payload)
        if claimed is not None and claimed != table:
            return self._reject(_("ignored a message about table {claimed} on table {table}'s "
                                  "topic").format(claimed=claimed, table=table))
        try:
            message = wire.decode_from_table(msg.payload, secret)
            if isinstance(message, wire.Seen):
                if message.table != table:
                    return self._reject(_("ignored a message about table {claimed} on table "
                                          "{table}'s topic").format(claimed=message.table,
                                                                    table=table))
                self._seen[table] = message.digest
                return None
            return message
        except wire.WireError as exc:
            return self._reject(_("ignored a message on table {table}'s topic: {reason}"
                                  ).format(table=table, reason=exc))
        except Exception as exc:  # the decoder's own fault: this message alone is lost
            return self._reject(_("ignored a message on table {table}'s topic: {reason}"
                                  ).format(table=table, reason=type(exc).__name__))

    def _reject(self, text: str) -> wire.Up | None:
        """Log what was ignored, one line per kind a while (and keep the last hundred lines
        for a screen)."""
        quiet.warning(text)
        self.rejected = [*self.rejected[-99:], text]
        return None

    def _apply_alone(self, conn: Any, data: Any, tables: Mapping[tuple[str, int], Any],
                     up: wire.Up, arrived: int) -> wire.Refused | None:
        """`_apply` in a savepoint of its own: a message that fails is undone and logged
        alone, and the rest of its batch is taken as if it had not been there."""
        conn.execute("SAVEPOINT one_message")
        try:
            refusal = self._apply(conn, data, tables, up, arrived)
        except Exception as exc:  # a message no check foresaw: never its batch
            conn.execute("ROLLBACK TO one_message")
            conn.execute("RELEASE one_message")
            self._reject(_("ignored table {table}'s message {seq}: it could not be taken "
                           "({reason})").format(table=up.table, seq=up.seq,
                                                reason=type(exc).__name__))
            return None
        conn.execute("RELEASE one_message")
        return refusal

    def _apply(self, conn: Any, data: Any, tables: Mapping[tuple[str, int], Any],
               up: wire.Up, arrived: int) -> wire.Refused | None:
        """Take one checked message; a deal the championship's rules refuse is logged and
        returned, so the acknowledgement tells the table."""
        r = up.report
        if isinstance(r, wire.Heartbeat):  # taken apart in `_beat`
            return None
        row = tables.get((r.stage, up.table))
        if row is None:
            self._reject(_("ignored table {table}'s message about {stage}: the table does not "
                           "play in it").format(table=up.table, stage=r.stage))
            return None
        store = self.champ.store
        boxed = store.boxes.load(row.box_id)
        if isinstance(r, wire.DealReport):
            return self._apply_deal(conn, data, row, boxed, up, r, arrived)
        speaker = self._holder_source(conn, up.table)
        if speaker is not None and speaker != up.source:
            # A second agent's file (told to stop), or a file no agent holding the table
            # announced: its deals are kept and held as from a file the table never
            # announced, but its rounds played late and its duels are not the table's and
            # must not replace what the holder said.
            return None
        if isinstance(r, wire.StatusReport):
            box = boxed.box
            # Ordered within the file alone: a take-over's fresh file numbers from 1.
            if (self.ledger.newer_status(conn, self.event_id, up.table, r.stage, up.source,
                                         up.seq)
                    and box.state in (State.OPEN, State.PAUSED)
                    and box.late_rounds != r.late_rounds):
                store.boxes.save(replace(box, late_rounds=r.late_rounds))
        else:
            self.ledger.put_duel(conn, self.event_id, up.table, r.duel_id, r.stage,
                                 r.revision, r.challenger, r.opponent, r.outcome, r.winner)
        return None

    def _apply_deal(self, conn: Any, data: Any, row: Any, boxed: Any, up: wire.Up,
                    r: wire.DealReport, arrived: int) -> wire.Refused | None:
        events = self.champ.events
        # The table's games file is part of the deal's identity: a replacement file numbers
        # its games afresh, and its deals must not overwrite the first file's.
        deal_key = f"t{up.table}/{r.stage}/{up.source}/{r.deal_id}"
        kept = events.remote_deal(conn, self.event_id, deal_key)
        if kept is not None and kept.revision >= r.revision:
            return None  # an older revision than what is kept: it changes nothing
        if r.points is not None:
            seated = self._seated.get(row.box_id)
            if seated is None:
                seated = self._seated[row.box_id] = set(row.seats)
                for names in events.seated_names(conn, boxed.game_ids).values():
                    seated |= {n for n in map(data.number_of, names) if n is not None}
            strangers = sorted(set(r.points) - seated)
            if strangers:
                self._reject(_("ignored table {table}'s deal {deal}: player {number} is not "
                               "seated there").format(table=up.table, deal=r.deal_id,
                                                      number=strangers[0]))
                return wire.Refused(up.seq, r.stage, r.deal_id, wire.REFUSED_SEATS)
        # The deal's time on the director's clock: the table's stamp corrected by the
        # table's measured offset, never later than its arrival.
        heard = self.heard.get(up.table)
        offset = heard.offset_us if heard is not None else 0
        corrected = arrived if r.played_at_us is None else r.played_at_us - offset
        at = min(corrected, arrived)
        if kept is not None and kept.counted and kept.at_us is not None:
            at = max(at, kept.at_us)  # a correction never makes a counted deal earlier
        held = None
        if r.points is not None:
            held = presence.implausible(
                r.points, corrected, arrived, _stage_start(data, r.stage),
                data.event.settings.edition,
                up.source in events.sources(conn, self.event_id, up.table))
            if held is not None:
                self._reject(_("held table {table}'s deal {deal} for the director: "
                               "{reason}").format(table=up.table, deal=r.deal_id,
                                                  reason=presence.held_text(held)))
        box = boxed.box
        late = False
        if r.points is not None and held is None:
            try:
                late = box.check_reported(at, events.late_remote_deals(
                    conn, self.event_id, r.stage, up.table, besides=deal_key))
            except TimeBoxError:
                sealed = box.state is State.SEALED
                self._reject(
                    (_("ignored table {table}'s deal {deal}: the results of {stage} were taken "
                       "and are closed") if sealed else
                     _("ignored table {table}'s deal {deal}: it was recorded after the time of "
                       "{stage} was up and after the deal in progress")).format(
                        table=up.table, deal=r.deal_id, stage=box.label))
                if kept is not None and kept.counted:  # what stood no longer does
                    events.put_remote_deal(conn, self.event_id, r.stage, up.table, deal_key,
                                           r.revision, None, at_us=at)
                return wire.Refused(up.seq, r.stage, r.deal_id,
                                    wire.REFUSED_SEALED if sealed else wire.REFUSED_LATE)
        elif box.state is State.SEALED:
            self._reject(_("ignored table {table}'s deal {deal}: the results of {stage} were "
                           "taken and are closed").format(table=up.table, deal=r.deal_id,
                                                          stage=box.label))
            return wire.Refused(up.seq, r.stage, r.deal_id, wire.REFUSED_SEALED)
        events.put_remote_deal(conn, self.event_id, r.stage, up.table, deal_key, r.revision,
                               None if r.points is None else dict(r.points), late,
                               at_us=at, held=held)
        return None

    # -- telling the tables --

    def publish_state(self) -> None:
        """Tell every table its seating, and the page (and, at most every
        `STANDINGS_EVERY_S` or as the broker's budget allows, the tables) the standings."""
        self._state_due, self._state_sent = None, time.monotonic()
        snap = self.champ.snapshot(self._data_of)
        seatings = seatings_of(snap)
        for table in self.secrets:
            seating = seatings.get(table)
            if seating is None:
                continue
            topic = wire.down_topic(self.event_id, table)
            if topic in self._sent and self._seating_values.get(table) == seating:
                continue  # unchanged: not signed and compared again
            payload = wire.encode_seating(seating, self.signer)
            self._seating_values[table] = seating
            self._seatings[table] = (topic, payload, wire.seating_digest(payload))
            if self._sent.get(topic) != payload:
                self.link.publish(topic, payload, retain=True)
                self._sent[topic] = payload
                self._resent_at[table] = time.monotonic()
        state = page_state(snap, time.time_ns() // 1000)
        self.state = state
        if self.on_state is not None:
            self.on_state(state)
        self._standings_due = min(self._standings_due or math.inf,
                                  self._standings_sent + self._standings_gap)
        if time.monotonic() >= self._standings_due:
            self._send_standings()

    def _send_standings(self) -> None:
        """The standings to every table (retained): the newest, at most every
        `STANDINGS_EVERY_S`. Each goes to every table through the broker, so in a burst of
        fifty tables' deals they are not sent fifty times a second; the page has each."""
        self._standings_due = None
        self._standings_sent = time.monotonic()
        standings = wire.encode_standings(self.state)
        topic = wire.standings_topic(self.event_id)
        if self._sent.get(topic) != standings:
            self.link.publish(topic, standings, retain=True)
            self._sent[topic] = standings
            self._standings_gap = standings_gap(len(standings), len(self.secrets))

    def resend_unseen(self) -> None:
        """Each table's seating again, every `RESEND_S`, until the table says it holds it:
        the director's own messages (the seating, the clock in it) are idempotent, and
        none is lost to a broker that restarted or failed to pass one on."""
        if not self.link.connected.is_set():
            return
        now = time.monotonic()
        for table, (topic, payload, digest) in self._seatings.items():
            if self._seen.get(table) != digest and (
                    now - self._resent_at.get(table, 0.0) >= RESEND_S):
                self.link.publish(topic, payload, retain=True)
                self._resent_at[table] = now
                self.resent += 1


def state_gap(since_last: float) -> float:
    """The least time between the last state and the next: `STATE_EVERY_S` after a quiet
    spell (the first deal of it is shown at once), `STATE_BUSY_S` while deals keep coming."""
    return STATE_EVERY_S if since_last >= STATE_BUSY_S else STATE_BUSY_S


def standings_gap(size: int, tables: int) -> float:
    """The least time between two standings of `size` bytes sent to `tables` tables: once a
    second, or less often when that would pass `STANDINGS_BYTES_PER_S`."""
    return max(STANDINGS_EVERY_S, size * tables / STANDINGS_BYTES_PER_S)


def _stage_start(data: Any, stage: str) -> int | None:
    """When a stage started (the director's clock), or None if it has not."""
    return next((c.at_us for c in data.clock if c.stage == stage and c.kind is Kind.START),
                None)


def seatings_of(snap: Snapshot) -> dict[int, wire.Seating]:
    """What the director tells each table, worked out in one pass: every stage it plays,
    seated and clocked."""
    by_box = {t.box.id: t.stage for t in snap.tables}
    stages: dict[int, list[wire.StageSeat]] = {}
    for t in snap.tables:
        box = t.box
        stages.setdefault(t.table, []).append(wire.StageSeat(
            t.stage, box.label, t.game_id,
            tuple((n, snap.name_of(n)) for n in t.players),
            wire.BoxState(box.state.value, box.ends_at_us, box.left_us, box.grace_rounds),
            by_box.get(box.next_box_id) if box.next_box_id is not None else None))
    settings = snap.settings
    words = words_of(snap)
    return {table: wire.Seating(table, snap.event.name, settings.edition, settings.target,
                                tuple(seats), tuple(words.get(table, {}).values()))
            for table, seats in stages.items()}


def words_of(snap: Snapshot) -> dict[int, dict[str, wire.Word]]:
    """The director's last word on each deal a table reported (by table, by deal): voided
    or restored (the audit, in order), or held now. Deals played in the director's own
    file have no table to tell."""
    out: dict[int, dict[str, wire.Word]] = {}

    def note(deal_id: str, table: int, stage: str, state: str, why: str, at_us: int) -> None:
        parts = deal_id.split("/")
        # Only what the table's decoder takes: one word it refuses would make it refuse the
        # whole seating (its clock and next stage with it) for the rest of the night.
        if (len(parts) == 4 and parts[0] == f"t{table}" and wire.STAGE.fullmatch(stage)
                and wire.SOURCE.fullmatch(parts[2]) and wire.deal_id(parts[3]) == parts[3]):
            out.setdefault(table, {})[deal_id] = wire.Word(stage, parts[2], parts[3], state,
                                                           why, at_us)

    for a in snap.audit:  # the why as the table can print it (no control character)
        why = "".join(c for c in a.why if c.isprintable())[:200]
        note(a.deal_id, a.table, a.stage,
             wire.WORD_VOID if a.action == "void" else wire.WORD_RESTORED, why, a.at_us)
    for h in snap.held:
        words = out.get(h.table, {})
        words.pop(h.deal_id, None)  # held again (a newer revision): newest last
        note(h.deal_id, h.table, h.stage, wire.WORD_HELD,
             "".join(c for c in h.reason if c.isprintable())[:200], h.at_us or 0)
    return out


def final_table(snap: Snapshot) -> int | None:
    tables = snap.stage_tables(FINAL)
    return tables[0].table if tables else None


def dumps(state: Mapping[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def contest_text(table: int, contest: Contest, holder: Holder | None) -> str:
    """A second agent of a table told to stop, as the director's log says it."""
    if contest.why == wire.STOP_TAKEN:
        return _("table {table}: the agent on {host} took the table over from the agent on "
                 "{old}, which was told to stop").format(
            table=table, host=contest.holder_host or "?", old=contest.loser_host or "?")
    return _("table {table}: a second agent, on {host}, was told to stop: the agent on "
             "{holder} holds the table since {time}").format(
        table=table, host=contest.loser_host or "?", holder=contest.holder_host or "?",
        time=local_time(holder.since_us) if holder is not None else "?")
