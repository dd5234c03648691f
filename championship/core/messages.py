"""What tables and the director say to each other through the broker: topics, messages, and
the checks every message passes before anyone acts on it. Pure: no sockets, no files, no
clock.

Topics, under one event (`uno-showdown/e<ID>`):

* `table/<N>/up`: table N to the director, QoS 1, in the order the table wrote them: a deal
  (a round, a correction or an undo), a duel, or the table's status;
* `table/<N>/down`: the director to table N, retained: the table's seating and its clocks;
* `table/<N>/ack`: the director to table N, retained: how far it has taken table N's
  messages, so the table can drop them from its outbox;
* `standings`: the director to everyone, retained: the standings and the clock.

The broker lets table N's credentials write only `table/<N>/up` and read only its own
`down`, `ack` and the standings. Every message a table sends also carries an HMAC-SHA256
made with that table's secret, so the director knows a message came from the table's
credentials whichever broker carried it (an existing broker's configuration is not the
director's to trust). What the director says to a table (its seating and the director's
word on its deals, the acknowledgements, the time replies, a stop) is signed with the
director's own key instead (`Signer`, `Verifier`: Ed25519 in `championship.broker.signing`),
whose public half the table's credentials carry: the table's secret, which its file holds,
is not enough to speak as the director.

A message is idempotent: a deal is named by the table, the stage and the deal's own id
(its game and round at the table) and carries the game's revision, so the director keeps
only the highest revision of each deal, however often and in whatever order it arrives.
Each table message also has a sequence number from the table's outbox; the director's
acknowledgement is the highest number up to which it has taken every message.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

from showdown.contract.json_depth import nests_deeper_than

VERSION = 1
#: The largest message either side accepts; a bigger one is refused unread.
MAX_PAYLOAD = 256 * 1024
MAX_INT = 2**63 - 1
# Every identifier is matched whole (`fullmatch`: `$` lets a trailing newline through) and in
# ASCII (`re.ASCII`: no other script's digits where digits are meant).
STAGE = re.compile(r"flight-[1-9][0-9]?|final", re.ASCII)
#: A deal at a table (`g<game>:<round>`) or a duel (`g<game>:d<duel>`), as the table's file
#: names it; `deal_id` gives the one spelling that is kept.
DEAL_ID = re.compile(r"g([0-9]{1,19}):(d?)([0-9]{1,19})", re.ASCII)
SOURCE = re.compile(r"[0-9a-f]{16,64}", re.ASCII)
#: An agent's token (a `table join` run), as its heartbeat names it.
AGENT = re.compile(r"[0-9a-f]{16,32}", re.ASCII)
#: How deep a message's JSON may nest (the deepest real one is 5): deeper is refused
#: before anything walks it (json.dumps recursed ~1,000 deep and raised RecursionError).
MAX_DEPTH = 16


def deal_id(text: object) -> str | None:
    """The one spelling of a deal's (or duel's) id, or None for text that is not one:
    `g01:1` is `g1:1`, and `g1:1\n`, `g1:١` or `G1:1` are none. Every deal id that reaches
    the store passes here, so no two spellings of one deal can both be kept."""
    if not isinstance(text, str):
        return None
    m = DEAL_ID.fullmatch(text)
    if m is None:
        return None
    game, duel, number = int(m.group(1)), m.group(2), int(m.group(3))
    if game > MAX_INT or number > MAX_INT:
        return None
    return f"g{game}:{duel}{number}"


def prefix(event_id: int) -> str:
    return f"uno-showdown/e{event_id}"


def up_topic(event_id: int, table: int | str) -> str:
    return f"{prefix(event_id)}/table/{table}/up"


def down_topic(event_id: int, table: int | str) -> str:
    return f"{prefix(event_id)}/table/{table}/down"


def ack_topic(event_id: int, table: int | str) -> str:
    return f"{prefix(event_id)}/table/{table}/ack"


def standings_topic(event_id: int) -> str:
    return f"{prefix(event_id)}/standings"


def table_of_topic(event_id: int, topic: str) -> int | None:
    """The table number of an `up` topic of this event, or None for any other topic."""
    m = re.fullmatch(re.escape(prefix(event_id)) + r"/table/([1-9][0-9]{0,2})/up", topic)
    return int(m.group(1)) if m else None


class WireError(ValueError):
    """A message that is not what it claims to be; the text says what was wrong."""


# -- messages --


@dataclass(frozen=True, slots=True)
class DealReport:
    """A deal at a table: its points per player number, or None once it was taken back, and
    when it was recorded (the table's wall clock, µs; None from a table that did not say)."""

    stage: str
    deal_id: str
    revision: int
    points: Mapping[int, int] | None
    played_at_us: int | None = None


@dataclass(frozen=True, slots=True)
class DuelReport:
    stage: str
    duel_id: str
    revision: int
    challenger: int
    opponent: int
    outcome: str
    winner: int | None


@dataclass(frozen=True, slots=True)
class StatusReport:
    """A table's own view of one stage: deals recorded after the time was up, and whether
    it has finished."""

    stage: str
    late_rounds: int
    deals: int


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """A table's sign of life, sent now and then while it has the broker and never queued:
    its wall clock when sent (the director measures the table's clock offset by it), how
    many messages wait in its outbox, and its games file (the only `source` whose deals the
    director takes as plausible). Its `seq` is 0: it is not acknowledged.

    It also names the agent that sends it (`agent`: a token of this run of `table join`,
    the computer it runs on, and whether it was asked to take the table over): the director
    lets one agent hold a table, whatever the broker does with two clients of the same
    credentials, and tells any other to stop (`Stop`)."""

    at_us: int
    waiting: int
    agent: str | None = None
    host: str = ""
    take_over: bool = False
    leaving: bool = False  # the agent's last word: it stops, and leaves the table free


Report = DealReport | DuelReport | StatusReport | Heartbeat


@dataclass(frozen=True, slots=True)
class Up:
    """One table-to-director message."""

    table: int
    source: str  # the table's games file, so a new file starts its numbering afresh
    seq: int
    report: Report


# -- signing --


def canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign(body: Mapping[str, Any], secret: str) -> bytes:
    """The message as sent: its body and the body's HMAC under the secret."""
    mac = hmac.new(secret.encode(), canonical(body), hashlib.sha256).hexdigest()
    return canonical({**body, "mac": mac})


def opened(payload: bytes, secret: str | None = None) -> dict[str, Any]:
    """The body of a signed message, checked against the secret (when given)."""
    if len(payload) > MAX_PAYLOAD:
        raise WireError("the message is too large")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError("the message is not JSON") from exc
    if not isinstance(data, dict):
        raise WireError("the message is not a JSON object")
    if nests_deeper_than(data, MAX_DEPTH):
        raise WireError(f"the message nests deeper than {MAX_DEPTH}")
    mac = data.pop("mac", None)
    if secret is not None:
        if not isinstance(mac, str):
            raise WireError("the message is not signed")
        good = hmac.new(secret.encode(), canonical(data), hashlib.sha256).hexdigest()
        # As bytes: compare_digest refuses a str with non-ASCII characters (TypeError), and
        # a forged "mac" may hold any.
        if not hmac.compare_digest(mac.encode("utf-8", "surrogatepass"), good.encode()):
            raise WireError("the message's signature does not match the table's credentials")
    if data.get("v") != VERSION:
        raise WireError(f"the message is of version {data.get('v')!r}, not {VERSION}")
    return data


class Signer(Protocol):
    """The director's key: signs the canonical bytes of a message's body."""

    def sign(self, data: bytes) -> str: ...


class Verifier(Protocol):
    """The public half of the director's key, as a table holds it."""

    def verify(self, data: bytes, signature: str) -> bool: ...


def sign_director(body: Mapping[str, Any], key: Signer) -> bytes:
    """A director's message as sent: its body and the director's signature of the body."""
    return canonical({**body, "sig": key.sign(canonical(body))})


def opened_from_director(payload: bytes, key: Verifier) -> dict[str, Any]:
    """The body of a director's message, checked against the director's public key. A
    message signed with a table's secret alone (an HMAC anyone with the table's file can
    make) is refused."""
    data = opened(payload)
    sig = data.pop("sig", None)
    if not isinstance(sig, str) or len(sig) > 128:
        raise WireError("the message is not signed by the director")
    if not key.verify(canonical(data), sig):
        raise WireError("the message's signature is not the director's")
    return data


# -- the table's messages --


def up_body(up: Up) -> dict[str, Any]:
    r = up.report
    body: dict[str, Any] = {"v": VERSION, "table": up.table, "source": up.source,
                            "seq": up.seq}
    if isinstance(r, Heartbeat):
        body |= {"kind": "beat", "at": r.at_us, "waiting": r.waiting}
        if r.agent is not None:
            body["agent"] = {"id": r.agent, "host": r.host, "take_over": r.take_over}
            if r.leaving:
                body["agent"]["leaving"] = True
        return body
    body["stage"] = r.stage
    if isinstance(r, DealReport):
        body |= {"kind": "deal", "deal": r.deal_id, "rev": r.revision,
                 "points": None if r.points is None
                 else {str(k): v for k, v in sorted(r.points.items())}}
        if r.played_at_us is not None:
            body["at"] = r.played_at_us
    elif isinstance(r, DuelReport):
        body |= {"kind": "duel", "duel": r.duel_id, "rev": r.revision,
                 "challenger": r.challenger, "opponent": r.opponent, "outcome": r.outcome,
                 "winner": r.winner}
    else:
        body |= {"kind": "status", "late": r.late_rounds, "deals": r.deals}
    return body


def encode_up(up: Up, secret: str) -> bytes:
    return sign(up_body(up), secret)


def peek_table(payload: bytes) -> int | None:
    """The table a message says it is from, read before its signature can be checked."""
    try:
        data = json.loads(payload.decode("utf-8")) if len(payload) <= MAX_PAYLOAD else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    table = data.get("table") if isinstance(data, dict) else None
    return table if _is_int(table) and 1 <= table <= 999 else None


def decode_up(payload: bytes, secret: str) -> Up:
    """A table's message, checked: signed with `secret`, and every field of the right kind."""
    d = opened(payload, secret)
    table = _int(d, "table", 1, 999)
    source = _str(d, "source", SOURCE)
    kind = d.get("kind")
    if kind == "beat":
        _int(d, "seq", 0, 0)
        agent = d.get("agent")
        if agent is None:  # an agent of an older version
            return Up(table, source, 0, Heartbeat(_int(d, "at", 0, MAX_INT),
                                                  _int(d, "waiting", 0, MAX_INT)))
        if not (isinstance(agent, dict) and isinstance(agent.get("take_over"), bool)
                and isinstance(agent.get("leaving", False), bool) and _host(agent.get("host"))):
            raise WireError("a heartbeat's agent is {id, host, take_over, leaving}")
        return Up(table, source, 0, Heartbeat(
            _int(d, "at", 0, MAX_INT), _int(d, "waiting", 0, MAX_INT),
            _str(agent, "id", AGENT), str(agent["host"]), bool(agent["take_over"]),
            bool(agent.get("leaving", False))))
    seq = _int(d, "seq", 1, MAX_INT)
    stage = _str(d, "stage", STAGE)
    report: Report
    if kind == "deal":
        points = d.get("points")
        if points is not None:
            if not isinstance(points, dict) or not 1 <= len(points) <= 10:
                raise WireError("a deal's points are a map of 1 to 10 players")
            parsed: dict[int, int] = {}
            for k, v in points.items():
                number = _number_key(k)
                if number is None:
                    raise WireError("a deal's points are keyed by player numbers")
                if not _is_int(v) or not 0 <= v <= 1_000_000:
                    raise WireError("a deal's points are whole numbers from 0 to 1000000")
                parsed[number] = v
            points = parsed
        report = DealReport(stage, _deal_id(d, "deal", duel=False),
                            _int(d, "rev", 0, MAX_INT), points, _opt_int(d, "at"))
    elif kind == "duel":
        winner = d.get("winner")
        if winner is not None and not (_is_int(winner) and 1 <= winner <= 1_000_000):
            raise WireError("a duel's winner is a player number or null")
        outcome = d.get("outcome")
        if not (isinstance(outcome, str) and 1 <= len(outcome) <= 32 and _plain(outcome)):
            raise WireError("a duel's outcome is a short text")
        report = DuelReport(stage, _deal_id(d, "duel", duel=True), _int(d, "rev", 0, MAX_INT),
                            _int(d, "challenger", 1, 1_000_000),
                            _int(d, "opponent", 1, 1_000_000), outcome, winner)
    elif kind == "status":
        report = StatusReport(stage, _int(d, "late", 0, 1000), _int(d, "deals", 0, 1_000_000))
    else:
        raise WireError(f"unknown kind of message {kind!r}")
    return Up(table, source, seq, report)


# -- the director's messages --


@dataclass(frozen=True, slots=True)
class BoxState:
    """A table's clock for one stage, as the director's time box holds it."""

    state: str
    ends_at_us: int | None
    left_us: int | None
    grace_rounds: int


@dataclass(frozen=True, slots=True)
class StageSeat:
    """Table N in one stage: who sits there (numbers and names, in seat order) and its
    clock. `seating_id` changes when the director seats the table again."""

    stage: str
    label: str
    seating_id: int
    players: tuple[tuple[int, str], ...]
    box: BoxState
    next_stage: str | None


#: The director's word on a deal of a table (`Word.state`).
WORD_HELD = "held"  # held for the director: it does not count until decided
WORD_VOID = "void"  # voided: it no longer counts
WORD_RESTORED = "restored"  # counted by the director (a void or held deal)
WORDS = (WORD_HELD, WORD_VOID, WORD_RESTORED)
#: The most words one seating carries (the newest).
MAX_WORDS = 100


@dataclass(frozen=True, slots=True)
class Word:
    """The director's word on one deal of table N's games file `source`: held (and why: a
    `presence.HELD_REASONS` code), voided or restored (and the director's why), and when
    (the director's clock, µs)."""

    stage: str
    source: str
    deal: str
    state: str
    why: str
    at_us: int


@dataclass(frozen=True, slots=True)
class Seating:
    """Everything table N needs from the director: what it plays, where, and when; and the
    director's word on its deals, so the table says it."""

    table: int
    event: str
    edition: str
    target: int
    stages: tuple[StageSeat, ...]
    words: tuple[Word, ...] = ()


BOX_STATES = ("waiting", "open", "paused", "finished", "sealed")


def encode_seating(seating: Seating, key: Signer) -> bytes:
    body = {"v": VERSION, "kind": "seating", "table": seating.table,
            "event": seating.event, "edition": seating.edition, "target": seating.target,
            "stages": [{"stage": s.stage, "label": s.label, "seating_id": s.seating_id,
                        "players": [list(p) for p in s.players],
                        "box": {"state": s.box.state, "ends_at_us": s.box.ends_at_us,
                                "left_us": s.box.left_us, "grace": s.box.grace_rounds},
                        "next": s.next_stage} for s in seating.stages]}
    if seating.words:
        # Past MAX_WORDS the oldest restored words go first: a table counts a round no word
        # mentions, which is right for a restored deal and wrong for a held or void one.
        kept = [w for w in seating.words if w.state != WORD_RESTORED]
        room = MAX_WORDS - len(kept[-MAX_WORDS:])
        restored = [w for w in seating.words if w.state == WORD_RESTORED][-room:] if room else []
        chosen = {id(w) for w in kept[-MAX_WORDS:] + restored}
        body["words"] = [[w.stage, w.source, w.deal, w.state, w.why, w.at_us]
                         for w in seating.words if id(w) in chosen]
    return sign_director(body, key)


def _words(items: object) -> tuple[Word, ...]:
    """The director's words on a table's deals, checked (none from an older director)."""
    if items is None:
        return ()
    if not isinstance(items, list) or len(items) > MAX_WORDS:
        raise WireError("a seating's words are a short list")
    out = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 6 and isinstance(item[0], str)
                and STAGE.fullmatch(item[0]) and isinstance(item[1], str)
                and SOURCE.fullmatch(item[1]) and deal_id(item[2]) == item[2]
                and item[3] in WORDS
                and isinstance(item[4], str) and len(item[4]) <= 200 and _plain(item[4])
                and _is_int(item[5]) and 0 <= item[5] <= MAX_INT):
            raise WireError("a word is [stage, source, deal, state, why, at]")
        out.append(Word(item[0], item[1], item[2], item[3], item[4], item[5]))
    return tuple(out)


