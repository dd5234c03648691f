"""Every identifier on the wire is matched whole, in ASCII, and a deal has one spelling.

Table 2's own credentials sent a signed deal `"deal": "g1:1\\n"` and then `"g1:1"`: the
decoders checked with `re.match` and `…$`, which lets a trailing newline through, so both
were stored and both counted; `event deals` printed the first over two lines. Here every
decoder meets each identifier of a good message spelled every wrong way (a trailing or
leading newline, a space, a NUL, another script's digits, upper case) and must refuse it or
give back the one spelling; and the director, fed one deal in four spellings, keeps one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.broker.link import Inbound
from championship.broker.signing import DirectorSigner, DirectorVerifier
from championship.core import messages as wire
from championship.core.access import new_signing_key
from companion.store.wallclock import wall_clock_us
from tests.championship.tables.conftest import Cluster

SECRET = "s3cret"
DIRECTOR = DirectorSigner(new_signing_key())
TABLE_HOLDS = DirectorVerifier(DIRECTOR.public)
SOURCE = "ab" * 8
DIGEST = "0f" * 16

#: What a hostile table puts around or inside an identifier.
JUNK = st.sampled_from(["\n", "\r\n", "\r", " ", "\t", "\x00", "\u2028", "\x85", "\u200b",
                        "\u202e", "١", "²", "٣", "Ⅻ", "𝟙", "é"])


def _deal_body(**change: object) -> dict[str, Any]:
    return {"v": 1, "kind": "deal", "table": 1, "source": SOURCE, "seq": 1,
            "stage": "flight-1", "deal": "g1:1", "rev": 1, "points": {"1": 5}, **change}


def _duel_body(**change: object) -> dict[str, Any]:
    return {"v": 1, "kind": "duel", "table": 1, "source": SOURCE, "seq": 1,
            "stage": "flight-1", "duel": "g1:d1", "rev": 0, "challenger": 1,
            "opponent": 2, "outcome": "won", "winner": 1, **change}


def _seating_body(**change: object) -> dict[str, Any]:
    stage = {"stage": "flight-1", "label": "Flight 1", "seating_id": 1,
             "players": [[1, "Anna"], [2, "Boris"]],
             "box": {"state": "open", "ends_at_us": None, "left_us": None, "grace": 1},
             "next": "final"}
    stage |= {k: v for k, v in change.items() if k in ("stage", "next")}
    return {"v": 1, "kind": "seating", "table": 1, "event": "Cup", "target": 500,
            "edition": change.get("edition", "classic"), "stages": [stage]}


def _ack_body(**change: object) -> dict[str, Any]:
    return {"v": 1, "kind": "ack", "table": 1, "source": change.get("source", SOURCE),
            "seq": 3, "refused": [[2, change.get("stage", "flight-1"),
                                   change.get("deal", "g1:1"), "late"]]}


def _seen_body(**change: object) -> dict[str, Any]:
    return {"v": 1, "kind": "seen", "table": 1, "seating": DIGEST, **change}


def _as_director(payload: bytes) -> bytes:
    """A message signed with the table's secret, signed by the director instead (what the
    director's decoders check)."""
    body = json.loads(payload)
    body.pop("mac")
    return wire.sign_director(body, DIRECTOR)


# (the decoder, a good message's body with one field changed, the fields that are identifiers)
DECODERS: list[tuple[str, Callable[[bytes], object], Callable[..., dict[str, Any]],
                     dict[str, str]]] = [
    ("deal", lambda p: wire.decode_up(p, SECRET), _deal_body,
     {"stage": "flight-1", "deal": "g1:1", "source": SOURCE}),
    ("duel", lambda p: wire.decode_up(p, SECRET), _duel_body,
     {"stage": "flight-1", "duel": "g1:d1", "source": SOURCE}),
    ("from table", lambda p: wire.decode_from_table(p, SECRET), _deal_body,
     {"stage": "flight-1", "deal": "g1:1", "source": SOURCE}),
    ("seating", lambda p: wire.decode_seating(_as_director(p), TABLE_HOLDS, 1), _seating_body,
     {"stage": "flight-1", "next": "final", "edition": "classic"}),
    ("ack", lambda p: wire.decode_ack(_as_director(p), TABLE_HOLDS, 1), _ack_body,
     {"stage": "flight-1", "deal": "g1:1", "source": SOURCE}),
    ("seen", lambda p: wire.decode_from_table(p, SECRET), _seen_body, {"seating": DIGEST}),
]


@pytest.mark.parametrize("name,decode,body,fields", DECODERS, ids=[d[0] for d in DECODERS])
def test_each_good_message_is_taken(name: str, decode: Callable[[bytes], object],
                                    body: Callable[..., dict[str, Any]],
                                    fields: dict[str, str]) -> None:
    decode(wire.sign(body(), SECRET))  # the base of the property test below is valid


