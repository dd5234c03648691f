"""The director's arbitration between the agents of one table (`championship.core.agents`):
one holds the table, any other is told to stop, a take-over stops the holder once and for
all, and a table is freed by an agent that leaves, dies on its own file or goes silent."""

from __future__ import annotations

from championship.broker.signing import DirectorSigner, DirectorVerifier
from championship.core import messages as wire
from championship.core.access import new_signing_key
from championship.core.agents import GONE_AFTER_US, TableAgents

S = 1_000_000
A, B, C = "a" * 16, "b" * 16, "c" * 16
FILE_A, FILE_B = "1" * 16, "2" * 16
DIRECTOR = DirectorSigner(new_signing_key())
TABLE_HOLDS = DirectorVerifier(DIRECTOR.public)  # the public half, in a table's file


def beat(agent: str, host: str, take_over: bool = False,
         leaving: bool = False) -> wire.Heartbeat:
    return wire.Heartbeat(0, 0, agent, host, take_over, leaving)


def test_the_first_agent_holds_the_table_and_a_second_is_told_who_and_since_when() -> None:
    table = TableAgents()
    assert table.heard(beat(A, "pi-1"), FILE_A, 10 * S) == (None, None)
    assert table.heard(beat(A, "pi-1"), FILE_A, 15 * S) == (None, None)
    stop, contest = table.heard(beat(B, "laptop"), FILE_B, 16 * S)
    assert stop == wire.Stop(B, wire.STOP_HELD, A, "pi-1", 10 * S)
    assert contest is not None and (contest.why, contest.loser_host) == (wire.STOP_HELD,
                                                                         "laptop")
    stop, contest = table.heard(beat(B, "laptop"), FILE_B, 17 * S)
    assert stop is not None and contest is None  # told again, said once
    assert table.holder is not None and table.holder.agent == A


def test_a_take_over_stops_the_holder_for_good_and_cannot_be_taken_back() -> None:
    table = TableAgents()
    table.heard(beat(A, "pi-1"), FILE_A, 10 * S)
    stop, contest = table.heard(beat(B, "laptop", take_over=True), FILE_B, 20 * S)
    assert stop == wire.Stop(A, wire.STOP_TAKEN, B, "laptop", 20 * S)
    assert contest is not None and contest.why == wire.STOP_TAKEN
    # The old agent, still running a moment, even asking to take over: told again.
    for ask in (False, True):
        stop, contest = table.heard(beat(A, "pi-1", take_over=ask), FILE_A, 21 * S)
        assert stop == wire.Stop(A, wire.STOP_TAKEN, B, "laptop", 20 * S) and contest is None
    assert table.holder is not None and table.holder.agent == B


def test_a_table_is_freed_by_leaving_by_its_own_file_or_by_silence() -> None:
    table = TableAgents()
    table.heard(beat(A, "pi-1"), FILE_A, 10 * S)
    assert table.heard(beat(A, "pi-1", leaving=True), FILE_A, 11 * S) == (None, None)
    assert table.heard(beat(B, "laptop"), FILE_B, 12 * S) == (None, None)  # Ctrl-C freed it
    assert table.heard(beat(C, "laptop"), FILE_B, 13 * S) == (None, None)  # B's file: B died
    assert table.holder is not None and table.holder.agent == C
    later = 13 * S + GONE_AFTER_US + 1
    assert table.heard(beat(A, "pi-1"), FILE_A, later) == (None, None)  # C went silent
    assert table.holder is not None and table.holder.agent == A


def test_a_copy_of_the_holders_file_on_another_computer_is_a_second_agent() -> None:
    """A games file copied to a laptop (or restored from a backup) carries the holder's
    source: it must not take the table without a word, or the two would swap it on every
    heartbeat and both count."""
    table = TableAgents()
    table.heard(beat(A, "pi-1"), FILE_A, 10 * S)
    stop, contest = table.heard(beat(B, "laptop"), FILE_A, 11 * S)
    assert stop == wire.Stop(B, wire.STOP_HELD, A, "pi-1", 10 * S) and contest is not None
    assert table.holder is not None and table.holder.agent == A
    # Asked to take over, it does, and the holder is told so.
    stop, _ = table.heard(beat(C, "laptop", take_over=True), FILE_A, 12 * S)
    assert stop == wire.Stop(A, wire.STOP_TAKEN, C, "laptop", 12 * S)


def test_the_agent_and_the_stop_go_over_the_wire_signed() -> None:
    secret = "s" * 32
    up = wire.Up(3, FILE_A, 0, beat(A, "pi-1", take_over=True))
    assert wire.decode_up(wire.encode_up(up, secret), secret) == up
    stop = wire.Stop(A, wire.STOP_TAKEN, B, "laptop", 5 * S)
    payload = wire.encode_stop(3, stop, DIRECTOR)
    assert wire.is_stop(payload) and not wire.is_time(payload)
    assert wire.decode_stop(payload, TABLE_HOLDS, 3) == stop