def decode_seating(payload: bytes, key: Verifier, table: int) -> Seating:
    d = opened_from_director(payload, key)
    if d.get("kind") != "seating" or d.get("table") != table:
        raise WireError(f"the message is not table {table}'s seating")
    stages = d.get("stages")
    if not isinstance(stages, list) or len(stages) > 8:
        raise WireError("a seating has a list of stages")
    out = []
    for s in stages:
        if not isinstance(s, dict):
            raise WireError("a stage of a seating is an object")
        players = s.get("players")
        if not isinstance(players, list) or len(players) > 10 or not all(
                isinstance(p, list) and len(p) == 2 and _is_int(p[0])
                and 1 <= p[0] <= 1_000_000 and _name(p[1]) for p in players):
            raise WireError("a stage's players are [number, name] pairs")
        box = s.get("box")
        if not isinstance(box, dict) or box.get("state") not in BOX_STATES:
            raise WireError("a stage's clock is not valid")
        nxt = s.get("next")
        if nxt is not None and not (isinstance(nxt, str) and STAGE.fullmatch(nxt)):
            raise WireError("a stage's next stage is not valid")
        label = s.get("label")
        if not (isinstance(label, str) and 0 < len(label) <= 200 and _plain(label)):
            raise WireError("a stage's label is not valid")
        out.append(StageSeat(
            _str(s, "stage", STAGE), label, _int(s, "seating_id", 0, MAX_INT),
            tuple((int(n), str(name)) for n, name in players),
            BoxState(box["state"], _opt_int(box, "ends_at_us"), _opt_int(box, "left_us"),
                     _int(box, "grace", 0, 100)), nxt))
    event = d.get("event")
    edition = d.get("edition")
    if not (isinstance(event, str) and 0 < len(event) <= 200 and _plain(event)
            and isinstance(edition, str) and EDITION.fullmatch(edition)):
        raise WireError("a seating names its event and edition")
    return Seating(table, event, edition, _int(d, "target", 1, 1_000_000), tuple(out),
                   _words(d.get("words")))