@settings(max_examples=300, deadline=None)
@given(which=st.sampled_from(DECODERS), data=st.data(), junk=JUNK,
       where=st.sampled_from(["end", "start", "inside", "digits", "upper"]))
def test_every_identifier_is_matched_whole_and_in_ascii(
        which: tuple[str, Callable[[bytes], object], Callable[..., dict[str, Any]],
                     dict[str, str]],
        data: st.DataObject, junk: str, where: str) -> None:
    _name, decode, body, fields = which
    field = data.draw(st.sampled_from(sorted(fields)))
    good = fields[field]
    if where == "end":
        bad = good + junk
    elif where == "start":
        bad = junk + good
    elif where == "inside":
        cut = data.draw(st.integers(1, len(good) - 1))
        bad = good[:cut] + junk + good[cut:]
    elif where == "digits":  # each ASCII digit written in another script
        bad = good.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    else:
        bad = good.upper()
    if bad == good:
        return
    try:
        message = decode(wire.sign(body(**{field: bad}), SECRET))
    except wire.WireError:
        return
    raise AssertionError(f"{field}={bad!r} was taken: {message!r}")


@pytest.mark.parametrize("spelled", ["g1:1", "g01:1", "g1:01", "g001:0001"])
def test_a_deal_id_has_one_spelling(spelled: str) -> None:
    up = wire.decode_up(wire.sign(_deal_body(deal=spelled), SECRET), SECRET)
    assert isinstance(up.report, wire.DealReport) and up.report.deal_id == "g1:1"
    assert wire.deal_id(spelled) == "g1:1"
    duel = wire.decode_up(wire.sign(_duel_body(duel=spelled.replace(":", ":d")), SECRET),
                          SECRET)
    assert isinstance(duel.report, wire.DuelReport) and duel.report.duel_id == "g1:d1"


@pytest.mark.parametrize("bad", ["g1:1\n", "g1:1 ", "G1:1", "g1:d1", "g١:1", "g1:1:1",
                                 "g:1", "1:1", "g" + "9" * 20 + ":1", "x"])
def test_a_deal_id_spelled_otherwise_is_refused(bad: str) -> None:
    with pytest.raises(wire.WireError):
        wire.decode_up(wire.sign(_deal_body(deal=bad), SECRET), SECRET)


def _from_frames_deep(frames: int, call: Callable[[], object]) -> object:
    """`call()` from `frames` calls down, as a broker's or a director's thread calls it."""
    return call() if frames == 0 else _from_frames_deep(frames - 1, call)


@pytest.mark.parametrize("frames", [0, 40])
def test_json_nested_a_thousand_deep_is_refused_not_raised(frames: int) -> None:
    # json.loads gives up (RecursionError, taken as "not JSON") one level before json.dumps
    # does, so one depth near the stack's limit passed the first and broke the second
    for depth in (17, *range(900, 1001), 5000):
        payload = ('{"v":1,"mac":"00","x":' + "[" * depth + "]" * depth + "}").encode()
        with pytest.raises(wire.WireError):
            _from_frames_deep(frames, lambda p=payload: wire.opened(p, SECRET))


def test_one_deal_in_four_spellings_is_kept_once(amqtt_cluster: Cluster) -> None:
    c = amqtt_cluster
    director = c.director
    assert director is not None
    director.link.close()  # fed by hand, as if a table's own credentials had sent it all
    with c.tables_seating() as seats:
        at1 = seats[1]
    secret = c.table_creds[1].secret
    topic = wire.up_topic(c.event_id, 1)
    # The table's games file, announced by an agent that takes the table over from the
    # fixture's (a heartbeat naming no agent announces no file while an agent holds it).
    beat = wire.encode_up(wire.Up(1, "cd" * 8, 0, wire.Heartbeat(
        wall_clock_us(), 0, "ef" * 8, "test", take_over=True)), secret)
    director.ingest([Inbound(topic, beat)])
    for seq, spelled in enumerate(["g1:1\n", "g1:1", "g01:1", "g1:001"], 1):
        body = {"v": 1, "kind": "deal", "table": 1, "source": "cd" * 8, "seq": seq,
                "stage": "flight-1", "deal": spelled, "rev": 1,
                "points": {str(at1[0]): 0, str(at1[1]): 7}}
        director.ingest([Inbound(topic, wire.sign(body, secret))])
    conn = sqlite3.connect(c.director_db)
    try:
        kept = [row[0] for row in conn.execute(
            "SELECT deal_id FROM championship_remote_deals WHERE table_no = 1")]
    finally:
        conn.close()
    assert len(kept) == 1 and kept[0].endswith("/g1:1"), kept
    assert sum(ln.games for ln in c.director_lines()) == 2  # one deal, two players