def test_a_long_night_of_words_keeps_every_held_and_void_deal_in_the_seating() -> None:
    """A seating carries at most MAX_WORDS words; past it the restored ones are left out
    first, since the table counts a round no word mentions (right for a restored deal,
    wrong for a held or void one)."""
    words = tuple(wire.Word("flight-1", FILE_A, f"g1:{n}", state, "why", n)
                  for n, state in enumerate([wire.WORD_VOID, wire.WORD_RESTORED] * 90, 1))
    seating = wire.Seating(2, "Cup", "classic", 500, (), words)
    got = wire.decode_seating(wire.encode_seating(seating, DIRECTOR), TABLE_HOLDS, 2).words
    assert len(got) == wire.MAX_WORDS
    assert {w.deal for w in got if w.state == wire.WORD_VOID} == {
        w.deal for w in words if w.state == wire.WORD_VOID}
    assert [w.at_us for w in got] == sorted(w.at_us for w in got)  # in the director's order


def test_the_holders_token_from_another_file_neither_moves_nor_frees_the_table() -> None:
    """A stop tells the stopped agent the holder's token: sent from another games file, it
    is not the holder, whether it beats or says it leaves."""
    table = TableAgents()
    table.heard(beat(A, "pi-1"), FILE_A, 10 * S)
    for leaving in (False, True):
        impostor = beat(A, "laptop", leaving=leaving)
        assert table.impostor(impostor, FILE_B)
        assert table.heard(impostor, FILE_B, 11 * S) == (None, None)
        assert table.holder is not None and table.holder.source == FILE_A
    assert not table.impostor(beat(A, "pi-1"), FILE_A)



def test_after_the_director_starts_again_the_noted_holder_keeps_the_table() -> None:
    """The director starts again with no agent heard, but its file noted that the Pi's run
    A on file A held table 1. A second agent whose heartbeat happens to arrive first is
    refused (told who holds the table) as it would have been before the restart, and the
    Pi goes on holding it; a take-over deposes the Pi for good, as it would have."""
    table = TableAgents()
    table.resume(A, "pi-1", FILE_A, 3 * S, 10 * S)
    stop, contest = table.heard(beat(B, "laptop"), FILE_B, 11 * S)
    assert stop == wire.Stop(B, wire.STOP_HELD, A, "pi-1", 3 * S)
    assert contest is not None and contest.why == wire.STOP_HELD
    assert table.heard(beat(A, "pi-1", take_over=True), FILE_A, 12 * S) == (None, None)
    assert table.holder is not None and (table.holder.agent, table.holder.source) == (A,
                                                                                      FILE_A)

    taken = TableAgents()
    taken.resume(A, "pi-1", FILE_A, 3 * S, 10 * S)
    stop, contest = taken.heard(beat(C, "laptop", take_over=True), FILE_B, 11 * S)
    assert stop == wire.Stop(A, wire.STOP_TAKEN, C, "laptop", 11 * S)
    stop, _contest = taken.heard(beat(A, "pi-1", take_over=True), FILE_A, 12 * S)
    assert stop is not None and stop.agent == A  # no taking it back in turn
    assert taken.holder is not None and taken.holder.agent == C

    gone = TableAgents()
    gone.resume(A, "pi-1", FILE_A, 3 * S, 10 * S)
    assert gone.heard(beat(B, "laptop"), FILE_B, 10 * S + GONE_AFTER_US + 1) == (None, None)
    assert gone.holder is not None and gone.holder.agent == B


def test_a_holder_noted_without_its_token_is_known_by_its_file_and_computer() -> None:
    """A director's file noted the holder before tokens were kept: its own file on its own
    computer takes the table back without a word, another agent is refused, and a take-over
    is said once, with no stop to a token nobody has."""
    table = TableAgents()
    table.resume(None, "pi-1", FILE_A, 3 * S, 10 * S)
    stop, _contest = table.heard(beat(B, "laptop"), FILE_B, 11 * S)
    assert stop is not None and (stop.agent, stop.why, stop.host) == (B, wire.STOP_HELD, "pi-1")
    assert wire.decode_stop(wire.encode_stop(1, stop, DIRECTOR), TABLE_HOLDS, 1) == stop
    assert table.heard(beat(A, "pi-1"), FILE_A, 12 * S) == (None, None)
    assert table.holder is not None and table.holder.agent == A

    taken = TableAgents()
    taken.resume(None, "pi-1", FILE_A, 3 * S, 10 * S)
    stop, contest = taken.heard(beat(C, "laptop", take_over=True), FILE_B, 11 * S)
    assert stop is None
    assert contest is not None and (contest.why, contest.loser_host) == (wire.STOP_TAKEN,
                                                                         "pi-1")
    assert taken.holder is not None and taken.holder.agent == C