# -- a table's word that it has the director's seating --


@dataclass(frozen=True, slots=True)
class Seen:
    """Table N holds the seating (and so the clock) whose digest this is. The director
    sends a table its seating again, every little while, until the table says it has the
    newest: a retained message a broker lost in a restart, or one amqtt failed to pass on,
    reaches the table all the same."""

    table: int
    digest: str


DIGEST = re.compile(r"[0-9a-f]{32}", re.ASCII)


def seating_digest(payload: bytes) -> str:
    """What names one seating message, as sent (the same bytes on both sides)."""
    return hashlib.sha256(payload).hexdigest()[:32]


def encode_seen(table: int, digest: str, secret: str) -> bytes:
    return sign({"v": VERSION, "kind": "seen", "table": table, "seating": digest}, secret)


def decode_from_table(payload: bytes, secret: str) -> Up | Seen:
    """Any message on a table's `up` topic: a report (`decode_up`) or its `Seen`."""
    d = opened(payload, secret)
    if d.get("kind") != "seen":
        return decode_up(payload, secret)
    return Seen(_int(d, "table", 1, 999), _str(d, "seating", DIGEST))


#: Why the director took a table's message but did not count it (an acknowledgement says).
REFUSED_SEALED = "sealed"  # the stage's results were taken (the final is seated)
REFUSED_LATE = "late"  # recorded after the time was up and after the deal in progress
REFUSED_SEATS = "seats"  # a player in it is not seated at that table
REFUSALS = (REFUSED_SEALED, REFUSED_LATE, REFUSED_SEATS)
#: The most refusals one acknowledgement repeats (the newest).
MAX_REFUSED = 20


