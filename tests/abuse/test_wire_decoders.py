"""Issue 26, findings 3 and 7: one strict decoder for every wire message.

A deal keyed by "²" ("²".isdigit() is true, int("²") fails) threw the director's whole
batch away; a malformed standings message made `table status` crash; names with terminal
escapes were printed raw. Every decoder, fed any JSON (signed with the right secret, or the
director's key for what the director says, so the shape checks are reached, not just the
signature) and any bytes, either returns its message or raises `WireError`, and what it
returns encodes back to itself.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from championship.broker.signing import DirectorSigner, DirectorVerifier
from championship.core import messages as wire
from championship.core.access import new_signing_key
from tests.profiles import scale

SECRET = "s3cret"
DIRECTOR = DirectorSigner(new_signing_key())
TABLE_HOLDS = DirectorVerifier(DIRECTOR.public)
KEYS = ["v", "table", "seq", "kind", "stage", "deal", "rev", "points", "source", "late",
        "deals", "at", "duel", "challenger", "opponent", "outcome", "winner", "stages",
        "players", "box", "event", "target", "edition", "label", "seating_id", "state",
        "ends_at_us", "left_us", "grace", "next", "refused", "qualifying", "final",
        "finalists", "rank", "number", "name", "shown"]
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=False) | st.text(max_size=12)
           | st.sampled_from(["²", "١٢", "0", "1", "flight-1", "final", "deal", "duel",
                              "status", "seating", "ack", "standings", "open", "classic",
                              "ab" * 8, "\x1b[2J", "Anna\x1b]0;x\x07"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=8), max_leaves=25)
BODIES = st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), VALUES, max_size=12)
KINDS = st.sampled_from(["deal", "duel", "status", "seating", "ack", "standings", "seen",
                         None])


def _body(body: dict[str, Any], kind: str | None) -> dict[str, Any]:
    body = {**body, "v": 1, "table": body.get("table", 1)}
    if kind is not None:
        body["kind"] = kind
    return body


def _each_decoder(payload: bytes, from_director: bytes | None = None) -> None:
    """Every decoder on the payload (the director's on `from_director`, when given): its
    message, or WireError and nothing else."""
    said = payload if from_director is None else from_director
    try:
        up = wire.decode_up(payload, SECRET)
        assert wire.decode_up(wire.encode_up(up, SECRET), SECRET) == up
    except wire.WireError:
        pass
    try:
        seating = wire.decode_seating(said, TABLE_HOLDS, 1)
        assert wire.decode_seating(wire.encode_seating(seating, DIRECTOR), TABLE_HOLDS,
                                   1) == seating
    except wire.WireError:
        pass
    try:
        ack = wire.decode_ack(said, TABLE_HOLDS, 1)
        again = wire.encode_ack(1, ack.source, ack.seq, DIRECTOR, ack.refused)
        assert wire.decode_ack(again, TABLE_HOLDS, 1) == ack
    except wire.WireError:
        pass
    try:
        standings = wire.decode_standings(payload)
        for line in standings.get("qualifying", []):
            assert line["name"].isprintable() and isinstance(line["number"], int)
    except wire.WireError:
        pass
    try:
        message = wire.decode_from_table(payload, SECRET)
        if isinstance(message, wire.Seen):
            assert wire.decode_from_table(wire.encode_seen(
                message.table, message.digest, SECRET), SECRET) == message
    except wire.WireError:
        pass
    wire.peek_table(payload)


@settings(max_examples=scale(50, 5_000), deadline=None)
@given(body=BODIES, kind=KINDS)
def test_every_decoder_takes_any_signed_json(body: dict[str, Any], kind: str | None) -> None:
    _each_decoder(wire.sign(_body(body, kind), SECRET),
                  wire.sign_director(_body(body, kind), DIRECTOR))


@settings(max_examples=scale(80, 5_000), deadline=None)
@given(payload=st.binary(max_size=400) | VALUES.map(lambda v: json.dumps(v).encode()))
def test_every_decoder_takes_any_bytes(payload: bytes) -> None:
    _each_decoder(payload)


def _deal(points: dict[str, int]) -> bytes:
    return wire.sign({"v": 1, "table": 1, "source": "ab" * 8, "seq": 1, "stage": "flight-1",
                      "kind": "deal", "deal": "g1:1", "rev": 1, "points": points}, SECRET)


def test_numbers_are_ascii_digits_only() -> None:
    for key in ("²", "١٢", "0", "01", "+1", " 1", "1 ", "1_0", "9999999"):
        try:
            wire.decode_up(_deal({key: 5}), SECRET)
        except wire.WireError:
            continue
        raise AssertionError(f"{key!r} was taken as a player number")
    assert wire.decode_up(_deal({"12": 5}), SECRET).report.points == {12: 5}  # type: ignore[union-attr]


def test_names_that_would_drive_a_terminal_are_refused() -> None:
    seating = wire.Seating(1, "Cup", "classic", 500, (wire.StageSeat(
        "flight-1", "Flight 1", 1, ((1, "Anna\x1b[2J"), (2, "Boris")),
        wire.BoxState("open", None, None, 1), None),))
    try:
        wire.decode_seating(wire.encode_seating(seating, DIRECTOR), TABLE_HOLDS, 1)
    except wire.WireError:
        pass
    else:
        raise AssertionError("a name with an escape sequence was taken")
    standings = wire.encode_standings({"qualifying": [
        {"rank": 1, "number": 1, "name": "\x1b]0;owned\x07", "shown": "1.00"}]})
    try:
        wire.decode_standings(standings)
    except wire.WireError:
        pass
    else:
        raise AssertionError("standings with an escape sequence were taken")