@dataclass(frozen=True, slots=True)
class Refused:
    """A table's message the director took off the outbox without counting it."""

    seq: int
    stage: str
    deal_id: str
    reason: str  # one of REFUSALS


@dataclass(frozen=True, slots=True)
class Ack:
    source: str
    seq: int
    refused: tuple[Refused, ...] = ()


def encode_ack(table: int, source: str, seq: int, key: Signer,
               refused: tuple[Refused, ...] = ()) -> bytes:
    return sign_director({"v": VERSION, "kind": "ack", "table": table, "source": source, "seq": seq,
                 "refused": [[r.seq, r.stage, r.deal_id, r.reason]
                             for r in refused[-MAX_REFUSED:]]}, key)


def decode_ack(payload: bytes, key: Verifier, table: int) -> Ack:
    d = opened_from_director(payload, key)
    if d.get("kind") != "ack" or d.get("table") != table:
        raise WireError(f"the message is not an acknowledgement for table {table}")
    items = d.get("refused", [])
    if not isinstance(items, list) or len(items) > MAX_REFUSED:
        raise WireError("an acknowledgement's refusals are a short list")
    refused = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 4 and _is_int(item[0])
                and 1 <= item[0] <= MAX_INT and isinstance(item[1], str)
                and STAGE.fullmatch(item[1]) and deal_id(item[2]) == item[2]
                and item[3] in REFUSALS):
            raise WireError("an acknowledgement's refusal is [seq, stage, deal, reason]")
        refused.append(Refused(item[0], item[1], item[2], item[3]))
    return Ack(_str(d, "source", SOURCE), _int(d, "seq", 0, MAX_INT), tuple(refused))


@dataclass(frozen=True, slots=True)
class TimeReply:
    """The director's answer to a heartbeat, on the table's `ack` topic (not retained): the
    heartbeat's own stamp echoed, and the director's clock when it answered. The table takes
    its offset to the director from it, as the page does from `/time`."""

    echo_us: int
    now_us: int


def encode_time(table: int, echo_us: int, now_us: int, key: Signer) -> bytes:
    return sign_director({"v": VERSION, "kind": "time", "table": table, "echo": echo_us,
                          "now": now_us}, key)


def is_time(payload: bytes) -> bool:
    """Is a message on the `ack` topic a time reply (read before its signature is checked)?"""
    return b'"kind":"time"' in payload[:MAX_PAYLOAD]


def decode_time(payload: bytes, key: Verifier, table: int) -> TimeReply:
    d = opened_from_director(payload, key)
    if d.get("kind") != "time" or d.get("table") != table:
        raise WireError(f"the message is not a time reply for table {table}")
    return TimeReply(_int(d, "echo", 0, MAX_INT), _int(d, "now", 0, MAX_INT))


#: Why the director tells an agent to stop: another holds the table (it was refused), or
#: another took the table over from it.
STOP_HELD = "held"
STOP_TAKEN = "taken"


@dataclass(frozen=True, slots=True)
class Stop:
    """The director to one agent of a table (on the table's `ack` topic, not retained): stop,
    as the agent `holder` on `host` holds the table since `since_us` (director's clock)."""

    agent: str
    why: str  # STOP_HELD or STOP_TAKEN
    holder: str
    host: str
    since_us: int


def encode_stop(table: int, stop: Stop, key: Signer) -> bytes:
    return sign_director({"v": VERSION, "kind": "stop", "table": table, "agent": stop.agent,
                          "why": stop.why, "holder": stop.holder, "host": stop.host,
                          "since": stop.since_us}, key)


def is_stop(payload: bytes) -> bool:
    """Is a message on the `ack` topic a stop (read before its signature is checked)?"""
    return b'"kind":"stop"' in payload[:MAX_PAYLOAD]


def decode_stop(payload: bytes, key: Verifier, table: int) -> Stop:
    d = opened_from_director(payload, key)
    if d.get("kind") != "stop" or d.get("table") != table:
        raise WireError(f"the message is not a stop for table {table}")
    if d.get("why") not in (STOP_HELD, STOP_TAKEN) or not _host(d.get("host")):
        raise WireError("a stop says why and who holds the table")
    return Stop(_str(d, "agent", AGENT), str(d["why"]), _str(d, "holder", AGENT),
                str(d["host"]), _int(d, "since", 0, MAX_INT))


def encode_standings(state: Mapping[str, Any]) -> bytes:
    return canonical({"v": VERSION, "kind": "standings", **state})


def decode_standings(payload: bytes) -> dict[str, Any]:
    """The standings the director broadcast, checked wherever a table reads them: the lines
    (`qualifying`, `final`: rank, number, name, shown), the cut and the deals per table;
    the rest of the page's document is passed on as it came."""
    d = opened(payload)
    if d.get("kind") != "standings":
        raise WireError("the message is not the standings")
    for key in ("qualifying", "final"):
        lines = d.get(key, [])
        if not isinstance(lines, list) or len(lines) > 10_000 or not all(
                _standing_line(ln) for ln in lines):
            raise WireError(f"the standings' {key!r} is not a list of lines")
    finalists = d.get("finalists", 7)
    if not (_is_int(finalists) and 0 <= finalists <= 1000):
        raise WireError("the standings' number of finalists is not valid")
    deals = d.get("deals", {})
    if not isinstance(deals, dict) or not all(
            isinstance(k, str) and len(k) <= 64 and _is_int(v) and 0 <= v <= MAX_INT
            for k, v in deals.items()):
        raise WireError("the standings' deals are not a map of counts")
    return d


def _standing_line(line: object) -> bool:
    if not isinstance(line, dict):
        return False
    rank, number, shown = line.get("rank"), line.get("number"), line.get("shown")
    return ((rank is None or (_is_int(rank) and 1 <= rank <= 1_000_000))
            and _is_int(number) and 1 <= number <= 1_000_000 and _name(line.get("name"))
            and isinstance(shown, str) and len(shown) <= 32 and _plain(shown))


# -- field checks --

#: A deck's name: what `settings.EDITIONS` holds, in the same letters.
EDITION = re.compile(r"[a-z][a-z0-9-]{0,31}", re.ASCII)
#: The characters a number is written in: ASCII digits only ("²".isdigit() is true and
#: int("²") fails; int("١٢") is 12).
DIGITS = re.compile(r"0|[1-9][0-9]{0,5}", re.ASCII)


def _number_key(key: object) -> int | None:
    """A player number written as a JSON object's key, or None."""
    if isinstance(key, str) and DIGITS.fullmatch(key):
        number = int(key)
        return number if number >= 1 else None
    return None


def _plain(text: str) -> bool:
    """Text that prints as itself: no control characters, so no terminal escape sequence
    and no line break reach a table's terminal from a message."""
    return text.isprintable()


def _host(value: object) -> bool:
    """A computer's name as an agent says it: short printable text (may be empty)."""
    return isinstance(value, str) and len(value) <= 64 and _plain(value)


def _name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64 and _plain(value)


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(d: Mapping[str, Any], key: str, low: int, high: int) -> int:
    v = d.get(key)
    if not _is_int(v) or not low <= v <= high:
        raise WireError(f"{key!r} is not a whole number from {low} to {high}")
    return int(v)


def _opt_int(d: Mapping[str, Any], key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key, 0, MAX_INT)


def _str(d: Mapping[str, Any], key: str, pattern: re.Pattern[str]) -> str:
    v = d.get(key)
    if not isinstance(v, str) or not pattern.fullmatch(v):
        raise WireError(f"{key!r} is not a valid text")
    return v


def _deal_id(d: Mapping[str, Any], key: str, duel: bool) -> str:
    """A deal's id (`duel`: a duel's) in its one spelling (`deal_id`)."""
    v = deal_id(d.get(key))
    if v is None or (":d" in v) != duel:
        raise WireError(f"{key!r} is not a {'duel' if duel else 'deal'} of the table's file")
    return v


